//! Criterion benchmarks of the pipeline's stages at 11, 110, 1,100 and 11,000 devices.
//!
//! Each size is a synthetic `booths` show (`democ synth --shape booths --switches S
//! --hosts-per-switch 10 --flows 100*S --seed 1`): S switches (mixed vendors), 10 DTNs per
//! switch and 10 flows per DTN, so S = 1000 is the target show (1,000 switches,
//! 10,000 DTNs, 100,000 flows).
//!
//! Groups (one per stage; `cargo bench --bench pipeline -- check/` runs one):
//! - `parse`: spec YAML to spec types (without the fixed-size catalog);
//! - `check`: parse + resolve + derive + check, what `compile::front` does;
//! - `plan`: topology graph + flow routing + per-flow prediction, on a checked show;
//! - `lower_render`: lowering to the IR, rendering every switch, the manifest, in memory;
//! - `build`: all of `democ build` (templates, front end, lower, render) but the writes;
//!   plus `build/sc16`, the examples/sc16 show read from disk.
//!
//! Sizes above 1,000 devices take 10 samples of one or two iterations (flat sampling),
//! so the whole run takes a few minutes. `DEMOC_BENCH_MAX=1100` stops at that size.

// The allocator the binary runs with (src/main.rs), so stages cost what they cost there.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::cell::OnceCell;
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, Throughput};
use democ::api;
use democ::synth::{Params, Shape, generate};

const HOSTS_PER_SWITCH: usize = 10;
const FLOWS_PER_SWITCH: usize = 100;

struct Size {
    switches: usize,
    spec: String,
}

impl Size {
    fn new(switches: usize) -> Size {
        let spec = generate(&Params {
            shape: Shape::Booths,
            switches,
            hosts_per_switch: HOSTS_PER_SWITCH,
            flows: FLOWS_PER_SWITCH * switches,
            seed: 1,
            eos_only: false,
        });
        Size { switches, spec }
    }

    fn devices(&self) -> usize {
        self.switches * (1 + HOSTS_PER_SWITCH)
    }

    fn name(&self) -> String {
        format!("synth-{}.yaml", self.switches)
    }

    /// The show taken through the check pass. Benches that start from it compute it on
    /// first use (a filtered-out bench pays nothing) in a cell dropped before the next
    /// size: a large model kept alive fragments the heap and slows later benches by a
    /// third.
    fn check(&self) -> api::Checked {
        let c = api::check(&self.name(), self.spec.as_bytes())
            .unwrap_or_else(|e| panic!("synthetic show does not check:\n{e}"));
        let (sw, hosts, flows) = c.counts();
        assert_eq!(
            (sw, hosts, flows),
            (
                self.switches,
                self.switches * HOSTS_PER_SWITCH,
                self.switches * FLOWS_PER_SWITCH
            )
        );
        c
    }
}

/// Short runs: small sizes sample normally, large ones one iteration per sample.
fn configure(g: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>, size: &Size) {
    g.sample_size(10);
    g.throughput(Throughput::Elements(size.devices() as u64));
    if size.devices() < 1000 {
        g.sampling_mode(SamplingMode::Auto);
        g.warm_up_time(Duration::from_millis(500));
        g.measurement_time(Duration::from_secs(2));
    } else {
        g.sampling_mode(SamplingMode::Flat);
        g.warm_up_time(Duration::from_millis(1));
        g.measurement_time(Duration::from_secs(if size.devices() < 5000 {
            3
        } else {
            10
        }));
    }
}

fn parse(c: &mut Criterion, sizes: &[Size]) {
    let mut g = c.benchmark_group("parse");
    for size in sizes {
        configure(&mut g, size);
        let name = size.name();
        g.bench_with_input(BenchmarkId::from_parameter(size.devices()), size, |b, s| {
            b.iter(|| {
                let n = api::parse(&name, black_box(s.spec.as_bytes()));
                assert_eq!(n, 0);
            });
        });
    }
    g.finish();
}

fn check(c: &mut Criterion, sizes: &[Size]) {
    let mut g = c.benchmark_group("check");
    for size in sizes {
        configure(&mut g, size);
        let name = size.name();
        g.bench_with_input(BenchmarkId::from_parameter(size.devices()), size, |b, s| {
            b.iter(|| api::check(&name, black_box(s.spec.as_bytes())).expect("checks"));
        });
    }
    g.finish();
}

fn plan(c: &mut Criterion, sizes: &[Size]) {
    let mut g = c.benchmark_group("plan");
    for size in sizes {
        configure(&mut g, size);
        let cell = OnceCell::new();
        g.bench_with_input(BenchmarkId::from_parameter(size.devices()), size, |b, s| {
            let checked = cell.get_or_init(|| s.check());
            b.iter(|| {
                let p = api::plan(black_box(checked));
                assert_eq!(p.flows, s.switches * FLOWS_PER_SWITCH);
            });
        });
    }
    g.finish();
}

fn lower_render(c: &mut Criterion, sizes: &[Size]) {
    let templates = api::templates().expect("templates load");
    let mut g = c.benchmark_group("lower_render");
    for size in sizes {
        configure(&mut g, size);
        let name = size.name();
        let cell = OnceCell::new();
        g.bench_with_input(BenchmarkId::from_parameter(size.devices()), size, |b, s| {
            let checked = cell.get_or_init(|| s.check());
            b.iter(|| {
                let files = api::lower_render(black_box(checked), &templates, &name)
                    .expect("lowers and renders");
                // A config per switch (the lab adds files of its own per stand-in and
                // per vendor-OS node, so the total is not fixed), and more besides.
                assert_eq!(files.under("switches/"), s.switches);
                assert!(files.len() > 2 * s.switches);
                files
            });
        });
    }
    g.finish();
}

fn build(c: &mut Criterion, sizes: &[Size]) {
    let mut g = c.benchmark_group("build");
    let sc16 = Path::new("examples/sc16/show.yaml");
    g.sample_size(20);
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(4));
    g.bench_function("sc16", |b| {
        b.iter(|| api::build_path(black_box(sc16)).expect("sc16 builds"));
    });
    for size in sizes {
        configure(&mut g, size);
        let name = size.name();
        g.bench_with_input(BenchmarkId::from_parameter(size.devices()), size, |b, s| {
            b.iter(|| api::build(&name, black_box(s.spec.as_bytes())).expect("builds"));
        });
    }
    g.finish();
}

fn main() {
    let max: usize = std::env::var("DEMOC_BENCH_MAX")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(usize::MAX);
    let sizes: Vec<Size> = [1, 10, 100, 1000]
        .into_iter()
        .map(Size::new)
        .filter(|s| s.devices() <= max)
        .collect();
    let mut c = Criterion::default().configure_from_args();
    parse(&mut c, &sizes);
    check(&mut c, &sizes);
    plan(&mut c, &sizes);
    lower_render(&mut c, &sizes);
    build(&mut c, &sizes);
    c.final_summary();
}

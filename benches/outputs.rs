//! Criterion benchmarks of each output kind of a build, in memory, at several sizes:
//! switch configs, OpenFlow rulesets, DTN scripts, the report and the cabling plan
//! (issue 15: each must grow linearly; bench/criterion-table.py prints the exponents).
//!
//! Each size is a synthetic `booths` show of Arista EOS switches (`democ synth --shape
//! booths --switches S --hosts-per-switch 10 --flows 100*S --seed 1 --eos-only`) whose
//! switches run OpenFlow in hybrid mode, so that every flow has rules: S switches, 10 DTNs
//! per switch, 10 flows per DTN. The show is checked, lowered (with the DTNs' IR, as
//! `build --hosts`) and predicted once per size, outside the timed loop; each bench
//! times only the making of its files' text.
//!
//! Sizes 10, 30 and 100 switches (`DEMOC_BENCH_MAX=330` stops at 30). Not 1: with one
//! switch every flow stays on it and no OpenFlow rule crosses the ring, a different show
//! whose step to 10 measures the shape, not the code's growth. Not 300 or 1,000: there
//! the flows crossing a switch need more entries than an Arista table holds (E0235), a
//! true finding, so the show does not check; the pipeline bench covers those sizes.

// The allocator the binary runs with (src/main.rs), so outputs cost what they cost there.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput};
use democ::api::{self, Output};
use democ::synth::{Params, Shape, generate};

const HOSTS_PER_SWITCH: usize = 10;
const FLOWS_PER_SWITCH: usize = 100;

/// The synthetic show with every switch under the controller (in its management
/// network, so that the switches can reach it).
fn spec(switches: usize) -> String {
    let text = generate(&Params {
        shape: Shape::Booths,
        switches,
        hosts_per_switch: HOSTS_PER_SWITCH,
        flows: FLOWS_PER_SWITCH * switches,
        seed: 1,
        eos_only: true,
    });
    text.replace("10.255.255.1:6653", "10.175.255.250:6653")
        .lines()
        .map(|l| match l.strip_suffix(", os: eos }") {
            Some(head) if l.starts_with("  sw-") => {
                format!(
                    "{head}, os: eos, openflow: {{ mode: hybrid, placeholder_port_map: true }} }}\n"
                )
            }
            _ => format!("{l}\n"),
        })
        .collect()
}

struct Size {
    switches: usize,
    checked: api::Checked,
    lowered: api::Lowered,
}

impl Size {
    fn new(switches: usize) -> Size {
        let name = format!("synth-openflow-{switches}.yaml");
        let checked = api::check(&name, spec(switches).as_bytes())
            .unwrap_or_else(|e| panic!("synthetic show does not check:\n{e}"));
        let lowered = api::lower(&checked).unwrap_or_else(|e| panic!("does not lower:\n{e}"));
        assert_eq!(
            lowered.counts(),
            (switches, switches * HOSTS_PER_SWITCH),
            "every switch runs OpenFlow, every DTN has a script"
        );
        Size {
            switches,
            checked,
            lowered,
        }
    }

    fn devices(&self) -> usize {
        self.switches * (1 + HOSTS_PER_SWITCH)
    }
}

fn main() {
    let max: usize = std::env::var("DEMOC_BENCH_MAX")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(usize::MAX);
    let sizes: Vec<Size> = [10, 30, 100]
        .into_iter()
        .filter(|s| s * (1 + HOSTS_PER_SWITCH) <= max)
        .map(Size::new)
        .collect();
    let templates = api::templates().expect("templates load");
    let mut c = Criterion::default().configure_from_args();
    for (group, kind) in [
        ("configs", Output::Configs),
        ("rulesets", Output::Rulesets),
        ("host_scripts", Output::HostScripts),
        ("report", Output::Report),
        ("cabling", Output::Cabling),
    ] {
        let mut g = c.benchmark_group(group);
        for size in &sizes {
            g.sample_size(10);
            g.throughput(Throughput::Elements(size.devices() as u64));
            if size.devices() < 1000 {
                g.sampling_mode(SamplingMode::Auto);
                g.warm_up_time(Duration::from_millis(300));
                g.measurement_time(Duration::from_secs(1));
            } else {
                g.sampling_mode(SamplingMode::Flat);
                g.warm_up_time(Duration::from_millis(1));
                g.measurement_time(Duration::from_secs(3));
            }
            g.bench_with_input(BenchmarkId::from_parameter(size.devices()), size, |b, s| {
                b.iter(|| {
                    let (files, bytes) =
                        api::output(&s.checked, black_box(&s.lowered), &templates, kind)
                            .expect("renders");
                    assert!(files > 0 && bytes > 0, "{group}: nothing made");
                    (files, bytes)
                });
            });
        }
        g.finish();
    }
    c.final_summary();
}

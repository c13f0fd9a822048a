//! Property tests of the prediction over synthetic shows of random size and shape:
//! a prediction never exceeds its demand; the load reported on a link is the sum of the
//! pairs routed over it; adding capacity to a link never lowers any prediction.

use proptest::prelude::*;

use super::CheckInput;
use super::load::Res;
use super::predict::plan;
use crate::compile::{Input, Options, Session, ShowModel, front};
use crate::derive::paths::Via;
use crate::spec::units::Rate;
use crate::synth::{Params, Shape, generate};

fn build(p: &Params) -> Option<ShowModel> {
    let text = generate(p);
    let mut s = Session::default();
    front(
        Input::Bytes {
            name: "synth.yaml",
            bytes: text.as_bytes(),
        },
        &Options::default(),
        &mut s,
    )
    .ok()
    .flatten()
}

fn params() -> impl Strategy<Value = Params> {
    (
        prop_oneof![
            Just(Shape::Ring),
            Just(Shape::LeafSpine),
            Just(Shape::Booths)
        ],
        2usize..12,
        1usize..4,
        1usize..40,
        any::<u64>(),
    )
        .prop_map(|(shape, switches, hosts_per_switch, flows, seed)| Params {
            shape,
            switches,
            hosts_per_switch,
            flows,
            seed,
            eos_only: false,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn prediction_never_exceeds_demand(p in params()) {
        let Some(f) = build(&p) else { return Ok(()) };
        let cx = CheckInput::new(&f).expect("physics");
        let (plan, _) = plan(&cx);
        for fp in &plan.flows {
            prop_assert!(fp.predicted_gbps <= fp.demand_gbps * (1.0 + 1e-9), "{} predicted {} > demand {}", fp.name, fp.predicted_gbps, fp.demand_gbps);
            prop_assert!(fp.predicted_gbps >= 0.0);
        }
    }

    #[test]
    fn link_load_is_the_sum_of_its_flows(p in params()) {
        let Some(f) = build(&p) else { return Ok(()) };
        let cx = CheckInput::new(&f).expect("physics");
        let (plan, _) = plan(&cx);
        let mut sums: std::collections::BTreeMap<Res, f64> = Default::default();
        for (flow, routes) in f.model.flows.iter().zip(&f.routes.flows) {
            for pr in &routes.pairs {
                for h in &pr.hops {
                    let fwd = super::load::forward(&f.model, h.via, h.from);
                    let r = match h.via { Via::Link(l) => Res::Link(l, fwd), Via::Lag(g) => Res::Lag(g, fwd) };
                    *sums.entry(r).or_insert(0.0) += flow.pair_rate().gbps();
                }
            }
        }
        prop_assert_eq!(sums.len(), plan.links.len());
        for (r, u) in &plan.links {
            let expect = sums.get(r).copied().unwrap_or(-1.0);
            prop_assert!((u.load_gbps - expect).abs() < 1e-6 * expect.max(1.0), "{}: reported {} summed {}", u.link, u.load_gbps, expect);
        }
    }

    #[test]
    fn more_capacity_never_lowers_a_prediction(p in params(), pick in any::<prop::sample::Index>(), factor in 1.5f64..8.0) {
        let Some(mut f) = build(&p) else { return Ok(()) };
        if f.model.links.is_empty() { return Ok(()) }
        let before: Vec<f64> = { let cx = CheckInput::new(&f).expect("physics"); plan(&cx).0.flows.iter().map(|x| x.predicted_gbps).collect() };
        let k = pick.index(f.model.links.len());
        let c = f.model.links[k].capacity;
        f.model.links[k].capacity = Rate(c.bps() * factor);
        let cx = CheckInput::new(&f).expect("physics");
        let after: Vec<f64> = plan(&cx).0.flows.iter().map(|x| x.predicted_gbps).collect();
        for (i, (b, a)) in before.iter().zip(&after).enumerate() {
            prop_assert!(*a >= b - 1e-9 * b.max(1.0), "flow {i}: {b} before, {a} after raising link {k}");
        }
    }
}

//! A flow's prediction and a link's use serialized with their keys sorted, as a
//! `serde_json::Value` of them prints, but straight into the output: building a `Value`
//! (a `BTreeMap` and a `String` per key and per text) for each of 100,000 flows was most
//! of the time `plan.json` took. The field lists here must follow the structs' serde
//! names; `tests::same_as_values` holds them to it.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use crate::check::predict::{FlowPrediction, Limit, LinkUse};

/// A flow's prediction, keys sorted.
pub(crate) struct Flow<'a>(pub(crate) &'a FlowPrediction);

impl Serialize for Flow<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let f = self.0;
        let mut m = ser.serialize_map(Some(14))?;
        m.serialize_entry("bottleneck", &Sorted(&f.bottleneck))?;
        m.serialize_entry("demand_gbps", &f.demand_gbps)?;
        m.serialize_entry("expect_infeasible", &f.expect_infeasible)?;
        m.serialize_entry("feasible", &f.feasible)?;
        m.serialize_entry("limits", &Limits(&f.limits))?;
        m.serialize_entry("name", &f.name)?;
        m.serialize_entry("needs_rules", &f.needs_rules)?;
        m.serialize_entry("numa_remote", &f.numa_remote)?;
        m.serialize_entry("pairs", &f.pairs)?;
        m.serialize_entry("path", &f.path)?;
        m.serialize_entry("predicted_gbps", &f.predicted_gbps)?;
        m.serialize_entry("protocol", f.protocol)?;
        m.serialize_entry("rtt_ms", &f.rtt_ms)?;
        m.serialize_entry("streams_per_pair", &f.streams_per_pair)?;
        m.end()
    }
}

/// A limit, keys sorted (`fix` only when there is one, as `skip_serializing_if` has it).
struct Sorted<'a>(&'a Limit);

impl Serialize for Sorted<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let l = self.0;
        let mut m = ser.serialize_map(Some(3 + usize::from(l.fix.is_some())))?;
        if let Some(fix) = &l.fix {
            m.serialize_entry("fix", fix)?;
        }
        m.serialize_entry("gbps", &l.gbps)?;
        m.serialize_entry("kind", &l.kind)?;
        m.serialize_entry("why", &*l.why)?;
        m.end()
    }
}

struct Limits<'a>(&'a [Limit]);

impl Serialize for Limits<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let mut s = ser.serialize_seq(Some(self.0.len()))?;
        for l in self.0 {
            s.serialize_element(&Sorted(l))?;
        }
        s.end()
    }
}

/// A link direction's use, keys sorted, its flows by name (`names` maps a flow's index).
pub(crate) struct Link<'a, F> {
    pub(crate) link: &'a LinkUse,
    pub(crate) names: F,
}

impl<'a, F: Fn(usize) -> Option<&'a str>> Serialize for Link<'a, F> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let u = self.link;
        let mut m = ser.serialize_map(Some(6))?;
        m.serialize_entry("capacity_gbps", &u.capacity_gbps)?;
        m.serialize_entry("direction", &u.direction)?;
        m.serialize_entry("flows", &Names(self))?;
        m.serialize_entry("link", &u.link)?;
        m.serialize_entry("load_gbps", &u.load_gbps)?;
        m.serialize_entry("utilization_pct", &u.utilization_pct)?;
        m.end()
    }
}

/// The names of a link's flows, those that have one.
struct Names<'b, 'a, F>(&'b Link<'a, F>);

impl<'a, F: Fn(usize) -> Option<&'a str>> Serialize for Names<'_, 'a, F> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let link = self.0;
        let names = || link.link.flows.iter().filter_map(|&i| (link.names)(i));
        let mut s = ser.serialize_seq(Some(names().count()))?;
        for n in names() {
            s.serialize_element(n)?;
        }
        s.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::predict::LimitKind;

    fn pretty<T: Serialize>(v: &T) -> String {
        let mut out = Vec::new();
        let mut ser = serde_json::Serializer::pretty(&mut out);
        v.serialize(&mut ser).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn limit(fix: Option<&str>, gbps: f64) -> Limit {
        Limit {
            kind: LimitKind::Lag,
            gbps,
            why: "a \"quoted\"\nwhy".into(),
            fix: fix.map(str::to_owned),
        }
    }

    /// Written in place, a flow and a link print as their `Value`s do (the reference:
    /// serde's derived order, sorted by `serde_json`'s map).
    #[test]
    fn same_as_values() {
        let mut f = FlowPrediction {
            name: "f-1".into(),
            protocol: "tcp",
            pairs: 2,
            streams_per_pair: 3,
            demand_gbps: 10.0,
            predicted_gbps: 9.5,
            feasible: true,
            expect_infeasible: false,
            bottleneck: limit(Some("fix it"), 1.25),
            limits: vec![limit(None, f64::NAN), limit(Some("x"), f64::INFINITY)],
            rtt_ms: 0.006,
            path: vec!["a".into(), "b".into()],
            numa_remote: Some("drives and a NIC"),
            needs_rules: vec!["sw".into()],
        };
        for _ in 0..2 {
            let want = pretty(&serde_json::to_value(&f).unwrap());
            assert_eq!(pretty(&Flow(&f)), want);
            f.bottleneck.fix = None;
            f.limits.clear();
            f.path.clear();
            f.numa_remote = None;
        }
        let u = LinkUse {
            link: "a:p0 -> b:1/1".into(),
            direction: "a->b".into(),
            load_gbps: 3.0,
            capacity_gbps: 100.0,
            utilization_pct: 3.0,
            flows: vec![0, 7, 1],
        };
        let names = ["x", "y"];
        let link = Link {
            link: &u,
            names: |i: usize| names.get(i).copied(),
        };
        let mut want = serde_json::to_value(&u).unwrap();
        want["flows"] = serde_json::json!(["x", "y"]);
        assert_eq!(pretty(&link), pretty(&want));
    }
}

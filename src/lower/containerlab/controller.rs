//! The OpenFlow controller on the lab's management network: at each address the
//! switches dial, the node already there (a host declared at it) or one of its own,
//! with the build's rulesets and `openflow/odl/push.sh` bound.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

use crate::ir::lab::Node;
use crate::spec::addr::Prefix;
use crate::vendor::Vendors;

/// Where the controller's container sees the build's openflow/ folder.
pub(crate) const OPENFLOW: &str = "/democ/openflow";

/// Adds or marks the controller nodes; returns the notes on them.
pub(crate) fn place(
    v: &Vendors,
    switches: &[crate::ir::Switch],
    pool: Option<Prefix>,
    nodes: &mut BTreeMap<String, Node>,
) -> Vec<String> {
    let addresses: BTreeSet<&str> = switches
        .iter()
        .filter_map(|s| s.openflow.as_ref())
        .map(|o| o.controller.address.as_str())
        .collect();
    let mut notes = Vec::new();
    let Some(pool) = pool else {
        return notes;
    };
    let bind = format!("../openflow:{OPENFLOW}:ro");
    for (k, a) in addresses.iter().enumerate() {
        if !a.parse::<Ipv4Addr>().is_ok_and(|a| pool.contains(a)) {
            notes.push(format!(
                "The controller {a} is not on the management network (`addressing.mgmt`): the lab has no node for it."
            ));
            continue;
        }
        let holder = nodes
            .iter_mut()
            .find(|(_, n)| n.mgmt_ipv4.as_deref() == Some(*a));
        let name = match holder {
            Some((name, node)) => {
                node.binds.push(bind.clone());
                node.labels
                    .insert("democ.controller".into(), "openflow".into());
                name.clone()
            }
            None => {
                let mut name = "controller".to_owned();
                if k > 0 || nodes.contains_key(&name) {
                    name = format!("controller-{}", a.replace('.', "-"));
                }
                let node = Node {
                    kind: v.lab.controller.kind.clone(),
                    image: v.lab.controller.image.clone(),
                    startup_config: None,
                    mgmt_ipv4: Some((*a).to_owned()),
                    labels: BTreeMap::from([
                        ("democ.role".to_owned(), "controller".to_owned()),
                        ("democ.controller".to_owned(), "openflow".to_owned()),
                    ]),
                    binds: vec![bind.clone()],
                    exec: Vec::new(),
                };
                nodes.insert(name.clone(), node);
                name
            }
        };
        notes.push(format!(
            "`{name}` is the OpenFlow controller ({a}), with the build's openflow/ at {OPENFLOW}: to program the switches through OpenDaylight, run it there (image `{}`, yours to provide) and `ODL_URL=http://{a}:8181 sh {OPENFLOW}/odl/push.sh put <switch>`. Without it the stand-ins load their rulesets with ovs-ofctl, as the twin does.",
            v.lab.controller.image
        ));
    }
    notes
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use crate::ir::lab::Node;
    use crate::spec::addr::Prefix;
    use crate::vendor::vendors;

    fn node(mgmt: &str) -> Node {
        Node {
            kind: "linux".into(),
            image: "democ-lab-node:1".into(),
            startup_config: None,
            mgmt_ipv4: Some(mgmt.into()),
            labels: BTreeMap::new(),
            binds: Vec::new(),
            exec: Vec::new(),
        }
    }

    /// The render fixture's switches dial 10.0.0.10: on a pool holding it, the lab gets a
    /// controller node there, or the node already there becomes it.
    #[test]
    fn the_controller_address_gets_a_node_or_marks_the_one_there() {
        let (_, lab) = crate::testkit::render_fixture();
        let v = vendors().expect("vendor data");
        let pool = Some(Prefix {
            addr: "10.0.0.0".parse().expect("address"),
            len: 24,
        });
        let mut nodes = BTreeMap::from([("dtn-a".to_owned(), node("10.0.0.20"))]);
        let notes = super::place(v, &lab.switches, pool, &mut nodes);
        let c = &nodes["controller"];
        assert_eq!(c.image, v.lab.controller.image);
        assert_eq!(c.mgmt_ipv4.as_deref(), Some("10.0.0.10"));
        assert_eq!(c.binds, ["../openflow:/democ/openflow:ro"]);
        assert!(notes[0].contains("push.sh put"), "{notes:?}");

        let mut nodes = BTreeMap::from([("odl".to_owned(), node("10.0.0.10"))]);
        super::place(v, &lab.switches, pool, &mut nodes);
        assert_eq!(nodes.len(), 1);
        assert_eq!(nodes["odl"].binds, ["../openflow:/democ/openflow:ro"]);
        assert_eq!(nodes["odl"].labels["democ.controller"], "openflow");

        // Off the management network: no node.
        let mut nodes = BTreeMap::new();
        let notes = super::place(v, &lab.switches, None, &mut nodes);
        assert!(nodes.is_empty() && notes.is_empty());
    }
}

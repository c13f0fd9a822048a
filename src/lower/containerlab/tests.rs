use super::{Plan, names};
use crate::derive::ShowModel;
use crate::ir::Lab;
use crate::resolve::model::NodeId;
use crate::vendor::vendors;

fn fixture() -> (ShowModel, Lab) {
    crate::testkit::render_fixture()
}

fn switch_id(f: &ShowModel, name: &str) -> usize {
    f.model
        .switches
        .iter()
        .position(|s| s.name.value == name)
        .expect("switch")
}

#[test]
fn kinds_and_stand_ins_follow_the_vendor_data() {
    let (_, lab) = fixture();
    let nodes = &lab.containerlab.topology.topology.nodes;
    let eos = &nodes["eos-1"];
    assert_eq!(eos.kind, "arista_ceos");
    assert_eq!(eos.startup_config.as_deref(), Some("configs/eos-1.cfg"));
    let c = &lab.containerlab.configs["lab/configs/eos-1.cfg"];
    assert_eq!(c.source, "switches/eos-1.cfg");
    assert_eq!(c.rename.as_ref().map(|r| r.1.as_str()), Some("Management0"));
    assert_eq!(nodes["os10-1"].kind, "dell_ftosv");
    for name in ["ftos-1", "ftos-2", "picos-1", "ovs-1", "onyx-1"] {
        let n = &nodes[name];
        assert_eq!(
            (n.kind.as_str(), n.startup_config.as_deref()),
            ("linux", None)
        );
        assert_eq!(n.labels["democ.role"], "stand-in", "{name}");
        // The twin's emulation of the switch, bound in and run at deploy.
        assert_eq!(n.exec[0], "sh /democ/switch.sh", "{name}");
        assert_eq!(n.binds[0], format!("nodes/{name}.sh:/democ/switch.sh:ro"));
        let script = &lab.containerlab.scripts[&format!("lab/nodes/{name}.sh")];
        assert!(
            script.contains("ovsdb-server /run/democ/db/conf.db"),
            "{script}"
        );
    }
    // The fixture's WAN: 5 us each way, after ftos-2's script.
    assert_eq!(
        nodes["ftos-2"].exec[1],
        "tc qdisc replace dev e1-32 root netem delay 5us limit 1000000"
    );
    // Onyx's LAG towards another switch is the twin's bond, on the container's names.
    let onyx = &lab.containerlab.scripts["lab/nodes/onyx-1.sh"];
    assert!(onyx.contains("add-bond l2 lag20 e1-3 e1-4"), "{onyx}");
    let dtn = &nodes["dtn-b"];
    assert_eq!(dtn.labels["democ.role"], "host");
    assert!(
        dtn.exec
            .contains(&"ip address add 10.16.0.2/16 dev p0".into())
    );
    lab.containerlab.to_yaml().expect("a consistent topology");
}

/// The containerlab rules in vendor.yaml must stay in step with the OS's own names.
#[test]
fn kind_interface_names_follow_the_os_names() {
    let (f, lab) = fixture();
    let v = vendors().expect("vendor data");
    let cabled = super::cabled(&f.model);
    let plans: Vec<Plan> = (0..f.model.switches.len())
        .map(|sw| names::plan(&f.model, v, sw, &cabled))
        .collect();
    let ifaces = names::interfaces(&f.model, v, &plans, &cabled);
    let mut checked = 0;
    for sw in &lab.switches {
        let expected = |os_name: &str| match sw.os.as_str() {
            "eos" => os_name
                .strip_prefix("Ethernet")
                .map(|n| format!("eth{}", n.replace('/', "_"))),
            "os10" => os_name
                .strip_prefix("ethernet1/1/")
                .filter(|n| !n.contains(':'))
                .map(|n| format!("eth{n}")),
            _ => None,
        };
        let id = switch_id(&f, &sw.hostname);
        for (i, iface) in sw.interfaces.iter().enumerate() {
            let (Some(_), Some(want)) = (&iface.peer, expected(&iface.name)) else {
                continue;
            };
            assert_eq!(ifaces[&(NodeId::Switch(id), i)], want, "{}", iface.name);
            checked += 1;
        }
    }
    assert!(checked >= 12, "only {checked} interfaces compared");
}

#[test]
fn a_port_the_kind_cannot_wire_makes_a_stand_in() {
    let (f, _) = fixture();
    let v = vendors().expect("vendor data");
    let sw = switch_id(&f, "os10-1");
    let mut cabled = super::cabled(&f.model);
    assert!(matches!(
        names::plan(&f.model, v, sw, &cabled),
        Plan::Kind(_)
    ));
    let sub = f.model.switches[sw].port_index["1/5:1"];
    cabled.entry(NodeId::Switch(sw)).or_default().insert(sub, 0);
    match names::plan(&f.model, v, sw, &cabled) {
        Plan::Standin(why) => assert!(why.contains("port 1/5:1"), "{why}"),
        Plan::Kind(_) => panic!("a cabled subport on dell_ftosv"),
    }
}

#[test]
fn every_node_has_a_free_management_address() {
    let (_, lab) = fixture();
    let t = &lab.containerlab.topology;
    let mgmt = t.mgmt.as_ref().expect("the fixture has a pool");
    assert_eq!(mgmt.ipv4_subnet, "192.168.16.0/24");
    // The show's management gateway (.1) is the lab's; switches are numbered after it.
    assert_eq!(mgmt.ipv4_gw.as_deref(), Some("192.168.16.1"));
    assert_eq!(
        t.topology.nodes["os10-1"].mgmt_ipv4.as_deref(),
        Some("192.168.16.2")
    );
    assert!(t.topology.nodes.values().all(|n| n.mgmt_ipv4.is_some()));
}

#[test]
fn lab_names_start_with_a_letter_or_digit() {
    assert_eq!(super::lab_name("sc16"), "sc16");
    assert_eq!(super::lab_name("_x"), "democ_x");
}

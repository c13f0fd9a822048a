//! Management that reaches (issue 34 item 5): every switch has a default route through
//! its management network's router, in a management VRF unless its OpenFlow agent needs
//! the global table (W0306); remote sites manage their switches on their own subnets
//! (W0257 when they have none); and the controller's host sets its management address.

#[path = "fixtures/render/support.rs"]
mod support;

use std::path::Path;

use support::{build, democ, example, stderr};

fn ir(out: &Path, switch: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(out.join(format!("ir/{switch}.json"))).expect("IR");
    serde_json::from_str(&text).expect("IR is JSON")
}

fn config(out: &Path, switch: &str) -> String {
    std::fs::read_to_string(out.join(format!("switches/{switch}.cfg"))).expect("config")
}

const SC16_EOS: [(&str, &str); 4] = [
    ("cit-a-arista", "192.168.16.1"),
    ("crsi-arista", "192.168.16.1"),
    ("sl-chi-sw", "172.16.5.1"),
    ("ucsd-campus-sw", "172.16.7.1"),
];

/// sc16's EOS switches have a management default route: in the global table on the two
/// that run OpenFlow with the controller out of band (a warning each), in the `MGMT` VRF
/// on the two that run none.
#[test]
fn every_arista_config_of_sc16_has_a_management_default_route() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(&example("sc16"), &out);
    for (sw, gw) in SC16_EOS {
        let cfg = config(&out, sw);
        let route = if cfg.contains("\nopenflow\n") {
            format!("ip route 0.0.0.0/0 {gw}")
        } else {
            format!("ip route vrf MGMT 0.0.0.0/0 {gw}")
        };
        assert!(
            cfg.lines().any(|l| l == route),
            "{sw} has no management default route `{route}`:\n{cfg}"
        );
    }
    // Every other OS writes its own management default route too.
    for entry in std::fs::read_dir(out.join("ir")).expect("ir/") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let sw: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let routes = sw["management"]["routes"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert!(
            routes.iter().any(|r| r["prefix"] == "0.0.0.0/0"),
            "{}: {}",
            path.display(),
            sw["management"]
        );
    }
    let c = democ(&["check", &example("sc16")]);
    let text = stderr(&c);
    for (sw, _) in SC16_EOS {
        let openflow = ["cit-a-arista", "crsi-arista"].contains(&sw);
        assert_eq!(
            text.contains(&format!("warning[W0306]: `{sw}`'s management port")),
            openflow,
            "{sw}: {text}"
        );
    }
}

/// An EOS switch without OpenFlow keeps Management1 in the management VRF (`MGMT` when
/// the show names none), its default route there, and sends its services from it.
#[test]
fn an_eos_switch_without_openflow_manages_in_the_mgmt_vrf() {
    let tmp = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        tmp.path().join("show.yaml"),
        "show:\n  name: vrf\n  addressing: { mgmt: 192.168.1.0/24 }\n  management: { gateway: 192.168.1.1 }\n  services: { ntp: [192.168.1.5] }\nsites:\n  lab: { kind: lab }\nswitches:\n  sw1: { site: lab, model: arista-7280cr-48, os: eos }\n",
    )
    .unwrap();
    let out = tmp.path().join("out");
    build(tmp.path().join("show.yaml").to_str().unwrap(), &out);
    let cfg = config(&out, "sw1");
    for want in [
        "vrf instance MGMT",
        "   vrf MGMT",
        "ip route vrf MGMT 0.0.0.0/0 192.168.1.1",
        "ntp server vrf MGMT 192.168.1.5",
    ] {
        assert!(cfg.lines().any(|l| l == want), "no `{want}` in:\n{cfg}");
    }
    assert_eq!(ir(&out, "sw1")["management"]["vrf"], "MGMT");
}

/// sc16's remote sites have management networks of their own: a PoP switch takes its
/// address there and routes through the site's router; the floor's switches keep the
/// addresses the lock gave them; and the check has nothing to say about it.
#[test]
fn remote_sites_of_sc16_manage_on_their_own_subnets() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(&example("sc16"), &out);
    let pop = config(&out, "pop-i2-sw");
    assert!(pop.contains(" ip address 172.16.1.2/24"), "{pop}");
    assert!(
        pop.contains("management route 0.0.0.0/0 172.16.1.1"),
        "{pop}"
    );
    let floor = ir(&out, "dell-z9100");
    assert_eq!(floor["management"]["address"]["cidr"], "192.168.16.4/24");
    let c = democ(&["check", &example("sc16")]);
    assert!(!stderr(&c).contains("W0257"), "{}", stderr(&c));
}

/// The controller's host sets its management address on its management port, routes
/// the remote sites' management subnets through the floor's router, and `forget`
/// removes both; in the lab containerlab addresses the port, so `tune` leaves it alone.
#[test]
fn the_controller_host_configures_its_management_address() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(&example("sc16"), &out);
    let script = out.join("hosts/cit-odl.sh");
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let o = std::process::Command::new("bash")
            .arg(&script)
            .args(args)
            .env_remove("IF_mgmt")
            .env_remove("DEMOC_LAB")
            .envs(env.iter().copied())
            .output()
            .expect("bash runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let tune = run(&["--dry-run", "tune"], &[("IF_mgmt", "eno1")]);
    for want in [
        "ip addr replace 192.168.16.100/24 dev eno1",
        "ip route replace 172.16.1.0/24 via 192.168.16.1 dev eno1",
        "ip route replace 172.16.8.0/24 via 192.168.16.1 dev eno1",
    ] {
        assert!(tune.contains(want), "no `{want}` in:\n{tune}");
    }
    let forget = run(&["--dry-run", "forget"], &[]);
    assert!(
        forget.contains("ip addr del 192.168.16.100/24 dev mgmt"),
        "{forget}"
    );
    assert!(
        forget.contains("ip route del 172.16.1.0/24 via 192.168.16.1 dev mgmt"),
        "{forget}"
    );
    let lab = run(&["--dry-run", "tune"], &[("DEMOC_LAB", "1")]);
    assert!(!lab.contains("192.168.16.100"), "{lab}");
}

/// A site's management network is checked like a pool: its router inside its subnet,
/// its switches' static addresses inside it, and no overlap with the show's pools.
#[test]
fn a_site_management_network_is_checked_like_a_pool() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let spec = tmp.path().join("show.yaml");
    std::fs::write(
        &spec,
        "show:\n  name: sites\n  addressing: { mgmt: 192.168.1.0/24 }\n  management: { gateway: 192.168.1.1 }\nsites:\n  booth: { kind: booth }\n  pop: { kind: remote, mgmt: { subnet: 192.168.1.128/25, gateway: 10.0.0.1 } }\nswitches:\n  sw1: { site: booth, model: dell-z9100-on, os: os10 }\n  sw2: { site: pop, model: dell-z9100-on, os: os10, mgmt: 192.168.2.5 }\n",
    )
    .unwrap();
    let c = democ(&["check", spec.to_str().unwrap()]);
    let text = stderr(&c);
    assert_eq!(c.status.code(), Some(1), "{text}");
    for want in [
        "error[E0108]: the `pop` mgmt pool 192.168.1.128/25 overlaps the mgmt pool 192.168.1.0/24",
        "error[E0110]: 10.0.0.1 is outside the site mgmt pool 192.168.1.128/25",
        "error[E0110]: 192.168.2.5 is outside the site mgmt pool 192.168.1.128/25",
    ] {
        assert!(text.contains(want), "no `{want}` in:\n{text}");
    }
}

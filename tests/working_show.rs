//! Issue 9 sections 1-3 on specs that reproduce the defects democ used to let through
//! silently: the configs now carry the right lines (snapshots in
//! tests/fixtures/show/snapshots) or the spec is refused with a located error.

#[path = "fixtures/render/support.rs"]
mod support;

use std::path::Path;

const DIR: &str = "tests/fixtures/show";

fn built(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    support::build(&format!("{DIR}/{name}.yaml"), &out);
    (tmp, out)
}

fn read(out: &Path, file: &str) -> String {
    std::fs::read_to_string(out.join(file)).expect("democ wrote it")
}

fn ir(out: &Path, switch: &str) -> serde_json::Value {
    serde_json::from_str(&read(out, &format!("ir/{switch}.json"))).expect("IR is JSON")
}

/// The `interface` lines and the lines of their blocks that `keep` accepts.
fn lines(text: &str, keep: impl Fn(&str) -> bool) -> String {
    let mut out = String::new();
    let mut header = None;
    for l in text.lines() {
        if l.starts_with("interface ") {
            header = Some(l);
        } else if keep(l) {
            if let Some(h) = header.take() {
                out.push_str(h);
                out.push('\n');
            }
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({ snapshot_path => "fixtures/show/snapshots", prepend_module_to_snapshot => false, omit_expression => true }, {
        insta::assert_snapshot!(name, text);
    });
}

/// `democ check` on a fixture: exit code and what it printed.
fn check(name: &str) -> (Option<i32>, String) {
    let o = support::democ(&["check", &format!("{DIR}/{name}.yaml")]);
    (o.status.code(), support::stderr(&o))
}

// ---- section 2: one MTU model ---------------------------------------------------------

/// Every cabled Dell port's frame holds the hosts' 9000-byte packets with the port's
/// header, tags and FCS.
#[test]
fn dell_wan_ports_take_frames_that_hold_the_packets() {
    let (_tmp, out) = built("mtu-wan");
    for sw in ["os10-1", "ftos-1"] {
        let ir = ir(&out, sw);
        for i in ir["interfaces"].as_array().expect("interfaces") {
            let Some(mtu) = i["mtu"].as_object() else {
                continue;
            };
            let (frame, tags) = (mtu["frame"].as_u64(), mtu["tags"].as_u64());
            let (frame, tags) = (frame.expect("frame"), tags.expect("tags"));
            assert!(
                frame >= 9000 + 14 + 4 * tags + 4,
                "{sw} {}: frame {frame} cannot hold 9000-byte packets",
                i["name"]
            );
            // Dell's `mtu` is the frame size.
            assert_eq!(mtu["set"].as_u64(), Some(frame), "{sw} {}", i["name"]);
        }
    }
    let os10 = read(&out, "switches/os10-1.cfg");
    let ftos = read(&out, "switches/ftos-1.cfg");
    for (name, text) in [("os10-1", &os10), ("ftos-1", &ftos)] {
        assert!(
            !text.contains("\n mtu 9000\n"),
            "{name} writes the IP MTU as a frame size:\n{text}"
        );
    }
    let mtus = |t: &str| {
        lines(t, |l| {
            let l = l.trim_start();
            l.starts_with("mtu ") || l.starts_with("ip mtu ")
        })
    };
    snapshot(
        "mtu-wan",
        &format!("! os10-1\n{}! ftos-1\n{}", mtus(&os10), mtus(&ftos)),
    );
}

/// A port MTU set to the circuit's IP MTU is a frame too small for its packets.
#[test]
fn a_port_mtu_equal_to_the_ip_mtu_is_refused() {
    let (code, text) = check("mtu-frame-9000");
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("[E0226]"), "{text}");
    snapshot("mtu-frame-9000", &text);
}

// ---- section 1: the control plane reaches the controller -----------------------------

/// sc16 as it was: the switches pointed at the controller's data-plane address, behind
/// an OpenFlow port, with only a management address and no route. Refused.
#[test]
fn a_controller_on_a_data_plane_address_is_refused() {
    let (code, text) = check("control-data-plane");
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("[E0250]"), "{text}");
    snapshot("control-data-plane", &text);
}

/// Out of band, at the controller host's management address, through the management
/// gateway: every OS gets its management route and points at that address.
#[test]
fn switches_reach_the_controller_out_of_band() {
    let (_tmp, out) = built("control-mgmt");
    let mut text = String::new();
    for sw in ["ftos-1", "os10-1", "eos-1", "onyx-1", "picos-1"] {
        let ir = ir(&out, sw);
        let m = &ir["management"];
        assert_eq!(m["gateway"], "192.168.16.1", "{sw}: {m}");
        assert!(!m["routes"].as_array().expect("routes").is_empty(), "{sw}");
        let cfg = read(&out, ir["config_file"].as_str().expect("file"));
        let keep: Vec<&str> = cfg
            .lines()
            .filter(|l| {
                l.contains("192.168.16.") || l.starts_with("vrf ") || l.trim() == "vrf MGMT"
            })
            .collect();
        text.push_str(&format!("! {sw}\n{}\n", keep.join("\n")));
    }
    snapshot("control-mgmt", &text);
}

/// In band through a hybrid switch's OpenFlow port: refused, naming the port.
#[test]
fn in_band_control_through_an_openflow_port_is_refused() {
    let (code, text) = check("control-inband");
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("[E0252]"), "{text}");
    assert!(text.contains("`sw1:1/1`"), "{text}");
    snapshot("control-inband", &text);
    // The same controller port on a legacy (access) link is accepted.
    let (code, text) = check("control-inband-legacy");
    assert_eq!(code, Some(0), "{text}");
}

// ---- section 3: routing that carries the flows -----------------------------------------

/// A BGP circuit that comes up and originates nothing: the flow across it has no route
/// in either direction, reported at the flow with the switch that drops its packets.
#[test]
fn a_flow_across_a_bgp_circuit_without_routes_is_refused() {
    let (code, text) = check("routes-bgp-empty");
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("[E0253]"), "{text}");
    assert!(text.contains("`sw-a` has no route"), "{text}");
    assert!(text.contains("return direction"), "{text}");
    snapshot("routes-bgp-empty", &text);
}

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
    support::block_lines(text, keep)
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

/// The BGP lines of a config: from its first prefix list to its end.
fn bgp_lines(text: &str) -> &str {
    text.find("ip prefix-list").map_or("", |i| &text[i..])
}

/// The routed version of the same two sites: each DTN on its switch's gateway subnet,
/// BGP through a transit switch of a third OS. Each gateway subnet is originated where
/// the flow needs it, every session filters both ways to exactly the subnets the flow
/// crosses it for, and each host routes the far subnet through its gateway.
#[test]
fn bgp_originates_and_filters_exactly_the_subnets_the_flows_need() {
    let (_tmp, out) = built("routes-bgp-gateway");
    let a = ir(&out, "sw-a");
    assert_eq!(a["bgp"]["networks"][0]["cidr"], "10.1.1.0/24", "{a}");
    let m = ir(&out, "sw-m");
    assert_eq!(
        m["bgp"]["networks"],
        serde_json::json!([]),
        "transit originates nothing"
    );
    let mut text = String::new();
    for sw in ["sw-a", "sw-m", "sw-b"] {
        let cfg = read(&out, &format!("switches/{sw}.cfg"));
        let gateway = lines(&cfg, |l| l.trim_start().starts_with("ip address 10.1."));
        text.push_str(&format!("==> {sw}\n{gateway}{}\n", bgp_lines(&cfg)));
    }
    for h in ["dtn-a", "dtn-b"] {
        let sh = read(&out, &format!("hosts/{h}.sh"));
        let routes: Vec<&str> = sh
            .lines()
            .filter(|l| l.contains("ip addr replace") || l.contains("ip route replace"))
            .collect();
        text.push_str(&format!("==> {h}\n{}\n", routes.join("\n")));
    }
    snapshot("routes-bgp-gateway", &text);
}

/// Take one site's gateway away: its DTN falls back to the flat DTN subnet, nothing can
/// originate it, and both directions are refused where the packets would be dropped.
#[test]
fn a_site_without_a_gateway_is_refused_in_both_directions() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let spec = std::fs::read_to_string(format!("{DIR}/routes-bgp-gateway.yaml")).expect("fixture");
    let cut = spec.replace(", gateway: 10.1.2.1/24", "");
    assert_ne!(cut, spec, "the fixture names sw-b's gateway");
    std::fs::write(tmp.path().join("show.yaml"), cut).expect("write");
    std::fs::copy(
        format!("{DIR}/catalog.yaml"),
        tmp.path().join("catalog.yaml"),
    )
    .expect("copy");
    let o = support::democ(&[
        "check",
        tmp.path().join("show.yaml").to_str().expect("utf-8"),
    ]);
    let text = support::stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(
        text.contains("`sw-a` has no route to `dtn-b` (10.16.0.1) for the forward direction"),
        "{text}"
    );
    assert!(
        text.contains("`dtn-b` has no route to `dtn-a` (10.1.1.2) for the return direction"),
        "{text}"
    );
}

// ---- section 5: RoCE lossless end to end ------------------------------------------------

/// RoCE ports are untagged, so 802.1p cannot carry the lossless class: every switch that
/// runs PFC for an RDMA flow (render fixture: OS10, EOS, Onyx) classifies DSCP 26 into
/// the PFC priority (CNPs, DSCP 48, into class 6), and both hosts of the flow trust DSCP
/// on the NIC, make that priority lossless, and mark the same ToS (RDMA-CM and perftest).
#[test]
fn roce_is_classified_by_one_dscp_scheme_from_nic_to_nic() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    support::build("tests/fixtures/render/show.yaml", &out);
    let mut text = String::new();
    for sw in ["os10-1", "eos-1", "onyx-1"] {
        let cfg = read(&out, &format!("switches/{sw}.cfg"));
        assert!(
            !cfg.contains("trust-map dot1p"),
            "{sw} still trusts 802.1p:\n{cfg}"
        );
        let keep: Vec<&str> = cfg
            .lines()
            .filter(|l| l.contains("dscp") || l.contains("trust"))
            .collect();
        assert!(!keep.is_empty(), "{sw} trusts no DSCP:\n{cfg}");
        text.push_str(&format!("==> {sw}\n{}\n", keep.join("\n")));
    }
    for h in ["dtn-a", "dtn-b"] {
        let sh = read(&out, &format!("hosts/{h}.sh"));
        let keep: Vec<&str> = sh
            .lines()
            .filter(|l| {
                l.contains("run mlnx_qos")
                    || l.contains("cma_roce_tos -d")
                    || l.contains("ib_write_bw")
            })
            .collect();
        assert!(
            keep.iter().any(|l| l.contains("--trust dscp")),
            "{h}:\n{sh}"
        );
        assert!(
            keep.iter().any(|l| l.contains("ib_write_bw -R -T 106")),
            "{h}:\n{sh}"
        );
        text.push_str(&format!("==> {h}\n{}\n", keep.join("\n")));
    }
    snapshot("roce-dscp", &text);
}

// ---- VLANs end to end: a circuit's VLAN reaches the DTNs (derive::segments) -----------

fn example(show: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    support::build(&format!("examples/{show}/show.yaml"), &out);
    (tmp, out)
}

/// The interface of `switch` named `name`: (mode, access VLAN, trunk VLANs).
fn port_vlans(out: &Path, switch: &str, name: &str) -> (String, Option<u64>, Vec<u64>) {
    let v = ir(out, switch);
    let i = v["interfaces"]
        .as_array()
        .and_then(|a| a.iter().find(|i| i["name"] == name))
        .unwrap_or_else(|| panic!("{switch} has {name}"));
    (
        i["mode"].as_str().unwrap_or("").to_owned(),
        i["access_vlan"].as_u64(),
        i["trunk_vlans"]
            .as_array()
            .map(|a| a.iter().filter_map(|x| x.as_u64()).collect())
            .unwrap_or_default(),
    )
}

/// sc16's campus flows: the campus DTN port used to be an access port in the DTN VLAN
/// (1000) while the circuit trunked only 3613, and the PoP took the booth side in VLAN
/// 1000: no VLAN carried the flow end to end (the twin's 8 failing campus rows). Now the
/// campus DTN sits in the circuit's VLAN, the PoP carries the circuit VLANs toward the
/// OpenFlow core, and the core's rules push and pop the tag where the PoP trunks several.
#[test]
fn a_circuit_vlan_reaches_the_campus_dtn_and_the_openflow_core() {
    let (_tmp, out) = example("sc16");
    assert_eq!(
        port_vlans(&out, "umich-campus-sw", "hundredGigE 1/1"),
        ("access".into(), Some(3613), vec![])
    );
    assert_eq!(
        port_vlans(&out, "umich-campus-sw", "hundredGigE 1/32"),
        ("trunk".into(), None, vec![3613])
    );
    // The PoP's dark-fiber ports toward scinet-core carry the circuits' VLANs only.
    for i in ["ethernet1/1/1", "ethernet1/1/2"] {
        let (mode, access, trunk) = port_vlans(&out, "pop-i2-sw", i);
        let carried: Vec<u64> = access.into_iter().chain(trunk).collect();
        assert!(
            !carried.is_empty() && carried.iter().all(|v| [3613, 3615].contains(v)),
            "{i}: {mode} {carried:?}"
        );
    }
    // Where the PoP trunks (tagged), scinet-core's rules match the VLAN and pop it
    // toward the booth, and push it toward the PoP.
    let flows = read(&out, "openflow/scinet-core.flows");
    let tagged: Vec<&str> = flows.lines().filter(|l| l.contains("dl_vlan=")).collect();
    assert!(!tagged.is_empty(), "{flows}");
    assert!(
        tagged.iter().all(|l| l.contains("actions=pop_vlan,")),
        "{flows}"
    );
    assert!(flows.contains("push_vlan:0x8100,set_field:"), "{flows}");
}

/// sc15's NSI circuits end on a pure OpenFlow switch: its rules must tag what they send
/// into the circuit (the campus end is a legacy trunk of the circuit VLAN) and untag what
/// comes back. They used to send untagged frames, which the trunk dropped.
#[test]
fn a_circuit_on_an_openflow_port_is_tagged_by_the_rules() {
    let (_tmp, out) = example("sc15");
    let flows = read(&out, "openflow/cit-z9100-1.flows");
    assert!(
        flows.contains("set_field:5867->vlan_vid"),
        "VLAN 1771 pushed:\n{flows}"
    );
    assert!(
        flows.contains("dl_vlan=1771"),
        "VLAN 1771 matched:\n{flows}"
    );
    assert_eq!(
        port_vlans(&out, "umich-sw", "hundredGigE 1/1"),
        ("access".into(), Some(1771), vec![])
    );
}

/// A circuit ending on an OS whose OpenFlow agent cannot set or strip VLAN tags (OS10,
/// from its guide's action table; EOS, whose 1.0 agent documents no VLAN action:
/// templates/*/vendor.yaml `openflow.profile`) is refused at the flow, by `check`
/// already; FTOS 9, whose guide does not say whether it tags an untagged frame, gets the
/// per-switch unconfirmed warning (sc16's scinet-core).
#[test]
fn vlan_tags_an_os_cannot_push_are_refused() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let run = |cmd: &str, spec: &str, dir: &str| {
        let out = tmp.path().join(dir).display().to_string();
        let args: Vec<&str> = if cmd == "build" {
            vec![cmd, spec, "-o", &out]
        } else {
            vec![cmd, spec]
        };
        let o = support::democ(&args);
        (o.status.code(), support::stderr(&o))
    };
    let (code, err) = run("build", &format!("{DIR}/vlan-tags-os10.yaml"), "out");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("error[E0301]: flow `a-to-b` needs `push_vlan` in the OpenFlow 1.3 rules of `of-1`, and `os10`'s agent does not have it"),
        "{err}"
    );
    let (code, err) = run("check", &format!("{DIR}/vlan-tags-eos.yaml"), "eos");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("error[E0301]: flow `a-to-b` needs `mod_vlan_vid` in the OpenFlow 1.0 rules of `of-1`, and `eos`'s agent does not have it"),
        "{err}"
    );
    assert!(
        err.contains("end the circuit on a switch whose agent sets and strips VLAN tags"),
        "{err}"
    );
    let (code, err) = run("build", "examples/sc16/show.yaml", "sc16");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("warning[W0305]: `scinet-core` relies on what `ftos9`'s manual does not confirm: OpenFlow 1.3 `push_vlan`"),
        "{err}"
    );
}

/// Every config line a build writes whose syntax vendor.yaml marks unconfirmed is listed
/// once per switch (W0305), never shipped silently: sc25-400g's PicOS `breakout-mode`,
/// Cumulus `8x` and OS10 `200g-2x` on the Z9432F; none on its SONiC core.
#[test]
fn unconfirmed_config_lines_are_listed_per_switch() {
    let o = support::democ(&["check", "examples/sc25-400g/show.yaml"]);
    let err = support::stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    for (switch, line) in [
        ("ucsd-as9716", "breakout `4x100G` (4x100G)"),
        ("nv-sn4700", "breakout `8x` (8x50G)"),
        ("sl-z9432", "breakout `200g-2x` (2x200G)"),
    ] {
        let warnings: Vec<&str> = err
            .lines()
            .filter(|l| l.starts_with(&format!("warning[W0305]: `{switch}` relies on")))
            .collect();
        assert_eq!(warnings.len(), 1, "{switch}: {err}");
        assert!(warnings[0].contains(line), "{switch}: {}", warnings[0]);
    }
    // SONiC on the SN5600: its port map and its 2x400G mode are the platform.json's
    // (catalog `sonic: lanes: confirmed`), so nothing is listed.
    assert!(!err.contains("warning[W0305]: `scinet-core`"), "{err}");
}

/// Lossless is a property of the path: a RoCE host's script says so only where every
/// switch on its RoCE paths trusts DSCP and pauses the class, and otherwise names the
/// switches that do not (sc16: FTOS classifies by dot1p only, PicOS has no confirmed PFC).
#[test]
fn a_roce_host_claims_lossless_only_where_every_hop_is() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let script = |spec: &str, dir: &str, host: &str| {
        let out = tmp.path().join(dir);
        let o = support::democ(&["build", "--hosts", spec, "-o", &out.display().to_string()]);
        assert_eq!(o.status.code(), Some(0), "{}", support::stderr(&o));
        std::fs::read_to_string(out.join(format!("hosts/{host}.sh"))).expect("script")
    };
    let sc16 = script("examples/sc16/show.yaml", "sc16", "cit-rdma-1");
    assert!(!sc16.contains("trusts DSCP"), "{sc16}");
    let claim = sc16
        .lines()
        .find(|l| l.contains("RoCE is NOT lossless end to end"))
        .expect("the script says the path is not lossless");
    for why in [
        "`cit-a-z9100-1`: no confirmed DSCP trust syntax on `ftos9`",
        "`sl-inventec-1`: no confirmed PFC or DSCP trust syntax on `picos`",
    ] {
        assert!(claim.contains(why), "{claim}");
    }
    // The twin's small show: f2 runs RoCE over EOS switches only, all with PFC and DSCP
    // trust.
    let eos = script("tests/fixtures/twin/show.yaml", "twin", "dtn2");
    assert!(
        eos.contains("every switch on this host's RoCE paths"),
        "{eos}"
    );
    assert!(!eos.contains("NOT lossless"), "{eos}");
}

/// No dead configuration in the shipped shows (issue 34, item 9): sc16's booth A no
/// longer trunks VLANs 1601/1602 that reach nothing nor routes an unused /31, and no
/// switch runs an OpenFlow instance without a port (FTOS still carves CAM for one).
#[test]
fn the_shipped_shows_carry_no_dead_configuration() {
    for spec in [
        "examples/sc15/show.yaml",
        "examples/sc16/show.yaml",
        "examples/sc25-400g/show.yaml",
    ] {
        let o = support::democ(&["check", spec]);
        let err = support::stderr(&o);
        assert_eq!(o.status.code(), Some(0), "{spec}: {err}");
        assert!(!err.contains("W0310"), "{spec}: {err}");
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("sc16");
    support::build("examples/sc16/show.yaml", &out);
    let cfg = read(&out, "switches/cit-a-z9100-1.cfg");
    for dead in ["Vlan 1601", "Vlan 1602", "openflow of-instance", "cam-acl"] {
        assert!(!cfg.contains(dead), "`{dead}` in cit-a-z9100-1.cfg:\n{cfg}");
    }
    for sw in ["cit-a-arista", "cit-a-sn2700"] {
        let ir = ir(&out, sw);
        let vlans: Vec<u64> = ir["vlans"]
            .as_array()
            .expect("vlans")
            .iter()
            .filter_map(|v| v["id"].as_u64())
            .collect();
        assert!(
            !vlans.contains(&1601) && !vlans.contains(&1602),
            "{sw}: {vlans:?}"
        );
    }
}

/// FTOS 9 takes an OpenFlow instance's ports only while it is shut down: democ
/// configures it `shutdown`, adds the ports, and brings it up last; and `portmode
/// hybrid` (a native VLAN's) stays off ports that are only untagged or only tagged.
#[test]
fn ftos_brings_its_openflow_instance_up_after_the_ports_join() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("sc16");
    support::build("examples/sc16/show.yaml", &out);
    let cfg = read(&out, "switches/scinet-core.cfg");
    let lines: Vec<&str> = cfg.lines().collect();
    let block = lines
        .iter()
        .position(|l| *l == "openflow of-instance 1")
        .expect("the instance");
    assert_eq!(
        lines[block + 1..]
            .iter()
            .find(|l| l.trim().ends_with("shutdown")),
        Some(&" shutdown")
    );
    let last_port = lines
        .iter()
        .rposition(|l| *l == " of-instance 1")
        .expect("ports join");
    let up = lines
        .iter()
        .rposition(|l| *l == "openflow of-instance 1")
        .expect("up");
    assert!(up > last_port, "{cfg}");
    assert_eq!(lines[up + 1], " no shutdown", "{cfg}");
    for sw in ["scinet-core", "cit-a-z9100-1", "cit-b-z9100"] {
        let cfg = read(&out, &format!("switches/{sw}.cfg"));
        assert!(!cfg.contains("portmode hybrid"), "{sw}:\n{cfg}");
    }
}

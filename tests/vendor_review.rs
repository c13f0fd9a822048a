//! Findings of the second vendor read of the sc15, sc16 and sc25-400g builds, each held
//! by a test that fails on the build before the fix.

#[path = "fixtures/render/support.rs"]
mod support;

use std::path::Path;

use support::{build, democ, example, stderr};

fn config(out: &Path, switch: &str) -> String {
    std::fs::read_to_string(out.join(format!("switches/{switch}.cfg"))).expect("config")
}

/// FTOS `stack-unit ... portmode` takes effect only after a reload (S4820T Reference
/// Guide 9.7 p.437): the lines sit in STEP 1, before the reload, with the CAM carving.
#[test]
fn ftos_port_modes_are_in_step_one_before_the_reload() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(&example("sc16"), &out);
    let cfg = config(&out, "cit-b-z9100");
    let step2 = cfg.find("! STEP 2 of 2").expect("two steps");
    let portmode = cfg
        .find(" portmode quad speed 25G")
        .expect("the 25G quad port");
    assert!(portmode < step2, "{cfg}");
    assert!(
        cfg[..step2].contains("STEP 1 of 2: OpenFlow's CAM carving and the port modes"),
        "{cfg}"
    );
    // Every unconfirmed port mode written, split or single speed, is in the W0305.
    let o = democ(&["check", &example("sc16")]);
    let err = stderr(&o);
    for (sw, mode) in [
        ("cit-b-z9100", "quad speed 25G"),
        ("umich-z9100", "single speed 40G"),
    ] {
        assert!(
            err.lines().any(|l| l.starts_with("warning[W0305]")
                && l.contains(&format!("`{sw}`"))
                && l.contains(mode)),
            "{sw}: {mode}"
        );
    }
}

/// An Onyx trunk allows every VLAN until told otherwise: each trunk starts from
/// `allowed-vlan none`, then adds its own VLANs.
#[test]
fn onyx_trunks_carry_only_their_vlans() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(&example("sc25-400g"), &out);
    let cfg = config(&out, "scinet-wan");
    let lines: Vec<&str> = cfg.lines().collect();
    let mut trunks = 0;
    for (n, l) in lines.iter().enumerate() {
        if let Some(port) = l.strip_suffix(" switchport mode trunk") {
            trunks += 1;
            let none = format!("{port} switchport trunk allowed-vlan none");
            let first_add = lines
                .iter()
                .position(|x| x.starts_with(&format!("{port} switchport trunk allowed-vlan add")))
                .expect("an add");
            let at = lines.iter().position(|x| *x == none).expect(&none);
            assert!(n < at && at < first_add, "{cfg}");
        }
    }
    assert!(trunks > 0, "{cfg}");
}

/// A breakout override's description names what the cabled subports reach; an
/// uncabled subport (shut) gets none (sc25-400g `scinet-core` 1/3:2, a SONiC port).
#[test]
fn an_uncabled_subport_has_no_description() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(&example("sc25-400g"), &out);
    let text = std::fs::read_to_string(out.join("switches/scinet-core.config_db.json"))
        .expect("config_db");
    let db: serde_json::Value = serde_json::from_str(&text).expect("json");
    let ports = db["PORT"].as_object().expect("PORT");
    let by_alias = |a: &str| {
        ports
            .values()
            .find(|p| p["alias"] == a)
            .unwrap_or_else(|| panic!("{a}"))
    };
    assert_eq!(by_alias("1/3:2")["admin_status"], "down");
    assert!(by_alias("1/3:2").get("description").is_none(), "{text}");
    assert_eq!(by_alias("1/3:1")["description"], "SCinet WAN switch");
}

/// A config no source says the model can load says so in its own first lines, not only
/// in the build's warnings: sc25-400g built with a catalog whose SN4700 lists `onyx` as
/// unconfirmed (as the SN5600's Onyx was before it moved to SONiC).
#[test]
fn a_planning_artefact_says_so_in_its_header() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let catalog = tmp.path().join("catalog");
    std::fs::create_dir(&catalog).expect("catalog dir");
    for entry in std::fs::read_dir("catalog").expect("catalog") {
        let path = entry.expect("entry").path();
        let mut text = std::fs::read_to_string(&path).expect("catalog file");
        if path.file_name().is_some_and(|n| n == "switches.yaml") {
            let at = text.find("  nvidia-sn4700:").expect("the SN4700");
            let os = at
                + text[at..]
                    .find("    os: [onyx, sonic, cumulus]\n")
                    .expect("its OS list");
            text.insert_str(os, "    os_unconfirmed: [onyx]\n");
        }
        std::fs::write(catalog.join(path.file_name().expect("name")), text).expect("copy");
    }
    let out = tmp.path().join("out");
    let o = democ(&[
        "build",
        &example("sc25-400g"),
        "--catalog",
        catalog.to_str().expect("utf-8"),
        "-o",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let head: String = config(&out, "scinet-wan")
        .lines()
        .take(4)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        head.contains("NOT TO LOAD: no source confirms `onyx` on `nvidia-sn4700`"),
        "{head}"
    );
    // and the switches whose OS is confirmed say nothing of the kind
    assert!(!config(&out, "pop-sw").contains("NOT TO LOAD"));
}

/// PicOS OVS mode sets jumbo frames through `mtu_request`, which no PicOS page confirms:
/// the switch's W0305 lists it. A W0303 about a switch whose RDMA ports are all OpenFlow
/// (no DCB written) does not speak of PFC "written here".
#[test]
fn unconfirmed_ovs_mtu_is_listed_and_no_warning_invents_pfc() {
    let o = democ(&["check", &example("sc16")]);
    let err = stderr(&o);
    let w0305 = err
        .lines()
        .find(|l| l.starts_with("warning[W0305]") && l.contains("`sl-inventec-1`"))
        .expect("sl-inventec-1's W0305");
    assert!(w0305.contains("mtu_request"), "{w0305}");
    for l in err
        .lines()
        .filter(|l| l.contains("W0303") && l.contains("`scinet-core`"))
    {
        assert!(!l.contains("written here"), "{l}");
    }
}

/// On sc16's `scinet-core` RDMA crosses only OpenFlow ports, where FTOS allows no DCB: no
/// QoS line applies there, by democ or by hand. The one warning says RoCE is not lossless
/// there; none asks the planner to configure DSCP trust on `scinet-core` by hand.
#[test]
fn no_hand_qos_is_asked_where_only_dcb_free_openflow_ports_carry_rdma() {
    let o = democ(&["check", &example("sc16")]);
    let err = stderr(&o);
    assert!(
        err.contains(
            "RDMA crosses OpenFlow port(s) `hundredGigE 1/3`, `hundredGigE 1/6` of `scinet-core`"
        ),
        "{err}"
    );
    assert!(
        !err.contains("RDMA crosses `scinet-core`, but democ has no confirmed"),
        "{err}"
    );
    assert!(!err.contains("by hand on `scinet-core`"), "{err}");
    // Where legacy ports carry it, the warning stays (cit-a-z9100-1).
    assert!(
        err.contains("RDMA crosses `cit-a-z9100-1`, but democ has no confirmed `ftos9` syntax"),
        "{err}"
    );
}

//! `democ check` on MTUs: host MTUs above a hop's, switch frames too small for the hosts'
//! packets, host MTUs above their NIC's maximum.

#[path = "fixtures/check/support.rs"]
mod support;

#[test]
fn path_mtu() {
    support::expect("mtu-path", 1, &["E0225"]);
}

#[test]
fn frame_mtu() {
    support::expect("mtu-frame", 1, &["E0226", "E0113"]);
}

/// A path narrower than the hosts' MTU is not predicted at full rate beside E0225: the
/// hosts' packets are dropped (a path-MTU black hole), and the plan says so (issue 13 §3).
#[test]
fn a_narrow_path_is_predicted_as_a_black_hole() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_democ"))
        .args(["plan", "tests/bad/E0225-path-mtu.yaml", "--format", "json"])
        .output()
        .expect("democ runs");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("plan JSON");
    let f = &v["flows"][0];
    assert_eq!(f["predicted_gbps"].as_f64(), Some(0.0), "{f}");
    assert_eq!(f["bottleneck"]["kind"], "mtu", "{f}");
    let why = f["bottleneck"]["why"].as_str().unwrap_or("");
    assert!(why.contains("black hole") && why.contains("1500"), "{why}");
}

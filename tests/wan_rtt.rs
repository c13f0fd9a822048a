//! A WAN link with both `rtt_ms` and `length_km` (issue 13, section 5): the declared RTT
//! is the link's latency, and the fiber length only checks it. democ used to add the
//! two, so this 40 ms circuit over 3,600 km of fiber came out at 76 ms.

use std::process::Command;

fn plan_rtt_ms(spec: &str) -> f64 {
    let out = Command::new(env!("CARGO_BIN_EXE_democ"))
        .args(["plan", spec, "--format", "json"])
        .output()
        .expect("democ runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("plan is JSON");
    v["flows"][0]["rtt_ms"].as_f64().expect("rtt_ms")
}

#[test]
fn the_declared_rtt_is_the_latency_not_rtt_plus_fiber() {
    let rtt = plan_rtt_ms("tests/fixtures/wan_rtt/show.yaml");
    // 40 ms of circuit plus the per-hop latency of two switches (1 us each way each).
    assert!((40.0..40.1).contains(&rtt), "path RTT {rtt} ms");
}

#[test]
fn an_rtt_within_the_margin_of_the_fiber_is_not_warned() {
    let out = Command::new(env!("CARGO_BIN_EXE_democ"))
        .args(["check", "tests/fixtures/wan_rtt/show.yaml"])
        .output()
        .expect("democ runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("W0232"), "{err}");
}

//! Inline boxes democ does not configure (issue 13 §4): a box's throughput caps the link
//! it sits on (and the plan names it), its latency adds to the RTT, its MTU bounds the
//! path (E0225 at the box, tests/bad), a stateful one in a flow's path is W0259. Before,
//! the spec could not say a box was there.

mod common;

use std::path::Path;

fn plan() -> serde_json::Value {
    let run = common::democ_bounded(
        Some(Path::new(env!("CARGO_MANIFEST_DIR"))),
        &[
            "plan",
            "tests/fixtures/middlebox/show.yaml",
            "--format",
            "json",
        ],
    );
    serde_json::from_str(&run.stdout).expect("plan json")
}

#[test]
fn a_firewall_caps_the_flow_and_is_named_as_its_bottleneck() {
    let v = plan();
    let f = &v["flows"][0];
    let g = f["predicted_gbps"].as_f64().expect("number");
    // 40 Gbit/s of firewall, at 99 % payload for TCP at MTU 8,900.
    assert!((39.0..40.0).contains(&g), "{f}");
    let why = f["bottleneck"]["why"].as_str().unwrap_or("");
    assert!(why.contains("through firewall `fw1`"), "{why}");
}

#[test]
fn the_boxes_latency_adds_to_the_round_trip() {
    let v = plan();
    let rtt = v["flows"][0]["rtt_ms"].as_f64().expect("number");
    // The circuit's 10 ms, twice the boxes' 150 + 20 us, and a few microseconds of
    // switch hops.
    assert!((10.34..10.36).contains(&rtt), "{rtt}");
}

#[test]
fn an_encryptors_overhead_takes_its_share_of_the_circuit() {
    let v = plan();
    let wan = v["links"]
        .as_array()
        .expect("links")
        .iter()
        .find(|l| {
            l["link"]
                .as_str()
                .unwrap_or("")
                .contains("encryptor `crypt1`")
        })
        .expect("the circuit is listed with its box");
    let cap = wan["capacity_gbps"].as_f64().expect("number");
    // 100G x 8900 / (8900 + 32).
    assert!((cap - 99.64).abs() < 0.01, "{wan}");
}

#[test]
fn a_stateful_box_in_the_path_is_said() {
    let run = common::democ_bounded(
        Some(Path::new(env!("CARGO_MANIFEST_DIR"))),
        &[
            "check",
            "tests/fixtures/middlebox/show.yaml",
            "--color",
            "never",
        ],
    );
    assert!(
        run.stderr
            .contains("warning[W0259]: flow `home-run` crosses stateful firewall `fw1`"),
        "{}",
        run.stderr
    );
    // The encryptor keeps no connection state.
    assert!(!run.stderr.contains("stateful encryptor"), "{}", run.stderr);
}

//! TCP on a lossy WAN (issue 13 §3, issue 39 item 1): each congestion control's stream
//! is bound by its own model (Reno: Mathis et al.'s MSS / RTT x C / sqrt(p); CUBIC: RFC
//! 9438's response function); the prediction and the help say how many streams, or
//! which algorithm, reach the demand.

use std::process::Command;

fn plan(streams: &str, cc: &str) -> (String, String) {
    let text = std::fs::read_to_string("tests/fixtures/loss/show.yaml")
        .unwrap()
        .replace("STREAMS", streams)
        .replace("CC", cc);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("show.yaml"), text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_democ"))
        .current_dir(dir.path())
        .args(["plan", "show.yaml", "--format", "json"])
        .output()
        .expect("democ runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn predicted(json: &str) -> (f64, String, String) {
    let v: serde_json::Value = serde_json::from_str(json).expect("plan JSON");
    let f = &v["flows"][0];
    (
        f["predicted_gbps"].as_f64().unwrap(),
        f["bottleneck"]["why"].as_str().unwrap_or("").to_owned(),
        f["bottleneck"]["fix"].as_str().unwrap_or("").to_owned(),
    )
}

#[test]
fn one_reno_stream_is_bound_by_the_mathis_bound() {
    // 8948-byte segments (MTU 9000 less 52 bytes of TCP/IP headers), 50 ms, p = 1e-5:
    // 8948 x 8 / 0.05 x 1.22 / sqrt(1e-5) = 0.552 Gbit/s.
    let (out, err) = plan("1", "reno");
    let (got, why, fix) = predicted(&out);
    assert!((got - 0.552).abs() < 0.005, "predicted {got}: {err}");
    assert!(why.contains("Mathis"), "{why}");
    assert_eq!(
        fix,
        "19 reno stream(s) per pair, or `congestion_control: bbr`, reach 10G"
    );
}

/// The plan used to name cubic while computing Reno's bound. RFC 9438 section 5: CUBIC
/// averages 1.054 x RTT^0.75 / p^0.75 segments = 1.054 x 0.05^0.75 / 1e-5^0.75 = 626.7
/// at 50 ms and p = 1e-5, against Reno's 385.8: 626.7 x 8948 x 8 / 0.05 = 0.897 Gbit/s.
#[test]
fn one_cubic_stream_follows_rfc_9438_and_beats_reno_on_a_long_lossy_path() {
    let (out, err) = plan("1", "cubic");
    let (got, why, fix) = predicted(&out);
    assert!((got - 0.897).abs() < 0.005, "predicted {got}: {err}");
    assert!(why.contains("RFC 9438"), "{why}");
    assert_eq!(
        fix,
        "12 cubic stream(s) per pair, or `congestion_control: bbr`, reach 10G"
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        v["flows"][0]["loss_model"]
            .as_str()
            .unwrap()
            .starts_with("RFC 9438"),
        "{out}"
    );
    // H-TCP grows faster still a second after each loss.
    let (htcp, _) = plan("1", "htcp");
    assert!(predicted(&htcp).0 > got, "{htcp}");
}

#[test]
fn the_streams_or_algorithm_it_names_reach_the_demand() {
    for (streams, cc) in [("19", "reno"), ("12", "cubic"), ("1", "bbr")] {
        let (out, err) = plan(streams, cc);
        let (got, why, _) = predicted(&out);
        assert!(got > 9.9, "{streams} x {cc}: {got} ({why}) {err}");
    }
}

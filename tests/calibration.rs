//! democ's predictions against the measured cases in the SC15/SC16 seeds
//! (examples/calibration). Each test states the measured figure, democ's figure and the
//! tolerance; where the model cannot explain a measurement the test says so.

use std::process::Command;

fn democ(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_democ"))
        .args(args)
        .output()
        .expect("democ runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn plan(path: &str) -> serde_json::Value {
    let (code, out, err) = democ(&["plan", path, "--format", "json"]);
    assert_eq!(code, 0, "{path} must check clean:\n{err}");
    serde_json::from_str(&out).expect("plan JSON parses")
}

fn predicted(plan: &serde_json::Value, flow: &str) -> f64 {
    plan["flows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == flow)
        .unwrap_or_else(|| panic!("flow {flow}"))["predicted_gbps"]
        .as_f64()
        .unwrap()
}

fn within(predicted: f64, measured: f64, tolerance: f64) -> bool {
    ((predicted - measured) / measured).abs() <= tolerance
}

#[test]
fn one_tcp_stream_on_e5_2697_v3_reaches_68_gbps() {
    // Measured: FDT, one stream, 67.8-68.3 Gbit/s (avg 68.1). democ's per-stream figure
    // for this CPU comes from this very measurement, so this case checks that nothing
    // else on the path (NIC, PCIe Gen3 x16, 100G link, window) is predicted lower.
    let p = plan("examples/calibration/single-stream.yaml");
    let got = predicted(&p, "one-stream");
    assert!(within(got, 68.1, 0.10), "predicted {got}, measured 68.1");
}

#[test]
fn two_tcp_streams_reach_94_gbps() {
    // Measured: two streams, 93.7 Gbit/s average, peaks 94.7. democ: 2 x 68 exceeds the
    // 100GE link, whose TCP payload at MTU 9000 is 100 x 8948/9038 = 99.0 Gbit/s.
    let p = plan("examples/calibration/single-stream.yaml");
    let got = predicted(&p, "two-streams");
    assert!(within(got, 93.7, 0.10), "predicted {got}, measured 93.7");
}

fn read_with(drives_a: u32, drives_b: u32) -> f64 {
    let text = std::fs::read_to_string("examples/calibration/2crsi-24nvme.yaml").unwrap();
    let text = text
        .replace(
            "count: 12, behind: bays-0",
            &format!("count: {drives_a}, behind: bays-0"),
        )
        .replace(
            "count: 12, behind: bays-1",
            &format!("count: {drives_b}, behind: bays-1"),
        );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("2crsi.yaml");
    std::fs::write(&path, text).unwrap();
    let p = plan(path.to_str().unwrap());
    p["storage"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["host"] == "octopus")
        .unwrap()["read_gbps"]
        .as_f64()
        .unwrap()
}

#[test]
fn the_2crsi_server_stops_scaling_at_14_drives() {
    // Measured: "max throughput reached at 14 drives (7 drives per processor)", blamed on
    // the single PCIe x16 path per processor. democ: drives added alternately to the two
    // switch halves; the knee is the first count after which one more drive adds < 1%.
    // Both halves need at least one drive (a group of zero drives is an error).
    let counts: Vec<u32> = (2..=24).collect();
    let reads: Vec<f64> = counts
        .iter()
        .map(|&n| read_with(n.div_ceil(2), n / 2))
        .collect();
    let knee = (1..reads.len())
        .find(|&i| reads[i] < reads[i - 1] * 1.01)
        .map(|i| counts[i - 1])
        .expect("saturates");
    assert!(
        (13..=15).contains(&knee),
        "democ saturates at {knee} drives (reads {reads:?}), measured 14"
    );
}

#[test]
fn drives_per_nic_table_is_reproduced() {
    // The seeds' table: 10GE 1 drive, 25GE 2, 40GE 3, 50GE 4 (14.4 Gbit/s drives),
    // 80GE 3, 100GE 4 (28 Gbit/s drives). Each sink holds exactly that count: no
    // storage warning. One drive fewer: democ names the missing count.
    let (code, _, err) = democ(&[
        "check",
        "examples/calibration/drives-per-nic.yaml",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let (_, out, _) = democ(&[
        "check",
        "examples/calibration/drives-per-nic.yaml",
        "--format",
        "json",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        !doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "W0243"),
        "{out}"
    );

    let text = std::fs::read_to_string("examples/calibration/drives-per-nic.yaml").unwrap();
    let fewer = [
        ("seed-14g, count: 2", "seed-14g, count: 1"),
        ("seed-14g, count: 3", "seed-14g, count: 2"),
        ("seed-14g, count: 4", "seed-14g, count: 3"),
        ("seed-28g, count: 3", "seed-28g, count: 2"),
        ("seed-28g, count: 4, slot", "seed-28g, count: 3, slot"),
    ]
    .iter()
    .fold(text, |t, (a, b)| t.replace(a, b));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fewer.yaml");
    std::fs::write(&path, fewer).unwrap();
    let (_, out, _) = democ(&["check", path.to_str().unwrap(), "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let helps: Vec<String> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "W0243")
        .map(|d| d["help"].as_str().unwrap_or("").to_owned())
        .collect();
    for (rate, need) in [(25, 2), (40, 3), (50, 4), (80, 3), (100, 4)] {
        assert!(
            helps
                .iter()
                .any(|h| h.starts_with(&format!("{rate} Gbit/s needs {need} drives"))),
            "no `{rate} Gbit/s needs {need} drives` in {helps:?}"
        );
    }
}

#[test]
fn the_400g_pair_gap_is_known() {
    // Measured: 280 Gbit/s. With the four 100GE cards two per PCIe switch of the
    // 4028GR-TR2 (the DTN design the SC16 seed presents), democ predicts the two x16
    // uplinks' usable 2 x 113.3 = 227 Gbit/s (the PCIe DMA model: receiving NICs write
    // host memory, with their descriptor write-backs): 19% under the measurement,
    // outside the 10% goal. The seeds do not give the 400G servers' real slot layout, so this gap is
    // not explained by the model: the servers may have had a card on CPU-1's x16 slot,
    // or a larger MaxPayloadSize than the 256 B democ assumes.
    // The test pins the current figure so a model change that moves it is noticed.
    let p = plan("examples/calibration/400g-pair.yaml");
    let total: f64 = ["400g-a", "400g-b", "400g-c", "400g-d"]
        .iter()
        .map(|f| predicted(&p, f))
        .sum();
    assert!((total - 226.6).abs() < 1.0, "predicted {total}");
    assert!(
        !within(total, 280.0, 0.10),
        "the model now explains the 280 Gbit/s: update this test"
    );
}

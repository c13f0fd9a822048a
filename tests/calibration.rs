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
    // Measured: 280 Gbit/s, one way (dtn400-1 sends, dtn400-2 receives). The seeds do
    // not give the 400G servers' slot layout; the example takes the SC16 seed's DTN
    // design (SYS-4028GR-TR2) with the four 100GE cards two per PCIe switch.
    //
    // Why democ says 227 (issue 13 §5). PCIe is full duplex and democ books each
    // direction of each link on its own: the sender's NICs read the data from memory
    // (DMA reads: it travels down each switch's x16 uplink), the receiver's NICs write
    // it (up the receiver's uplinks). One-way traffic therefore loads one direction of
    // each of the four uplinks, each about 113.3 Gbit/s usable where the receiving NICs
    // write host memory (Gen3 x16, 128b/130b, MPS 256, with the DLLPs and descriptor
    // write-backs of the PCIe DMA model): two uplinks per host give 2 x 113.3 = 226.6 in
    // the receiving host's direction.
    // Duplex cannot lift it (the other directions carry only ACKs) and neither can
    // more streams (the CPU gives 2 x 68 per card).
    //
    // Why not 280. A bound a measurement beats is a wrong layout, not a loose model:
    // with two cards behind each switch no host could pass 280. So the pair did not
    // run that layout. The chassis's other root ports are one x8 on CPU-0 (slot 11,
    // 57.6 usable) and one x16 on CPU-1 (slot 12). Layouts using them give 268.7 (two
    // cards behind one switch plus slots 11 and 12, or plus the other switch and slot
    // 11, under the DMA model), 4 % under the measurement
    // (`the_400g_pair_admits_a_layout_of_the_chassis`), or 313 and more with a card on
    // each switch and slot 12 (12 % over). The seeds say none of this, and
    // fitting the layout to the figure is what the calibration must not do, so the
    // example keeps the seed's documented design and this test pins its figure. The
    // SC15 example's reading of the same pair (each host's four ports in one bond)
    // lands at 278.5 from LAG hashing alone: `the_sc15_400g_bonds_lose_to_hashing`.
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

#[test]
fn the_400g_pair_admits_a_layout_of_the_chassis() {
    // The layout the measurement allows (see above): cards in slots 1 and 2 (plx-0),
    // 11 (CPU-0 x8) and 12 (CPU-1 x16) on both hosts.
    let text = std::fs::read_to_string("examples/calibration/400g-pair.yaml").unwrap();
    let text = text
        .replace("slot: \"6\"", "slot: \"11\"")
        .replace("slot: \"7\"", "slot: \"12\"");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("400g-split.yaml");
    std::fs::write(&path, text).unwrap();
    let p = plan(path.to_str().unwrap());
    let total: f64 = ["400g-a", "400g-b", "400g-c", "400g-d"]
        .iter()
        .map(|f| predicted(&p, f))
        .sum();
    assert!((total - 268.7).abs() < 1.0, "predicted {total}");
    assert!(within(total, 280.0, 0.10), "predicted {total}");
}

#[test]
fn the_sc15_400g_bonds_lose_to_hashing() {
    // The SC15 example bonds each 400G host's four 100GE ports (one LACP LAG per host,
    // as a 400G host on 100G ports must) and lets democ choose the streams: six, for
    // the CPU (6 x 51 Gbit/s). Static hashing puts six streams on four members with
    // 3.3 of them busy on average (n(1 - (1 - 1/n)^k), issue 13 §2), so the bonds are
    // expected to carry 281 of the 400 Gbit/s: 278.5 of payload, against the 280
    // measured ("limited to 280Gbps", SC16 seed). Nothing here was fitted: the streams
    // come from the CPU figure and the members from the seed's four 100GE ports.
    let p = plan("examples/sc15/show.yaml");
    let got = predicted(&p, "net-400g");
    assert!((got - 278.5).abs() < 0.5, "predicted {got}");
    assert!(within(got, 280.0, 0.10), "predicted {got}");
}

//! The feasibility checks through the binary: each fixture under tests/fixtures/feasibility
//! runs in a feasible and an infeasible variant (a placeholder in the file is replaced);
//! the infeasible run's rendered diagnostics are snapshots.

use std::process::Command;

fn check(fixture: &str, replace: &[(&str, &str)]) -> (i32, String) {
    let path = format!("tests/fixtures/feasibility/{fixture}");
    let text = replace
        .iter()
        .fold(std::fs::read_to_string(&path).unwrap(), |t, (a, b)| {
            t.replace(a, b)
        });
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(fixture);
    std::fs::write(&file, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_democ"))
        .current_dir(dir.path())
        .args(["check", fixture, "--color", "never"])
        .output()
        .expect("democ runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn codes(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter_map(|l| {
            l.split_once('[')
                .and_then(|(_, r)| r.split_once(']'))
                .map(|(c, _)| c.to_owned())
        })
        .filter(|c| c.len() == 5)
        .collect()
}

#[test]
fn pcie_gen2_slot_caps_a_40g_nic() {
    let (code, err) = check("pcie-gen2-slot.yaml", &[("SLOT", "2")]);
    assert_eq!(code, 0, "{err}");
    assert!(!codes(&err).contains(&"W0241".into()), "{err}");
    let (code, err) = check("pcie-gen2-slot.yaml", &[("SLOT", "1")]);
    assert_eq!(code, 0, "warnings only: {err}");
    assert!(
        codes(&err).contains(&"W0241".into()) && codes(&err).contains(&"W0247".into()),
        "{err}"
    );
    // The help names the free slot where the NIC's 40G fits: the one the first run used.
    assert!(
        err.contains("move the card to free slot `2` (PCIe 3.0 x8)"),
        "{err}"
    );
    insta::assert_snapshot!("pcie_gen2_slot", err);
}

#[test]
fn lanes_beyond_the_cpu_and_dead_slots_are_errors() {
    let (code, err) = check("lanes.yaml", &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        codes(&err).iter().filter(|c| *c == "E0240").count(),
        2,
        "{err}"
    );
    insta::assert_snapshot!("lanes", err);
}

#[test]
fn oversubscribed_link_is_an_error_and_nearly_full_a_warning() {
    let (code, err) = check("capacity.yaml", &[("RATE", "40G")]);
    assert_eq!(code, 0, "{err}");
    assert!(codes(&err).is_empty(), "{err}");
    let (code, err) = check("capacity.yaml", &[("RATE", "47G")]);
    assert_eq!(code, 0, "{err}");
    assert!(codes(&err).contains(&"W0246".into()), "{err}");
    let (code, err) = check("capacity.yaml", &[("RATE", "60G")]);
    assert_eq!(code, 1, "{err}");
    assert!(codes(&err).contains(&"E0245".into()), "{err}");
    insta::assert_snapshot!("oversubscribed", err);
}

#[test]
fn missing_drives_are_counted() {
    let (code, err) = check("storage.yaml", &[("DRIVES", "6")]);
    assert_eq!(code, 0, "{err}");
    assert!(!codes(&err).contains(&"W0243".into()), "{err}");
    let (_, err) = check("storage.yaml", &[("DRIVES", "2")]);
    assert!(codes(&err).contains(&"W0243".into()), "{err}");
    assert!(
        err.contains("add 4 drives"),
        "80G at 14 Gbit/s per drive needs 6: {err}"
    );
    insta::assert_snapshot!("storage", err);
}

#[test]
fn nic_and_drives_on_different_sockets_is_a_numa_warning() {
    let (_, err) = check("numa.yaml", &[("NICSLOT", "1")]);
    assert!(!codes(&err).contains(&"W0242".into()), "{err}");
    let (code, err) = check("numa.yaml", &[("NICSLOT", "2")]);
    assert_eq!(code, 0, "{err}");
    assert!(codes(&err).contains(&"W0242".into()), "{err}");
    insta::assert_snapshot!("numa", err);
}

#[test]
fn a_single_stream_uses_one_lag_member() {
    // Enough streams for hashing to spread 90G over 4 x 25G; four streams collide
    // (about 2.7 members busy, issue 13 §2).
    let (_, err) = check("lag-hashing.yaml", &[("STREAMS", "128")]);
    assert!(!err.contains("hashes"), "{err}");
    let (_, err) = check("lag-hashing.yaml", &[("STREAMS", "4")]);
    assert!(
        err.contains("port-channel 1 hashes 4 streams onto 4 members: 2.7 busy on average"),
        "{err}"
    );
    let (code, err) = check("lag-hashing.yaml", &[("STREAMS", "1")]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("hashes 1 stream(s) onto at most 1 of its 4 members"),
        "{err}"
    );
    assert!(
        codes(&err).contains(&"W0244".into()),
        "one stream cannot carry 90G: {err}"
    );
    insta::assert_snapshot!("lag_hashing", err);
}

#[test]
fn unroutable_flows_are_located() {
    let (code, err) = check("no-path.yaml", &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        codes(&err).iter().filter(|c| *c == "E0201").count(),
        2,
        "{err}"
    );
    insta::assert_snapshot!("no_path", err);
}

#[test]
fn a_finding_on_a_host_range_names_the_range_and_its_size() {
    let (code, err) = check("host-range.yaml", &[]);
    assert_eq!(code, 0, "warnings only: {err}");
    assert!(err.contains("`old-[1-4]` (4 hosts) slot 1"), "{err}");
    assert!(!err.contains("`old-1`"), "{err}");
    insta::assert_snapshot!("host_range", err);
}

#[test]
fn a_bottleneck_tie_names_every_limit_that_binds() {
    let out = Command::new(env!("CARGO_BIN_EXE_democ"))
        .args(["plan", "tests/fixtures/feasibility/bottleneck-tie.yaml"])
        .output()
        .expect("democ runs");
    let plan = String::from_utf8_lossy(&out.stdout);
    let row = plan
        .lines()
        .find(|l| l.starts_with("over-lag"))
        .unwrap_or_else(|| panic!("no row for the flow:\n{plan}"));
    assert!(row.contains("port-channel 1 hashes 1 stream(s)"), "{row}");
    assert!(row.contains("h-2:p0 <- sw-2:1/1:1 carries 10G"), "{row}");
}

#[test]
fn ten_single_streams_keep_six_and_a_half_of_ten_members_busy() {
    let (code, err) = check("lag-ten.yaml", &[]);
    assert_eq!(code, 0, "warnings only: {err}");
    assert!(codes(&err).contains(&"W0248".into()), "{err}");
    assert!(
        err.contains(
            "port-channel 7 hashes 10 streams onto 10 members: 6.5 busy on average, expected 651.3"
        ),
        "{err}"
    );
    assert!(err.contains("predicted to reach 645.4 of 1000.0"), "{err}");
    insta::assert_snapshot!("lag_ten", err);
}

#[test]
fn the_switchs_hash_fields_decide_what_is_hashed() {
    // Hashing on addresses and L4 ports: the 32 streams spread, no warning.
    let (code, err) = check("lag-hash-fields.yaml", &[("FIELDS", "l3-l4")]);
    assert_eq!(code, 0, "{err}");
    assert!(!codes(&err).contains(&"W0248".into()), "{err}");
    // On the addresses only: the four pairs are what is hashed (k counts pairs).
    let (code, err) = check("lag-hash-fields.yaml", &[("FIELDS", "l3")]);
    assert_eq!(code, 0, "warnings only: {err}");
    assert!(
        err.contains("port-channel 7 hashes 4 pairs onto 4 members: 2.7 busy on average"),
        "{err}"
    );
    assert!(err.contains("predicted to reach 237.3 of 320.0"), "{err}");
    insta::assert_snapshot!("lag_hash_fields", err);
}

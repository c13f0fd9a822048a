//! Shows that could not be written before issue 39 (its "format gaps"): each spec here
//! checks clean, is predicted over what it declares, and builds what it needs.

mod common;

fn democ(args: &[&str]) -> (i32, String, String) {
    let r = common::democ_in(None, args, common::HANG);
    (r.code, r.stdout, r.stderr)
}

fn plan(path: &str) -> serde_json::Value {
    let (code, out, err) = democ(&["plan", path, "--format", "json"]);
    assert_eq!(code, 0, "{path} must check clean:\n{err}");
    serde_json::from_str(&out).expect("plan JSON parses")
}

fn flow<'a>(plan: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    plan["flows"]
        .as_array()
        .expect("flows")
        .iter()
        .find(|f| f["name"] == name)
        .unwrap_or_else(|| panic!("flow {name}"))
}

/// The `why` of every limit of a flow of the kind given.
fn limits(f: &serde_json::Value, kind: &str) -> Vec<String> {
    f["limits"]
        .as_array()
        .expect("limits")
        .iter()
        .filter(|l| l["kind"] == kind)
        .map(|l| l["why"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// Builds a spec with host scripts into a fresh folder.
fn build(spec: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    let (code, _, err) = democ(&[
        "build",
        spec,
        "-o",
        out.to_str().expect("utf-8"),
        "--hosts",
        "--no-lock",
    ]);
    assert_eq!(code, 0, "{spec} must build:\n{err}");
    dir
}

fn read(dir: &tempfile::TempDir, file: &str) -> String {
    std::fs::read_to_string(dir.path().join("out").join(file))
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn two_hosts_cabled_back_to_back_are_a_path() {
    let p = plan("examples/gaps/direct-pair.yaml");
    let f = flow(&p, "back-to-back");
    assert_eq!(f["predicted_gbps"], 90.0);
    assert_eq!(f["path"].as_array().map(Vec::len), Some(0), "no switch");
    // Every limit of both ends counts: the cable, each host's slot, the sender's CPU.
    assert_eq!(
        limits(f, "link"),
        ["dtn-1:p0 -> dtn-2:p0 carries 100G (99.0% payload at MTU 9000)"]
    );
    let pcie = limits(f, "pcie");
    assert!(
        pcie.iter().any(|w| w.starts_with("`dtn-1` slot 2")),
        "{pcie:?}"
    );
    assert!(
        pcie.iter().any(|w| w.starts_with("`dtn-2` slot 2")),
        "{pcie:?}"
    );
    assert_eq!(limits(f, "cpu").len(), 1);

    let b = build("examples/gaps/direct-pair.yaml");
    let s1 = read(&b, "hosts/dtn-1.sh");
    assert!(
        s1.contains("ip link set dev \"$IF_p0\" mtu 9000 up"),
        "{s1}"
    );
    assert!(s1.contains("ip addr replace 10.1.1.1/24 dev \"$IF_p0\""));
    assert!(s1.contains("iperf3 -c 10.1.1.2 -p 5201 -B 10.1.1.1 -P 2"));
    let s2 = read(&b, "hosts/dtn-2.sh");
    assert!(s2.contains("ip addr replace 10.1.1.2/24 dev \"$IF_p0\""));
    // The twin joins the two hosts by the peer the IR names.
    let ir: serde_json::Value =
        serde_json::from_str(&read(&b, "ir/hosts/dtn-1.json")).expect("IR JSON");
    assert_eq!(ir["interfaces"][0]["direct"]["host"], "dtn-2");
    assert_eq!(ir["interfaces"][0]["direct"]["port"], "p0");
    let cabling = read(&b, "cabling.csv");
    assert!(cabling.contains("dtn-1,p0,,,lab,,dtn-2,p0"), "{cabling}");
}

#[test]
fn one_flow_striped_over_four_nics_sums_four_paths() {
    let spec = "examples/gaps/striped-dtn.yaml";
    let p = plan(spec);
    let f = flow(&p, "striped");
    assert_eq!(f["stripes"], 4);
    assert_eq!(f["pairs"], 4);
    assert_eq!(f["predicted_gbps"], 36.0);
    // Each stripe leaves by its own cable: four 10G links carry 9G each.
    let links = p["links"].as_array().expect("links");
    for k in 0..4 {
        let name = format!("dtn-4x10:p{k} -> z9100:1/1:{}", k + 1);
        let l = links
            .iter()
            .find(|l| l["link"] == name.as_str())
            .unwrap_or_else(|| panic!("{name} carries a stripe: {links:?}"));
        assert_eq!(l["load_gbps"], 9.0);
    }
    let (_, text, _) = democ(&["plan", spec]);
    assert!(text.contains("striped over 4 NIC ports"), "{text}");

    // One iperf3 per port, bound to that port's address, pinned to its card's socket
    // (slots 4 and 5 hang off the second).
    let b = build(spec);
    let s = read(&b, "hosts/dtn-4x10.sh");
    for (k, node) in [(1, 0), (2, 0), (3, 1), (4, 1)] {
        let launch =
            format!("numactl -N {node} -m {node} iperf3 -c 10.1.1.5 -p 520{k} -B 10.1.1.{k} -P 1");
        assert!(s.contains(&launch), "{launch}\n{s}");
        assert!(s.contains(&format!("striped+dtn-4x10+dtn-100+dtn-4x10+p{}+", k - 1)));
    }
}

#[test]
fn a_stripe_beyond_one_nic_is_bounded_by_that_nic() {
    // Striped at 40G, each 10G stripe is held to its cable's payload rate.
    let text = std::fs::read_to_string("examples/gaps/striped-dtn.yaml").expect("spec");
    let dir = tempfile::tempdir().expect("tempdir");
    let spec = dir.path().join("s.yaml");
    std::fs::write(&spec, text.replace("rate: 36G", "rate: 40G")).expect("write");
    let (_, out, err) = democ(&["plan", spec.to_str().expect("utf-8"), "--format", "json"]);
    let p: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{err}"));
    let f = flow(&p, "striped");
    let got = f["predicted_gbps"].as_f64().expect("number");
    assert!((got - 4.0 * 9.9).abs() < 0.1, "{got}");
    assert_eq!(f["bottleneck"]["kind"], "link");
}

#[test]
fn raid_arrays_predict_the_level_the_controller_and_the_slot() {
    let spec = "examples/gaps/raid-dtn.yaml";
    let p = plan(spec);
    // RAID 6 of 12 HDDs reads 10 data members; RAID 10 of 16 SSDs writes 8.
    let f = flow(&p, "hdd-to-ssd");
    let storage = limits(f, "storage");
    assert!(
        storage.contains(
            &"`hdd-dtn` raid6 of 12 x `seagate-exos-x18` reads 10 member(s) x 270 MB/s = 21.6 Gbit/s"
                .to_owned()
        ),
        "{storage:?}"
    );
    assert!(
        storage.contains(
            &"`ssd-dtn` raid10 of 16 x `samsung-pm893` writes 8 member(s) x 520 MB/s = 33.3 Gbit/s"
                .to_owned()
        ),
        "{storage:?}"
    );
    // Sixteen SSDs read more than the controller moves: its own figure holds them.
    let f = flow(&p, "ssd-to-memory");
    let storage = limits(f, "storage");
    assert!(
        storage[0].starts_with(
            "`ssd-dtn` controller `broadcom-megaraid-9560-16i` reads at most 6.9 GB/s = 55.2 Gbit/s"
        ),
        "{storage:?}"
    );
    let hosts = p["storage"].as_array().expect("storage");
    assert_eq!(hosts.len(), 2);
    // The array is the drive the transfer's fio reads.
    let b = build(spec);
    let s = read(&b, "hosts/hdd-dtn.sh");
    assert!(s.contains("DRIVE_1=\"${DRIVE_1:-/mnt/raid0}\""), "{s}");
}

#[test]
fn raid_write_arithmetic_per_level() {
    // Write members of a full stripe, per level, for 8 drives (catalog/raid.yaml cites
    // the arithmetic): RAID 0 8, RAID 1 1 (every block on each copy), RAID 10 4,
    // RAID 5 7, RAID 6 6. Checked through the plan of one array per level.
    let text = std::fs::read_to_string("examples/gaps/raid-dtn.yaml").expect("spec");
    for (level, members) in [("raid0", 8), ("raid10", 4), ("raid5", 7), ("raid6", 6)] {
        let dir = tempfile::tempdir().expect("tempdir");
        let spec = dir.path().join("s.yaml");
        let t = text.replace(
            "level: raid10, disks: samsung-pm893, count: 16",
            &format!("level: {level}, disks: samsung-pm893, count: 8"),
        );
        std::fs::write(&spec, t).expect("write");
        let p = plan(spec.to_str().expect("utf-8"));
        let storage = limits(flow(&p, "hdd-to-ssd"), "storage");
        let want = format!(
            "`ssd-dtn` {level} of 8 x `samsung-pm893` writes {members} member(s) x 520 MB/s"
        );
        assert!(
            storage.iter().any(|w| w.starts_with(&want)),
            "{want}: {storage:?}"
        );
    }
}

#[test]
fn a_flow_pinned_away_from_its_nic_pays_the_cross_socket_factor() {
    let spec = "examples/gaps/cross-socket.yaml";
    let p = plan(spec);
    let own = flow(&p, "own-socket");
    let far = flow(&p, "far-socket");
    assert_eq!(own["predicted_gbps"], 60.0);
    assert!(own["numa_remote"].is_null());
    // One stream at 68 Gbit/s on the NIC's socket; pinned to the other socket, the
    // catalog's numa_remote_factor (0.5, ESnet fasterdata's "up to 2x") halves it.
    assert_eq!(far["predicted_gbps"], 34.0);
    assert_eq!(far["numa_remote"], "a pinned socket and its NIC");
    assert_eq!(far["bottleneck"]["kind"], "cpu");
    let b = build(spec);
    let s = read(&b, "hosts/dtn-2.sh");
    assert!(s.contains("numactl -N 1 -m 1 iperf3 -c 10.1.1.1"), "{s}");
    let s = read(&b, "hosts/dtn-1.sh");
    assert!(s.contains("numactl -N 0 -m 0 iperf3 -c 10.1.1.2"), "{s}");
}

#[test]
fn a_device_with_no_switch_os_is_a_hop_at_its_declared_rate() {
    let spec = "examples/gaps/p4-hop.yaml";
    let p = plan(spec);
    let f = flow(&p, "through-fpga");
    // Two 100G cables at its ports, each held to the board's 40G.
    let got = f["predicted_gbps"].as_f64().expect("number");
    assert!((got - 40.0 * 0.99).abs() < 0.1, "{got}");
    assert_eq!(f["bottleneck"]["kind"], "link");
    let why = f["bottleneck"]["why"].as_str().expect("words");
    assert!(why.contains("`fpga-1` (forwards 40G)"), "{why}");
    assert_eq!(
        f["path"]
            .as_array()
            .map(|a| a.iter().filter_map(|s| s.as_str()).collect::<Vec<_>>()),
        Some(vec!["sw-a", "fpga-1", "sw-b"])
    );
    // No config is written for it; its cables are in the cabling plan and the BOM.
    let b = build(spec);
    let out = b.path().join("out");
    let configs: Vec<String> = std::fs::read_dir(out.join("switches"))
        .expect("switches/")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        configs.iter().any(|c| c.starts_with("sw-a.")),
        "{configs:?}"
    );
    assert!(
        !configs.iter().any(|c| c.starts_with("fpga-1")),
        "{configs:?}"
    );
    let cabling = read(&b, "cabling.csv");
    let rows: Vec<&str> = cabling.lines().filter(|l| l.contains("fpga-1")).collect();
    assert_eq!(rows.len(), 2, "{cabling}");
    // The cables are bought for the ports' 100G, whatever the board forwards.
    assert!(rows.iter().all(|r| r.contains(",100G,dac,")), "{rows:?}");
    let (_, text, _) = democ(&["plan", spec]);
    assert!(text.contains("no switch OS"), "{text}");
    // The IR keeps it, so the twin bridges its ports.
    let (_, ir, _) = democ(&["ir", spec, "--no-lock"]);
    assert!(
        ir.contains("\"hostname\": \"fpga-1\""),
        "the IR carries the device"
    );
}

#[test]
fn a_back_to_back_cable_beside_a_switch_path_is_taken_when_the_path_is_empty() {
    // SC15's two Haswell servers are cabled to the Z9100 and to each other: the flow
    // keeps the switch by default, and `path: []` puts it on the cable.
    let p = plan("examples/sc15/show.yaml");
    assert_eq!(flow(&p, "net-100g")["path"][0], "cit-z9100-1");
    let text = std::fs::read_to_string("examples/sc15/show.yaml").expect("spec");
    let dir = tempfile::tempdir().expect("tempdir");
    for f in ["show.yaml", "wan.yaml", "lab.yaml"] {
        let t = std::fs::read_to_string(format!("examples/sc15/{f}")).expect("file");
        std::fs::write(dir.path().join(f), t).expect("write");
    }
    let direct = text.replacen(
        "    rate: 100G\n    protocol: tcp\n    streams: 2\n",
        "    rate: 100G\n    protocol: tcp\n    streams: 2\n    path: []\n",
        1,
    );
    assert_ne!(direct, text);
    let spec = dir.path().join("show.yaml");
    std::fs::write(&spec, direct).expect("write");
    let (code, out, err) = democ(&[
        "plan",
        spec.to_str().expect("utf-8"),
        "--format",
        "json",
        "--no-lock",
    ]);
    assert_eq!(code, 0, "{err}");
    let p: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let f = flow(&p, "net-100g");
    assert_eq!(
        limits(f, "link"),
        ["sc100G-1:p1 -> sc100G-2:p1 carries 100G (99.0% payload at MTU 9000)"]
    );
}

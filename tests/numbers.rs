//! Issue 14's numeric reproducers, run through the binary: each must exit 1 with a
//! located diagnostic, within a second of processor time, under 300 MB of resident
//! memory, and without a panic. Before the fixes they hung (negative latencies), panicked (a name range of
//! 2^64 names) or passed `check` with configs a switch rejects.

#![cfg(unix)]

mod common;

/// `democ check show.yaml` in `dir`, bounded as issue 14 asks (common::democ_bounded: a
/// second of processor time in a release build, under 300 MB, no hang, no panic);
/// (exit code, stderr).
fn check_text(text: &str) -> (i32, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("show.yaml"), text).expect("write spec");
    let run = common::democ_bounded(
        Some(dir.path()),
        &["check", "show.yaml", "--color", "never"],
    );
    (run.code, run.stderr)
}

/// Three switches in a line, a host on each end, one flow; `{defaults}`, `{host}`,
/// `{port}` and `{wan}` are spliced in.
const LINE: &str = r#"
show:
  name: line
  addressing: { dtn: 10.1.1.0/24, p2p: 10.2.0.0/24 }
  defaults: { {defaults} }
sites:
  lab: { kind: lab }
switches:
  sw1: { site: lab, model: dell-z9100-on }
  sw2: { site: lab, model: dell-z9100-on }
  sw3: { site: lab, model: dell-z9100-on }
hosts:
  {host}:
    site: lab
    chassis: supermicro-x10dri
    cpu: xeon-e5-2697-v3
    nics:
      - { model: mellanox-cx4-100g, slot: "2", ports: [p0] }
links:
  - { a: "dtn-1:p0", b: "sw1:1/1" }
  - { a: "sw1:1/2", b: "sw2:1/1" }
  - { a: "sw2:1/2", b: "sw3:1/1" }
  - { a: "dtn-2:p0", b: "sw3:{port}" }
wan:
  - { name: w1, kind: circuit, a: "sw1:1/4", b: "sw3:1/4", capacity: 100G, rtt_ms: {rtt} }
flows:
  - { name: f1, from: dtn-1, to: dtn-2, rate: 40G, protocol: tcp }
"#;

fn line(defaults: &str, host: &str, port: &str, rtt: &str) -> String {
    LINE.replace("{defaults}", defaults)
        .replace("{host}", host)
        .replace("{port}", port)
        .replace("{rtt}", rtt)
}

fn expect_error(text: &str, code: &str, needle: &str) -> String {
    let (status, err) = check_text(text);
    assert_eq!(status, 1, "exit code:\n{err}");
    assert!(
        err.contains(&format!("[{code}]")),
        "{code} expected:\n{err}"
    );
    assert!(err.contains(needle), "`{needle}` expected:\n{err}");
    assert!(err.contains("show.yaml:"), "located:\n{err}");
    err
}

#[test]
fn the_line_is_valid() {
    let (status, err) = check_text(&line("", "dtn-[1-2]", "1/2", "10"));
    assert_eq!(status, 0, "{err}");
}

/// §1: `hop_latency_us: -1` made `democ check` loop forever.
#[test]
fn negative_hop_latency_is_refused_not_looped_on() {
    let err = expect_error(
        &line("hop_latency_us: -1", "dtn-[1-2]", "1/2", "10"),
        "E0114",
        "`hop_latency_us` -1 is out of range",
    );
    assert!(err.contains("from 0 to"), "{err}");
}

/// §1: a negative WAN `rtt_ms` did the same.
#[test]
fn negative_rtt_is_refused() {
    expect_error(
        &line("", "dtn-[1-2]", "1/2", "-1"),
        "E0114",
        "`rtt_ms` -1 is out of range",
    );
    for v in [".nan", ".inf", "-.inf"] {
        let (status, err) = check_text(&line("", "dtn-[1-2]", "1/2", v));
        assert_eq!(status, 1, "rtt_ms: {v}:\n{err}");
        assert!(err.contains("show.yaml:"), "{err}");
    }
}

/// §2: the size of `dtn-[0-18446744073709551615]` wrapped and the expansion panicked
/// with a capacity overflow.
#[test]
fn a_range_of_two_to_the_64_names_is_a_limit_not_a_panic() {
    expect_error(
        &line("", "dtn-[0-18446744073709551615]", "1/2", "10"),
        "E0009",
        "18446744073709551616 names",
    );
    expect_error(
        &line("", "dtn-[1-2]", "1/[0-18446744073709551615]", "10"),
        "E0009",
        "above the limit",
    );
    expect_error(
        &line("", "dtn-[1-99999999999999999999999]", "1/2", "10"),
        "E0010",
        "too large",
    );
}

/// §7 (cosmetic): `dtn-[-1-2]` said "`` is not a whole number".
#[test]
fn a_negative_range_says_so() {
    let err = expect_error(
        &line("", "dtn-[-1-2]", "1/2", "10"),
        "E0010",
        "holds a negative number",
    );
    assert!(!err.contains("``"), "{err}");
}

/// §6: each value passed `check` before.
#[test]
fn numbers_out_of_their_meaning_are_refused() {
    let cases = [
        ("dtn_vlan: 0", "`dtn_vlan` 0"),
        ("dtn_vlan: 4095", "`dtn_vlan` 4095"),
        ("dtn_vlan: 4096", "`dtn_vlan` 4096"),
        ("dtn_vlan: 65535", "`dtn_vlan` 65535"),
        ("host_mtu: 0", "`host_mtu` 0"),
        ("host_mtu: 1", "`host_mtu` 1"),
        ("host_mtu: 68", "`host_mtu` 68"),
        ("pcie_mps: 100", "`pcie_mps` 100"),
        ("pcie_mps: 384", "`pcie_mps` 384"),
        ("pcie_mps: 8192", "`pcie_mps` 8192"),
        ("hop_latency_us: 1e308", "`hop_latency_us` 1e308"),
        ("optics_margin_db: -3", "`optics_margin_db` -3"),
        ("warn_utilization: 250", "`warn_utilization` 250"),
        (
            r#"openflow: { controller: "10.0.0.1:0" }"#,
            "`controller` 0",
        ),
    ];
    for (defaults, needle) in cases {
        let err = expect_error(&line(defaults, "dtn-[1-2]", "1/2", "10"), "E0114", needle);
        assert!(err.contains("help: use "), "{err}");
    }
    for (spec, needle) in [
        ("asn: 0", "`asn` 0"),
        ("asn: 4294967296", "`asn` 4294967296"),
        ("asn: 99999999999", "`asn` 99999999999"),
    ] {
        let text = line("", "dtn-[1-2]", "1/2", "10").replace(
            "sw2: { site: lab, model: dell-z9100-on }",
            &format!("sw2: {{ site: lab, model: dell-z9100-on, {spec} }}"),
        );
        expect_error(&text, "E0114", needle);
    }
    let flow = |extra: &str| {
        line("", "dtn-[1-2]", "1/2", "10")
            .replace("protocol: tcp }", &format!("protocol: tcp, {extra} }}"))
    };
    expect_error(&flow("streams: 129"), "E0114", "`streams` 129");
    expect_error(&flow("streams: 0"), "E0114", "`streams` 0");
    let link = |extra: &str| {
        line("", "dtn-[1-2]", "1/2", "10")
            .replace(r#"b: "sw2:1/1" }"#, &format!(r#"b: "sw2:1/1", {extra} }}"#))
    };
    expect_error(&link("mode: access, vlan: 4095"), "E0114", "`vlan` 4095");
    expect_error(&link("mode: trunk, vlans: [1, 0]"), "E0114", "`vlans` 0");
    expect_error(&link("length_m: 1e308"), "E0114", "`length_m` 1e308");
    expect_error(&link("length_m: -5"), "E0114", "`length_m` -5");
    expect_error(&link("lag: { id: 0 }"), "E0114", "`id` 0");
}

/// §7: `p-0` and `p.0` were both `IF_p_0` in the host script.
#[test]
fn ports_that_share_a_shell_variable_are_refused() {
    let text = line("", "dtn-[1-2]", "1/2", "10").replace(
        r#"      - { model: mellanox-cx4-100g, slot: "2", ports: [p0] }"#,
        r#"      - { model: mellanox-cx4-100g, slot: "2", ports: [p0] }
      - { model: mellanox-cx4-100g, slot: "3", ports: [p-0] }
      - { model: mellanox-cx4-100g, slot: "4", ports: [p.0] }"#,
    );
    expect_error(&text, "E0115", "both become the shell variable `IF_p_0`");
}

/// §6: a host MTU above what its NIC's driver accepts (catalog `max_mtu`, from the
/// Linux driver source) passed `check` before the catalog had the figures.
#[test]
fn a_host_mtu_above_the_nics_maximum_is_refused() {
    let ok = line("host_mtu: 9978", "dtn-[1-2]", "1/2", "10");
    // The Z9100's 9216-byte frames refuse it (E0226), the NIC does not.
    let (_, err) = check_text(&ok);
    assert!(!err.contains("E0113"), "9978 fits a ConnectX-4:\n{err}");
    expect_error(
        &line("host_mtu: 9979", "dtn-[1-2]", "1/2", "10"),
        "E0113",
        "above the 9978 its NIC `mellanox-cx4-100g` takes",
    );
}

/// The LINE with `extra` added to the `sw1` -- `sw2` cable (100G).
fn cable(extra: &str) -> String {
    line("", "dtn-[1-2]", "1/2", "10")
        .replace(r#"b: "sw2:1/1" }"#, &format!(r#"b: "sw2:1/1", {extra} }}"#))
}

/// §6: `lag: { id: N }` above what the OS numbers passed `check` (only 0 was refused);
/// the Z9100 runs Dell FTOS 9 or OS10, both of which stop at port-channel 128.
#[test]
fn a_lag_id_above_the_os_maximum_is_refused() {
    let two = |id: u32| {
        line("", "dtn-[1-2]", "1/2", "10").replace(
            r#"  - { a: "sw1:1/2", b: "sw2:1/1" }"#,
            &format!(r#"  - {{ a: "sw1:1/[2-3]", b: "sw2:1/[5-6]", lag: {{ id: {id} }} }}"#),
        )
    };
    let (status, err) = check_text(&two(128));
    assert!(!err.contains("E0116"), "128 is the maximum:\n{err}");
    assert_eq!(status, 0, "{err}");
    let err = expect_error(&two(129), "E0116", "port-channel 129 is above the 128");
    assert!(err.contains("help: use a LAG `id` from 1 to 128"), "{err}");
    let err = expect_error(&two(65535), "E0116", "port-channel 65535");
    assert!(err.contains("show.yaml:21:"), "located at the id:\n{err}");
    let eos = two(2001)
        .replace(
            "sw1: { site: lab, model: dell-z9100-on }",
            "sw1: { site: lab, model: arista-7280cr-48 }",
        )
        .replace(
            "sw2: { site: lab, model: dell-z9100-on }",
            "sw2: { site: lab, model: arista-7280cr-48 }",
        );
    expect_error(
        &eos,
        "E0116",
        "port-channel 2001 is above the 2000 that Arista EOS",
    );
}

/// §6: a 5 km or a 30 m direct-attach copper cable passed `check`; every medium the
/// catalog knows now has a reach per speed (catalog/cables.yaml).
#[test]
fn cables_longer_than_their_medium_carries_are_refused() {
    let (status, err) = check_text(&cable("media: dac, length_m: 5"));
    assert_eq!(status, 0, "a 5 m DAC carries 100G:\n{err}");
    for len in ["5000", "30", "5.5"] {
        let err = expect_error(
            &cable(&format!("media: dac, length_m: {len}")),
            "E0227",
            &format!(
                "cable `sw1:1/2` -- `sw2:1/1` is {len} m of `dac`, beyond the 5 m it carries at 100G"
            ),
        );
        assert!(err.contains("use `media: aoc`") || len == "5000", "{err}");
    }
    let (status, err) = check_text(&cable("media: aoc, length_m: 30"));
    assert_eq!(status, 0, "a 30 m AOC is fine:\n{err}");
    expect_error(
        &cable("media: aoc, length_m: 5000"),
        "E0227",
        "5000 m of `aoc`, beyond the 100 m",
    );
    // Absurd lengths never reach the reach check: the parse-time bound refuses them.
    expect_error(
        &cable("media: dac, length_m: 1e308"),
        "E0114",
        "`length_m` 1e308",
    );
}

/// §6: the host scripts give each routed pair into a host its own iperf3 server port,
/// counted from 5201; past 65535 the count stuck (saturating_add) and 60,000 pairs
/// shared port 65535 without a word. 61,000 flows into one host are refused, located at
/// the flow whose pair finds no port left.
#[test]
fn more_pairs_into_one_host_than_server_ports_are_refused() {
    let flows = |n: usize| {
        let mut text = line("", "dtn-[1-2]", "1/2", "10");
        text.truncate(text.find("flows:").expect("flows"));
        text.push_str("flows:\n");
        for i in 1..=n {
            text.push_str(&format!(
                "  - {{ name: f{i}, from: dtn-1, to: dtn-2, rate: 1M, protocol: tcp }}\n"
            ));
        }
        text
    };
    let (status, err) = check_text(&flows(60_335));
    assert!(
        !err.contains("E0228"),
        "60335 pairs fit ports 5201-65535:\n{err}"
    );
    assert_eq!(status, 0, "{err}");
    let err = expect_error(
        &flows(61_000),
        "E0228",
        "host `dtn-2` receives 61000 test pairs but has 60335 server ports (5201 to 65535)",
    );
    assert!(
        err.contains("flow `f60336`"),
        "located at the first pair without a port:\n{err}"
    );
    assert!(
        err.contains("help: spread these flows over more receiving hosts"),
        "{err}"
    );
}

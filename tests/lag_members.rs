//! Hashing as computed (issue 39, item 2): the plan shows each LAG direction's member
//! loads and how they are known. sc15's `net-400g` leaves `sc400g-1` by a four-member
//! Linux bond (layer3+4, documented to the bit in bonding.rst) and enters `sc400g-2`
//! from a Dell FTOS switch, whose manual names its CRC and fields but not the key layout
//! or seed. With `pick_ports: true` democ picks iperf3's client ports (`--cport`), the
//! bond's member loads are computed, and the streams on the ports the script launches
//! land where the plan says; the switch's side stays the random model, and says why.

mod common;
use std::net::Ipv4Addr;
use std::path::Path;

/// sc15's folder copied into `dir`, `net-400g` given `pick_ports`, and each of `edits`
/// (text, replacement) made once.
fn spec(dir: &Path, pick: bool, edits: &[(&str, &str)]) -> std::path::PathBuf {
    common::copy_dir(Path::new("examples/sc15"), dir);
    let path = dir.join("show.yaml");
    let mut spec = std::fs::read_to_string(&path).expect("sc15");
    let at = "    rate: 400G\n    protocol: tcp\n    source: memory\n    sink: memory\n";
    assert!(spec.contains(at), "sc15's net-400g changed");
    spec = spec.replacen(at, &format!("{at}    pick_ports: {pick}\n"), 1);
    for (from, to) in edits {
        assert!(spec.contains(from), "sc15 changed: no {from:?}");
        spec = spec.replacen(from, to, 1);
    }
    std::fs::write(&path, spec).expect("write");
    path
}

/// sc15, `net-400g` with `pick_ports` as given, built into `dir/out`: its plan and the
/// sending DTN's script.
fn build(dir: &Path, pick: bool) -> (serde_json::Value, String) {
    build_with(dir, pick, &[])
}

fn build_with(dir: &Path, pick: bool, edits: &[(&str, &str)]) -> (serde_json::Value, String) {
    let show = spec(dir, pick, edits).display().to_string();
    let out = dir.join("out");
    let o = out.display().to_string();
    let run = common::democ_in(None, &["build", "--hosts", &show, "-o", &o], common::HANG);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let plan = std::fs::read_to_string(out.join("plan.json")).expect("plan.json");
    let script = std::fs::read_to_string(out.join("hosts/sc400g-1.sh")).expect("script");
    (serde_json::from_str(&plan).expect("json"), script)
}

fn lag<'a>(plan: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    plan["lag_members"]
        .as_array()
        .and_then(|l| {
            l.iter()
                .find(|x| x["lag"].as_str().is_some_and(|n| n.starts_with(name)))
        })
        .unwrap_or_else(|| panic!("no {name} in {plan:#}"))
}

/// bonding.rst's layer3+4 steps on a little-endian host, written out again here.
fn member(src: Ipv4Addr, dst: Ipv4Addr, sport: u16, dport: u16, n: u32) -> u32 {
    let le = |b: [u8; 4]| u32::from_le_bytes(b);
    let (s, d) = (sport.to_be_bytes(), dport.to_be_bytes());
    let mut h = le([s[0], s[1], d[0], d[1]]) ^ le(src.octets()) ^ le(dst.octets());
    h ^= h >> 16;
    h ^= h >> 8;
    (h >> 1) % n
}

/// The value after `flag` in the iperf3 line of `flow`.
fn arg<'a>(script: &'a str, flow: &str, flag: &str) -> &'a str {
    let line = script
        .lines()
        .find(|l| l.contains("iperf3 -c") && l.contains(flow))
        .unwrap_or_else(|| panic!("no iperf3 line for {flow}"));
    let mut words = line.split_whitespace();
    words.find(|w| *w == flag);
    words
        .next()
        .unwrap_or_else(|| panic!("no {flag} in {line}"))
}

/// The members' Gbit/s of a LAG direction the plan computes (not expects).
fn computed(plan: &serde_json::Value, name: &str) -> Vec<f64> {
    let out = lag(plan, name);
    assert_eq!(out["model"], "computed", "{out:#}");
    out["members_gbps"]
        .as_array()
        .expect("loads")
        .iter()
        .filter_map(serde_json::Value::as_f64)
        .collect()
}

/// The streams of `flow`'s iperf3 line on each of a bond's `n` members, busiest first,
/// as the kernel hashes the ports the line binds; and its stream count.
fn launched(script: &str, flow: &str, n: u32) -> (Vec<u32>, u16) {
    let cport: u16 = arg(script, flow, "--cport").parse().expect("a port");
    let dport: u16 = arg(script, flow, "-p").parse().expect("a port");
    let src: Ipv4Addr = arg(script, flow, "-B").parse().expect("an address");
    let dst: Ipv4Addr = arg(script, flow, "-c").parse().expect("an address");
    let streams: u16 = arg(script, flow, "-P").parse().expect("streams");
    let mut load = vec![0u32; n as usize];
    for p in cport..cport + streams {
        load[member(src, dst, p, dport, n) as usize] += 1;
    }
    load.sort_unstable_by(|a, b| b.cmp(a));
    (load, streams)
}

/// What `democ check` says of the show in `dir`.
fn check_says(dir: &Path) -> String {
    let show = dir.join("show.yaml").display().to_string();
    let run = common::democ_in(None, &["check", &show], common::HANG);
    format!("{}{}", run.stdout, run.stderr)
}

#[test]
fn picked_ports_make_the_bond_members_computed_and_the_launch_line_uses_them() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (plan, script) = build(tmp.path(), true);
    let loads = computed(&plan, "port-channel 41 sc400g-1 -> cit-z9100-2");
    let rounded: Vec<i64> = loads.iter().map(|x| x.round() as i64).collect();
    assert_eq!(rounded, vec![100, 100, 67, 67], "{loads:?}");
    // The switch's side: named with its manual's words, and the random model.
    let back = lag(&plan, "port-channel 42 sc400g-2 <- cit-z9100-2");
    assert_eq!(back["model"], "random");
    let why = back["hash"].as_str().expect("words");
    assert!(
        why.contains("ftos9") && why.contains("not give the function to the bit"),
        "{why}"
    );
    // The launch line carries the picked port, and its six streams on the ports from it
    // spread 2, 2, 1, 1 over the bond as the kernel documents the hash.
    assert_eq!(launched(&script, "net-400g", 4), (vec![2, 2, 1, 1], 6));
    // W0248 says what the picked ports carry, and how many streams would reach the demand.
    let said = check_says(tmp.path());
    assert!(
        said.contains("2, 2, 1, 1 per member as the DTN's bond hashes the picked client ports")
            && said.contains("8 streams in all reach it, on ports democ picks"),
        "{said}"
    );
}

#[test]
fn without_picked_ports_the_bond_is_the_random_model_and_says_why() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (plan, script) = build(tmp.path(), false);
    let out = lag(&plan, "port-channel 41 sc400g-1 -> cit-z9100-2");
    assert_eq!(out["model"], "random");
    assert!(
        out["hash"]
            .as_str()
            .is_some_and(|w| w.contains("ephemeral")),
        "{out:#}"
    );
    assert!(!script.contains("--cport"));
}

/// A bond of three members (not a power of two): the kernel reduces the hash modulo 3
/// (bond_main.c), so the members' loads depend on the addresses and ports, and democ
/// computes them from the ones the script launches with.
#[test]
fn a_three_member_bond_is_computed_from_the_launched_ports() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // Three of the four ports bonded, and a rate the three carry.
    let three = [
        (
            "  - a: sc400g-1:p[0-3]\n    b: cit-z9100-2:1/[1-4]\n",
            "  - a: sc400g-1:p[0-2]\n    b: cit-z9100-2:1/[1-3]\n",
        ),
        (
            "    to: sc400g-2\n    rate: 400G\n",
            "    to: sc400g-2\n    rate: 270G\n",
        ),
    ];
    let (plan, script) = build_with(tmp.path(), true, &three);
    let loads = computed(&plan, "port-channel 41 sc400g-1 -> cit-z9100-2");
    assert_eq!(loads.len(), 3, "{loads:?}");
    // Four streams on three members: 2, 1, 1, as even as four can be.
    let (load, streams) = launched(&script, "net-400g", 3);
    assert_eq!(load, [2, 1, 1]);
    let per_stream = 270.0 / f64::from(streams);
    let want: Vec<f64> = load
        .iter()
        .map(|&x| (f64::from(x) * per_stream).min(100.0))
        .collect();
    for (got, want) in loads.iter().zip(&want) {
        assert!((got - want).abs() < 0.01, "{loads:?} against {want:?}");
    }
    // W0248 names the computed spread and the streams that reach the demand on this
    // pair's own addresses and ports (six: two per member).
    let said = check_says(tmp.path());
    assert!(
        said.contains("2, 1, 1 per member as the DTN's bond hashes the picked client ports")
            && said.contains("6 streams in all reach it, on ports democ picks"),
        "{said}"
    );
}

//! No input makes democ panic or hang. Property tests feed arbitrary bytes and mutated
//! valid specs to the library (`democ::check_bytes`, the `check` pipeline without
//! printing) and to the binary; every safety limit is breached through the binary and
//! must give a located E0009 with exit 1. Inputs the fuzzer found are regression tests
//! at the end (see fuzz/README.md).

use std::path::Path;

use proptest::prelude::*;

/// Valid specs the mutations start from.
const SEEDS: &[&str] = &[
    include_str!("../examples/calibration/single-stream.yaml"),
    include_str!("bad/corpus/ok-unit-spellings.yaml"),
    include_str!("bad/E0245-oversubscribed.yaml"),
];

/// YAML and spec fragments that are more likely than random bytes to reach the decoder's
/// and resolver's corners.
const TOKENS: &[&str] = &[
    ":",
    ": ",
    "- ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "&a ",
    "*a",
    "<<: *a",
    "!!binary ",
    "\t",
    "\n",
    "\r\n",
    "'",
    "\"",
    "#",
    "~",
    "null",
    "true",
    "0",
    "-1",
    "1e999",
    ".nan",
    "99999999999999999999",
    "0x1F",
    "1.0",
    "\u{feff}",
    "\u{0}",
    "é",
    "dtn-[1-99999999999]",
    // Issue 14: sizes that overflowed, numbers out of their meaning, negative latencies
    // that made routing loop.
    "dtn-[0-18446744073709551615]",
    "sw1:1/[0-18446744073709551615]",
    "dtn-[-1-2]",
    "18446744073709551616",
    "4294967296",
    "1e308",
    "hop_latency_us: -1",
    "rtt_ms: -1",
    "length_m: 1e308",
    "dtn_vlan: 4095",
    "asn: 0",
    "pcie_mps: 300",
    "streams: 1000",
    "dtn-[5-1]",
    "sw1:1/[1-40]",
    "sw1:",
    ":p0",
    "1/1:4",
    "100Gb",
    "0G",
    "-40G",
    "8x10G",
    "10.1.1.0/33",
    "256.1.1.1",
    "10.1.1.0/0",
    "10.1.1.0/32",
    "include: [x.yaml]",
    "show:",
    "sites:",
    "hosts:",
    "links:",
    "flows:",
    "wan:",
    "path: [sw1, sw1]",
    "bidirectional: true",
    "lag: { id: 1 }",
    "breakout: 4x25G",
    "openflow: { mode: pure }",
    "sockets: 0",
    "count: 0",
    "length_m: 0",
];

#[derive(Clone, Debug)]
enum Edit {
    Delete(usize, usize),
    Insert(usize, Vec<u8>),
    Token(usize, usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
}

fn edit_strategy() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 1..40usize).prop_map(|(at, n)| Edit::Delete(at, n)),
        (any::<usize>(), proptest::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(at, b)| Edit::Insert(at, b)),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(at, t)| Edit::Token(at, t)),
        any::<usize>().prop_map(Edit::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::SwapLines(a, b)),
    ]
}

fn apply(text: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut out = text.to_vec();
    for e in edits {
        let len = out.len().max(1);
        match e {
            Edit::Delete(at, n) => {
                let at = at % len;
                let end = (at + n).min(out.len());
                out.drain(at.min(end)..end);
            }
            Edit::Insert(at, bytes) => {
                let at = at % (out.len() + 1);
                out.splice(at..at, bytes.iter().copied());
            }
            Edit::Token(at, t) => {
                let at = at % (out.len() + 1);
                out.splice(at..at, TOKENS[*t].bytes());
            }
            Edit::DuplicateLine(i) | Edit::SwapLines(i, _) => {
                let mut lines: Vec<Vec<u8>> =
                    out.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
                let n = lines.len();
                match e {
                    Edit::SwapLines(_, j) => lines.swap(i % n, j % n),
                    _ => {
                        let line = lines[i % n].clone();
                        lines.insert(i % n, line);
                    }
                }
                out = lines.join(&b'\n');
            }
        }
    }
    out
}

mod common;

/// Runs the binary on a file, bounded as issue 14 asks (common::democ_bounded: no hang,
/// a second of processor time in a release build, under 300 MB, exit 0-2, no panic);
/// returns the exit code and standard error.
fn democ_check(path: &Path) -> (i32, String) {
    let path = path.to_str().expect("a UTF-8 path");
    let run = common::democ_bounded(
        Some(Path::new(env!("CARGO_MANIFEST_DIR"))),
        &["check", path, "--color", "never"],
    );
    (run.code, run.stderr)
}

fn assert_survives(path: &Path) {
    let (code, stderr) = democ_check(path);
    assert!(
        !stderr.contains("panicked"),
        "democ panicked on {}:\n{stderr}",
        path.display()
    );
    assert!(
        matches!(code, 0..=2),
        "exit code {code} on {}:\n{stderr}",
        path.display()
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        prop_assert!(matches!(democ::check_bytes(&bytes), 0..=2));
    }

    #[test]
    fn mutated_specs_never_panic(
        seed in 0..SEEDS.len(),
        edits in proptest::collection::vec(edit_strategy(), 1..6),
    ) {
        let bytes = apply(SEEDS[seed].as_bytes(), &edits);
        prop_assert!(matches!(democ::check_bytes(&bytes), 0..=2));
    }
}

proptest! {
    // The binary costs a process per case: fewer cases, same properties.
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn the_binary_survives_mutated_specs(
        seed in 0..SEEDS.len(),
        edits in proptest::collection::vec(edit_strategy(), 1..6),
    ) {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("show.yaml");
        std::fs::write(&path, apply(SEEDS[seed].as_bytes(), &edits)).expect("write");
        assert_survives(&path);
    }
}

#[test]
fn the_seeds_are_valid() {
    for (i, seed) in SEEDS.iter().enumerate() {
        let code = democ::check_bytes(seed.as_bytes());
        assert!(code <= 1, "seed {i} does not even parse");
    }
    assert_eq!(democ::check_bytes(SEEDS[0].as_bytes()), 0);
}

// ---- every limit: a located E0009 and exit 1 ---------------------------------------

/// Checks `main.yaml` of a folder holding `files`; expects exactly one E0009, located in
/// `file` at `line`.
fn expect_limit(files: &[(String, Vec<u8>)], file: &str, line: usize) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).expect("write");
    }
    let (code, stderr) = democ_check(&dir.path().join("main.yaml"));
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        stderr.matches("error[").count(),
        1,
        "one diagnostic expected:\n{stderr}"
    );
    assert!(stderr.starts_with("error[E0009]"), "{stderr}");
    let at = format!("{file}:{line}:");
    assert!(stderr.contains(&at), "expected a location {at}:\n{stderr}");
    assert!(stderr.contains("= help: "), "{stderr}");
    stderr
}

fn file(name: &str, text: impl Into<Vec<u8>>) -> (String, Vec<u8>) {
    (name.to_owned(), text.into())
}

#[test]
fn limit_file_size() {
    // One byte above the 64 MiB default: read (at most the limit) and refused.
    let mut text = b"show: { name: big }\n#".to_vec();
    text.resize(64 * 1024 * 1024 + 1, b'x');
    let stderr = expect_limit(&[file("main.yaml", text)], "main.yaml", 1);
    assert!(stderr.contains("above the limit of 67108864"), "{stderr}");
}

#[test]
fn limit_nesting_depth() {
    let nested = format!("{}{}", "[".repeat(65), "]".repeat(65));
    expect_limit(
        &[file(
            "main.yaml",
            format!("show: {{ name: x }}\nsites: {nested}\n"),
        )],
        "main.yaml",
        2,
    );
    expect_limit(
        &[file(
            "main.yaml",
            format!("show: {{ name: x }}\nsites: {}\n", "{a: ".repeat(100_000)),
        )],
        "main.yaml",
        2,
    );
    let block: String = (0..200).map(|i| format!("{}k:\n", " ".repeat(i))).collect();
    expect_limit(
        &[file("main.yaml", format!("show: {{ name: x }}\n{block}"))],
        "main.yaml",
        66,
    );
}

#[test]
fn limit_includes() {
    let many = "  - a.yaml\n".repeat(300);
    let files = [
        file(
            "main.yaml",
            format!("show: {{ name: x }}\ninclude:\n{many}"),
        ),
        file("a.yaml", "sites: {}\n"),
    ];
    let stderr = expect_limit(&files, "main.yaml", 259);
    assert!(stderr.contains("more than 256 included files"), "{stderr}");
}

#[test]
fn limit_include_depth() {
    let mut files = vec![file("main.yaml", "show: { name: x }\ninclude: [f1.yaml]\n")];
    for i in 1..=20 {
        files.push(file(
            &format!("f{i}.yaml"),
            format!("include: [f{}.yaml]\n", i + 1),
        ));
    }
    files.push(file("f21.yaml", "sites: {}\n"));
    let stderr = expect_limit(&files, "f16.yaml", 1);
    assert!(
        stderr.contains("includes nested deeper than 16"),
        "{stderr}"
    );
}

#[test]
fn limit_alias_expansion() {
    // "Billion laughs": nine levels of ten aliases each.
    let mut text = String::from(
        "show: { name: x }\na0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n",
    );
    for i in 1..10 {
        let refs = vec![format!("*a{}", i - 1); 10].join(", ");
        text.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("main.yaml"), text).expect("write");
    let (code, stderr) = democ_check(&dir.path().join("main.yaml"));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.starts_with("error[E0009]: the YAML's aliases"),
        "{stderr}"
    );
    assert!(stderr.contains("main.yaml:"), "{stderr}");
}

#[test]
fn limit_name_range() {
    let text = "show: { name: x }\nsites:\n  lab: { kind: lab }\nhosts:\n  dtn-[1-1000000000]: { site: lab, chassis: supermicro-x10dri, cpu: xeon-e5-2697-v3 }\n";
    let stderr = expect_limit(&[file("main.yaml", text)], "main.yaml", 5);
    assert!(stderr.contains("above the limit of 100000"), "{stderr}");
}

/// A device as an include is refused unread: it is outside the show's folder (and not a
/// regular file; tests/hostile_input.rs allows its folder to see that refusal too).
#[test]
fn an_endless_include_is_refused_unread() {
    if !Path::new("/dev/zero").exists() {
        return;
    }
    let (code, stderr) = check_text(b"show: { name: x }\ninclude: [/dev/zero]\n");
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.starts_with("error[E0012]") && stderr.contains("main.yaml:2:11"),
        "{stderr}"
    );
}

/// A diagnostic on a one-megabyte line shows a window of it, not the whole line.
#[test]
fn a_huge_line_is_cropped_in_diagnostics() {
    let text = format!(
        "show: {{ name: x, title: {}, venu: y }}\n",
        "x".repeat(1_000_000)
    );
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("main.yaml"), text).expect("write");
    let (code, stderr) = democ_check(&dir.path().join("main.yaml"));
    assert_eq!(code, 1, "{}", &stderr[..stderr.len().min(2000)]);
    assert!(
        stderr.len() < 2_000,
        "{} bytes of diagnostics",
        stderr.len()
    );
    assert!(
        stderr.contains("main.yaml:1:1000027")
            && stderr.contains("│ …xxxx")
            && stderr.contains("x, venu: y }"),
        "{stderr}"
    );
}

// ---- inputs that once misbehaved ---------------------------------------------------
// Found while writing the corpus and by fuzzing (fuzz/README.md); each names what went
// wrong. A crash the fuzzer finds goes here too, with its bytes.

/// Checks `bytes` as main.yaml through the binary; returns the exit code and stderr.
fn check_text(bytes: &[u8]) -> (i32, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("main.yaml"), bytes).expect("write");
    democ_check(&dir.path().join("main.yaml"))
}

#[test]
fn regression_bom_before_bad_bytes_is_located_after_the_bom() {
    // The offset of the first bad byte was taken after the BOM but shown before it.
    let (code, stderr) = check_text(b"\xef\xbb\xbf\xc3\xa9\xc3\xa9\xff\n");
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("[E0011]") && stderr.contains("main.yaml:1:3"),
        "{stderr}"
    );
}

#[test]
fn regression_numbers_read_as_text_keep_their_spelling() {
    // `version: 1.0` was read as "1", and the switch then did not "speak OpenFlow 1".
    let text = "show:\n  name: x\n  defaults:\n    openflow: { controller: 10.0.0.1:6653, version: 1.0, placeholder_port_map: true }\n\
                \x20 addressing: { mgmt: 10.0.0.0/24 }\n\
                sites:\n  lab: { kind: lab }\n\
                switches:\n  sw1: { site: lab, model: dell-z9100-on, os: ftos9, openflow: { mode: pure } }\n";
    let (code, stderr) = check_text(text.as_bytes());
    assert!(
        !stderr.contains("OpenFlow 1\n") && !stderr.contains("[E0113]"),
        "{stderr}"
    );
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn regression_numbers_beyond_64_bits_are_out_of_range() {
    // They were "expected a whole number, found a number" (E0004).
    let text = "show: { name: x }\nsites:\n  lab: { kind: lab }\nswitches:\n  sw1: { site: lab, model: dell-z9100-on, asn: 99999999999999999999999 }\n";
    let (code, stderr) = check_text(text.as_bytes());
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("[E0007]: the number is out of range"),
        "{stderr}"
    );
}

#[test]
fn regression_deep_flow_nesting_is_a_limit_not_a_syntax_error() {
    // The parser's recursion guard fired first and was reported as E0002.
    let (code, stderr) =
        check_text(format!("show: {{ name: x }}\nsites: {}", "[".repeat(100_000)).as_bytes());
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.starts_with("error[E0009]"), "{stderr}");
}

#[test]
fn regression_alias_bombs_stop_early() {
    // With the replay budget at the node limit, this took minutes in a debug build.
    let mut text = String::from(
        "show: { name: x }\na0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n",
    );
    for i in 1..7 {
        let refs = vec![format!("*a{}", i - 1); 10].join(", ");
        text.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    text.push_str(&format!("sites: [{}]\n", vec!["*a6"; 30].join(", ")));
    let (code, stderr) = check_text(text.as_bytes());
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.starts_with("error[E0009]"), "{stderr}");
}

#[test]
fn regression_a_spec_without_show_is_reported_in_it() {
    // The diagnostic pointed into the embedded catalog (file 0), through the binary and
    // through `check_bytes`.
    let (code, stderr) = check_text(b"sites:\n  lab: { kind: lab }\n");
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("[E0006]") && stderr.contains("main.yaml:1:1"),
        "{stderr}"
    );
    assert_eq!(democ::check_bytes(b"sites:\n  lab: { kind: lab }\n"), 1);
}

#[test]
fn regression_a_cable_refused_for_its_speed_frees_its_ports() {
    // Found by the `check` fuzz target (hostile dictionary): a cable whose ends disagree
    // on speed kept its ports claimed for a link that was never added, and the next cable
    // on one of those ports indexed past the end of the links (a panic).
    let text = "show:\n  name: x\n  addressing: { dtn: 10.4.4.0/24 }\n\
                sites:\n  lab: { kind: booth }\n\
                switches:\n  z: { site: lab, model: dell-z9100-on, os: ftos9 }\n\
                hosts:\n  d-[1-2]:\n    site: lab\n    chassis: supermicro-4028gr-tr2\n\
                \x20   cpu: xeon-e5-2697-v3\n\
                \x20   nics:\n      - { model: mellanox-cx4-100g, slot: \"1\", ports: [p0] }\n\
                \x20     - { model: mellanox-cx5-100g, slot: \"7\", ports: [p3] }\n\
                links:\n\
                \x20 - { a: \"d-1:p0\", b: \"z:1/1\", media: dac }\n\
                \x20 - { a: \"d-2:p3\", b: \"z:1/7\", media: dac, speed: 40G }\n\
                \x20 - { a: \"d-2:p3\", b: \"z:1/8\", media: dac }\n";
    let (code, stderr) = check_text(text.as_bytes());
    assert_eq!(code, 1, "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

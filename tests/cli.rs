//! The command line as a user meets it: located diagnostics with did-you-mean, every
//! mistake of a pass in one run, `--format json` as data, `explain`, exit codes for usage
//! and I/O problems, and `schema` kept in sync with schema/democ.schema.json.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs democ from the crate root.
fn democ(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_democ"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .expect("democ runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Writes `text` as `show.yaml` in a fresh folder.
fn spec(text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("show.yaml");
    std::fs::write(&path, text).expect("write spec");
    (dir, path.to_string_lossy().into_owned())
}

/// `democ check FILE --format json`, parsed; panics with the output if it is not JSON.
fn check_json(file: &str) -> (i32, Value) {
    let run = democ(&["check", file, "--format", "json"]);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap_or_else(|e| {
        panic!(
            "`--format json` of {file} is not JSON ({e}):\n{}",
            run.stdout
        )
    });
    (run.code, doc)
}

fn diagnostics(doc: &Value) -> &Vec<Value> {
    doc["diagnostics"]
        .as_array()
        .expect("`diagnostics` is a list")
}

/// (code, line, column) of every diagnostic.
fn located(doc: &Value) -> Vec<(String, u64, u64)> {
    diagnostics(doc)
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_owned(),
                d["line"].as_u64().unwrap_or(0),
                d["column"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

const HEADER: &str = "\
show:
  name: cli
  addressing: { dtn: 10.1.1.0/24 }
sites:
  lab: { kind: lab }
switches:
  sw1: { site: lab, model: dell-z9100-on }
hosts:
  dtn-[1-2]:
    site: lab
    chassis: supermicro-x10dri
    cpu: xeon-e5-2697-v3
    nics:
      - { model: mellanox-cx4-100g, slot: \"2\", ports: [p0] }
";

#[test]
fn misspelt_switch_in_a_link_is_located_with_a_did_you_mean() {
    // Line 19, column 8 is where `sw11` starts.
    let text = format!(
        "{HEADER}links:\n  - a: dtn-1:p0\n    b: sw1:1/1\n  - a: dtn-2:p0\n    b: sw11:1/2\n"
    );
    let (_dir, path) = spec(&text);
    let (code, doc) = check_json(&path);
    assert_eq!(code, 1);
    let d = &diagnostics(&doc)[0];
    assert_eq!(located(&doc), [("E0101".to_owned(), 19, 8)], "{doc:#}");
    assert_eq!(d["help"], "did you mean `sw1`?", "{doc:#}");
    assert!(
        d["file"].as_str().is_some_and(|f| f.ends_with("show.yaml")),
        "{doc:#}"
    );

    let run = democ(&["check", &path, "--color", "never"]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("show.yaml:19:8"), "{}", run.stderr);
    assert!(
        run.stderr.contains("help: did you mean `sw1`?"),
        "{}",
        run.stderr
    );
}

#[test]
fn three_independent_mistakes_give_three_diagnostics_in_one_run() {
    // Decoding: an unknown field, a wrong type and a malformed rate.
    let text = format!(
        "{HEADER}  extra:\n    site: lab\n    chassis: supermicro-x10dri\n    cpu: xeon-e5-2697-v3\n    memroy_gb: 64\n\
         links:\n  - {{ a: \"dtn-[1-2]:p0\", b: \"sw1:1/[1-2]\", vlan: [1] }}\n\
         flows:\n  - {{ name: f1, from: dtn-1, to: dtn-2, rate: 100Gb, protocol: tcp }}\n"
    );
    let (_dir, path) = spec(&text);
    let (code, doc) = check_json(&path);
    assert_eq!(code, 1);
    let codes: Vec<String> = located(&doc).into_iter().map(|(c, _, _)| c).collect();
    assert_eq!(codes, ["E0005", "E0004", "E0007"], "{doc:#}");
    assert_eq!(doc["errors"], 3);

    // Resolving: an unknown site, an unknown model and an unknown host in a flow.
    let text = "\
show: { name: cli }
sites:
  lab: { kind: lab }
switches:
  sw1: { site: labb, model: dell-z9100-on }
  sw2: { site: lab, model: arista-7280 }
hosts:
  dtn-1: { site: lab, chassis: supermicro-x10dri, cpu: xeon-e5-2697-v3 }
flows:
  - { name: f1, from: dtn-1, to: dtn-9, rate: 10G, protocol: tcp }
";
    let (_dir, path) = spec(text);
    let (code, doc) = check_json(&path);
    assert_eq!(code, 1);
    let found = located(&doc);
    assert_eq!(found.len(), 3, "{doc:#}");
    assert_eq!(found[0], ("E0101".to_owned(), 5, 16), "{doc:#}");
    assert_eq!(found[1], ("E0103".to_owned(), 6, 28), "{doc:#}");
    assert_eq!(found[2], ("E0101".to_owned(), 10, 34), "{doc:#}");
}

#[test]
fn duplicate_key_wrong_type_and_unknown_field_are_each_located() {
    let cases = [
        ("show:\n  name: a\n  name: b\n", "E0003", 3, 3),
        (
            "show:\n  name: a\nsites:\n  lab: { kind: lab }\nswitches:\n  sw1: { site: lab, model: dell-z9100-on, asn: fast }\n",
            "E0004",
            6,
            48,
        ),
        ("show:\n  name: a\n  venu: SLC\n", "E0005", 3, 3),
    ];
    for (text, want, line, column) in cases {
        let (_dir, path) = spec(text);
        let (code, doc) = check_json(&path);
        assert_eq!(code, 1, "{text}");
        assert_eq!(
            located(&doc),
            [(want.to_owned(), line, column)],
            "{text}\n{doc:#}"
        );
        assert!(
            diagnostics(&doc)[0]["help"]
                .as_str()
                .is_some_and(|h| !h.is_empty()),
            "{doc:#}"
        );
    }
}

/// Every bad spec's `--format json` parses and locates every diagnostic.
#[test]
fn json_output_locates_every_diagnostic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["tests/bad", "tests/bad/corpus"] {
        for entry in std::fs::read_dir(root.join(dir)).expect("tests/bad is readable") {
            let path = entry.expect("directory entry").path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("")
                .to_owned();
            if name.starts_with('E') && name.ends_with(".yaml") {
                files.push(format!("{dir}/{name}"));
            }
        }
    }
    assert!(files.len() > 30, "bad specs found: {files:?}");
    for file in files {
        let (code, doc) = check_json(&file);
        assert_eq!(code, 1, "{file}");
        let items = diagnostics(&doc);
        assert!(!items.is_empty(), "{file}: no diagnostics");
        let errors = items.iter().filter(|d| d["severity"] == "error").count();
        assert_eq!(doc["errors"].as_u64(), Some(errors as u64), "{file}");
        for d in items {
            assert!(
                d["file"].as_str().is_some_and(|f| f.ends_with(".yaml")),
                "{file}: {d}"
            );
            assert!(d["line"].as_u64().is_some_and(|l| l >= 1), "{file}: {d}");
            assert!(d["column"].as_u64().is_some_and(|c| c >= 1), "{file}: {d}");
            let code = d["code"].as_str().unwrap_or("");
            assert!(
                code.len() == 5 && (code.starts_with('E') || code.starts_with('W')),
                "{file}: {d}"
            );
            assert!(
                d["message"].as_str().is_some_and(|m| !m.is_empty()),
                "{file}: {d}"
            );
        }
    }
}

#[test]
fn json_output_of_a_clean_spec_is_an_empty_report() {
    let (code, doc) = check_json("examples/calibration/single-stream.yaml");
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(doc["errors"], 0);
}

#[test]
fn explain_prints_a_code_and_refuses_unknown_ones() {
    for query in ["E0101", "e0101", "unknown-reference"] {
        let run = democ(&["explain", query]);
        assert_eq!(run.code, 0, "{query}: {}", run.stderr);
        assert!(
            run.stdout.starts_with("E0101 (unknown-reference)"),
            "{}",
            run.stdout
        );
        assert!(run.stdout.contains("not declared"), "{}", run.stdout);
    }
    let run = democ(&["explain", "E9999"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("no diagnostic code `E9999`"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty());
}

#[test]
fn a_missing_or_unreadable_spec_is_a_usage_error() {
    let run = democ(&["check", "tests/bad/no-such-show.yaml"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("cannot read `tests/bad/no-such-show.yaml`"),
        "{}",
        run.stderr
    );
    let run = democ(&["check", "tests/bad"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("is a directory"), "{}", run.stderr);
    let run = democ(&["check", "--format", "xml"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let run = democ(&["frobnicate"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

#[test]
fn schema_matches_the_committed_file() {
    let run = democ(&["schema"]);
    assert_eq!(run.code, 0);
    let committed = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/democ.schema.json"),
    )
    .expect("schema/democ.schema.json exists");
    assert!(
        run.stdout == committed,
        "schema/democ.schema.json is stale: regenerate it with `cargo run -q -- schema > schema/democ.schema.json`"
    );
    let _: Value = serde_json::from_str(&run.stdout).expect("the schema is JSON");
}

/// A reader that goes away (`democ synth ... | head -1`) is an I/O problem, not a
/// panic: exit code 2, and nothing but the exit on stderr (print! used to panic with
/// "failed printing to stdout: Broken pipe").
#[test]
fn a_closed_standard_output_ends_democ_with_code_2_not_a_panic() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_democ"))
        .args([
            "synth",
            "--shape",
            "booths",
            "--switches",
            "400",
            "--flows",
            "100",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("democ runs");
    // Megabytes of YAML into a pipe nobody reads any more.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("democ ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(2), "{stderr}");
}

/// `democ catalog` finds an entry by the vendor's part number (issue 41): the entries
/// whose name or title hold it, in full, and exit 0.
#[test]
fn catalog_finds_entries_by_part_number() {
    for (written, key) in [
        ("DCS-7060DX5-64S", "arista-7060dx5-64s:"),
        ("MCX75310AAS-NEAT", "nvidia-cx7-400g:"),
    ] {
        let o = democ(&["catalog", written]);
        assert_eq!(o.code, 0, "{}", o.stderr);
        assert!(o.stdout.contains(key), "{written}: {}", o.stdout);
        assert!(o.stderr.contains("no catalog name"), "{}", o.stderr);
    }
    assert_eq!(democ(&["catalog", "juniper-qfx5220"]).code, 2);
}

//! Stable addresses (issue 11 §6): the address lock `democ.lock` beside the spec keeps
//! every assigned address across edits. Every test works on a copy of examples/sc16 in a
//! temporary folder: the repository's examples are never modified.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::copy_dir;

fn democ(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_democ"))
        .current_dir(dir)
        .args(args)
        .arg("--color")
        .arg("never")
        .output()
        .expect("democ runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A copy of examples/sc16 in a temporary folder, as `<tmp>/sc16`.
fn sc16() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    copy_dir(&root.join("examples/sc16"), &tmp.path().join("sc16"));
    tmp
}

fn build(dir: &Path, out: &str, extra: &[&str]) -> Output {
    let mut args = vec!["build", "sc16/show.yaml", "-o", out, "--hosts"];
    args.extend_from_slice(extra);
    democ(dir, &args)
}

/// Whether rendered diagnostics hold one of `code` (`error[E0132]`, `note[N0131]`).
fn reports(err: &str, code: &str) -> bool {
    err.contains(&format!("[{code}]"))
}

fn ok(o: &Output) {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} has no {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// A new DTN as the first host of caltech.yaml, cabled to a free port of its first switch.
fn add_host_at_the_top(dir: &Path) {
    let f = dir.join("sc16/booths/caltech.yaml");
    edit(
        &f,
        "\nhosts:\n",
        "\nhosts:\n  cit-aaa-new:\n    site: caltech-a\n    chassis: dell-r730\n    cpu: xeon-e5-2620-v3\n    memory_gb: 64\n    nics:\n      - { model: intel-x520-10g, slot: \"5\", ports: [p0] }\n\n",
    );
    edit(
        &f,
        "\nlinks:\n",
        "\nlinks:\n  - { a: \"cit-aaa-new:p0\", b: \"cit-a-z9100-1:1/34\", media: dac, length_m: 2 }\n",
    );
}

/// Every host's interface addresses in a build's IR (ir/hosts/*.json).
fn host_addresses(out: &Path) -> BTreeMap<String, Vec<String>> {
    let mut all = BTreeMap::new();
    for e in std::fs::read_dir(out.join("ir/hosts")).unwrap() {
        let path = e.unwrap().path();
        let ir: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let addrs = ir["interfaces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| format!("{} {}", i["port"], i["address"]))
            .collect();
        all.insert(ir["name"].as_str().unwrap().to_owned(), addrs);
    }
    all
}

/// Every node's `mgmt-ipv4` in a build's containerlab topology.
fn lab_addresses(out: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(out.join("lab/sc16.clab.yml")).unwrap();
    let mut all = BTreeMap::new();
    let mut node = String::new();
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        if indent == 4 && line.ends_with(':') {
            node = line.trim().trim_end_matches(':').to_owned();
        } else if let Some(a) = line.trim().strip_prefix("mgmt-ipv4: ") {
            all.insert(node.clone(), a.to_owned());
        }
    }
    all
}

fn lock_of(dir: &Path) -> PathBuf {
    dir.join("sc16/democ.lock")
}

#[test]
fn adding_a_host_at_the_top_of_caltech_moves_no_other_host() {
    let tmp = sc16();
    let dir = tmp.path();
    // Start from no lock: the first build allocates as democ always did and writes one.
    std::fs::remove_file(lock_of(dir)).ok();
    ok(&build(dir, "before", &[]));
    assert!(lock_of(dir).is_file(), "the build writes the lock");
    add_host_at_the_top(dir);
    ok(&build(dir, "after", &[]));
    let (before, after) = (
        host_addresses(&dir.join("before")),
        host_addresses(&dir.join("after")),
    );
    assert_eq!(after.len(), before.len() + 1);
    for (host, addrs) in &before {
        assert_eq!(Some(addrs), after.get(host), "`{host}` moved");
    }
    assert!(after["cit-aaa-new"][0].contains("10.16."), "{after:?}");
    // Nor any node's lab management address, though the new name sorts first.
    let (lab_before, lab_after) = (
        lab_addresses(&dir.join("before")),
        lab_addresses(&dir.join("after")),
    );
    assert!(lab_before.len() > 60, "{lab_before:?}");
    for (node, a) in &lab_before {
        assert_eq!(Some(a), lab_after.get(node), "`{node}`'s lab address moved");
    }
    assert!(lab_after.contains_key("cit-aaa-new"), "{lab_after:?}");
    // Without the lock the same edit renumbers others: the test proves something.
    ok(&build(dir, "unlocked", &["--no-lock"]));
    let unlocked = host_addresses(&dir.join("unlocked"));
    assert!(
        before.iter().any(|(h, a)| unlocked.get(h) != Some(a)),
        "adding a host at the top no longer renumbers without a lock: pick another edit"
    );
}

#[test]
fn the_committed_lock_is_what_a_build_writes_and_changes_nothing() {
    let tmp = sc16();
    let dir = tmp.path();
    let committed = std::fs::read_to_string(lock_of(dir)).expect("examples/sc16/democ.lock");
    ok(&build(dir, "with", &[]));
    assert_eq!(std::fs::read_to_string(lock_of(dir)).unwrap(), committed);
    ok(&build(dir, "without", &["--no-lock"]));
    std::fs::remove_file(lock_of(dir)).unwrap();
    ok(&build(dir, "fresh", &[]));
    assert_eq!(
        std::fs::read_to_string(lock_of(dir)).unwrap(),
        committed,
        "a build without a lock writes the committed one"
    );
    // The lock changes no byte of an unchanged show's build.
    for other in ["without", "fresh"] {
        let o = Command::new("diff")
            .args(["-r", "with", other])
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    }
}

#[cfg(unix)]
#[test]
fn an_unchanged_lock_is_not_rewritten() {
    use std::os::unix::fs::MetadataExt;
    let tmp = sc16();
    let dir = tmp.path();
    let inode = std::fs::metadata(lock_of(dir)).unwrap().ino();
    ok(&build(dir, "out", &[]));
    ok(&build(dir, "out", &[]));
    assert_eq!(std::fs::metadata(lock_of(dir)).unwrap().ino(), inode);
}

#[test]
fn no_lock_neither_reads_nor_writes_one() {
    let tmp = sc16();
    let dir = tmp.path();
    std::fs::write(lock_of(dir), "not a lock").unwrap();
    ok(&build(dir, "out", &["--no-lock"]));
    assert_eq!(std::fs::read_to_string(lock_of(dir)).unwrap(), "not a lock");
    std::fs::remove_file(lock_of(dir)).unwrap();
    ok(&build(dir, "out", &["--no-lock"]));
    assert!(!lock_of(dir).exists());
    let both = democ(dir, &["check", "sc16/show.yaml", "--locked", "--no-lock"]);
    assert_eq!(both.status.code(), Some(2), "{}", stderr(&both));
}

#[test]
fn locked_fails_when_the_lock_would_change_and_passes_when_not() {
    let tmp = sc16();
    let dir = tmp.path();
    ok(&democ(dir, &["check", "sc16/show.yaml", "--locked"]));
    ok(&build(dir, "out", &["--locked"]));
    add_host_at_the_top(dir);
    let before = std::fs::read_to_string(lock_of(dir)).unwrap();
    for args in [
        &["check", "sc16/show.yaml", "--locked"][..],
        &["build", "sc16/show.yaml", "-o", "out2", "--locked"][..],
    ] {
        let o = democ(dir, args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(reports(&err, "E0132"), "{err}");
        assert!(err.contains("sc16/booths/caltech.yaml:"), "located: {err}");
        assert!(err.contains("`cit-aaa-new:p0`: 10.16."), "{err}");
        assert!(err.contains("= help: "), "{err}");
    }
    assert!(!dir.join("out2").exists(), "a refused build writes nothing");
    assert_eq!(std::fs::read_to_string(lock_of(dir)).unwrap(), before);
    ok(&build(dir, "out", &[]));
    ok(&democ(dir, &["check", "sc16/show.yaml", "--locked"]));
    // No lock at all, and an allocation to record: `--locked` says so.
    std::fs::remove_file(lock_of(dir)).unwrap();
    let o = democ(dir, &["check", "sc16/show.yaml", "--locked"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("does not exist"), "{}", stderr(&o));
}

#[test]
fn a_stale_entry_is_dropped_with_a_note() {
    let tmp = sc16();
    let dir = tmp.path();
    // Booth B's four 25GE DTNs become three: `cit-b-25g-4` is gone.
    let caltech = dir.join("sc16/booths/caltech.yaml");
    edit(&caltech, "cit-b-25g-[1-4]:\n", "cit-b-25g-[1-3]:\n");
    edit(&caltech, "a: cit-b-25g-[1-4]:p0", "a: cit-b-25g-[1-3]:p0");
    edit(
        &caltech,
        "b: cit-b-z9100:1/31:[1-4]",
        "b: cit-b-z9100:1/31:[1-3]",
    );
    let flows = dir.join("sc16/flows.yaml");
    edit(
        &flows,
        "from: cit-b-25g-[1-4]\n    to: cit-tcp-[5-8]\n    rate: 80G",
        "from: cit-b-25g-[1-3]\n    to: cit-tcp-[5-7]\n    rate: 60G",
    );
    let o = democ(dir, &["check", "sc16/show.yaml", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let notes: Vec<&serde_json::Value> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "N0131")
        .collect();
    // Its DTN interface's entry and its lab management address's.
    assert_eq!(notes.len(), 2, "{doc:#}");
    for note in &notes {
        assert_eq!(note["severity"], "note");
        assert!(note["file"].as_str().unwrap().ends_with("democ.lock"));
        let message = note["message"].as_str().unwrap();
        assert!(message.contains("`cit-b-25g-4"), "{doc:#}");
    }
    let o = build(dir, "out", &[]);
    ok(&o);
    assert!(reports(&stderr(&o), "N0131"), "{}", stderr(&o));
    let lock = std::fs::read_to_string(lock_of(dir)).unwrap();
    assert!(!lock.contains("cit-b-25g-4"), "{lock}");
    assert!(lock.contains("cit-b-25g-3"), "{lock}");
    ok(&democ(dir, &["check", "sc16/show.yaml", "--locked"]));
}

#[test]
fn a_conflicting_entry_is_dropped_and_reallocated() {
    let tmp = sc16();
    let dir = tmp.path();
    let lock = std::fs::read_to_string(lock_of(dir)).unwrap();
    let line = lock
        .lines()
        .find(|l| l.contains("\"cit-rdma-2:p0\""))
        .unwrap()
        .to_owned();
    // Outside the DTN pool now (a hand edit, or a pool that shrank).
    edit(&lock_of(dir), &line, "  \"cit-rdma-2:p0\": 10.99.0.2");
    let o = build(dir, "out", &[]);
    ok(&o);
    let err = stderr(&o);
    assert!(
        reports(&err, "N0131") && err.contains("outside the dtn pool"),
        "{err}"
    );
    assert!(
        std::fs::read_to_string(lock_of(dir))
            .unwrap()
            .contains(&line)
    );
}

#[test]
fn a_corrupt_lock_is_a_located_error_and_is_left_alone() {
    let tmp = sc16();
    let dir = tmp.path();
    for bad in [
        "version: 1\nhosts: {\n",
        "version: 7\n",
        "version: 1\nhosts:\n  \"a:p0\": 300.1.1.1\n",
        "version: 1\nlinks:\n  \"a:1 -- b:1\": 10.0.0.1\n",
        "[1, 2, 3]\n",
        "\u{0}\u{1}binary",
    ] {
        std::fs::write(lock_of(dir), bad).unwrap();
        let o = build(dir, "out", &[]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{bad:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(
            reports(&err, "E0130") || reports(&err, "E0002"),
            "{bad:?}: {err}"
        );
        assert!(
            err.contains("sc16/democ.lock:"),
            "{bad:?} not located: {err}"
        );
        assert!(err.contains("= help: "), "{err}");
        assert_eq!(std::fs::read_to_string(lock_of(dir)).unwrap(), bad);
        assert!(!dir.join("out").exists());
    }
}

#[test]
fn the_built_in_example_writes_no_lock() {
    let tmp = tempfile::tempdir().unwrap();
    ok(&democ(tmp.path(), &["build", "-o", "out"]));
    let names: Vec<String> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["out"]);
}

/// The spec a lock belongs to: `show.yaml` beside `democ.lock`, `NAME.yaml` beside
/// `NAME.democ.lock`.
fn spec_of(lock: &Path) -> Option<PathBuf> {
    let name = lock.file_name()?.to_str()?;
    let spec = match name.strip_suffix(".democ.lock") {
        Some(stem) => format!("{stem}.yaml"),
        None if name == "democ.lock" => "show.yaml".to_owned(),
        None => return None,
    };
    Some(lock.with_file_name(spec))
}

fn locks_below(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.is_dir() {
            locks_below(&path, out);
        } else if spec_of(&path).is_some() {
            out.push(path);
        }
    }
}

/// Every lock in the repository (the examples', and the fixtures' that tests build,
/// committed so that those builds leave the tree clean) matches its show: CI would
/// otherwise renumber on the next build, and a test build would rewrite it.
#[test]
fn the_repository_locks_are_up_to_date() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut locks = Vec::new();
    locks_below(&root.join("examples"), &mut locks);
    locks_below(&root.join("tests/fixtures"), &mut locks);
    assert!(locks.len() >= 3, "{locks:?}");
    for lock in locks {
        let spec = spec_of(&lock).unwrap();
        let spec = spec
            .strip_prefix(root)
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned();
        let o = democ(root, &["check", &spec, "--locked"]);
        assert_eq!(o.status.code(), Some(0), "{spec}: {}", stderr(&o));
    }
}

/// A large show's lock is read beside the resolving (from 8,192 flows): kept as read,
/// and a damaged one refused with its place in the lock, as on a small show.
#[test]
fn a_large_shows_lock_is_read_beside_the_resolving() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let synth = Command::new(env!("CARGO_BIN_EXE_democ"))
        .args([
            "synth",
            "--shape",
            "booths",
            "--switches",
            "100",
            "--hosts-per-switch",
            "10",
            "--flows",
            "9000",
            "--seed",
            "1",
        ])
        .output()
        .expect("democ runs");
    ok(&synth);
    std::fs::write(dir.join("big.yaml"), &synth.stdout).unwrap();
    ok(&democ(dir, &["build", "big.yaml", "-o", "out"]));
    let lock = dir.join("big.democ.lock");
    assert!(lock.exists(), "the build wrote the lock");
    ok(&democ(dir, &["check", "big.yaml", "--locked"]));
    let text = std::fs::read_to_string(&lock).unwrap();
    let (line, entry) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("\"dtn-0-1:p0\":"))
        .expect("a host's entry");
    let address = entry.rsplit(' ').next().unwrap();
    edit(
        &lock,
        &format!("{entry}\n"),
        &format!("{}\n", entry.replace(address, "10.0.0.300")),
    );
    let o = democ(dir, &["check", "big.yaml"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(reports(&err, "E0130"), "{err}");
    assert!(
        err.contains(&format!("big.democ.lock:{}:", line + 1)),
        "{err}"
    );
}

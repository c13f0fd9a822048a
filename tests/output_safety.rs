//! `democ build -o DIR` never deletes what is not democ's, reads no old output back
//! (nor anything through a symlink), and leaves no debris when interrupted, killed or
//! raced: the hardening issue's reproducers for the output folder.

mod common;
#[path = "fixtures/render/support.rs"]
mod support;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use support::{FIXTURE, build, mtimes, stderr, tree};

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("ls")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// `democ ARGS` as support::democ runs it, bounded as issue 14 asks
/// (common::democ_bounded: no hang, a second of processor time in a release build,
/// under 300 MB, no panic).
fn bounded(args: &[&str]) -> common::Run {
    let mut all = args.to_vec();
    all.extend([
        "--color",
        "never",
        "--allow-include-outside",
        support::FIXTURES,
    ]);
    common::democ_bounded(None, &all)
}

fn build_into(out: &Path) -> common::Run {
    bounded(&[
        "build",
        FIXTURE,
        "-o",
        out.to_str().expect("utf-8"),
        "--hosts",
    ])
}

/// The fixture's show and catalog copied into `dir` (so a test can move them).
fn copy_fixture(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).expect("mkdir");
    for f in ["show.yaml", "catalog.yaml"] {
        std::fs::copy(Path::new("tests/fixtures/render").join(f), dir.join(f)).expect("copy");
    }
    dir.join("show.yaml")
}

#[test]
fn a_folder_with_someone_elses_manifest_is_refused_and_kept() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let ext = tmp.path().join("extension");
    std::fs::create_dir_all(ext.join("icons")).expect("mkdir");
    let manifest = r#"{ "manifest_version": 3, "name": "My extension", "version": "1.0" }"#;
    std::fs::write(ext.join("manifest.json"), manifest).expect("write");
    std::fs::write(ext.join("background.js"), "chrome.runtime").expect("write");
    std::fs::write(ext.join("icons/16.png"), "png").expect("write");
    let before = tree(&ext);
    let o = build_into(&ext);
    assert_eq!(o.code, 2, "{}", o.stderr.clone());
    assert!(
        o.stderr.clone().contains("is not a democ build manifest"),
        "{}",
        o.stderr.clone()
    );
    assert!(tree(&ext) == before, "the extension's files changed");
}

#[test]
fn files_a_user_put_in_the_output_are_refused_and_kept() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(FIXTURE, &out);
    std::fs::write(out.join("NOTES.md"), "my notes").expect("write");
    std::fs::create_dir_all(out.join(".git/objects")).expect("mkdir");
    std::fs::write(out.join(".git/HEAD"), "ref: refs/heads/main").expect("write");
    std::fs::write(out.join("switches/my-extra.cfg"), "mine").expect("write");
    let before = (tree(&out), mtimes(&out));
    let o = build_into(&out);
    assert_eq!(o.code, 2, "{}", o.stderr.clone());
    let err = o.stderr.clone();
    assert!(
        err.contains("/out/.git/`"),
        "names the first foreign entry: {err}"
    );
    assert!(err.contains("not a file democ wrote"), "{err}");
    assert!(
        (tree(&out), mtimes(&out)) == before,
        "the output folder changed"
    );
    // With only NOTES.md left, that is the one named.
    std::fs::remove_dir_all(out.join(".git")).expect("rm");
    std::fs::remove_file(out.join("switches/my-extra.cfg")).expect("rm");
    let o = build_into(&out);
    assert_eq!(o.code, 2, "{}", o.stderr.clone());
    assert!(
        o.stderr.clone().contains("/out/NOTES.md`"),
        "{}",
        o.stderr.clone()
    );
    assert_eq!(
        std::fs::read_to_string(out.join("NOTES.md")).expect("kept"),
        "my notes"
    );
    assert_eq!(names(tmp.path()), ["out"], "no staging folder or lock left");
}

#[test]
fn a_spec_or_include_inside_the_output_is_refused_before_writing() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(FIXTURE, &out);
    // The main spec inside the output folder.
    let spec = copy_fixture(&out.join("src"));
    let before = (tree(&out), mtimes(&out));
    let o = bounded(&[
        "build",
        spec.to_str().expect("utf-8"),
        "-o",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.code, 2, "{}", o.stderr.clone());
    assert!(
        o.stderr.clone().contains("is inside the output folder"),
        "{}",
        o.stderr.clone()
    );
    assert!(
        (tree(&out), mtimes(&out)) == before,
        "the output folder changed"
    );
    // The main spec outside, its include inside (the output is a subfolder of the show).
    let show = tmp.path().join("show");
    let spec = copy_fixture(&show);
    let out = show.join("out");
    build(spec.to_str().expect("utf-8"), &out);
    std::fs::rename(show.join("catalog.yaml"), out.join("catalog.yaml")).expect("mv");
    let text = std::fs::read_to_string(&spec).expect("spec");
    std::fs::write(
        &spec,
        text.replace("include: [catalog.yaml]", "include: [out/catalog.yaml]"),
    )
    .expect("write");
    let before = (tree(&out), mtimes(&out));
    let o = bounded(&[
        "build",
        spec.to_str().expect("utf-8"),
        "-o",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.code, 2, "{}", o.stderr.clone());
    let err = o.stderr.clone();
    assert!(
        err.contains("the spec file `") && err.contains("catalog.yaml` is inside"),
        "{err}"
    );
    assert!(
        (tree(&out), mtimes(&out)) == before,
        "the output folder changed"
    );
}

/// Runs `democ` bounded as issue 14 asks (common::democ_bounded): a rebuild that read
/// through a symlink to /dev/zero never ended (it reached 2.3 GB), so the test fails on a
/// hang, on more than a second of processor time (release build) or on 300 MB.
fn within(args: &[&str]) -> common::Run {
    common::democ_bounded(None, args)
}

#[test]
fn a_rebuild_reads_nothing_through_a_symlink() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(FIXTURE, &out);
    let expected = tree(&out);
    let outs = out.to_str().expect("utf-8");
    // An output file replaced by a symlink to an endless device, another by a symlink
    // to a file of the user's: the first is never read, the second never written.
    let cfg = out.join("switches/eos-1.cfg");
    std::fs::remove_file(&cfg).expect("rm");
    std::os::unix::fs::symlink("/dev/zero", &cfg).expect("symlink");
    let mine = tmp.path().join("mine.cfg");
    std::fs::write(&mine, "my own config").expect("write");
    let ir = out.join("ir/eos-1.json");
    std::fs::remove_file(&ir).expect("rm");
    std::os::unix::fs::symlink(&mine, &ir).expect("symlink");
    // And one by a symlink to a FIFO nobody writes: reading it would block forever.
    let fifo = tmp.path().join("fifo");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let lab = out.join("lab/mini.clab.yml");
    std::fs::remove_file(&lab).expect("rm");
    std::os::unix::fs::symlink(&fifo, &lab).expect("symlink");
    let o = within(&["build", FIXTURE, "-o", outs, "--hosts"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        tree(&out) == expected,
        "the symlinks were replaced by the build's files"
    );
    assert!(!std::fs::symlink_metadata(&cfg).expect("cfg").is_symlink());
    assert_eq!(
        std::fs::read_to_string(&mine).expect("mine"),
        "my own config"
    );
    // The manifest itself a symlink to /dev/zero: refused, at once.
    let manifest = out.join("manifest.json");
    std::fs::remove_file(&manifest).expect("rm");
    std::os::unix::fs::symlink("/dev/zero", &manifest).expect("symlink");
    let o = within(&["build", FIXTURE, "-o", outs, "--hosts"]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("not a regular file"), "{}", o.stderr);
}

#[test]
fn stale_staging_folders_of_dead_builds_are_removed() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(FIXTURE, &out);
    // 4194999 is above Linux's largest PID: no such process can exist.
    let dead = tmp.path().join(".out.democ-new-4194999");
    std::fs::create_dir_all(dead.join("switches")).expect("mkdir");
    std::fs::write(dead.join("switches/half.cfg"), "half").expect("write");
    // A staging folder of a live process (this test) is left alone.
    let live = tmp
        .path()
        .join(format!(".out.democ-new-{}", std::process::id()));
    std::fs::create_dir(&live).expect("mkdir");
    build(FIXTURE, &out);
    assert!(
        !dead.exists(),
        "the dead build's staging folder is still there"
    );
    assert!(live.exists());
}

/// `democ build` stalled (by the test hook) right after staging its first file.
fn stalled_build(out: &Path) -> (Child, PathBuf) {
    let child = Command::new(env!("CARGO_BIN_EXE_democ"))
        .args([
            "build",
            FIXTURE,
            "-o",
            out.to_str().expect("utf-8"),
            "--hosts",
        ])
        .env("DEMOC_TEST_HOOK", "stall-staging")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("democ runs");
    let staging = out
        .parent()
        .expect("parent")
        .join(format!(".out.democ-new-{}", child.id()));
    let start = Instant::now();
    while !std::fs::read_dir(&staging).is_ok_and(|mut d| d.next().is_some()) {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the build never staged a file"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    (child, staging)
}

fn signal(child: &Child, sig: &str) {
    let ok = Command::new("kill")
        .args([sig, &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(ok.success());
}

#[test]
fn an_interrupted_build_removes_its_staging_and_keeps_the_output() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(FIXTURE, &out);
    let before = (tree(&out), mtimes(&out));
    for (sig, code) in [("-INT", 130), ("-TERM", 143)] {
        let (child, staging) = stalled_build(&out);
        signal(&child, sig);
        let o = child.wait_with_output().expect("wait");
        assert_eq!(o.status.code(), Some(code), "{}", stderr(&o));
        assert!(stderr(&o).contains("interrupted by SIG"), "{}", stderr(&o));
        assert!(!staging.exists(), "the staging folder is left after {sig}");
        assert_eq!(names(tmp.path()), ["out"]);
        assert!((tree(&out), mtimes(&out)) == before, "the output changed");
    }
    // Killed outright, it cannot clean up: the next build does.
    let (mut child, staging) = stalled_build(&out);
    child.kill().expect("kill");
    child.wait().expect("wait");
    assert!(staging.exists());
    build(FIXTURE, &out);
    assert_eq!(names(tmp.path()), ["out"]);
}

#[test]
fn a_second_build_into_the_same_folder_is_refused_while_one_runs() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(FIXTURE, &out);
    let (child, _) = stalled_build(&out);
    let o = build_into(&out);
    assert_eq!(o.code, 2, "{}", o.stderr.clone());
    assert!(
        o.stderr.clone().contains("another democ build is writing"),
        "{}",
        o.stderr.clone()
    );
    signal(&child, "-INT");
    child.wait_with_output().expect("wait");
    let o = build_into(&out);
    assert_eq!(o.code, 0, "{}", o.stderr.clone());
    assert_eq!(names(tmp.path()), ["out"]);
}

#[test]
fn ir_to_a_full_disk_leaves_no_temporary_file() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let path = tmp.path().join("ir.json");
    std::fs::write(&path, "previous").expect("write");
    let o = common::democ_bounded_env(
        None,
        &["ir", FIXTURE, "-o", path.to_str().expect("utf-8")],
        &[("DEMOC_TEST_HOOK", "disk-full")],
    );
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("no space left on device"), "{}", o.stderr);
    assert_eq!(names(tmp.path()), ["ir.json"], "a temporary file is left");
    assert_eq!(std::fs::read_to_string(&path).expect("kept"), "previous");
}

#[test]
fn a_rebuild_links_in_nothing_through_a_symlinked_folder() {
    // hosts/ moved out of the build and replaced by a symlink to it: the old files look
    // unchanged through the link, and were hard-linked into the new build from outside.
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(FIXTURE, &out);
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::rename(out.join("hosts"), &elsewhere).expect("mv");
    std::os::unix::fs::symlink(&elsewhere, out.join("hosts")).expect("symlink");
    let outs = out.to_str().expect("utf-8");
    let o = within(&["build", FIXTURE, "-o", outs, "--hosts"]);
    let hosts = out.join("hosts");
    if std::fs::symlink_metadata(&hosts)
        .expect("hosts")
        .is_symlink()
    {
        // Refused, the folder left as it was.
        assert_eq!(o.code, 2, "{}", o.stderr);
        return;
    }
    assert_eq!(o.code, 0, "{}", o.stderr);
    use std::os::unix::fs::MetadataExt as _;
    for e in std::fs::read_dir(&elsewhere).expect("ls").flatten() {
        let outside = e.metadata().expect("meta");
        let inside = out.join("hosts").join(e.file_name());
        if let Ok(m) = std::fs::symlink_metadata(&inside) {
            assert!(
                m.ino() != outside.ino(),
                "{} is the outside file, linked in",
                inside.display()
            );
        }
    }
}

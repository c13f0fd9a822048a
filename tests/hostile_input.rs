//! Hostile inputs (issue 14): files that are not files (FIFOs, devices), includes that
//! try to leave the show's folder, floods of diagnostics, control characters. Each runs
//! the real binary under a deadline, measures its peak memory, and must exit 1 or 2
//! without a panic. Files, FIFOs and symlinks are made in a temp folder at test time.

#![cfg(unix)]

use std::path::Path;
use std::process::Command;

mod common;

use common::{Run, democ_bounded};

/// `democ check main.yaml --color never` in `dir`: a second of processor time at most
/// (in a release build), under 300 MB, and never a hang.
fn check(dir: &Path, extra: &[&str]) -> Run {
    let mut args = vec!["check", "main.yaml", "--color", "never"];
    args.extend_from_slice(extra);
    democ_bounded(Some(dir), &args)
}

fn mkfifo(path: &Path) -> bool {
    let made = Command::new("mkfifo").arg(path).status();
    let ok = made.is_ok_and(|s| s.success());
    if !ok {
        eprintln!("skipped: mkfifo is not available");
    }
    ok
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).expect("write");
}

const SHOW: &str = "show: { name: x }\n";

/// A folder with a minimal show and, at `link` (in a subfolder), a symlink to /dev/zero.
fn show_with_zero(link: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "main.yaml", SHOW);
    let link = dir.path().join(link);
    std::fs::create_dir_all(link.parent().expect("in a subfolder")).expect("mkdir");
    std::os::unix::fs::symlink("/dev/zero", link).expect("symlink");
    dir
}

// ---- files that are not files ------------------------------------------------------

#[test]
fn a_fifo_as_the_spec_is_refused_not_waited_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    if !mkfifo(&dir.path().join("main.yaml")) {
        return;
    }
    let run = check(dir.path(), &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("cannot read `main.yaml`: not a regular file (a FIFO)"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_fifo_or_a_device_as_an_include_is_a_located_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    if !mkfifo(&dir.path().join("pipe.yaml")) {
        return;
    }
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.yaml")).expect("symlink");
    write(
        dir.path(),
        "main.yaml",
        &format!("{SHOW}include: [pipe.yaml, zero.yaml]\n"),
    );
    // The device is outside the folder; allowed there, it is still not a regular file.
    let run = check(dir.path(), &["--allow-include-outside", "/dev"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("main.yaml:2:11")
            && run.stderr.contains("not a regular file (a FIFO)")
            && run.stderr.contains("main.yaml:2:22")
            && run
                .stderr
                .contains("not a regular file (a character device)"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_fifo_or_dev_zero_in_a_catalog_folder_is_refused_fast() {
    let dir = show_with_zero("cat/zero.yaml");
    let cat = dir.path().join("cat");
    let run = check(dir.path(), &["--catalog", "cat"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("cannot read catalog file `cat/zero.yaml`: a symlink to outside `cat`"),
        "{}",
        run.stderr
    );
    std::fs::remove_file(cat.join("zero.yaml")).expect("rm");
    if !mkfifo(&cat.join("a.yaml")) {
        return;
    }
    let run = check(dir.path(), &["--catalog", "cat"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("(a FIFO)"), "{}", run.stderr);
}

#[test]
fn a_template_override_that_is_dev_zero_is_refused_fast() {
    let dir = show_with_zero("t/os10.j2");
    let run = democ_bounded(
        Some(dir.path()),
        &["build", "main.yaml", "-o", "out", "--templates", "t"],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("not a regular file (a character device)"),
        "{}",
        run.stderr
    );
}

// ---- includes stay in the show's folder --------------------------------------------

/// A show folder beside a folder of secrets, with symlinks from one to the other.
fn show_beside_secrets() -> tempfile::TempDir {
    let root = tempfile::tempdir().expect("temp dir");
    let show = root.path().join("show");
    let secrets = root.path().join("secrets");
    std::fs::create_dir_all(show.join("sub")).expect("mkdir");
    std::fs::create_dir(&secrets).expect("mkdir");
    write(&secrets, "key.yaml", "SECRET-KEY-MATERIAL: 1\n");
    std::os::unix::fs::symlink("../secrets/key.yaml", show.join("key.yaml")).expect("symlink");
    std::os::unix::fs::symlink("../../secrets", show.join("sub/s")).expect("symlink");
    root
}

#[test]
fn includes_that_leave_the_folder_are_refused_and_never_shown() {
    let root = show_beside_secrets();
    let show = root.path().join("show");
    let abs = root.path().join("secrets/key.yaml");
    let includes = [
        "../secrets/key.yaml",
        "../../../../../../../etc/passwd",
        "/etc/passwd",
        abs.to_str().expect("utf-8 temp path"),
        "key.yaml",
        "sub/s/key.yaml",
        "/proc/self/environ",
        "/dev/stdin",
    ];
    let list: Vec<String> = includes.iter().map(|i| format!("  - \"{i}\"\n")).collect();
    write(
        &show,
        "main.yaml",
        &format!("{SHOW}include:\n{}", list.concat()),
    );
    let run = check(&show, &[]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    for (i, inc) in includes.iter().enumerate() {
        if Path::new("/proc/self/environ").exists() || !inc.starts_with("/proc") {
            let at = format!("main.yaml:{}:5", i + 3);
            assert!(run.stderr.contains(&at), "{inc} at {at}:\n{}", run.stderr);
        }
    }
    assert_eq!(
        run.stderr.matches("error[E0012]").count(),
        includes.len(),
        "{}",
        run.stderr
    );
    for secret in ["SECRET-KEY-MATERIAL", "root:", "PATH="] {
        assert!(!run.stderr.contains(secret), "{secret}:\n{}", run.stderr);
    }
}

#[test]
fn allow_include_outside_names_another_root() {
    let root = show_beside_secrets();
    let show = root.path().join("show");
    write(&show, "main.yaml", &format!("{SHOW}include: [key.yaml]\n"));
    // Allowed: the file is read (and its unknown key reported, with its text).
    let run = check(&show, &["--allow-include-outside", "../secrets"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("[E0005]") && !run.stderr.contains("[E0012]"),
        "{}",
        run.stderr
    );
    let run = check(&show, &["--allow-include-outside", "../nowhere"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("cannot use `--allow-include-outside ../nowhere`: no such file"),
        "{}",
        run.stderr
    );
}

#[test]
fn includes_inside_the_folder_still_work() {
    let root = show_beside_secrets();
    let show = root.path().join("show");
    write(&show.join("sub"), "a.yaml", "include: [../b.yaml]\n");
    write(&show, "b.yaml", "sites: { lab: { kind: lab } }\n");
    write(
        &show,
        "main.yaml",
        &format!("{SHOW}include: [sub/a.yaml]\n"),
    );
    let run = check(&show, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

// ---- floods ------------------------------------------------------------------------

#[test]
fn a_hundred_thousand_errors_on_one_line_are_fast_and_capped() {
    let dir = tempfile::tempdir().expect("temp dir");
    let keys: Vec<String> = (0..100_000).map(|i| format!("k{i}: 1")).collect();
    write(
        dir.path(),
        "main.yaml",
        &format!("show: {{ name: x, {} }}\n", keys.join(", ")),
    );
    let run = check(dir.path(), &[]);
    assert_eq!(run.code, 1);
    assert_eq!(run.stderr.matches("error[E0005]").count(), 100);
    assert!(
        run.stderr
            .contains("... and 99900 more in `main.yaml` (`--format json` lists every diagnostic)")
            && run
                .stderr
                .ends_with("failed: 100000 errors and 0 warnings\n"),
        "{}",
        &run.stderr[run.stderr.len().saturating_sub(500)..]
    );
    assert!(run.stderr.len() < 100_000, "{} bytes", run.stderr.len());
}

#[test]
fn five_million_values_are_refused_at_the_limit_in_little_memory() {
    let dir = tempfile::tempdir().expect("temp dir");
    let values = "0, ".repeat(5_000_000);
    write(
        dir.path(),
        "main.yaml",
        &format!("show: {{ name: x }}\nsites: [{values}0]\n"),
    );
    let run = check(dir.path(), &[]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("error[E0009]: the show has more than 4000000 YAML values")
            && run.stderr.contains("main.yaml:2:"),
        "{}",
        run.stderr
    );
    assert!(run.peak_mb < 150, "{} MB", run.peak_mb);
}

// ---- terminal hygiene --------------------------------------------------------------

/// A show name that tries to set the window title, clear the screen and start lines.
const HOSTILE_NAME: &str =
    "show:\n  name: \"x\\e]0;pwned\\a\\e[2J\\r\\n# Injected\\n\"\n  title: \"t\\e[31m\"\n";

fn assert_clean(text: &str) {
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}') && !text.contains('\r'),
        "{text:?}"
    );
    assert!(
        !text.lines().any(|l| l.starts_with("# Injected")),
        "{text:?}"
    );
}

#[test]
fn control_characters_never_reach_the_terminal() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The show's name is a name (E0010): refused, and the refusal quotes it inert.
    write(dir.path(), "main.yaml", HOSTILE_NAME);
    let run = check(dir.path(), &[]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("error[E0010]"), "{:?}", run.stderr);
    assert_clean(&run.stderr);
    // The title is free text: printed, inert.
    write(
        dir.path(),
        "main.yaml",
        "show:\n  name: x\n  title: \"t\\e]0;pwned\\a\\e[2J\\r\\n# Injected\\n\"\n",
    );
    let run = check(dir.path(), &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_clean(&run.stderr);
    for format in ["text", "markdown"] {
        let run = democ_bounded(Some(dir.path()), &["plan", "main.yaml", "--format", format]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_clean(&run.stdout);
    }
    // Colour on: democ's own escape sequences, none of the spec's.
    write(
        dir.path(),
        "main.yaml",
        "show: { name: x\u{1b}]0;pwned\u{7}, venu: 1 }\n",
    );
    let run = democ_bounded(
        Some(dir.path()),
        &["check", "main.yaml", "--color", "always"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        !run.stderr.contains("\u{1b}]") && !run.stderr.contains('\u{7}'),
        "{:?}",
        run.stderr
    );
}

#[test]
fn a_show_name_cannot_inject_markdown() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(
        dir.path(),
        "main.yaml",
        "show: { name: \"x` [link](http://e) <b>\" }\n",
    );
    let run = democ_bounded(
        Some(dir.path()),
        &["plan", "main.yaml", "--format", "markdown"],
    );
    // Refused as a name before any markdown is written.
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("error[E0010]"), "{}", run.stderr);
    assert!(!run.stdout.contains("[link]"), "{}", run.stdout);
}

//! The spec side of the untrusted-input audit (issue 38 §9-11): what a hostile spec
//! cannot make democ do: write outside its folder through the show's name, or echo a
//! huge value back in every message.

#![cfg(unix)]

use std::time::Duration;

mod common;
use common::democ_in;

fn check(text: &str) -> common::Run {
    let t = tempfile::tempdir().unwrap();
    let spec = t.path().join("show.yaml");
    std::fs::write(&spec, text).unwrap();
    democ_in(
        None,
        &["check", spec.to_str().unwrap()],
        Duration::from_secs(30),
    )
}

#[test]
fn a_show_name_is_a_name() {
    let r = check("show:\n  name: \"sc 16/../x\"\nsites:\n  lab: { kind: lab }\n");
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("error[E0010]"), "{}", r.stderr);
}

#[test]
fn a_long_title_is_refused() {
    let title = "x".repeat(5000);
    let r = check(&format!(
        "show:\n  name: s\n  title: \"{title}\"\nsites:\n  lab: {{ kind: lab }}\n"
    ));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("error[E0009]: this text is 5000 characters long")
    );
}

#[test]
fn a_huge_value_is_not_echoed_whole() {
    let value = "y".repeat(100_000);
    let r = check(&format!(
        "show:\n  name: s\nsites:\n  lab: {{ kind: {value} }}\n"
    ));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("error[E0007]"), "{}", r.stderr);
    assert!(
        r.stderr.len() < 10_000,
        "{} bytes of diagnostics",
        r.stderr.len()
    );
}

/// sc16 copied into a temporary folder, with a file outside it holding a secret.
fn sc16_beside_a_secret() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let spec = t.path().join("sc16");
    common::copy_dir(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/sc16"),
        &spec,
    );
    let secret = t.path().join("secret");
    std::fs::write(&secret, "root:x:SECRET-LINE\n").unwrap();
    (t, spec, secret)
}

#[test]
fn a_lock_symlinked_out_of_the_show_is_refused_unquoted() {
    let (_t, spec, secret) = sc16_beside_a_secret();
    std::fs::remove_file(spec.join("democ.lock")).unwrap();
    std::os::unix::fs::symlink(&secret, spec.join("democ.lock")).unwrap();
    let show = spec.join("show.yaml");
    let r = democ_in(
        None,
        &["check", show.to_str().unwrap()],
        Duration::from_secs(30),
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("error[E0130]") && r.stderr.contains("a symlink to outside"));
    assert!(!r.stderr.contains("SECRET"), "{}", r.stderr);
}

#[test]
fn a_catalog_entry_symlinked_out_of_its_folder_is_refused_unquoted() {
    let (t, spec, secret) = sc16_beside_a_secret();
    let cat = t.path().join("catalog");
    std::fs::create_dir(&cat).unwrap();
    std::os::unix::fs::symlink(&secret, cat.join("extra.yaml")).unwrap();
    let show = spec.join("show.yaml");
    let r = democ_in(
        None,
        &[
            "check",
            show.to_str().unwrap(),
            "--catalog",
            cat.to_str().unwrap(),
        ],
        Duration::from_secs(30),
    );
    assert_ne!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("a symlink to outside"), "{}", r.stderr);
    assert!(!r.stderr.contains("SECRET"), "{}", r.stderr);
}

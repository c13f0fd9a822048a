//! An installed binary is whole (issue 41): `cargo install --path . --root TMP`, then
//! `TMP/bin/democ` builds the embedded show from any folder and `validate`s it: the
//! containerlab check either runs (the search found containerlab's schema) or says
//! "not run" with the command that fixes it, never a silent skip.
//!
//! Installing compiles democ afresh (minutes), so this runs only with
//! DEMOC_TEST_INSTALL=1 and says so otherwise.

use std::process::Command;

#[test]
fn an_installed_binary_validates_or_says_what_to_fetch() {
    if std::env::var_os("DEMOC_TEST_INSTALL").is_none() {
        println!("skipped: set DEMOC_TEST_INSTALL=1 to cargo-install democ and run it");
        return;
    }
    let tmp = tempfile::tempdir().expect("temp");
    let root = tmp.path().join("root");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let st = Command::new(cargo)
        .args([
            "install",
            "--offline",
            "--path",
            env!("CARGO_MANIFEST_DIR"),
            "--root",
        ])
        .arg(&root)
        .status()
        .expect("cargo runs");
    assert!(st.success(), "cargo install failed");
    let democ = root.join("bin/democ");
    let work = tmp.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let run = |args: &[&str]| {
        Command::new(&democ)
            .args(args)
            .current_dir(&work)
            .env("DEMOC_DATA_DIR", tmp.path().join("data"))
            .env_remove("DEMOC_CLAB_SCHEMA")
            .env_remove("BATFISH_HOST")
            .output()
            .expect("democ runs")
    };
    let built = run(&["build", "-o", "out"]);
    assert_eq!(
        built.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let o = run(&["validate", "out"]);
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(0), "{text}");
    let clab = text
        .lines()
        .find(|l| l.starts_with("containerlab"))
        .expect("a containerlab line");
    assert!(
        clab.contains("passed: ")
            || (clab.contains("not run: ") && text.contains("fix: democ data --fetch")),
        "{text}"
    );
    println!("{text}");
}

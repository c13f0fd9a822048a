//! `democ check` on OTN WAN links: clients without a line signal, and the client runs
//! from the switch ports to the transponders checked like any other fiber.

#[path = "fixtures/check/support.rs"]
mod support;

#[test]
fn unknown_client() {
    support::expect("otn", 1, &["E0220"]);
}

#[test]
fn client_runs_get_the_optics_checks() {
    // Reach (SR4 over 150 m), fiber type (SR4 on a run declared SMF), pairing (LR4 in the
    // switch, SR4 in the transponder) and rate (a 10G optic in a 100GE client port); the
    // `clean` link's two runs report nothing.
    support::expect("otn-client", 1, &["E0212", "E0214", "E0213", "E0215"]);
    let (_, text) = support::check("otn-client");
    assert!(!text.contains("`clean`"), "{text}");
    assert_eq!(text.matches("error[").count(), 4, "{text}");
}

#[test]
fn an_unknown_transponder_optic_is_named() {
    let text = std::fs::read_to_string("tests/fixtures/check/otn-client.yaml")
        .unwrap()
        .replace(
            "transponder_optic: 100gbase-sr4",
            "transponder_optic: 100gbase-sr9",
        );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("otn-client.yaml");
    std::fs::write(&path, text).unwrap();
    std::fs::copy(
        "tests/fixtures/check/catalog.yaml",
        dir.path().join("catalog.yaml"),
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_democ"))
        .args(["check", path.to_str().unwrap(), "--color", "never"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("[E0103]") && err.contains("`100gbase-sr9`"),
        "{err}"
    );
}

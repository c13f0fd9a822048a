//! Lowering's diagnostics (`democ ir`/`democ build`): what an OS cannot do (E0301), what
//! a config needs and the spec lacks (E0302), what must be configured by hand (W0303),
//! what is left out for a missing optional value (W0304). Snapshots of the rendered
//! diagnostics live in tests/fixtures/render/snapshots.

#[path = "fixtures/render/support.rs"]
mod support;

fn expect(name: &str, code: i32, codes: &[&str]) {
    let spec = format!("tests/fixtures/render/bad/{name}.yaml");
    let o = support::democ(&["ir", &spec]);
    let text = support::stderr(&o);
    assert_eq!(o.status.code(), Some(code), "exit code of {name}:\n{text}");
    for c in codes {
        assert!(
            text.contains(&format!("[{c}]")),
            "{name} must report {c}:\n{text}"
        );
    }
    insta::with_settings!({ snapshot_path => "fixtures/render/snapshots", prepend_module_to_snapshot => false, omit_expression => true }, {
        insta::assert_snapshot!(format!("diag__{name}"), text);
    });
}

#[test]
fn vendor_unsupported() {
    expect("E0301-vendor-unsupported", 1, &["E0301"]);
}

#[test]
fn config_incomplete() {
    expect("E0302-config-incomplete", 1, &["E0302"]);
}

#[test]
fn vendor_manual() {
    expect("W0303-vendor-manual", 0, &["W0303"]);
}

/// Cumulus Linux's `qos roce` makes priority 3 lossless, switch-wide: a show on another
/// priority is told to configure it by hand.
#[test]
fn cumulus_roce_priority() {
    expect("W0303-cumulus-roce-priority", 0, &["W0303"]);
}

#[test]
fn config_partial() {
    expect("W0304-config-partial", 0, &["W0304"]);
}

#[test]
fn deny_warnings_stops_the_build() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    let o = support::democ(&[
        "build",
        "tests/fixtures/render/bad/W0304-config-partial.yaml",
        "-o",
        out.to_str().expect("utf-8"),
        "--deny",
        "warnings",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", support::stderr(&o));
    assert!(!out.exists(), "nothing is written when lowering fails");
}

/// Issue 9 section 6: what democ cannot apply on the vendor-lines fixture is said, not
/// dropped: EOS documents OpenFlow 1.0 only (the show asks 1.3), and PicOS CrossFlow's
/// datapath id and version go in the same warning as its controller.
#[test]
fn vendor_lines_warn_what_they_cannot_apply() {
    let o = support::democ(&["ir", "tests/fixtures/render/vendor-lines.yaml"]);
    let text = support::stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    insta::with_settings!({ snapshot_path => "fixtures/render/snapshots", prepend_module_to_snapshot => false, omit_expression => true }, {
        insta::assert_snapshot!("diag__vendor-lines", text);
    });
    assert!(text.contains("documents OpenFlow `1.0` only"), "{text}");
    assert!(text.contains("datapath id 00000000000000bb"), "{text}");
}

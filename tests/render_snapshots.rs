//! Golden files at both layers: every switch's config and IR for the render fixture and
//! the SC15/SC16 examples, as `democ build` writes them. Review a changed snapshot line
//! by line against ../shared/reference/domain-facts.md section 5 before accepting it.

#[path = "fixtures/render/support.rs"]
mod support;

use support::{FIXTURE, build, example, tree};

fn snapshot_build(name: &str, spec: &str) {
    snapshot_files(name, spec, |_| true);
}

/// The files of `spec`'s build whose path `keep` accepts, snapshotted as `name__path`.
fn snapshot_files(name: &str, spec: &str, keep: impl Fn(&str) -> bool) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(spec, &out);
    for (path, bytes) in tree(&out) {
        // The report is tested by what it must hold (tests/report.rs, in a browser by
        // tests/report_browser.rs), not as a 100 kB golden file that every layout change
        // would churn.
        if path == "manifest.json" || path.starts_with("report/") || !keep(&path) {
            continue;
        }
        let text = String::from_utf8(bytes).expect("utf-8");
        let snap = format!("{name}__{}", path.replace('/', "__"));
        insta::with_settings!({ snapshot_path => "fixtures/render/snapshots", prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!(snap, text);
        });
    }
}

#[test]
fn fixture() {
    snapshot_build("mini", FIXTURE);
}

#[test]
fn sc16() {
    snapshot_build("sc16", &example("sc16"));
}

#[test]
fn sc15() {
    snapshot_build("sc15", &example("sc15"));
}

#[test]
fn sc25_400g() {
    snapshot_build("sc25-400g", &example("sc25-400g"));
}

/// SONiC: the render fixture's OS10 switch as a SONiC one (its config_db.json, FRR file
/// and IR; the other switches are the fixture's own snapshots).
#[test]
fn sonic() {
    snapshot_files("sonic", "tests/fixtures/render/sonic.yaml", |p| {
        p.starts_with("switches/sonic-1.") || p == "ir/sonic-1.json"
    });
}

/// Cumulus Linux: the render fixture's OS10 switch as a Cumulus one (its NVUE file,
/// derived FRR file and IR).
#[test]
fn cumulus() {
    snapshot_files("cumulus", "tests/fixtures/render/cumulus.yaml", |p| {
        p.starts_with("switches/cu-1.") || p == "ir/cu-1.json"
    });
}

/// Issue 9 section 6: each vendor line a real switch rejected, in the smallest show
/// that produces it (see the fixture's header).
#[test]
fn vendor_lines() {
    snapshot_build("vendor", "tests/fixtures/render/vendor-lines.yaml");
}

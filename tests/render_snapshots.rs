//! Golden files for what is loaded on a switch: every switch's config and OpenFlow
//! ruleset for the render fixture and the examples, as `democ build` writes them. Review a
//! changed snapshot line by line against ../shared/reference/domain-facts.md section 5
//! before accepting it. The rest of a build is held by what it must say, not by its
//! bytes: the IR by its schema and tests/ir_content.rs, host scripts by
//! tests/host_scripts.rs, the lab by tests/containerlab.rs, monitoring by promtool in
//! tests/monitoring.rs, the plan by tests/feasibility.rs, cabling and BOM by
//! tests/cabling.rs.

#[path = "fixtures/render/support.rs"]
mod support;

use support::{FIXTURE, build, example, tree};

fn snapshot_build(name: &str, spec: &str) {
    snapshot_files(name, spec, |_| true);
}

/// Whether a build's file is loaded on a switch (the only files kept as golden files).
fn on_a_switch(path: &str) -> bool {
    path.starts_with("switches/") || path.starts_with("openflow/")
}

/// The files of `spec`'s build whose path `keep` accepts, snapshotted as `name__path`.
fn snapshot_files(name: &str, spec: &str, keep: impl Fn(&str) -> bool) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(spec, &out);
    for (path, bytes) in tree(&out) {
        if !on_a_switch(&path) || !keep(&path) {
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

/// SONiC: the render fixture's OS10 switch as a SONiC one (its config_db.json and FRR file; the other switches are the fixture's own snapshots).
#[test]
fn sonic() {
    snapshot_files("sonic", "tests/fixtures/render/sonic.yaml", |p| {
        p.starts_with("switches/sonic-1.")
    });
}

/// Cumulus Linux: the render fixture's OS10 switch as a Cumulus one (its NVUE file and
/// derived FRR file).
#[test]
fn cumulus() {
    snapshot_files("cumulus", "tests/fixtures/render/cumulus.yaml", |p| {
        p.starts_with("switches/cu-1.")
    });
}

/// Issue 9 section 6: each vendor line a real switch rejected, in the smallest show
/// that produces it (see the fixture's header).
#[test]
fn vendor_lines() {
    snapshot_build("vendor", "tests/fixtures/render/vendor-lines.yaml");
}

//! Everyday friction a new user met (issue 12 §5): `explain` with no code, `catalog
//! NAME`, `--format` where a command ignores it, and `check` with no argument.

use std::path::Path;
use std::process::{Command, Output};

fn democ_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_democ"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("democ runs")
}

fn democ(args: &[&str]) -> Output {
    democ_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn explain_without_a_code_lists_every_code() {
    let o = democ(&["explain"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let codes = std::fs::read_to_string("src/diag/codes.rs").unwrap();
    let declared = [" = \"E0", " = \"W0", " = \"N0"]
        .iter()
        .map(|p| codes.matches(p).count())
        .sum::<usize>();
    assert_eq!(out.lines().count(), declared, "{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("E0254 "))
        .expect("E0254 listed");
    assert!(
        line.contains("service-unreachable") && line.contains("Error"),
        "{line}"
    );
}

#[test]
fn catalog_name_shows_the_entry_with_its_source() {
    let o = democ(&["catalog", "dell-z9100-on"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.starts_with("switch model (catalog/switches.yaml:"),
        "{out}"
    );
    for want in [
        "  dell-z9100-on:\n",
        "max_mtu: 9216",
        "source: >-",
        "breakout: [4x25G, 4x10G, 2x50G]",
    ] {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
    // The next entry is not part of it.
    assert_eq!(out.matches("vendor:").count(), 1, "{out}");
    let bad = democ(&["catalog", "no-such-model"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("no catalog entry `no-such-model`"));
}

#[test]
fn a_format_a_command_ignores_is_refused() {
    for (args, why) in [
        (
            &["check", "--format", "markdown"][..],
            "it prints text or json",
        ),
        (&["ir", "--format", "markdown"][..], "it always prints JSON"),
        (
            &["build", "--format", "json", "-o", "/nonexistent/democ-out"][..],
            "it writes files",
        ),
    ] {
        let o = democ(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            text(&o.stderr).contains(why),
            "{args:?}: {}",
            text(&o.stderr)
        );
    }
}

#[test]
fn check_without_a_spec_uses_show_yaml_here_or_says_it_checked_the_example() {
    let tmp = tempfile::tempdir().unwrap();
    let o = democ_in(tmp.path(), &["check"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("using the SC16 example built into democ"),
        "{err}"
    );
    assert!(err.contains("ok: sc16"), "{err}");
    std::fs::write(
        tmp.path().join("show.yaml"),
        "show: { name: mine }\nsites: { lab: { kind: lab } }\nswitches:\n  sw1: { site: lab, model: dell-z9100-on, os: os10 }\n",
    )
    .unwrap();
    let o = democ_in(tmp.path(), &["check"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("using ./show.yaml") && err.contains("ok: mine"),
        "{err}"
    );
}

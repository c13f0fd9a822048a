//! `democ lab`: examples/sc15 deployed with containerlab, every row of the twin's matrix
//! passes through the containers, one rule deleted from one stand-in's running ruleset
//! fails exactly the flow it carries (and only pairs crossing that switch), and `lab
//! down` leaves no container, Docker network, namespace or veth behind. Needs root,
//! Docker and containerlab (.ci/run installs them with ../shared/tools/lab-engine);
//! skips with a printed reason otherwise.

#![cfg(unix)]

mod common;

use std::path::Path;
use std::process::Command;

/// democ's exit code, stdout and stderr (`common::lab_democ`).
fn democ(args: &[&str]) -> (i32, String, String) {
    let r = common::lab_democ(args);
    (r.code, r.stdout, r.stderr)
}

use common::stdout_of as sh;

use common::{lab_skip as skip, root_veths as veths};

fn hex(s: &str) -> u64 {
    u64::from_str_radix(s.trim_start_matches("0x"), 16).expect("hex")
}

/// The report's rows: (flow, src, dst, passed), and whether every control row passed.
fn rows(build: &Path) -> (Vec<(String, String, String, bool)>, bool) {
    let text = std::fs::read_to_string(build.join("lab/report.json")).expect("lab/report.json");
    let r: serde_json::Value = serde_json::from_str(&text).expect("json");
    let flows = r["flows"]
        .as_array()
        .expect("flows")
        .iter()
        .map(|f| {
            (
                f["flow"].as_str().unwrap().to_owned(),
                f["src"].as_str().unwrap().to_owned(),
                f["dst"].as_str().unwrap().to_owned(),
                f["passed"].as_bool().unwrap(),
            )
        })
        .collect();
    let control = r["control"]
        .as_array()
        .expect("control")
        .iter()
        .all(|c| c["connected"].as_bool() == Some(true));
    (flows, control)
}

#[test]
fn sc15_deploys_carries_every_flow_and_leaves_nothing() {
    if let Some(why) = skip() {
        eprintln!("skipped: {why}");
        return;
    }
    let t = tempfile::tempdir().expect("tempdir");
    let build = t.path().join("sc15");
    let b = build.display().to_string();
    let (code, _, err) = democ(&["build", "--hosts", "examples/sc15/show.yaml", "-o", &b]);
    assert_eq!(code, 0, "{err}");
    let before = veths();

    let (code, out, err) = democ(&["lab", "up", &b]);
    assert_eq!(code, 0, "lab up failed:\n{out}\n{err}");
    assert!(
        !err.contains("Failed to execute"),
        "containerlab logged a failed exec:\n{err}"
    );
    let id = out
        .split('`')
        .nth(1)
        .expect("lab up names the lab")
        .to_owned();
    eprintln!("{out}");

    let result = std::panic::catch_unwind(|| {
        let (code, out, err) = democ(&["lab", "test", &b]);
        let (flows, control) = rows(&build);
        assert!(!flows.is_empty(), "sc15 has flows");
        assert_eq!(code, 0, "lab test failed:\n{out}\n{err}");
        assert!(flows.iter().all(|r| r.3) && control, "{err}");
        eprint!("{out}");

        // Sabotage: one IP rule of one flow deleted from cit-z9100-4's running ruleset.
        let sw = "cit-z9100-4";
        let rules =
            std::fs::read_to_string(build.join(format!("openflow/{sw}.flows"))).expect("ruleset");
        let version = rules
            .split_whitespace()
            .find(|w| w.starts_with("OpenFlow1"))
            .expect("the ruleset names its OpenFlow version")
            .to_owned();
        let irflows: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(build.join("ir/flows/flows.json")).expect("flows.json"),
        )
        .expect("json");
        let irflows = irflows.as_array().expect("flows");
        let owner = |cookie: u64| {
            irflows
                .iter()
                .find(|f| {
                    cookie & hex(f["cookie_mask"].as_str().unwrap())
                        == hex(f["cookie"].as_str().unwrap())
                })
                .map(|f| f["name"].as_str().unwrap().to_owned())
        };
        let (line, flow) = rules
            .lines()
            .filter(|l| l.starts_with("cookie=") && l.contains("dl_type=0x0800"))
            .find_map(|l| {
                let c = l.split(',').next()?.trim_start_matches("cookie=");
                owner(hex(c)).map(|f| (l.to_owned(), f))
            })
            .expect("a rule of a flow");
        // The rule's match: everything but its cookie and actions.
        let matched: Vec<&str> = line
            .split(",actions=")
            .next()
            .unwrap()
            .split(',')
            .filter(|w| !w.starts_with("cookie="))
            .collect();
        let container = format!("clab-{id}-{sw}");
        let o = Command::new("docker")
            .args(["exec", &container, "env", "OVS_RUNDIR=/run/democ/run"])
            .args(["ovs-ofctl", "-O", &version, "--strict", "del-flows", "of"])
            .arg(matched.join(","))
            .output()
            .expect("docker exec");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

        let (code, out, err) = democ(&["lab", "test", &b]);
        assert_eq!(code, 1, "the sabotaged lab must fail:\n{err}");
        eprint!("after deleting `{line}` from {sw}: {out}");
        let (rows, control) = rows(&build);
        assert!(control, "control channels are untouched");
        let failed: Vec<_> = rows.iter().filter(|r| !r.3).collect();
        assert!(!failed.is_empty(), "deleting {line} failed nothing");
        // Only the flow the rule carries fails, and only its pairs that cross the switch.
        let crossing = |src: &str, dst: &str| {
            irflows.iter().any(|f| {
                f["pairs"].as_array().unwrap().iter().any(|p| {
                    p["src"] == src
                        && p["dst"] == dst
                        && p["path"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .any(|h| h["switch"] == sw)
                })
            })
        };
        eprintln!("failed: {failed:?}");
        for r in &failed {
            assert_eq!(
                r.0, flow,
                "{r:?} failed, but the deleted rule carries `{flow}`"
            );
            assert!(crossing(&r.1, &r.2), "{r:?} failed without crossing {sw}");
        }
    });

    let (code, out, err) = democ(&["lab", "down", &b]);
    assert_eq!(code, 0, "lab down failed:\n{out}\n{err}");
    let containers = sh(&[
        "docker",
        "ps",
        "-a",
        "-q",
        "--filter",
        &format!("label=containerlab={id}"),
    ]);
    assert!(
        containers.trim().is_empty(),
        "containers left: {containers}"
    );
    let networks = sh(&["docker", "network", "ls", "--format", "{{.Name}}"]);
    assert!(
        !networks.lines().any(|n| n.contains(&id)),
        "networks left: {networks}"
    );
    let netns = std::fs::read_dir("/run/netns")
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.contains(&id))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    assert!(netns.is_empty(), "namespaces left: {netns:?}");
    assert_eq!(veths(), before, "veths left in the root namespace");
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
}

//! `democ verify BUILD TWIN_RESULTS`: a twin's measurement read as a show's results.
//! The fixtures (tests/fixtures/verify/twin-sc15) are two runs of `democ twin test
//! --measure --scale 10000` on sc15, as `twin/results/` left them: a clean one, and one
//! with the cable `cit-z9100-1:1/2` throttled to 50G. The clean run passes with the
//! LAG-limited flow listed as not comparable; the throttled run fails, the throttled link
//! named as the likely cause of the one flow over it, the other flows within the
//! tolerance; a stamp that is not the twin's, or two runs' stamps together, are refused
//! with E0604. No root needed: tests/twin_measure.rs makes such results live.

mod common;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::Value;

fn fixture(run: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/verify/twin-sc15")
        .join(run)
}

/// sc15 built once per test binary.
fn built() -> &'static Path {
    static B: OnceLock<PathBuf> = OnceLock::new();
    B.get_or_init(|| {
        let dir = Box::leak(Box::new(tempfile::tempdir().expect("tempdir")));
        let out = dir.path().join("sc15");
        let spec = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/sc15/show.yaml");
        let run = common::democ_in(
            None,
            &["build", spec, "-o", out.to_str().expect("utf-8"), "--hosts"],
            Duration::from_secs(120),
        );
        assert_eq!(run.code, 0, "build: {}", run.stderr);
        out
    })
}

fn verify(results: &[&Path], extra: &[&str]) -> common::Run {
    let mut args = vec!["verify", built().to_str().expect("utf-8")];
    args.extend(results.iter().map(|p| p.to_str().expect("utf-8")));
    args.extend_from_slice(extra);
    common::democ_in(None, &args, Duration::from_secs(60))
}

fn json(results: &Path) -> (i32, Value) {
    let run = verify(&[results], &["--format", "json"]);
    (
        run.code,
        serde_json::from_str(&run.stdout).expect("verify's JSON"),
    )
}

fn flow<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["flows"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["flow"] == name))
        .unwrap_or_else(|| panic!("no flow {name}"))
}

#[test]
fn a_clean_twin_run_passes_with_the_lag_flow_not_comparable() {
    let run = verify(&[&fixture("clean")], &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains(
            "every link at its capacity / 10000, so measured rates are multiplied by 10000"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("6 of 6 flows within 10% of the plan, 1 not comparable at the twin's scale"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("flow net-400g is not comparable:")
            && run.stdout.contains("limited by a LAG's hash"),
        "{}",
        run.stdout
    );
    let (_, v) = json(&fixture("clean"));
    assert_eq!(v["twin"]["scale"], 10000.0);
    for f in v["flows"].as_array().expect("flows") {
        let name = f["flow"].as_str().unwrap_or_default();
        if name == "net-400g" {
            assert_eq!(f["status"], "not comparable", "{f:#}");
            continue;
        }
        assert_eq!(f["status"], "ok", "{f:#}");
        // Measured x scale lands near the plan's own figure.
        let (p, m) = (f["predicted_gbps"].as_f64(), f["measured_gbps"].as_f64());
        let (p, m) = (p.expect("predicted"), m.expect("measured"));
        assert!((m - p).abs() <= 0.1 * p, "{name}: {m} of {p}");
    }
    // Every link is attributed from the twin's counters (its OVS names mapped to the
    // plan's ports): none unmeasured, the LAG's not comparable, the rest on plan.
    for l in v["links"].as_array().expect("links") {
        let want = if l["link"]
            .as_str()
            .is_some_and(|n| n.starts_with("port-channel"))
        {
            "not comparable"
        } else {
            "ok"
        };
        assert_eq!(l["status"], want, "{l:#}");
    }
}

#[test]
fn a_throttled_link_is_named_as_the_likely_cause() {
    let run = verify(&[&fixture("throttled")], &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("throttled in this run: cit-z9100-1:1/2 at 50 Gbit/s"),
        "{}",
        run.stdout
    );
    let (code, v) = json(&fixture("throttled"));
    assert_eq!(code, 1);
    let hit = flow(&v, "net-100g");
    assert_eq!(hit["status"], "short", "{hit:#}");
    let first = hit["causes"][0].as_str().unwrap_or_default();
    assert!(
        first.starts_with("link sc100G-2:p0 <- cit-z9100-1:1/2: carried")
            && first.contains("throttled it to 50.0 Gbit/s")
            && first.ends_with("the likely cause"),
        "{hit:#}"
    );
    // No other link of its path is blamed.
    let blamed = hit["causes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c.as_str().is_some_and(|c| c.ends_with("the likely cause")))
        .count();
    assert_eq!(blamed, 1, "{hit:#}");
    for other in ["disk-100g", "nsi-umich", "nsi-fiu", "nsi-rnp", "oscars-lab"] {
        assert_eq!(flow(&v, other)["status"], "ok", "{other}");
    }
    assert_eq!(flow(&v, "net-400g")["status"], "not comparable");
    let link = v["links"]
        .as_array()
        .and_then(|l| {
            l.iter()
                .find(|l| l["link"] == "sc100G-2:p0 <- cit-z9100-1:1/2")
        })
        .expect("the throttled link");
    assert_eq!(link["status"], "below", "{link:#}");
    assert_eq!(link["throttled_gbps"], 50.0, "{link:#}");
}

#[test]
fn a_stamp_that_is_not_the_twins_or_two_runs_are_e0604() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("bad");
    common::copy_dir(&fixture("clean"), &bad);
    let stamp = bad.join("twin-scale.json");
    let text = std::fs::read_to_string(&stamp).expect("stamp");
    std::fs::write(&stamp, text.replace("10000.0", "0.5")).expect("write");
    let run = verify(&[&bad], &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("E0604")
            && run
                .stderr
                .contains("scale 0.5 is not a number of at least 1"),
        "{}",
        run.stderr
    );
    std::fs::write(&stamp, "{\"scale\": 10}").expect("write");
    let run = verify(&[&bad], &[]);
    assert!(
        run.code == 2
            && run.stderr.contains("not the twin's stamp")
            && run.stderr.contains("help:"),
        "{}",
        run.stderr
    );
    let run = verify(&[&fixture("clean"), &fixture("throttled")], &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("E0604") && run.stderr.contains("results of two runs"),
        "{}",
        run.stderr
    );
}

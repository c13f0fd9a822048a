//! The sc16 report in a real browser (issue 12 §1): headless Chromium (Debian's
//! `chromium`) loads it with console logging on; the test fails on any console error or
//! uncaught exception (and proves it would, on a copy with a script that throws), checks
//! the DOM Chromium built (a node per switch, a path per cable) and writes a screenshot
//! to target/report-screenshots/sc16.png for review. Skipped, with the reason printed,
//! when Chromium is absent.

use std::path::{Path, PathBuf};
use std::process::Command;

fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser"].iter().find_map(|b| {
        let ok = Command::new(b)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        ok.then(|| PathBuf::from(b))
    })
}

/// Runs headless Chromium on a file; returns (DOM, console lines that are errors).
fn load(browser: &Path, file: &Path, extra: &[&str]) -> (String, Vec<String>) {
    let url = format!("file://{}", file.display());
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .args(extra)
        .arg(&url)
        .output()
        .expect("chromium runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let errors = stderr
        .lines()
        .filter(|l| l.contains(":CONSOLE") || l.contains("Uncaught"))
        .map(str::to_owned)
        .collect();
    (String::from_utf8_lossy(&out.stdout).into_owned(), errors)
}

#[test]
fn sc16_report_loads_in_chromium_without_errors() {
    let Some(browser) = chromium() else {
        eprintln!("skipped: no `chromium` on PATH (apt-get install chromium; .ci/run does)");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sc16");
    let b = Command::new(env!("CARGO_BIN_EXE_democ"))
        .current_dir(root)
        .args([
            "build",
            "examples/sc16/show.yaml",
            "-o",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
    let report = out.join("report/index.html");

    let (dom, errors) = load(&browser, &report, &["--dump-dom"]);
    assert!(errors.is_empty(), "console errors: {errors:#?}");
    assert!(
        dom.contains("<svg") && dom.contains("class=\"topology\""),
        "the DOM has the diagram"
    );
    assert_eq!(
        dom.matches("class=\"node switch\"").count(),
        19,
        "a node per switch"
    );
    // Every data cable; management patches (kind `mgmt`) are not drawn.
    let cables = std::fs::read_to_string(out.join("cabling.csv")).unwrap();
    let data = cables
        .lines()
        .skip(1)
        .filter(|l| l.split(',').nth(1) != Some("mgmt"))
        .count();
    assert_eq!(
        dom.matches("<path class=\"link ").count(),
        data,
        "a path per data cable"
    );

    // The check is real: a script that throws is caught.
    let bad = dir.path().join("bad.html");
    let html = std::fs::read_to_string(&report).unwrap();
    std::fs::write(
        &bad,
        html.replace(
            "</body>",
            "<script>throw new Error(\"democ-probe\")</script></body>",
        ),
    )
    .unwrap();
    let (_, errors) = load(&browser, &bad, &["--dump-dom"]);
    assert!(
        errors.iter().any(|e| e.contains("democ-probe")),
        "{errors:#?}"
    );

    let shots = root.join("target/report-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let png = shots.join("sc16.png");
    let _ = std::fs::remove_file(&png);
    let shot = format!("--screenshot={}", png.display());
    let (_, errors) = load(&browser, &report, &[&shot, "--window-size=1600,2400"]);
    assert!(errors.is_empty(), "{errors:#?}");
    assert!(
        std::fs::metadata(&png).is_ok_and(|m| m.len() > 10_000),
        "screenshot written"
    );
    eprintln!("screenshot: {}", png.display());
}

/// Every cable-bundle label's box against every node's and every other label's, as
/// Chromium lays the text out (its font, its metrics): the pairs that intersect.
const OVERLAP_PROBE: &str = r#"<script>
const box = e => e.getBBox();
const hit = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const labels = [...document.querySelectorAll('svg.topology text.link-label')].filter(t => t.textContent.trim());
const nodes = [...document.querySelectorAll('svg.topology g.node')];
const found = [];
for (const [i, t] of labels.entries()) {
  const a = box(t);
  for (const n of nodes) if (hit(a, box(n.querySelector('rect')))) found.push(t.textContent + ' under ' + n.dataset.name);
  for (const u of labels.slice(i + 1)) if (hit(a, box(u))) found.push(t.textContent + ' over ' + u.textContent);
}
document.body.setAttribute('data-probe', JSON.stringify({labels: labels.length, found}));
</script></body>"#;

#[test]
fn diagram_labels_overlap_no_node_and_no_label() {
    let Some(browser) = chromium() else {
        eprintln!("skipped: no `chromium` on PATH (apt-get install chromium; .ci/run does)");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    for show in ["sc16", "sc25-400g"] {
        let out = dir.path().join(show);
        let b = Command::new(env!("CARGO_BIN_EXE_democ"))
            .current_dir(root)
            .args(["build", &format!("examples/{show}/show.yaml"), "-o"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
        let html = std::fs::read_to_string(out.join("report/index.html")).unwrap();
        let probed = dir.path().join(format!("{show}-probe.html"));
        std::fs::write(&probed, html.replace("</body>", OVERLAP_PROBE)).unwrap();
        let (dom, errors) = load(&browser, &probed, &["--dump-dom"]);
        assert!(errors.is_empty(), "{errors:#?}");
        let start = dom.find("data-probe=\"").expect("the probe ran") + 12;
        let text = &dom[start..start + dom[start..].find('"').unwrap()];
        let json: serde_json::Value =
            serde_json::from_str(&text.replace("&quot;", "\"").replace("&amp;", "&")).unwrap();
        assert!(json["labels"].as_u64().unwrap() > 5, "{show}: {json}");
        assert_eq!(
            json["found"],
            serde_json::json!([]),
            "{show}: labels over nodes or labels"
        );
    }
}

//! The build's `monitoring/` folder: Prometheus rules whose thresholds are the plan's,
//! checked and run by Prometheus's own `promtool` (Debian's `prometheus` package; .ci/run
//! installs it) against synthetic counter series: a link above its planned load and a
//! flow below its prediction fire, an idle show and a show on plan do not.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn promtool() -> Option<PathBuf> {
    let out = Command::new("promtool").arg("--version").output().ok()?;
    out.status.success().then(|| PathBuf::from("promtool"))
}

fn build(spec: &str, out: &Path) {
    let b = Command::new(env!("CARGO_BIN_EXE_democ"))
        .current_dir(root())
        .args(["build", spec, "-o"])
        .arg(out)
        .output()
        .unwrap();
    assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
}

fn promtool_ok(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("promtool")
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "promtool {args:?}:\n{text}");
    text
}

/// A build of `spec` and its monitoring/ folder; None (the test skipped, said why)
/// without promtool.
fn monitoring(spec: &str) -> Option<(tempfile::TempDir, PathBuf)> {
    if promtool().is_none() {
        eprintln!("skipped: no `promtool` on PATH (apt-get install prometheus; .ci/run does)");
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("build");
    build(spec, &out);
    Some((dir, out.join("monitoring")))
}

/// Bytes per 15 s that make `rate(...[1m]) * 8 / 1e9` read `gbps`.
fn step(gbps: f64) -> u64 {
    (gbps * 1e9 / 8.0 * 15.0) as u64
}

#[test]
fn rules_fire_where_the_plan_is_not_met_and_only_there() {
    let Some((_dir, mon)) = monitoring("tests/fixtures/traced/show.yaml") else {
        return;
    };
    let rules = std::fs::read_to_string(mon.join("alerts.rules.yml")).unwrap();
    // The plan: flow a-to-b at 20 Gbit/s, entering eos-a by Ethernet1/1 from dtn-a.
    assert!(rules.contains("flow: a-to-b"), "{rules}");
    assert!(rules.contains("link: dtn-a:p0 -> eos-a:1/1"), "{rules}");
    promtool_ok(&mon, &["check", "rules", "alerts.rules.yml"]);
    promtool_ok(&mon, &["check", "config", "prometheus.yml"]);

    let metric = |dir: &str, port: &str| {
        format!(
            "democ_interfaces_interface_state_counters_{dir}_octets{{source=\"eos-a\",interface_name=\"{port}\"}}"
        )
    };
    let case = |gbps: f64, alerts: &str| {
        format!(
            "  - interval: 15s\n    input_series:\n      - series: '{}'\n        values: '0+{}x40'\n    alert_rule_test:\n      - eval_time: 8m\n        alertname: DemocLinkAbovePlan\n        exp_alerts: {}\n      - eval_time: 8m\n        alertname: DemocFlowBelowPlan\n        exp_alerts: {}\n",
            metric("in", "Ethernet1/1"),
            step(gbps),
            alerts.split('|').next().unwrap(),
            alerts.split('|').nth(1).unwrap(),
        )
    };
    let above = "[{exp_labels: {severity: warning, link: 'dtn-a:p0 -> eos-a:1/1'}, exp_annotations: {summary: \"dtn-a:p0 -> eos-a:1/1 carries 30.0 Gbit/s, more than the plan's load for it: traffic the plan does not know, or a hash that piles streams on this member\"}}]";
    let below = "[{exp_labels: {severity: warning, flow: a-to-b}, exp_annotations: {summary: \"flow a-to-b runs at 10.0 Gbit/s, below its prediction: `democ verify` on its results names the likely cause\"}}]";
    let tests = format!(
        "rule_files: [alerts.rules.yml]\nevaluation_interval: 15s\ntests:\n{}{}{}{}",
        // 30 Gbit/s on a link planned for 20: above plan; the flow is not short.
        case(30.0, &format!("{above}|[]")),
        // 10 Gbit/s: the flow runs short of its 20; the link is not above plan.
        case(10.0, &format!("[]|{below}")),
        // On plan: nothing fires.
        case(20.0, "[]|[]"),
        // Idle (no flow running): nothing fires.
        case(0.0, "[]|[]"),
    );
    std::fs::write(mon.join("democ.test.yml"), tests).unwrap();
    let text = promtool_ok(&mon, &["test", "rules", "democ.test.yml"]);
    assert!(text.contains("SUCCESS"), "{text}");
}

#[test]
fn every_example_writes_rules_promtool_accepts() {
    if promtool().is_none() {
        eprintln!("skipped: no `promtool` on PATH (apt-get install prometheus; .ci/run does)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for show in ["sc15", "sc16", "sc25-400g"] {
        let out = dir.path().join(show);
        build(&format!("examples/{show}/show.yaml"), &out);
        let mon = out.join("monitoring");
        promtool_ok(&mon, &["check", "rules", "alerts.rules.yml"]);
        promtool_ok(&mon, &["check", "config", "prometheus.yml"]);
    }
    // sc25-400g: EOS by gNMI (its config enables it); the others have no SNMP community.
    let mon = dir.path().join("sc25-400g/monitoring");
    let gnmic = std::fs::read_to_string(mon.join("gnmic.yaml")).unwrap();
    assert!(
        gnmic.contains("cit-7060:\n    address: 192.168.25.4:6030"),
        "{gnmic}"
    );
    let rules = std::fs::read_to_string(mon.join("alerts.rules.yml")).unwrap();
    assert!(rules.contains("# switches not monitored: no gNMI democ enables and no SNMP community (`show.services`): campus-sw,"), "{rules}");
    let cfg = std::fs::read_to_string(dir.path().join("sc25-400g/switches/cit-7060.cfg")).unwrap();
    assert!(
        cfg.contains("management api gnmi\n   transport grpc default\n"),
        "{cfg}"
    );
}

#[test]
fn switches_with_only_snmp_are_polled_through_snmp_exporter() {
    // One switch of each OS with an SNMP community and no gNMI.
    let Some((_dir, mon)) = monitoring("tests/fixtures/services/show.yaml") else {
        return;
    };
    promtool_ok(&mon, &["check", "rules", "alerts.rules.yml"]);
    promtool_ok(&mon, &["check", "config", "prometheus.yml"]);
    let prom = std::fs::read_to_string(mon.join("prometheus.yml")).unwrap();
    assert!(
        prom.contains("job_name: democ-snmp") && prom.contains("metrics_path: /snmp"),
        "{prom}"
    );
    assert!(!prom.contains("democ-gnmic"), "{prom}");
    assert!(!mon.join("gnmic.yaml").exists());
    let auth = std::fs::read_to_string(mon.join("snmp-auth.yml")).unwrap();
    assert!(auth.contains("community: "), "{auth}");
    let rules = std::fs::read_to_string(mon.join("alerts.rules.yml")).unwrap();
    assert!(rules.contains("rate(ifHCOutOctets{device="), "{rules}");
}

/// sc25-400g's EOS switch reads its 400GBASE-DR4 lanes over gNMI: a lane below the
/// catalog's receive floor (-5.9 dBm) fires DemocOpticRxLow, one above the overload
/// (4 dBm) DemocOpticRxHigh, lanes inside the window neither.
#[test]
fn optic_lanes_outside_their_window_fire() {
    let Some((_dir, mon)) = monitoring("examples/sc25-400g/show.yaml") else {
        return;
    };
    let lane = |ch: u32, dbm: &str| {
        format!(
            "      - series: 'democ_components_component_transceiver_physical_channels_channel_state_input_power_instant{{source=\"cit-7060\",component_name=\"Ethernet1/1\",channel_index=\"{ch}\"}}'\n        values: '{dbm}x20'\n"
        )
    };
    let case = |lanes: &[&str], low: &str, high: &str| {
        let series: String = lanes
            .iter()
            .enumerate()
            .map(|(i, d)| lane(i as u32, d))
            .collect();
        format!(
            "  - interval: 15s\n    input_series:\n{series}    alert_rule_test:\n      - eval_time: 3m\n        alertname: DemocOpticRxLow\n        exp_alerts: {low}\n      - eval_time: 3m\n        alertname: DemocOpticRxHigh\n        exp_alerts: {high}\n"
        )
    };
    let labels = "{severity: warning, switch: cit-7060, port: Ethernet1/1}";
    let tests = format!(
        "rule_files: [alerts.rules.yml]\nevaluation_interval: 15s\ntests:\n{}{}{}",
        // One lane of four 2 dB under the floor: low; the window's top untouched.
        case(
            &["-2", "-2", "-7.9", "-2"],
            &format!(
                "[{{exp_labels: {labels}, exp_annotations: {{summary: \"cit-7060 Ethernet1/1 receives -7.9 dBm, below its optic's floor: clean or replace the fiber or the optic\"}}}}]"
            ),
            "[]"
        ),
        // One lane above the overload (a short run without an attenuator): high.
        case(
            &["1", "5.5", "1", "1"],
            "[]",
            &format!(
                "[{{exp_labels: {labels}, exp_annotations: {{summary: \"cit-7060 Ethernet1/1 receives 5.5 dBm, above its optic's overload: an attenuator is missing on a short run\"}}}}]"
            )
        ),
        // Every lane inside the window: nothing.
        case(&["-1", "-1.5", "-2", "0"], "[]", "[]"),
    );
    std::fs::write(mon.join("optics.test.yml"), tests).unwrap();
    promtool_ok(&mon, &["test", "rules", "optics.test.yml"]);
}

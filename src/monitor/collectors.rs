//! The collectors' own files: gnmic's subscription to every gNMI switch, with its
//! Prometheus output; Prometheus's scrape config for gnmic and for snmp_exporter's
//! IF-MIB polling of the SNMP switches, loading the build's rules; and the
//! snmp_exporter authentication the SNMP switches' community needs.

use std::collections::BTreeMap;

use serde::Serialize;

use super::error::MonitorError;
use super::watch::Collector;
use crate::ir::switch::Switch;

/// gnmic's Prometheus output listens here; Prometheus scrapes it.
pub(crate) const GNMIC_LISTEN: &str = ":9804";
/// snmp_exporter's default listen address (its README).
const SNMP_EXPORTER: &str = "127.0.0.1:9116";

#[derive(Serialize)]
struct Target {
    address: String,
    /// Plain gRPC: EOS serves gNMI without TLS unless an `ssl profile` is configured,
    /// and democ's config names none.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    insecure: bool,
    /// TLS without checking the certificate: Cumulus Linux's server presents a
    /// self-signed one unless the planner imports another.
    #[serde(rename = "skip-verify", skip_serializing_if = "std::ops::Not::not")]
    skip_verify: bool,
    subscriptions: Vec<&'static str>,
}

#[derive(Serialize)]
struct Subscription {
    paths: Vec<&'static str>,
    mode: &'static str,
    #[serde(rename = "stream-mode")]
    stream_mode: &'static str,
    #[serde(rename = "sample-interval")]
    sample_interval: &'static str,
}

#[derive(Serialize)]
struct Output {
    #[serde(rename = "type")]
    kind: &'static str,
    listen: &'static str,
    #[serde(rename = "metric-prefix")]
    metric_prefix: &'static str,
    #[serde(rename = "append-subscription-name")]
    append_subscription_name: bool,
    #[serde(rename = "strings-as-labels")]
    strings_as_labels: bool,
}

#[derive(Serialize)]
struct Gnmic {
    encoding: &'static str,
    targets: BTreeMap<String, Target>,
    subscriptions: BTreeMap<&'static str, Subscription>,
    outputs: BTreeMap<&'static str, Output>,
}

/// The OpenConfig paths subscribed: interface counters (the rules' rates and discards),
/// transceiver lane power (the optic floors), LACP member state (for dashboards; its
/// values are strings, which the rules do not read).
const SUBSCRIPTIONS: [(&str, &str); 3] = [
    ("democ-counters", "/interfaces/interface/state/counters"),
    (
        "democ-optics",
        "/components/component/transceiver/physical-channels/channel/state/input-power",
    ),
    (
        "democ-lacp",
        "/lacp/interfaces/interface/members/member/state",
    ),
];

pub(crate) fn gnmic(switches: &[(&Switch, Collector)]) -> Result<String, MonitorError> {
    let targets = switches
        .iter()
        .filter(|(_, c)| *c == Collector::Gnmi)
        .filter_map(|(s, _)| {
            let g = s.services.as_ref()?.gnmi.as_ref()?;
            let addr = &s.management.as_ref()?.address.address;
            Some((
                s.hostname.clone(),
                Target {
                    address: format!("{addr}:{}", g.port),
                    insecure: !g.tls,
                    skip_verify: g.tls,
                    subscriptions: SUBSCRIPTIONS.iter().map(|(n, _)| *n).collect(),
                },
            ))
        })
        .collect();
    let subscriptions = SUBSCRIPTIONS
        .iter()
        .map(|&(name, path)| {
            (
                name,
                Subscription {
                    paths: vec![path],
                    mode: "stream",
                    stream_mode: "sample",
                    sample_interval: "10s",
                },
            )
        })
        .collect();
    let doc = Gnmic {
        encoding: "json_ietf",
        targets,
        subscriptions,
        outputs: BTreeMap::from([(
            "democ-prometheus",
            Output {
                kind: "prometheus",
                listen: GNMIC_LISTEN,
                metric_prefix: "democ",
                append_subscription_name: false,
                strings_as_labels: false,
            },
        )]),
    };
    serde_saphyr::to_string(&doc).map_err(MonitorError::of("monitoring/gnmic.yaml"))
}

#[derive(Serialize)]
struct StaticConfig {
    targets: Vec<String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    labels: BTreeMap<&'static str, String>,
}

#[derive(Serialize)]
struct Relabel {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    source_labels: Vec<&'static str>,
    target_label: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    replacement: Option<&'static str>,
}

#[derive(Serialize)]
struct Job {
    job_name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    metrics_path: Option<&'static str>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    params: BTreeMap<&'static str, Vec<&'static str>>,
    static_configs: Vec<StaticConfig>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    relabel_configs: Vec<Relabel>,
}

#[derive(Serialize)]
struct Global {
    scrape_interval: &'static str,
    evaluation_interval: &'static str,
}

#[derive(Serialize)]
struct Prometheus {
    global: Global,
    rule_files: Vec<&'static str>,
    scrape_configs: Vec<Job>,
}

/// The scrape config: gnmic's output, and one snmp_exporter target per SNMP switch
/// (its management address, with the switch's name as `device`, the label the rules
/// select SNMP series by).
pub(crate) fn prometheus(switches: &[(&Switch, Collector)]) -> Result<String, MonitorError> {
    let mut jobs = Vec::new();
    if switches.iter().any(|(_, c)| *c == Collector::Gnmi) {
        jobs.push(Job {
            job_name: "democ-gnmic".to_owned(),
            metrics_path: None,
            params: BTreeMap::new(),
            static_configs: vec![StaticConfig {
                targets: vec![format!("127.0.0.1{GNMIC_LISTEN}")],
                labels: BTreeMap::new(),
            }],
            relabel_configs: Vec::new(),
        });
    }
    let snmp: Vec<StaticConfig> = switches
        .iter()
        .filter(|(_, c)| *c == Collector::Snmp)
        .filter_map(|(s, _)| {
            Some(StaticConfig {
                targets: vec![s.management.as_ref()?.address.address.clone()],
                labels: BTreeMap::from([("device", s.hostname.clone())]),
            })
        })
        .collect();
    if !snmp.is_empty() {
        jobs.push(Job {
            job_name: "democ-snmp".to_owned(),
            metrics_path: Some("/snmp"),
            params: BTreeMap::from([("auth", vec!["democ"]), ("module", vec!["if_mib"])]),
            static_configs: snmp,
            // snmp_exporter's documented relabelling: the switch becomes the `target`
            // parameter and the instance, the exporter the address scraped.
            relabel_configs: vec![
                Relabel {
                    source_labels: vec!["__address__"],
                    target_label: "__param_target",
                    replacement: None,
                },
                Relabel {
                    source_labels: vec!["__param_target"],
                    target_label: "instance",
                    replacement: None,
                },
                Relabel {
                    source_labels: Vec::new(),
                    target_label: "__address__",
                    replacement: Some(SNMP_EXPORTER),
                },
            ],
        });
    }
    let doc = Prometheus {
        global: Global {
            scrape_interval: "15s",
            evaluation_interval: "15s",
        },
        rule_files: vec!["alerts.rules.yml"],
        scrape_configs: jobs,
    };
    serde_saphyr::to_string(&doc).map_err(MonitorError::of("monitoring/prometheus.yml"))
}

#[derive(Serialize)]
struct Auth {
    community: String,
    version: u8,
}

#[derive(Serialize)]
struct SnmpAuths {
    auths: BTreeMap<&'static str, Auth>,
}

/// snmp_exporter's `auths` entry named `democ`, with the show's v2c community (merge it
/// into snmp_exporter's snmp.yml). None when no switch is polled over SNMP.
pub(crate) fn snmp_auth(switches: &[(&Switch, Collector)]) -> Result<Option<String>, MonitorError> {
    let Some(community) = switches
        .iter()
        .filter(|(_, c)| *c == Collector::Snmp)
        .find_map(|(s, _)| {
            s.services
                .as_ref()?
                .snmp
                .as_ref()
                .map(|n| n.community.clone())
        })
    else {
        return Ok(None);
    };
    let doc = SnmpAuths {
        auths: BTreeMap::from([(
            "democ",
            Auth {
                community,
                version: 2,
            },
        )]),
    };
    serde_saphyr::to_string(&doc)
        .map(Some)
        .map_err(MonitorError::of("monitoring/snmp-auth.yml"))
}

//! `show.services` (issue 9 §6): NTP, syslog, SNMP v2c and sFlow on every switch, sent
//! from the management port, each OS's lines as its manual writes them (cited in
//! templates/<vendor>/vendor.yaml), and a W0303 for what an OS cannot take. democ used
//! to refuse the section (unknown field), so no show had these lines.

#[path = "fixtures/render/support.rs"]
mod support;

const SPEC: &str = "tests/fixtures/services/show.yaml";
const OSES: [&str; 5] = ["os10-1", "ftos-1", "eos-1", "onyx-1", "picos-1"];

/// The service lines of a config, with the `interface` header of those inside one.
fn service_lines(text: &str) -> String {
    let keep = |l: &str| {
        [
            "ntp ",
            "logging ",
            "snmp-server ",
            "sflow ",
            "management egress",
            "application sflow",
        ]
        .iter()
        .any(|k| l.trim_start().starts_with(k))
            || l.contains("ip route ")
            || l.starts_with("management route ")
            || l.starts_with("ip default-gateway ")
    };
    support::block_lines(text, keep)
}

#[test]
fn each_os_gets_its_service_lines() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    support::build(SPEC, &out);
    let mut all = String::new();
    for sw in OSES {
        let text = std::fs::read_to_string(out.join(format!("switches/{sw}.cfg"))).expect("config");
        all.push_str(&format!("==== {sw}\n{}", service_lines(&text)));
    }
    insta::with_settings!({ snapshot_path => "fixtures/services/snapshots", prepend_module_to_snapshot => false, omit_expression => true }, {
        insta::assert_snapshot!("service_lines", all);
    });
}

/// The services' addresses on the management network are never handed to a switch
/// (onyx-1 once got the NTP server's 192.168.30.5).
#[test]
fn no_switch_gets_a_service_address() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    support::build(SPEC, &out);
    let services = [
        "192.168.30.5",
        "192.168.30.6",
        "192.168.30.7",
        "192.168.30.8",
        "192.168.30.1",
    ];
    for sw in OSES {
        let ir: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(out.join(format!("ir/{sw}.json"))).unwrap(),
        )
        .unwrap();
        let addr = ir["management"]["address"]["address"]
            .as_str()
            .expect("a management address");
        assert!(!services.contains(&addr), "{sw} got {addr}");
    }
}

#[test]
fn what_an_os_cannot_take_is_named() {
    let o = support::democ(&["check", SPEC]);
    let err = support::stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    for want in [
        "`os10` sends sFlow only from data ports",
        "no confirmed `onyx` syntax for sFlow",
        "no confirmed `picos` syntax for NTP",
        "no confirmed `picos` syntax for SNMP",
    ] {
        assert!(err.contains(want), "missing {want:?} in\n{err}");
    }
    assert!(
        !err.contains("`ftos9` syntax") && !err.contains("`eos` syntax"),
        "{err}"
    );
}

/// sFlow sampling is in the IR only where the switch really sends sFlow.
#[test]
fn sampled_ports_follow_what_the_os_sends() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    support::build(SPEC, &out);
    for (sw, sampled) in [
        ("eos-1", true),
        ("ftos-1", true),
        ("os10-1", false),
        ("onyx-1", false),
    ] {
        let ir: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(out.join(format!("ir/{sw}.json"))).unwrap(),
        )
        .unwrap();
        let n = ir["interfaces"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["sflow"] == true)
            .count();
        assert_eq!(n > 0, sampled, "{sw}: {n} sampled ports");
        assert_eq!(ir["services"]["sflow"].is_object(), sampled, "{sw}");
    }
}

#[test]
fn a_community_that_is_not_one_short_word_is_refused() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let spec = tmp.path().join("show.yaml");
    let text = std::fs::read_to_string(SPEC).unwrap();
    for bad in ["\"show ro\"", "a-community-of-21-chars"] {
        std::fs::write(
            &spec,
            text.replace("community: show-ro", &format!("community: {bad}")),
        )
        .unwrap();
        let o = support::democ(&["check", spec.to_str().unwrap()]);
        let err = support::stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{bad}: {err}");
        assert!(
            err.contains("error[E0007]") && err.contains("at most 20 characters"),
            "{err}"
        );
    }
}

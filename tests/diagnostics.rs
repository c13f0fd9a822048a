//! "Errors are the product": every bad spec under tests/bad is checked by the real
//! binary, must exit 1 and report the code its file name starts with (`E0101-...`), and
//! has its rendered diagnostics snapshotted in tests/snapshots/. Files named `ok-...`
//! (BOM, CRLF, unit spellings) must be accepted. Helper files live in tests/bad/include/.
//!
//! Regenerate after a deliberate wording change:
//! `INSTA_UPDATE=always cargo test --test diagnostics`, then read every changed snapshot.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

mod common;

/// Exit code and standard error of `democ check FILE --color never`, run from the crate
/// root with a relative path so file names in the output are stable; bounded as issue 14
/// asks of every bad input (common::democ_bounded: no hang, a second of processor time
/// in a release build, under 300 MB, no panic).
fn check(file: &str, extra: &[&str]) -> (i32, String) {
    let mut args = vec!["check", file, "--color", "never"];
    args.extend_from_slice(extra);
    let run = common::democ_bounded(Some(Path::new(env!("CARGO_MANIFEST_DIR"))), &args);
    (run.code, run.stderr)
}

/// The code a bad spec is named for: `E0101-unknown-switch.yaml` -> `E0101`.
fn named_code(file: &str) -> Option<&str> {
    let stem = Path::new(file).file_name()?.to_str()?;
    let code = stem.split('-').next()?;
    let ok = code.len() == 5
        && (code.starts_with('E') || code.starts_with('W'))
        && code[1..].chars().all(|c| c.is_ascii_digit());
    ok.then_some(code)
}

/// Snapshot name of a bad spec: its path under tests/bad, `/` turned into `__`.
fn snapshot_name(file: &str) -> String {
    file.trim_start_matches("tests/bad/")
        .trim_end_matches(".yaml")
        .replace('/', "__")
}

/// A bad spec: exit 1, the named code reported, no panic, stderr snapshotted.
/// Warnings (W codes) are checked with `--deny warnings` so that they fail the run.
fn bad(file: &str) {
    let code = named_code(file).unwrap_or_else(|| panic!("{file}: name must start with a code"));
    let extra: &[&str] = if code.starts_with('W') {
        &["--deny", "warnings"]
    } else {
        &[]
    };
    let (status, stderr) = check(file, extra);
    assert!(!stderr.contains("panicked"), "{file} panicked:\n{stderr}");
    assert_eq!(status, 1, "exit code of {file}:\n{stderr}");
    assert!(
        stderr.contains(&format!("[{code}]")),
        "{file} must report {code}:\n{stderr}"
    );
    assert!(
        stderr.contains("= help: "),
        "{file}: every diagnostic needs a help line:\n{stderr}"
    );
    insta::assert_snapshot!(snapshot_name(file), stderr);
}

/// A malformed-looking but valid spec: exit 0, no error.
fn ok(file: &str) {
    let (status, stderr) = check(file, &[]);
    assert_eq!(status, 0, "{file} must be accepted:\n{stderr}");
    assert!(!stderr.contains("error"), "{file}:\n{stderr}");
    assert!(stderr.contains("ok: "), "{file}:\n{stderr}");
}

macro_rules! specs {
    ($($kind:ident $name:ident => $file:literal,)*) => {
        $(#[test] fn $name() { $kind($file) })*
        /// Every spec file a test above runs.
        const LISTED: &[&str] = &[$($file),*];
    };
}

specs! {
    // ---- input: files, YAML, the decoder ----
    bad e0001_missing_include => "tests/bad/E0001-missing-include.yaml",
    bad e0002_unclosed_bracket => "tests/bad/E0002-unclosed-bracket.yaml",
    bad e0003_duplicate_key => "tests/bad/E0003-duplicate-key.yaml",
    bad e0004_wrong_type => "tests/bad/E0004-wrong-type.yaml",
    bad e0005_unknown_field => "tests/bad/E0005-unknown-field.yaml",
    bad e0006_missing_field => "tests/bad/E0006-missing-field.yaml",
    bad e0006_no_show => "tests/bad/E0006-no-show.yaml",
    bad e0006_client_run_optic => "tests/bad/E0006-client-run-optic.yaml",
    bad e0007_invalid_keyword => "tests/bad/E0007-invalid-keyword.yaml",
    bad e0007_drive_serials => "tests/bad/E0007-drive-serials.yaml",
    bad e0007_congestion_and_kernel => "tests/bad/E0007-congestion-and-kernel.yaml",
    bad e0008_include_cycle => "tests/bad/E0008-include-cycle.yaml",
    bad e0009_host_range => "tests/bad/E0009-host-range.yaml",
    bad e0009_deep_nesting => "tests/bad/E0009-deep-nesting.yaml",
    bad e0009_billion_laughs => "tests/bad/E0009-billion-laughs.yaml",
    bad e0009_too_many_includes => "tests/bad/E0009-too-many-includes.yaml",
    bad e0009_host_count => "tests/bad/E0009-host-count.yaml",
    bad e0009_pair_count => "tests/bad/E0009-pair-count.yaml",
    bad e0010_invalid_name => "tests/bad/E0010-invalid-name.yaml",
    bad e0011_utf16 => "tests/bad/E0011-utf16.yaml",
    bad e0011_latin1 => "tests/bad/E0011-latin1.yaml",
    bad e0012_include_outside => "tests/bad/E0012-include-outside.yaml",
    // ---- references and names ----
    bad e0101_unknown_switch => "tests/bad/E0101-unknown-switch.yaml",
    bad e0102_duplicate_name => "tests/bad/E0102-duplicate-name.yaml",
    bad e0103_unknown_model => "tests/bad/E0103-unknown-model.yaml",
    bad e0103_model_no_cascade => "tests/bad/E0103-model-no-cascade.yaml",
    bad e0103_part_number => "tests/bad/E0103-part-number.yaml",
    bad e0101_site_once => "tests/bad/E0101-site-once.yaml",
    bad e0104_port_range => "tests/bad/E0104-port-range.yaml",
    bad w0122_uncabled_port => "tests/bad/W0122-uncabled-port.yaml",
    bad e0104_unknown_port => "tests/bad/E0104-unknown-port.yaml",
    bad e0105_port_reused => "tests/bad/E0105-port-reused.yaml",
    bad e0106_port_speed => "tests/bad/E0106-port-speed.yaml",
    bad e0107_link_speed_mismatch => "tests/bad/E0107-link-speed-mismatch.yaml",
    bad e0108_pool_overlap => "tests/bad/E0108-pool-overlap.yaml",
    bad e0109_pool_exhausted => "tests/bad/E0109-pool-exhausted.yaml",
    bad e0110_address_outside_pool => "tests/bad/E0110-address-outside-pool.yaml",
    bad e0111_duplicate_address => "tests/bad/E0111-duplicate-address.yaml",
    bad e0112_self_link => "tests/bad/E0112-self-link.yaml",
    bad e0112_flow_to_itself => "tests/bad/E0112-flow-to-itself.yaml",
    bad e0113_unsupported_os => "tests/bad/E0113-unsupported-os.yaml",
    bad e0114_out_of_range => "tests/bad/E0114-out-of-range.yaml",
    bad e0115_shell_name_clash => "tests/bad/E0115-shell-name-clash.yaml",
    bad e0116_port_channel_id => "tests/bad/E0116-port-channel-id.yaml",
    bad e0117_lag_placement => "tests/bad/E0117-lag-placement.yaml",
    bad e0010_fabric_name => "tests/bad/E0010-fabric-name.yaml",
    bad e0114_memory_zero => "tests/bad/E0114-memory-zero.yaml",
    bad e0118_path_loop => "tests/bad/E0118-path-loop.yaml",
    bad e0120_duplicate_port_channel => "tests/bad/E0120-duplicate-port-channel.yaml",
    bad e0121_slot_taken => "tests/bad/E0121-slot-taken.yaml",
    // ---- feasibility ----
    bad e0201_no_path => "tests/bad/E0201-no-path.yaml",
    bad e0210_optical_budget => "tests/bad/E0210-optical-budget.yaml",
    bad e0212_optic_reach => "tests/bad/E0212-optic-reach.yaml",
    bad e0213_optic_mismatch => "tests/bad/E0213-optic-mismatch.yaml",
    bad e0214_fiber_mismatch => "tests/bad/E0214-fiber-mismatch.yaml",
    bad e0215_optic_rate => "tests/bad/E0215-optic-rate.yaml",
    bad e0219_cable_lanes => "tests/bad/E0219-cable-lanes.yaml",
    bad e0220_otn_client => "tests/bad/E0220-otn-client.yaml",
    bad e0221_otn_client_run => "tests/bad/E0221-otn-client-run.yaml",
    bad e0222_optic_cage => "tests/bad/E0222-optic-cage.yaml",
    bad w0223_otn_client_optic => "tests/bad/W0223-otn-client-optic.yaml",
    bad e0225_path_mtu => "tests/bad/E0225-path-mtu.yaml",
    bad e0226_frame_mtu => "tests/bad/E0226-frame-mtu.yaml",
    bad e0227_cable_reach => "tests/bad/E0227-cable-reach.yaml",
    bad e0228_server_ports => "tests/bad/E0228-server-ports.yaml",
    bad e0237_openflow_controller => "tests/bad/E0237-openflow-controller.yaml",
    bad e0265_openflow_boundary => "tests/bad/E0265-openflow-boundary.yaml",
    bad e0266_openflow_lag => "tests/bad/E0266-openflow-lag.yaml",
    bad e0267_openflow_port_config => "tests/bad/E0267-openflow-port-config.yaml",
    bad w0268_pfc_reach => "tests/bad/W0268-pfc-reach.yaml",
    bad e0271_direct_cable_subnet => "tests/bad/E0271-direct-cable-subnet.yaml",
    bad e0272_stripe_port => "tests/bad/E0272-stripe-port.yaml",
    bad e0273_raid_array => "tests/bad/E0273-raid-array.yaml",
    bad e0274_pin_socket => "tests/bad/E0274-pin-socket.yaml",
    bad e0275_no_os_config => "tests/bad/E0275-no-os-config.yaml",
    bad w0259_stateful_middlebox => "tests/bad/W0259-stateful-middlebox.yaml",
    bad e0225_middlebox_mtu => "tests/bad/E0225-middlebox-mtu.yaml",
    bad w0290_fabric_numa => "tests/bad/W0290-fabric-numa.yaml",
    bad w0291_fabric_uncarried => "tests/bad/W0291-fabric-uncarried.yaml",
    bad e0114_fabric_drives => "tests/bad/E0114-fabric-drives.yaml",
    bad e0212_mmf_span => "tests/bad/E0212-mmf-span.yaml",
    bad e0240_pcie_lanes => "tests/bad/E0240-pcie-lanes.yaml",
    bad e0245_oversubscribed => "tests/bad/E0245-oversubscribed.yaml",
    bad e0250_controller_data_plane => "tests/bad/E0250-controller-data-plane.yaml",
    bad e0251_management_route => "tests/bad/E0251-management-route.yaml",
    bad e0252_inband_openflow => "tests/bad/E0252-inband-openflow.yaml",
    bad e0253_missing_route => "tests/bad/E0253-missing-route.yaml",
    bad e0255_segment_vlans => "tests/bad/E0255-segment-vlans.yaml",
    bad e0256_access_port_vlans => "tests/bad/E0256-access-port-vlans.yaml",
    bad w0232_rtt_length => "tests/bad/W0232-rtt-length.yaml",
    bad w0248_lag_hashing => "tests/bad/W0248-lag-hashing.yaml",
    bad e0254_service_unreachable => "tests/bad/E0254-service-unreachable.yaml",
    bad w0254_service_no_management => "tests/bad/W0254-service-no-management.yaml",
    bad w0257_remote_mgmt_subnet => "tests/bad/W0257-remote-mgmt-subnet.yaml",
    // ---- OpenFlow rulesets ----
    bad e0280_openflow_rule_conflict => "tests/bad/E0280-openflow-rule-conflict.yaml",
    bad e0282_openflow_meters => "tests/bad/E0282-openflow-meters.yaml",
    bad e0283_openflow_port_number => "tests/bad/E0283-openflow-port-number.yaml",
    bad e0284_openflow_port_map => "tests/bad/E0284-openflow-port-map.yaml",
    bad w0285_openflow_port_map_placeholder => "tests/bad/W0285-openflow-port-map-placeholder.yaml",
    bad w0305_unconfirmed => "tests/bad/W0305-unconfirmed.yaml",
    bad w0306_management_global_table => "tests/bad/W0306-management-global-table.yaml",
    bad e0307_sonic_openflow => "tests/bad/E0307-sonic-openflow.yaml",
    bad e0307_cumulus_openflow => "tests/bad/E0307-cumulus-openflow.yaml",
    bad e0301_sonic_static_lag => "tests/bad/E0301-sonic-static-lag.yaml",
    bad w0310_dead_config => "tests/bad/W0310-dead-config.yaml",
    // ---- the malformed corpus (issue 5) ----
    bad corpus_truncated => "tests/bad/corpus/E0002-truncated.yaml",
    bad corpus_tabs => "tests/bad/corpus/E0002-tabs.yaml",
    bad corpus_invalid_utf8 => "tests/bad/corpus/E0011-invalid-utf8.yaml",
    bad corpus_latin1_in_string => "tests/bad/corpus/E0011-latin1-in-string.yaml",
    bad corpus_huge_numbers => "tests/bad/corpus/E0007-huge-number.yaml",
    bad corpus_negative_rate => "tests/bad/corpus/E0007-negative-rate.yaml",
    bad corpus_zero_length_fiber => "tests/bad/corpus/E0007-zero-length-fiber.yaml",
    bad corpus_unit_100gb => "tests/bad/corpus/E0007-unit-100Gb.yaml",
    bad corpus_unit_typos => "tests/bad/corpus/E0007-unit-typos.yaml",
    bad corpus_long_key => "tests/bad/corpus/E0002-long-key.yaml",
    bad corpus_utf32 => "tests/bad/corpus/E0011-utf32.yaml",
    bad corpus_control_characters => "tests/bad/corpus/E0002-control-characters.yaml",
    ok corpus_utf8_bom => "tests/bad/corpus/ok-utf8-bom.yaml",
    ok corpus_crlf => "tests/bad/corpus/ok-crlf.yaml",
    ok corpus_unit_spellings => "tests/bad/corpus/ok-unit-spellings.yaml",
}

/// Every `.yaml` under `dir` (recursively), as `tests/bad/...` paths.
fn yaml_files(dir: &Path, out: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).expect("tests/bad is readable") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            yaml_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml") {
            let rel = path
                .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                .unwrap_or(&path);
            out.insert(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

#[test]
fn every_bad_spec_is_listed() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/bad");
    let mut files = BTreeSet::new();
    yaml_files(&root, &mut files);
    let listed: BTreeSet<String> = LISTED.iter().map(|s| s.to_string()).collect();
    let unlisted: Vec<&String> = files
        .iter()
        .filter(|f| !f.starts_with("tests/bad/include/") && !listed.contains(*f))
        .collect();
    assert!(
        unlisted.is_empty(),
        "add these to `specs!` in tests/diagnostics.rs: {unlisted:?}"
    );
    let missing: Vec<&String> = listed.iter().filter(|f| !files.contains(*f)).collect();
    assert!(missing.is_empty(), "listed but absent: {missing:?}");
}

/// Error codes no spec can trigger, or not yet covered here, with the reason.
const UNCOVERED: &[(&str, &str)] = &[(
    "E0013",
    "a command-line argument's error, never a spec's: tests/init.rs asserts it",
)];

/// Every error code in src/diag/codes.rs has a bad spec here, or a `tests/check_*.rs`
/// fixture that asserts it, or a reason in `UNCOVERED`.
#[test]
fn every_error_code_has_a_bad_spec() {
    let codes_rs = include_str!("../src/diag/codes.rs");
    let declared: BTreeSet<&str> = codes_rs
        .split('"')
        .filter(|s| {
            s.len() == 5 && s.starts_with('E') && s[1..].chars().all(|c| c.is_ascii_digit())
        })
        .collect();
    let mut covered: BTreeSet<String> = LISTED
        .iter()
        .filter_map(|f| named_code(f))
        .map(String::from)
        .collect();
    let tests_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests");
    for entry in std::fs::read_dir(&tests_dir).expect("tests/ is readable") {
        let path = entry.expect("directory entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        // A check test names the code it expects (`"E0231"`); a test of another command
        // snapshots its diagnostic under a name that starts with it (`"E0703-...`).
        if name.ends_with(".rs") {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            for code in &declared {
                let expected = name.starts_with("check_") && text.contains(&format!("\"{code}\""));
                if expected || text.contains(&format!("\"{code}-")) {
                    covered.insert((*code).to_owned());
                }
            }
        }
    }
    let excused: BTreeSet<&str> = UNCOVERED.iter().map(|(c, _)| *c).collect();
    let missing: Vec<&&str> = declared
        .iter()
        .filter(|c| !covered.contains(**c) && !excused.contains(**c))
        .collect();
    assert!(
        missing.is_empty(),
        "no bad spec reports {missing:?}: add tests/bad/<CODE>-<what>.yaml and list it in tests/diagnostics.rs"
    );
}

//! The help for a port a switch does not have round-trips democ's own names (issue 34
//! item 10): the interface name democ's config prints for a port (`Ethernet9/1` on EOS
//! for `1/9`, `ethernet 1/9/2` on Onyx, written without its space for the subport `1/9:2`) gets that port's
//! canonical name, not a guess from its last digits.

use std::process::Command;

fn check(spec: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("show.yaml");
    std::fs::write(&path, spec).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_democ"))
        .args(["check", path.to_str().unwrap()])
        .output()
        .expect("democ runs");
    assert_eq!(o.status.code(), Some(1));
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const SWITCHES: &str = r#"
show: { name: names }
sites:
  booth: { kind: booth }
switches:
  eos-sw: { site: booth, model: arista-7060dx5-64s, os: eos }
  onyx-sw:
    site: booth
    model: nvidia-sn4700
    os: onyx
    ports:
      "1/9": { breakout: 8x50G }
"#;

#[test]
fn an_eos_name_gets_the_port_democ_names_so() {
    let text = check(&format!(
        "{SWITCHES}links:\n  - {{ a: \"eos-sw:Ethernet9/1\", b: \"onyx-sw:1/1\", media: dac, length_m: 2 }}\n"
    ));
    assert!(text.contains("write `1/9`"), "{text}");
    assert!(!text.contains("write `1/1`"), "{text}");
}

#[test]
fn an_onyx_subport_name_gets_its_subport() {
    let text = check(&format!(
        "{SWITCHES}links:\n  - {{ a: \"eos-sw:1/1\", b: \"onyx-sw:ethernet1/9/2\", media: dac, length_m: 2 }}\n"
    ));
    assert!(text.contains("write `1/9:2`"), "{text}");
}

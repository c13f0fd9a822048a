//! A NIC whose slot trains below nominal (`pcie: { gen, width }` on the host's NIC), and
//! a chassis's own Max_Payload_Size (`pcie_mps`), both through the binary on the Gen2 /
//! Gen3 fixture of tests/fixtures/feasibility/pcie-gen2-slot.yaml.

use std::process::Command;

fn check(replace: &[(&str, &str)]) -> (i32, String) {
    let path = "tests/fixtures/feasibility/pcie-gen2-slot.yaml";
    let text = replace
        .iter()
        .fold(std::fs::read_to_string(path).unwrap(), |t, (a, b)| {
            t.replace(a, b)
        });
    check_text(&text)
}

/// The usable figure W0241 states for the `old` host's slot, Gbit/s.
fn usable(stderr: &str) -> Option<f64> {
    let line = stderr.lines().find(|l| l.contains("W0241"))?;
    let (_, rest) = line.split_once(" gives ")?;
    rest.split_whitespace().next()?.parse().ok()
}

#[test]
fn a_gen3_slot_trained_at_gen2_caps_the_nic_like_a_gen2_slot() {
    // The Gen3 x8 slot passes 40G: no W0241.
    let (code, err) = check(&[("slot: \"SLOT\"", "slot: \"2\"")]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(usable(&err), None, "{err}");
    // Declared to train at Gen2 (a BIOS setting), it is a Gen2 x8 link.
    let (code, err) = check(&[("slot: \"SLOT\"", "slot: \"2\", pcie: { gen: 2 }")]);
    assert_eq!(code, 0, "warnings only: {err}");
    assert!(err.contains("PCIe 2.0 x8"), "{err}");
    let trained = usable(&err).expect("W0241");
    let (_, gen2) = check(&[("slot: \"SLOT\"", "slot: \"1\"")]);
    assert_eq!(Some(trained), usable(&gen2), "{err}\n{gen2}");
}

#[test]
fn a_narrower_training_width_halves_the_link() {
    let (_, x8) = check(&[("slot: \"SLOT\"", "slot: \"1\"")]);
    let (_, x4) = check(&[("slot: \"SLOT\"", "slot: \"1\", pcie: { width: 4 }")]);
    assert!(x4.contains("PCIe 2.0 x4"), "{x4}");
    let (a, b) = (usable(&x8).unwrap(), usable(&x4).unwrap());
    // Half the lanes, and the narrower link's DLLPs weigh a little more per lane.
    assert!(b < a / 2.0 && b > a / 2.0 * 0.95, "x8 {a}, x4 {b}");
}

#[test]
fn a_training_generation_out_of_range_is_located() {
    let (code, err) = check(&[("slot: \"SLOT\"", "slot: \"2\", pcie: { gen: 9 }")]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("E0114") && err.contains("gen"), "{err}");
}

#[test]
fn the_chassis_payload_size_is_used() {
    // The same Gen2 x8 slot on a board whose root ports run 128 B payloads passes less
    // than at the default 256 B.
    let (_, default) = check(&[("slot: \"SLOT\"", "slot: \"1\"")]);
    let (_, small) = check(&[
        ("slot: \"SLOT\"", "slot: \"1\""),
        (
            "      sockets: 1\n",
            "      sockets: 1\n      pcie_mps: 128\n",
        ),
    ]);
    let (a, b) = (usable(&default).unwrap(), usable(&small).unwrap());
    assert!(b < a * 0.95, "256 B {a}, 128 B {b}\n{small}");
}

const PCH_SHOW: &str = r#"
show: { name: pch }
catalog:
  chassis:
    pch-board:
      vendor: test
      title: 40 CPU lanes in three slots, two more slots on the chipset's DMI
      sockets: 1
      switches:
        pch: { socket: 0, PCH uplink: { gen: 2, width: 4 } }
      slots:
        "1": { socket: 0, gen: 3, width: 16 }
        "2": { socket: 0, gen: 3, width: 16 }
        "3": { socket: 0, gen: 3, width: 8 }
        "4": { via: pch, gen: 2, width: 8 }
        "5": { via: pch, gen: 2, width: 4 }
      source: test fixture
sites: { lab: { kind: lab } }
switches:
  sw: { site: lab, model: dell-z9100-on, os: os10 }
hosts:
  old:
    site: lab
    chassis: pch-board
    cpu: xeon-e5-2697-v3
    nics: [{ model: intel-xl710-40g, slot: "4", ports: [p0] }]
  new:
    site: lab
    chassis: generic-1s-gen3
    cpu: xeon-e5-2697-v3
    nics: [{ model: mellanox-cx4-100g, slot: "1", ports: [p0] }]
links:
  - { a: "old:p0", b: "sw:1/1", media: dac }
  - { a: "new:p0", b: "sw:1/2", media: dac }
flows:
  - { name: to-new, from: old, to: new, rate: 20G, protocol: tcp }
"#;

fn check_text(text: &str) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("show.yaml"), text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_democ"))
        .current_dir(dir.path())
        .args(["check", "show.yaml", "--color", "never"])
        .output()
        .expect("democ runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn slots_on_the_chipset_share_its_uplink_and_take_no_cpu_lanes() {
    let (code, err) = check_text(&PCH_SHOW.replace("PCH ", "pch: true, "));
    assert_eq!(code, 0, "warnings only: {err}");
    assert!(!err.contains("E0240"), "DMI is not a CPU lane: {err}");
    assert!(
        err.contains("behind chipset (PCH) `pch`") && err.contains("PCIe 2.0 x4 uplink"),
        "{err}"
    );
    assert!(
        err.contains("bottleneck: `old`: chipset (PCH) `pch` PCIe 2.0 x4 uplink"),
        "{err}"
    );
    // Declared as a plain PCIe switch on socket 0, its x4 uplink would be CPU lanes:
    // 44 of 40.
    let (code, err) = check_text(&PCH_SHOW.replace("PCH ", ""));
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("E0240") && err.contains("44 PCIe lanes"),
        "{err}"
    );
}

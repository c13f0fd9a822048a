//! NVMe over Fabrics (issue 11 §1): sc16's `crsi-nvmeof` becomes a target script that
//! builds the nvmet configfs tree and one script per initiator that discovers and
//! connects; both are shellcheck clean, run `--dry-run` without touching the machine and
//! print the exact configfs writes and nvme-cli lines; `plan` predicts the fabric.
//! Before, the section produced no output at all. (The kernel here has no nvmet, so
//! nothing connects for real: the dry runs are what can be proven on this machine.)

#[path = "fixtures/render/support.rs"]
mod support;

use std::path::Path;
use std::process::Command;

use support::{build, democ, example};

fn bash(script: &Path, args: &[&str]) -> (i32, String, String) {
    bash_env(script, args, &[])
}

/// Runs `script` with `args`, its drives' stable names read from `byid`, and `env`.
fn bash_in(
    script: &Path,
    args: &[&str],
    byid: &Path,
    env: &[(&str, &str)],
) -> (i32, String, String) {
    let byid = byid.to_str().expect("utf-8 path");
    let mut all = vec![("DEMOC_BY_ID_DIR", byid)];
    all.extend_from_slice(env);
    bash_env(script, args, &all)
}

fn bash_env(script: &Path, args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let o = Command::new("bash")
        .arg(script)
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("bash runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A folder of udev-style stable names (`nvme-MODEL_SERIAL`, with the aliases udev also
/// makes: an `eui.` name and a partition) over one file per drive, listed in reverse so
/// the script's order cannot come from creation order.
fn fake_drives(dir: &Path, names: &[String]) -> std::path::PathBuf {
    let byid = dir.join("by-id");
    let dev = dir.join("dev");
    std::fs::create_dir_all(&byid).expect("by-id");
    std::fs::create_dir_all(&dev).expect("dev");
    for (i, name) in names.iter().enumerate().rev() {
        let d = dev.join(format!("nvme{i}n1"));
        std::fs::write(&d, "").expect("drive");
        std::os::unix::fs::symlink(&d, byid.join(format!("nvme-{name}"))).expect("link");
        std::os::unix::fs::symlink(&d, byid.join(format!("nvme-eui.{i:04}"))).expect("eui");
        let p = dev.join(format!("nvme{i}n1p1"));
        std::fs::write(&p, "").expect("partition");
        std::os::unix::fs::symlink(&p, byid.join(format!("nvme-{name}-part1"))).expect("part");
    }
    byid
}

const NQN: &str = "nqn.2026-11.invalid.democ:sc16:crsi-nvmeof";
const CFG: &str = "/sys/kernel/config/nvmet";

#[test]
fn the_target_script_prints_the_configfs_tree() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(&example("sc16"), &out);
    let script = out.join("nvmeof/crsi-nvmeof/target-crsi-nvme-1.sh");
    // The machine's drives, as udev names them: 24 U.2 drives.
    let byid = fake_drives(
        tmp.path(),
        &(1..=24)
            .map(|i| format!("GEN3U2_SN{i:02}"))
            .collect::<Vec<_>>(),
    );
    let (code, stdout, stderr) = bash_in(&script, &["--dry-run"], &byid, &[]);
    assert_eq!(code, 0, "{stderr}");
    let sub = format!("{CFG}/subsystems/{NQN}");
    for want in [
        "modprobe nvmet ".to_owned(),
        "modprobe nvmet-rdma ".to_owned(),
        format!("mkdir {sub} "),
        format!("echo 0 > {sub}/attr_allow_any_host"),
        // the drives in the order of their stable names, never nvme<n>n1
        format!(
            "echo {}/nvme-GEN3U2_SN01 > {sub}/namespaces/1/device_path",
            byid.display()
        ),
        format!(
            "echo {}/nvme-GEN3U2_SN24 > {sub}/namespaces/24/device_path",
            byid.display()
        ),
        format!("echo 1 > {sub}/namespaces/24/enable"),
        format!("echo rdma > {CFG}/ports/1/addr_trtype"),
        format!("echo ipv4 > {CFG}/ports/1/addr_adrfam"),
        format!("echo 10.16.200.1 > {CFG}/ports/1/addr_traddr"),
        format!("echo 4420 > {CFG}/ports/1/addr_trsvcid"),
        format!("ln -s {sub} {CFG}/ports/1/subsystems/{NQN} "),
        format!(
            "ln -s {CFG}/hosts/nqn.2026-11.invalid.democ:sc16:host:cit-nvme-2 {sub}/allowed_hosts/nqn.2026-11.invalid.democ:sc16:host:cit-nvme-2 "
        ),
    ] {
        assert!(
            stdout.lines().any(|l| l == want),
            "missing `{want}` in:\n{stdout}"
        );
    }
    // One namespace per drive of the target, no more.
    assert_eq!(stdout.matches("/device_path").count(), 24, "{stdout}");
    assert!(!stdout.contains("namespaces/25"), "{stdout}");
    // The drive a namespace serves is the user's to name.
    // (and the drive NS_3 names is not given to another namespace)
    let third = byid.join("nvme-GEN3U2_SN01");
    let (_, text, _) = bash_in(
        &script,
        &["--dry-run"],
        &byid,
        &[("NS_3", third.to_str().unwrap())],
    );
    for (ns, drive) in [(1, "SN02"), (2, "SN03"), (3, "SN01"), (4, "SN04")] {
        let want = format!(
            "echo {}/nvme-GEN3U2_{drive} > {sub}/namespaces/{ns}/device_path",
            byid.display()
        );
        assert!(
            text.lines().any(|l| l == want),
            "missing `{want}` in:\n{text}"
        );
    }
    // Without enough drives a real run refuses rather than export something else.
    let few = fake_drives(&tmp.path().join("few"), &["GEN3U2_SN01".to_owned()]);
    let (code, _, err) = bash_in(&script, &[], &few, &[]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no free NVMe drive left"), "{err}");
    // A disk holding a mounted filesystem (the machine's root, where it is a block
    // device) is never exported, whatever NS_n says.
    let root = Command::new("findmnt")
        .args(["-no", "SOURCE", "/"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    if Path::new(&root).exists() && root.starts_with("/dev/") {
        let o = Command::new("bash")
            .arg(&script)
            .arg("--dry-run")
            .env("NS_1", &root)
            .output()
            .expect("bash");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(err.contains("holds a mounted filesystem or swap"), "{err}");
        assert!(!String::from_utf8_lossy(&o.stdout).contains("device_path"));
    } else {
        println!(
            "root is not a block device here ({root:?}): the boot-disk refusal is not exercised"
        );
    }
    // Nothing is configured here: a teardown has nothing to undo.
    let (code, stdout, stderr) = bash(&script, &["--dry-run", "--teardown"]);
    assert_eq!((code, stdout.as_str()), (0, ""), "{stderr}");
    let (code, _, _) = bash(&script, &["--bogus"]);
    assert_eq!(code, 2);
}

#[test]
fn each_initiator_discovers_and_connects_with_its_queues() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(&example("sc16"), &out);
    for host in ["cit-nvme-1", "cit-nvme-2"] {
        let script = out.join(format!("nvmeof/crsi-nvmeof/initiator-{host}.sh"));
        let (code, stdout, stderr) = bash(&script, &["--dry-run"]);
        assert_eq!(code, 0, "{stderr}");
        let hostnqn = format!("nqn.2026-11.invalid.democ:sc16:host:{host}");
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(
            lines,
            [
                "modprobe nvme-rdma ".to_owned(),
                format!("nvme discover -t rdma -a 10.16.200.1 -s 4420 -q {hostnqn} "),
                // 22 cores per E5-2699 v4 socket, the NIC's; a show-floor RTT keeps the
                // kernel's default depth.
                format!(
                    "nvme connect -t rdma -a 10.16.200.1 -s 4420 -n {NQN} -q {hostnqn} -i 22 -Q 128 "
                ),
            ],
            "{stdout}"
        );
        let (code, stdout, _) = bash(&script, &["--dry-run", "--disconnect"]);
        assert_eq!(code, 0);
        assert!(stdout.contains("not connected"), "{stdout}");
    }
}

#[test]
fn every_fabric_and_host_script_is_shellcheck_clean() {
    if Command::new("shellcheck")
        .arg("--version")
        .output()
        .is_err()
    {
        println!("skipped: shellcheck is not installed");
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(&example("sc16"), &out);
    let mut scripts = Vec::new();
    for dir in ["nvmeof/crsi-nvmeof", "hosts"] {
        for e in std::fs::read_dir(out.join(dir)).expect("folder").flatten() {
            scripts.push(e.path());
        }
    }
    assert!(scripts.len() > 40, "{scripts:?}");
    let o = Command::new("shellcheck")
        .args(&scripts)
        .output()
        .expect("shellcheck");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
}

#[test]
fn the_plan_predicts_the_fabric_and_names_its_bottleneck() {
    let o = democ(&["plan", &example("sc16"), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let f = &v["fabrics"][0];
    assert_eq!(f["name"], "crsi-nvmeof");
    assert_eq!(f["drives"], 24);
    assert_eq!(f["carried_by"][0], "crsi-cit-nvme");
    // One 100GE port on the target carries both initiators' reads.
    let g = f["predicted_gbps"].as_f64().expect("number");
    assert!((90.0..100.0).contains(&g), "{f}");
    assert!(
        f["bottleneck"]["why"]
            .as_str()
            .unwrap_or("")
            .contains("crsi-nvme-1:p0"),
        "{f}"
    );
    // Half the drives are on the socket without the NIC: the drives' limit says so.
    let limits = f["limits"].as_array().expect("limits");
    assert!(
        limits.iter().any(|l| l["why"]
            .as_str()
            .unwrap_or("")
            .contains("50 % of them on another socket")),
        "{f}"
    );
    let text = democ(&["plan", &example("sc16")]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("crsi-nvmeof  rdma"), "{text}");
}

/// A flow that carries a fabric moves the fabric's bytes (issue 34, item 8): the
/// initiator's `send` reads the namespaces it connected, found by the subsystem's NQN,
/// at the pair's rate; no `ib_write_bw` runs beside the fabric, and the target's `serve`
/// starts nothing (nvmet serves). Before, `send` ran `ib_write_bw` and fio on local
/// drives, and the fabric carried nothing.
#[test]
fn a_fabric_flow_moves_the_fabrics_bytes() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(&example("sc16"), &out);
    let initiator = out.join("hosts/cit-nvme-1.sh");
    let (code, stdout, stderr) = bash(&initiator, &["--dry-run", "send", "crsi-cit-nvme"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stdout.contains("ib_write_bw"), "{stdout}");
    let fabric = stdout
        .lines()
        .find(|l| l.contains(&format!("--filename=/dev/NAMESPACE_OF_{NQN}")))
        .unwrap_or_else(|| panic!("fio on the fabric's namespaces:\n{stdout}"));
    // 80G over two initiators: 40 Gbit/s, 5 GB/s from the target.
    assert!(
        fabric.contains(" fio ") && fabric.contains("--rw=read"),
        "{fabric}"
    );
    assert!(fabric.contains("--rate=5000000000 "), "{fabric}");
    assert!(fabric.contains("--direct=1"), "{fabric}");

    let target = out.join("hosts/crsi-nvme-1.sh");
    let (code, stdout, stderr) = bash(&target, &["--dry-run", "serve", "crsi-cit-nvme"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.is_empty(), "the target starts nothing: {stdout}");
    assert!(
        stderr.contains("served by the kernel's NVMe-oF target"),
        "{stderr}"
    );

    // Not connected here: the initiator says which script connects, and starts nothing.
    let o = Command::new("bash")
        .arg(&initiator)
        .args(["send", "crsi-cit-nvme"])
        .env("DRIVE_1", tmp.path())
        .env("DRIVE_2", tmp.path())
        .output()
        .expect("bash runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "no namespace of {NQN} on this host: connect first (nvmeof/crsi-nvmeof/initiator-cit-nvme-1.sh)"
        )),
        "{err}"
    );
}

/// A drive the spec names by serial is the one exported, wherever its stable name sorts;
/// the drives without a serial take the others in order (issue 34 §8: the default was
/// `nvme<n>n1`, whose number the kernel assigns at boot, and could be the boot disk).
#[test]
fn a_serial_in_the_spec_picks_its_drive() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let spec = tmp.path().join("show.yaml");
    std::fs::write(
        &spec,
        r#"show:
  name: serials
  addressing: { dtn: 10.16.0.0/16, p2p: 10.255.0.0/24 }
sites:
  booth: { kind: booth }
switches:
  sw1: { site: booth, model: dell-z9100-on }
hosts:
  target-1:
    site: booth
    chassis: supermicro-x10dri
    cpu: xeon-e5-2697-v3
    nics: [{ model: mellanox-cx4-100g, slot: "2", ports: [p0] }]
    nvme:
      - { model: intel-p3700, slot: "1", serials: [ZZZ9] }
      - { model: intel-p3700, slot: "4" }
  init-1: { site: booth, chassis: supermicro-x10dri, cpu: xeon-e5-2697-v3, nics: [{ model: mellanox-cx4-100g, slot: "2", ports: [p0] }] }
links:
  - { a: "target-1:p0", b: "sw1:1/1", media: dac, length_m: 3 }
  - { a: "init-1:p0", b: "sw1:1/2", media: dac, length_m: 3 }
nvme_fabrics:
  - { name: fab, transport: tcp, target: target-1, initiators: [init-1] }
"#,
    )
    .expect("spec");
    let out = tmp.path().join("out");
    build(spec.to_str().expect("utf-8"), &out);
    let script = out.join("nvmeof/fab/target-target-1.sh");
    let byid = fake_drives(
        tmp.path(),
        &[
            "INTEL_SSDPE2MD016T4_AAA1",
            "INTEL_SSDPE2MD016T4_ZZZ9",
            "INTEL_SSDPE2MD016T4_MMM5",
        ]
        .map(String::from),
    );
    let (code, stdout, stderr) = bash_in(&script, &["--dry-run"], &byid, &[]);
    assert_eq!(code, 0, "{stderr}");
    let sub = format!("{CFG}/subsystems/nqn.2026-11.invalid.democ:serials:fab");
    for (ns, drive) in [(1, "ZZZ9"), (2, "AAA1")] {
        let want = format!(
            "echo {}/nvme-INTEL_SSDPE2MD016T4_{drive} > {sub}/namespaces/{ns}/device_path",
            byid.display()
        );
        assert!(
            stdout.lines().any(|l| l == want),
            "missing `{want}` in:\n{stdout}"
        );
    }
    assert!(stderr.contains("namespace 1 exports"), "{stderr}");
    // The serial's drive missing: a real run stops and says which serial.
    let none = fake_drives(
        &tmp.path().join("none"),
        &["INTEL_SSDPE2MD016T4_AAA1".to_owned()],
    );
    let (code, _, err) = bash_in(&script, &[], &none, &[]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no drive with serial ZZZ9"), "{err}");
}

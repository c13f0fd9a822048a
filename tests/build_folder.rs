//! A build folder is untrusted input (issue 38): `diff`, `validate`, `push` and the twin
//! read it as carefully as the spec. Each test crafts a folder the way an attacker (or
//! an unlucky archive) would and checks that democ refuses it with a message, without
//! reading, printing or waiting on anything outside the build.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

mod common;
use common::{copy_dir, democ_in};

const DEADLINE: Duration = Duration::from_secs(60);

/// sc16 built once with `--hosts` for every test here; tests copy it before crafting.
fn sc16_build() -> &'static Path {
    static BUILD: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    let (_, p) = BUILD.get_or_init(|| {
        let t = tempfile::tempdir().unwrap();
        let out = t.path().join("sc16");
        let r = democ_in(
            Some(Path::new(env!("CARGO_MANIFEST_DIR"))),
            &[
                "build",
                "examples/sc16/show.yaml",
                "-o",
                out.to_str().unwrap(),
                "--hosts",
            ],
            DEADLINE,
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        (t, out)
    });
    p
}

/// A copy of the sc16 build under `dir/name`.
fn copy_build(dir: &Path, name: &str) -> PathBuf {
    let to = dir.join(name);
    copy_dir(sc16_build(), &to);
    to
}

/// The manifest's first listed file under `prefix`.
fn listed(build: &Path, prefix: &str) -> String {
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(build.join("manifest.json")).unwrap()).unwrap();
    m["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap().to_owned())
        .find(|p| p.starts_with(prefix))
        .unwrap()
}

/// Gives the manifest entry of `path` another (valid) hash, so diff takes it as changed.
fn mark_changed(build: &Path, path: &str) {
    let f = build.join("manifest.json");
    let mut m: serde_json::Value = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
    for e in m["files"].as_array_mut().unwrap() {
        if e["path"] == path {
            e["sha256"] = "0".repeat(64).into();
        }
    }
    std::fs::write(&f, serde_json::to_vec_pretty(&m).unwrap()).unwrap();
}

fn secret(dir: &Path) -> PathBuf {
    let s = dir.join("outside-secret.txt");
    std::fs::write(&s, "SECRET-OUTSIDE-THE-BUILD\n").unwrap();
    s
}

#[test]
fn diff_does_not_print_a_config_symlinked_out_of_the_build() {
    let t = tempfile::tempdir().unwrap();
    let (a, b) = (copy_build(t.path(), "a"), copy_build(t.path(), "b"));
    let cfg = listed(&b, "switches/");
    std::fs::remove_file(b.join(&cfg)).unwrap();
    std::os::unix::fs::symlink(secret(t.path()), b.join(&cfg)).unwrap();
    mark_changed(&b, &cfg);
    let r = democ_in(
        None,
        &["diff", a.to_str().unwrap(), b.to_str().unwrap()],
        DEADLINE,
    );
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("symlink"), "{}", r.stderr);
    assert!(!r.stdout.contains("SECRET") && !r.stderr.contains("SECRET"));
}

#[test]
fn diff_refuses_a_fifo_or_a_device_as_the_manifest_without_hanging() {
    let t = tempfile::tempdir().unwrap();
    let a = copy_build(t.path(), "a");
    let fifo = copy_build(t.path(), "fifo");
    std::fs::remove_file(fifo.join("manifest.json")).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(fifo.join("manifest.json"))
        .status()
        .unwrap();
    assert!(made.success());
    let dev = copy_build(t.path(), "dev");
    std::fs::remove_file(dev.join("manifest.json")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dev.join("manifest.json")).unwrap();
    for (b, why) in [(&fifo, "FIFO"), (&dev, "symlink")] {
        let r = democ_in(
            None,
            &["diff", a.to_str().unwrap(), b.to_str().unwrap()],
            Duration::from_secs(20),
        );
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(r.stderr.contains(why), "{}", r.stderr);
    }
}

#[test]
fn diff_of_two_long_unrelated_files_ends() {
    // Myers' algorithm is quadratic on files that share nothing: 200,000 lines on each
    // side never finished before democ put a deadline on it.
    let t = tempfile::tempdir().unwrap();
    let (a, b) = (copy_build(t.path(), "a"), copy_build(t.path(), "b"));
    let cfg = listed(&b, "switches/");
    let lines = |c: char| {
        (0..200_000)
            .map(|i| format!("{c}{i}\n"))
            .collect::<String>()
    };
    std::fs::write(a.join(&cfg), lines('a')).unwrap();
    std::fs::write(b.join(&cfg), lines('b')).unwrap();
    mark_changed(&b, &cfg);
    let r = democ_in(
        None,
        &["diff", a.to_str().unwrap(), b.to_str().unwrap()],
        Duration::from_secs(120),
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stdout.contains(&format!("+++ b/{cfg}")));
    assert!(r.stdout.contains("-a199999") && r.stdout.contains("+b199999"));
}

#[test]
fn a_python_planted_above_a_copied_binary_is_never_run() {
    // The validators' Python came from the first `.venv/bin/python` in any folder above
    // the binary: a copy of democ under a folder someone else controls ran theirs.
    let t = tempfile::tempdir().unwrap();
    let bin = t.path().join("tools/bin/democ");
    std::fs::create_dir_all(bin.parent().unwrap()).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_democ"), &bin).unwrap();
    let marker = t.path().join("planted-python-ran");
    let venv = t.path().join("tools/.venv/bin");
    std::fs::create_dir_all(&venv).unwrap();
    let py = venv.join("python");
    std::fs::write(
        &py,
        format!("#!/bin/sh\ntouch '{}'\nexit 3\n", marker.display()),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&py, std::fs::Permissions::from_mode(0o755)).unwrap();
    let build = copy_build(t.path(), "b");
    for args in [
        vec!["push", build.to_str().unwrap()],
        vec!["validate", build.to_str().unwrap()],
    ] {
        let out = std::process::Command::new(&bin)
            .args(&args)
            .env_remove("DEMOC_PYTHON")
            .output()
            .unwrap();
        assert!(
            !marker.exists(),
            "`democ {}` ran the planted .venv/bin/python:\n{}",
            args[0],
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn validate_never_prints_what_a_schema_file_holds() {
    let t = tempfile::tempdir().unwrap();
    let build = copy_build(t.path(), "b");
    let schema = t.path().join("schema.json");
    std::fs::write(&schema, r#"{"type": "SECRET-OUTSIDE-THE-BUILD"}"#).unwrap();
    let link = t.path().join("link.json");
    std::os::unix::fs::symlink(&schema, &link).unwrap();
    let r = democ_in(
        None,
        &[
            "validate",
            build.to_str().unwrap(),
            "--clab-schema",
            link.to_str().unwrap(),
        ],
        DEADLINE,
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("not a JSON Schema"), "{}", r.stdout);
    assert!(!r.stdout.contains("SECRET") && !r.stderr.contains("SECRET"));
}

#[test]
fn validate_refuses_a_topology_that_binds_files_outside_the_build() {
    let t = tempfile::tempdir().unwrap();
    let build = copy_build(t.path(), "b");
    // sc16 is built with --hosts: its topology binds each DTN's script.
    let f = build.join("lab/sc16.clab.yml");
    let text = std::fs::read_to_string(&f).unwrap();
    let bad = text.replacen("../hosts/", "../../../../etc/", 1);
    assert_ne!(text, bad, "the topology binds no host script");
    std::fs::write(&f, bad).unwrap();
    let r = democ_in(None, &["validate", build.to_str().unwrap()], DEADLINE);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("is outside the build"), "{}", r.stdout);
}

/// Root, `ip` and network namespaces, or why not.
fn can_make_namespaces() -> Result<(), String> {
    if !rustix::process::geteuid().is_root() {
        return Err("not root".into());
    }
    let probe = format!("democ-t-probe-{}", std::process::id());
    let ok = std::process::Command::new("ip")
        .args(["netns", "add", &probe])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        return Err("network namespaces cannot be made here".into());
    }
    let _ = std::process::Command::new("ip")
        .args(["netns", "del", &probe])
        .status();
    Ok(())
}

#[test]
fn twin_down_on_a_crafted_record_kills_and_deletes_nothing() {
    if let Err(why) = can_make_namespaces() {
        eprintln!("skipped: {why}");
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let victim_ns = format!("democ-t-victim-{}", std::process::id());
    assert!(
        std::process::Command::new("ip")
            .args(["netns", "add", &victim_ns])
            .status()
            .unwrap()
            .success()
    );
    let mut sleep = std::process::Command::new("sleep")
        .arg("60")
        .spawn()
        .unwrap();
    let victim_file = t.path().join("victim.txt");
    std::fs::write(&victim_file, "keep me").unwrap();
    let pidfile = t.path().join("sleep.pid");
    std::fs::write(&pidfile, format!("{}\n", sleep.id())).unwrap();
    let record = serde_json::json!({
        "id": "evil",
        "nonce": "00000000",
        "namespaces": [victim_ns],
        "pidfiles": [pidfile, victim_file],
        "daemons": [{"pidfile": pidfile, "pid": sleep.id(), "start": 1, "cmdline": "sleep 60"}],
    });
    // In the build folder, where the twin kept its record before: no longer read.
    let build = t.path().join("build");
    std::fs::create_dir_all(build.join("twin/state")).unwrap();
    std::fs::write(build.join("twin/state/created.json"), record.to_string()).unwrap();
    let r = democ_in(None, &["twin", "down", build.to_str().unwrap()], DEADLINE);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    // Handed over as `--state` (a folder of root's own): the record names nothing `up`
    // can prove it made.
    let state = t.path().join("state");
    std::fs::create_dir(&state).unwrap();
    std::fs::write(state.join("created.json"), record.to_string()).unwrap();
    let r = democ_in(
        None,
        &[
            "twin",
            "down",
            build.to_str().unwrap(),
            "--state",
            state.to_str().unwrap(),
        ],
        DEADLINE,
    );
    let alive = sleep.try_wait().unwrap().is_none();
    let ns_kept = std::path::Path::new("/run/netns").join(&victim_ns).exists();
    let _ = sleep.kill();
    let _ = sleep.wait();
    let _ = std::process::Command::new("ip")
        .args(["netns", "del", &victim_ns])
        .status();
    assert!(
        alive,
        "twin down killed a process it did not start: {}",
        r.stderr
    );
    assert!(
        ns_kept,
        "twin down deleted a namespace it did not make: {}",
        r.stderr
    );
    assert!(
        victim_file.exists(),
        "twin down deleted a file outside its state folder"
    );
    assert!(
        r.stderr.contains("not stopped")
            || r.stdout.contains("not stopped")
            || r.stderr.contains("not deleted"),
        "{}{}",
        r.stdout,
        r.stderr
    );
}

#[test]
fn the_twin_refuses_ir_text_democ_never_writes() {
    let t = tempfile::tempdir().unwrap();
    let b = copy_build(t.path(), "b");
    // A switch of sc16 with cabled interfaces.
    let rel = "ir/scinet-core.json";
    let f = b.join(rel);
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
    let marker = t.path().join("ran");
    v["interfaces"][0]["name"] = format!("x\ntouch {}\n#", marker.display()).into();
    std::fs::write(&f, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    let sw = v["hostname"].as_str().unwrap().to_owned();
    let r = democ_in(
        None,
        &["twin", "script", b.to_str().unwrap(), &sw],
        DEADLINE,
    );
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("control character"), "{}", r.stderr);
    assert!(!marker.exists());
}

#[test]
fn twin_commands_never_send_control_characters_to_the_terminal() {
    let t = tempfile::tempdir().unwrap();
    let odd = t.path().join("b\u{1b}]0;pwned\u{7}");
    std::fs::create_dir(&odd).unwrap();
    for args in [
        vec!["twin", "down", odd.to_str().unwrap()],
        vec!["twin", "script", odd.to_str().unwrap(), "sw\u{1b}[2J"],
    ] {
        let r = democ_in(None, &args, DEADLINE);
        let all = format!("{}{}", r.stdout, r.stderr);
        assert!(!all.contains('\u{1b}') && !all.contains('\u{7}'), "{all:?}");
    }
}

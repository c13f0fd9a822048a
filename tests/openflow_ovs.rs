//! Every `openflow/<switch>.flows` of the SC16 and SC15 builds loads into a real Open
//! vSwitch: one userspace bridge per OpenFlow switch (`datapath_type=dummy`, the userspace
//! datapath with no kernel devices, so the test leaves no link behind), its ports
//! numbered as the IR's port map says (`ofport_request`), meters added from
//! `<switch>.meters`, then `ovs-ofctl -O OpenFlow13 replace-flows`. Afterwards
//! `diff-flows` finds no difference and the bridge holds exactly the IR's rules plus the
//! table-miss entry. The daemons run in a private folder and are stopped at the end.
//! Skips (with a reason) when not root or Open vSwitch is not installed
//! (`apt-get install -y openvswitch-switch`; .ci/run installs it).

#[path = "fixtures/render/support.rs"]
mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::{build, example, switch_ir_files};

fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// ovsdb-server and ovs-vswitchd with their sockets, database and logs in one folder.
struct Ovs {
    dir: PathBuf,
}

impl Ovs {
    fn run(&self, tool: &str, args: &[&str]) -> (bool, String) {
        let o = Command::new(tool)
            .args(args)
            .env("OVS_RUNDIR", &self.dir)
            .env("OVS_DBDIR", &self.dir)
            .env("OVS_LOGDIR", &self.dir)
            .output()
            .unwrap_or_else(|e| panic!("{tool}: {e}"));
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        (o.status.success(), text)
    }

    fn must(&self, tool: &str, args: &[&str]) -> String {
        let (ok, text) = self.run(tool, args);
        assert!(ok, "{tool} {}:\n{text}", args.join(" "));
        text
    }

    fn vsctl(&self, args: &[&str]) -> String {
        let db = format!("--db=unix:{}/db.sock", self.dir.display());
        let mut all = vec![db.as_str(), "--timeout=30"];
        all.extend_from_slice(args);
        self.must("ovs-vsctl", &all)
    }

    fn start(dir: &Path) -> Ovs {
        let ovs = Ovs {
            dir: dir.to_path_buf(),
        };
        let d = dir.display();
        ovs.must(
            "ovsdb-tool",
            &[
                "create",
                &format!("{d}/conf.db"),
                "/usr/share/openvswitch/vswitch.ovsschema",
            ],
        );
        ovs.must(
            "ovsdb-server",
            &[
                &format!("{d}/conf.db"),
                &format!("--remote=punix:{d}/db.sock"),
                &format!("--pidfile={d}/ovsdb-server.pid"),
                &format!("--unixctl={d}/ovsdb-server.ctl"),
                &format!("--log-file={d}/ovsdb-server.log"),
                "--detach",
            ],
        );
        // `--enable-dummy` gives `type=dummy` ports: numbered OpenFlow ports without
        // kernel devices, so the test leaves nothing behind in the host's network.
        ovs.must(
            "ovs-vswitchd",
            &[
                &format!("unix:{d}/db.sock"),
                "--enable-dummy",
                &format!("--pidfile={d}/ovs-vswitchd.pid"),
                &format!("--unixctl={d}/ovs-vswitchd.ctl"),
                &format!("--log-file={d}/ovs-vswitchd.log"),
                "--detach",
            ],
        );
        ovs.vsctl(&["--no-wait", "init"]);
        ovs
    }
}

impl Drop for Ovs {
    fn drop(&mut self) {
        for ctl in ["ovs-vswitchd.ctl", "ovsdb-server.ctl"] {
            let sock = self.dir.join(ctl);
            let _ = self.run("ovs-appctl", &["-t", &sock.to_string_lossy(), "exit"]);
        }
    }
}

/// Loads every ruleset of one build into its own bridge.
fn load_all(ovs: &Ovs, out: &Path, tag: &str) -> usize {
    let mut loaded = 0;
    let names = switch_ir_files(out);
    for (k, path) in names.iter().enumerate() {
        let ir: serde_json::Value =
            serde_json::from_slice(&std::fs::read(path).expect("read ir")).expect("json");
        let Some(of) = ir.get("openflow").filter(|o| !o.is_null()) else {
            continue;
        };
        let host = ir["hostname"].as_str().expect("hostname");
        let br = format!("{tag}{k}");
        ovs.vsctl(&[
            "add-br",
            &br,
            "--",
            "set",
            "bridge",
            &br,
            "datapath_type=dummy",
            "protocols=OpenFlow13",
            "fail-mode=secure",
        ]);
        for (i, p) in of["port_numbers"]
            .as_array()
            .expect("port_numbers")
            .iter()
            .enumerate()
        {
            let n = p["number"].as_u64().expect("number").to_string();
            let port = format!("{br}p{i}");
            ovs.vsctl(&[
                "add-port",
                &br,
                &port,
                "--",
                "set",
                "interface",
                &port,
                "type=dummy",
                &format!("ofport_request={n}"),
            ]);
            let got = ovs.vsctl(&["get", "interface", &port, "ofport"]);
            assert_eq!(
                got.trim(),
                n,
                "{host}: port {} took its number",
                p["interface"]
            );
        }
        let meters = out.join(format!("openflow/{host}.meters"));
        if let Ok(text) = std::fs::read_to_string(&meters) {
            for line in text.lines() {
                ovs.must("ovs-ofctl", &["-O", "OpenFlow13", "add-meter", &br, line]);
            }
        }
        let flows = out.join(format!("openflow/{host}.flows"));
        let f = flows.to_string_lossy();
        ovs.must("ovs-ofctl", &["-O", "OpenFlow13", "replace-flows", &br, &f]);
        let diff = ovs.must("ovs-ofctl", &["-O", "OpenFlow13", "diff-flows", &br, &f]);
        assert!(
            diff.trim().is_empty(),
            "{host}: the bridge differs from its file:\n{diff}"
        );
        // Loading twice changes nothing: replace-flows is idempotent.
        ovs.must("ovs-ofctl", &["-O", "OpenFlow13", "replace-flows", &br, &f]);
        let dump = ovs.must("ovs-ofctl", &["-O", "OpenFlow13", "dump-flows", &br]);
        let installed = dump.lines().filter(|l| l.contains("cookie=")).count();
        let rules = of["ruleset"]["rules"].as_array().expect("rules").len();
        assert_eq!(
            installed,
            rules + 1,
            "{host}: the IR's rules and the table-miss entry"
        );
        loaded += 1;
    }
    loaded
}

/// Root and Open vSwitch, or the reason the test skips.
fn can_run() -> Result<(), &'static str> {
    if !is_root() {
        return Err("Open vSwitch bridges need root");
    }
    let tools = [
        "ovsdb-tool",
        "ovsdb-server",
        "ovs-vswitchd",
        "ovs-vsctl",
        "ovs-ofctl",
    ];
    if !tools.iter().all(|t| have(t)) {
        return Err("Open vSwitch is not installed (apt-get install -y openvswitch-switch)");
    }
    Ok(())
}

#[test]
fn every_ruleset_loads_into_open_vswitch() {
    if let Err(why) = can_run() {
        println!("skipped: {why}");
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let state = tmp.path().join("ovs");
    std::fs::create_dir(&state).expect("state folder");
    let ovs = Ovs::start(&state);
    for (show, tag) in [("sc16", "rs16b"), ("sc15", "rs15b")] {
        let out = tmp.path().join(show);
        build(&example(show), &out);
        let n = load_all(&ovs, &out, tag);
        assert!(n >= 10, "{show}: {n} OpenFlow switches loaded");
    }
}

/// Stands in for PicOS's ovs-vsctl/ovs-ofctl: the same tools with PicOS's hardware types
/// (`datapath_type=pica8`, `type=pica8`, `type=pica8_lag`) as the test's dummy ones and
/// the script's bridge under the test's own name, so nothing clashes with the host.
const PICOS_SHIM: &str = r#"#!/bin/sh
for a do
  shift
  case $a in
    br0) a=$DEMOC_TEST_BRIDGE ;;
    datapath_type=pica8) a=datapath_type=dummy ;;
    type=pica8 | type=pica8_lag) a=type=dummy ;;
  esac
  set -- "$@" "$a"
done
exec "$DEMOC_TEST_REAL/${0##*/}" "$@"
"#;

/// PicOS in OVS mode: the switch's script sets the port map's numbers and loads the same
/// rules as `openflow/<switch>.flows`; run again it changes nothing, and a rule the
/// controller added (another cookie) survives it.
#[test]
fn picos_ovs_scripts_load_the_switchs_rules() {
    if let Err(why) = can_run() {
        println!("skipped: {why}");
        return;
    }
    if !have("bash") {
        println!("skipped: the PicOS script needs bash");
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let state = tmp.path().join("ovs");
    std::fs::create_dir(&state).expect("state folder");
    let ovs = Ovs::start(&state);
    let shim = tmp.path().join("shim");
    std::fs::create_dir(&shim).expect("shim folder");
    let real = Command::new("sh")
        .args(["-c", "command -v ovs-vsctl"])
        .output()
        .expect("which");
    let real = String::from_utf8_lossy(&real.stdout).trim().to_owned();
    let real = Path::new(&real).parent().expect("bin folder").to_owned();
    for tool in ["ovs-vsctl", "ovs-ofctl"] {
        std::fs::write(shim.join(tool), PICOS_SHIM).expect("shim");
        Command::new("chmod")
            .args(["+x", &shim.join(tool).to_string_lossy()])
            .status()
            .expect("chmod");
    }
    let path = format!(
        "{}:{}",
        shim.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut scripts = 0;
    let mut metered = 0;
    // The render fixture's OVS-mode switch has a LAG and a capped flow's meter.
    for (spec, show, tag) in [
        (example("sc16"), "sc16", "rp16b"),
        (example("sc15"), "sc15", "rp15b"),
        (support::FIXTURE.to_owned(), "mini", "rpmb"),
    ] {
        let out = tmp.path().join(show);
        build(&spec, &out);
        for (k, file) in switch_ir_files(&out).iter().enumerate() {
            let ir: serde_json::Value =
                serde_json::from_slice(&std::fs::read(file).expect("ir")).expect("json");
            let of = &ir["openflow"];
            if of["mode"] != "ovs" {
                continue;
            }
            let host = ir["hostname"].as_str().expect("hostname");
            let version = of["version_cli"].as_str().expect("version");
            let br = format!("{tag}{k}");
            let script = out.join(ir["config_file"].as_str().expect("config file"));
            let run = || {
                let o = Command::new("bash")
                    .arg(&script)
                    .env("PATH", &path)
                    .env("DEMOC_TEST_BRIDGE", &br)
                    .env("DEMOC_TEST_REAL", &real)
                    .env("OVS_RUNDIR", &state)
                    .env("OVS_DBDIR", &state)
                    .env("OVS_LOGDIR", &state)
                    .output()
                    .expect("bash runs");
                assert!(
                    o.status.success(),
                    "{host}: {}{}",
                    String::from_utf8_lossy(&o.stdout),
                    String::from_utf8_lossy(&o.stderr)
                );
            };
            run();
            for p in of["port_numbers"].as_array().expect("port numbers") {
                let iface = p["interface"].as_str().expect("interface");
                let got = ovs.vsctl(&["get", "interface", iface, "ofport"]);
                assert_eq!(got.trim(), p["number"].to_string(), "{host}: {iface}");
            }
            ovs.must(
                "ovs-ofctl",
                &[
                    "-O",
                    version,
                    "add-flow",
                    &br,
                    "cookie=0x1234,priority=500,ip,actions=drop",
                ],
            );
            run();
            let flows = out.join(format!("openflow/{host}.flows"));
            let f = flows.to_string_lossy();
            // diff-flows exits 1 when the bridge and the file differ.
            let (_, diff) = ovs.run("ovs-ofctl", &["-O", version, "diff-flows", &br, &f]);
            let other: Vec<&str> = diff.lines().filter(|l| !l.trim().is_empty()).collect();
            assert!(
                other.len() == 1 && other[0].starts_with('-') && other[0].contains("cookie=0x1234"),
                "{host}: only the controller's rule differs from the file:\n{diff}"
            );
            let meters = ovs.must("ovs-ofctl", &["-O", version, "dump-meters", &br]);
            let want = of["ruleset"]["meters"].as_array().expect("meters").len();
            assert_eq!(meters.matches("meter=").count(), want, "{host}: {meters}");
            metered += want;
            // Port names repeat across switches: one switch's bridge at a time.
            ovs.vsctl(&["del-br", &br]);
            scripts += 1;
        }
    }
    assert!(scripts >= 3, "{scripts} PicOS OVS-mode switches");
    assert!(metered >= 1, "no script added a meter");
}

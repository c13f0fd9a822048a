//! `democ twin up | test | down BUILD_DIR`: the show running on this machine (Linux,
//! root) from its build folder's IR: network namespaces, Open vSwitch (userspace
//! datapath), FRR, veth pairs. See docs/twin.md.

mod batch;
mod bond;
pub(crate) mod build;
pub(crate) mod cmd;
pub(crate) mod controller;
mod counters;
pub(crate) mod load;
mod loops;
pub(crate) mod measure;
pub(crate) mod net;
mod pace;
mod place;
mod profile;
pub(crate) mod relay;
pub(crate) mod report;
mod shipped;
pub(crate) mod state;
pub(crate) mod switch;
pub(crate) mod test;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cmd::Cmd;
use state::Created;

/// Where a twin keeps its daemons' folders and its record: `--state`, else a folder of
/// root's own under /run for this build folder (never inside the build: see `state`).
pub(crate) fn state_dir(build: &Path, state: Option<&Path>) -> PathBuf {
    state.map_or_else(|| state::default_dir(build), Path::to_path_buf)
}

/// Whether a twin of this build is up (its record is in the state folder).
pub(crate) fn is_up(build: &Path, state: Option<&Path>) -> Result<bool, String> {
    Created::load(&state_dir(build, state)).map(|c| c.is_some())
}

/// Why the twin cannot run here, if it cannot (not root, no netns, a tool missing).
pub(crate) fn unavailable() -> Option<String> {
    if !rustix::process::geteuid().is_root() {
        return Some("the twin needs root (network namespaces, veth pairs)".into());
    }
    for tool in [
        "ip",
        "ovs-vsctl",
        "ovs-vswitchd",
        "ovsdb-server",
        "ovs-ofctl",
        "iperf3",
        "ping",
        "ethtool",
        "traceroute",
    ] {
        let found = ["/usr/bin", "/usr/sbin", "/bin", "/sbin"]
            .iter()
            .any(|d| Path::new(d).join(tool).exists());
        if !found {
            return Some(format!(
                "`{tool}` is not installed (apt-get install openvswitch-switch frr iperf3 iproute2 iputils-ping ethtool traceroute)"
            ));
        }
    }
    if !Path::new("/usr/lib/frr/bgpd").exists() {
        return Some("FRR is not installed (apt-get install frr)".into());
    }
    let probe = &format!("democ-probe-{}", std::process::id());
    if Cmd::new(&["ip", "netns", "add", probe]).run().is_err() {
        return Some("network namespaces cannot be created here".into());
    }
    let _ = Cmd::new(&["ip", "netns", "del", probe]).run();
    None
}

/// An error of the switches' one database transaction without the thousands of words
/// of its command: its start and what `ovs-vsctl` said.
fn shorter(e: &str) -> String {
    match e.rsplit_once("): ") {
        Some((cmd, said)) if cmd.len() > 300 => {
            let start: String = cmd.chars().take(200).collect();
            format!("{start} ...`: {said}")
        }
        _ => e.to_owned(),
    }
}

/// Whether this kernel has netem: tried on the loopback of a namespace of our own,
/// removed again (kernels built without sch_netem answer "Specified qdisc kind is
/// unknown", as the machines democ's CI runs on do).
pub(crate) fn netem_available(n: &net::Names) -> Result<(), String> {
    let ns = format!("{}-netem", n.id);
    let _ = cmd::Cmd::new(&["ip", "netns", "add", &ns]).try_run();
    let (ok, out) = net::netem("lo", 1000).in_ns(&ns).try_run();
    let _ = cmd::Cmd::new(&["ip", "netns", "del", &ns]).try_run();
    if ok {
        Ok(())
    } else {
        Err(format!(
            "this kernel lacks the netem queueing discipline (sch_netem): {}",
            out.trim()
        ))
    }
}

/// `twin up`: `progress` hears each stage as it ends, with the seconds since the start
/// (a large show takes tens of seconds).
pub(crate) fn up(
    build: &Path,
    state: Option<&Path>,
    delay: bool,
    progress: &dyn Fn(&str),
) -> Result<String, (String, i32)> {
    let t0 = Instant::now();
    let stage = |what: String| progress(&format!("{what} ({:.1} s)", t0.elapsed().as_secs_f64()));
    let b = build::Build::read(build).map_err(|e| (e, 2))?;
    let nonce = state::nonce().map_err(|e| (e, 2))?;
    let names = net::Names::with_nonce(&b.show, &nonce);
    let state = state_dir(build, state);
    if let Some(c) = Created::load(&state).map_err(|e| (e, 2))? {
        return Ok(format!(
            "twin `{}` is already up (state {}); `democ twin down` first to rebuild it",
            c.id,
            state.display()
        ));
    }
    if delay {
        netem_available(&names).map_err(|e| (format!("`--delay` needs netem: {e}"), 2))?;
    }
    check_rulesets(build, &b).map_err(|e| (e, 1))?;
    state::make(&state).map_err(|e| (e, 2))?;
    let rulesets = copy_rulesets(build, &b, &state).map_err(|e| (e, 2))?;
    let mut plan = net::plan(&b, &names, &state, &rulesets, delay);
    let existing = state::namespaces();
    if let Some(ns) = plan.namespaces.iter().find(|n| existing.contains(n)) {
        return Err((
            format!(
                "network namespace `{ns}` exists but no twin record says democ made it: remove it (`ip netns del {ns}`) if it is a leftover"
            ),
            2,
        ));
    }
    // Unix socket paths are limited to 107 bytes.
    let longest = b
        .switches
        .keys()
        .map(|s| {
            net::switch_dirs(&state, s)
                .run
                .join("ovs-vswitchd.ctl")
                .as_os_str()
                .len()
        })
        .max()
        .unwrap_or(0);
    if longest > 100 {
        return Err((
            format!(
                "state folder {} is too deep for the daemons' sockets: pass a shorter `--state`",
                state.display()
            ),
            2,
        ));
    }
    for note in &plan.notes {
        eprintln!("twin: note: {note}");
    }
    let mut rec = Created {
        id: names.id.clone(),
        nonce,
        namespaces: Vec::new(),
        pidfiles: plan.pidfiles.clone(),
        daemons: Vec::new(),
    };
    let fail = |rec: &Created, e: String| {
        let _ = rec.save(&state);
        let _ = down_record(rec, &state);
        (
            format!("twin up failed, everything it made is removed again: {e}"),
            2,
        )
    };
    // None of them existed (above): those that exist now are the twin's.
    let made = batch::namespaces("add", &plan.namespaces);
    let now = state::namespaces();
    rec.namespaces = plan
        .namespaces
        .iter()
        .filter(|n| now.contains(n))
        .cloned()
        .collect();
    if let Err(e) = made {
        return Err(fail(&rec, e));
    }
    rec.save(&state).map_err(|e| (e, 2))?;
    stage(format!("{} namespaces made", rec.namespaces.len()));
    if let Err(e) = batch::run(&plan.steps) {
        return Err(fail(&rec, e));
    }
    stage(format!(
        "cables, DTNs and the management network wired ({} steps)",
        plan.steps.len()
    ));
    let phases = batch::split(std::mem::take(&mut plan.switches));
    let switches_up = batch::run_side_by_side(&phases.own)
        .and_then(|()| {
            phases
                .database
                .iter()
                .try_for_each(|c| c.run().map(|_| ()).map_err(|e| shorter(&e)))
        })
        .and_then(|()| batch::run_side_by_side(&phases.rules));
    identify_daemons(&mut rec);
    if let Err(e) = switches_up {
        return Err(fail(&rec, e));
    }
    stage(format!("{} switches running", b.switches.len()));
    let exe = std::env::current_exe().map_err(|e| (e.to_string(), 2))?;
    let helpers = plan
        .controllers
        .iter()
        .enumerate()
        .map(|(k, (ns, addr, port))| {
            let pidfile = state.join(format!("controller-{k}.pid"));
            let args = vec!["controller".to_owned(), format!("{addr}:{port}")];
            (ns, pidfile, args)
        })
        .chain(plan.relays.iter().enumerate().map(|(k, (ns, sock, to))| {
            let pidfile = state.join(format!("relay-{k}.pid"));
            let args = vec!["relay".to_owned(), sock.display().to_string(), to.clone()];
            (ns, pidfile, args)
        }));
    for (ns, pidfile, args) in helpers {
        rec.pidfiles.push(pidfile.clone());
        rec.save(&state).map_err(|e| (e, 2))?;
        let c = Cmd::new(&["setsid", "-f", "ip", "netns", "exec", ns])
            .arg(exe.display().to_string())
            .arg("twin")
            .args(args)
            .arg("--pidfile")
            .arg(pidfile.display().to_string());
        if let Err(e) = c.run_detached() {
            return Err(fail(&rec, e));
        }
        let t = Instant::now();
        while state::live_pid(&pidfile).is_none() && t.elapsed() < Duration::from_secs(3) {
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    identify_daemons(&mut rec);
    rec.save(&state).map_err(|e| (e, 2))?;
    Ok(format!(
        "twin `{}` is up: {} switches, {} DTNs, {} namespaces in {:.1} s (state {})",
        names.id,
        b.switches.len(),
        b.hosts.len(),
        rec.namespaces.len(),
        t0.elapsed().as_secs_f64(),
        state.display()
    ))
}

/// Every switch's ruleset against its OS's OpenFlow profile, before anything is made:
/// the first rule the switch would refuse fails `twin up` (exit 1, a design error).
fn check_rulesets(build: &Path, b: &build::Build) -> Result<(), String> {
    let dir = crate::build_dir::BuildDir::open(build)?;
    for (name, sw) in &b.switches {
        match dir.read(
            &format!("openflow/{name}.flows"),
            crate::build_dir::SMALL_BYTES,
        ) {
            Ok(bytes) => profile::check(sw, &String::from_utf8_lossy(&bytes))?,
            Err(e) if e.missing => {}
            Err(e) => return Err(e.message),
        }
    }
    Ok(())
}

/// Each switch's `openflow/<switch>.flows`, read from the build as untrusted input
/// and copied into the state folder, whose copies the switches load: `ovs-ofctl` runs
/// as root and would otherwise open whatever a symlink in the build points at.
fn copy_rulesets(build: &Path, b: &build::Build, state: &Path) -> Result<PathBuf, String> {
    let dir = crate::build_dir::BuildDir::open(build)?;
    let to = state.join("rulesets");
    let _ = std::fs::remove_dir_all(&to);
    std::fs::create_dir(&to).map_err(|e| format!("{}: {e}", to.display()))?;
    for name in b.switches.keys() {
        let rel = format!("openflow/{name}.flows");
        match dir.read(&rel, crate::build_dir::SMALL_BYTES) {
            Ok(bytes) => crate::write::file(&to.join(format!("{name}.flows")), &bytes)?,
            Err(e) if e.missing => {}
            Err(e) => return Err(e.message),
        }
    }
    Ok(to)
}

/// Records every daemon whose pidfile now names a running process, by pid, start time
/// and command line, once each.
fn identify_daemons(rec: &mut Created) {
    for f in &rec.pidfiles {
        if rec.daemons.iter().any(|d| &d.pidfile == f) {
            continue;
        }
        if let Some(d) = state::daemon(f) {
            rec.daemons.push(d);
        }
    }
}

/// Stops the daemons and deletes the namespaces of a record, then the record: only
/// what the record proves `up` made (a daemon still the same process, a namespace
/// named with the record's nonce, files inside the state folder); what it refuses is
/// said in the error.
fn down_record(rec: &Created, state: &Path) -> Result<(), String> {
    let mut pids = Vec::new();
    let mut refused = Vec::new();
    for d in &rec.daemons {
        if !d.pidfile.starts_with(state) {
            refused.push(format!(
                "pidfile {} is outside the state folder",
                d.pidfile.display()
            ));
        } else if state::same(d) {
            let _ = Cmd::new(&["kill", &d.pid.to_string()]).run();
            pids.push(d.pid);
        } else if Path::new(&format!("/proc/{}", d.pid)).exists() {
            refused.push(format!(
                "pid {} is no longer the `{}` that twin up started: not stopped",
                d.pid,
                crate::escape::line(&d.cmdline)
            ));
        }
    }
    let t = Instant::now();
    while pids
        .iter()
        .any(|p| Path::new(&format!("/proc/{p}")).exists())
        && t.elapsed() < Duration::from_secs(5)
    {
        std::thread::sleep(Duration::from_millis(50));
    }
    for d in rec.daemons.iter().filter(|d| pids.contains(&d.pid)) {
        if state::same(d) {
            let _ = Cmd::new(&["kill", "-9", &d.pid.to_string()]).run();
        }
    }
    let existing = state::namespaces();
    let mut errors = Vec::new();
    let mut delete = Vec::new();
    for ns in rec.namespaces.iter().rev().filter(|n| existing.contains(n)) {
        if rec.made(ns) {
            delete.push(ns.clone());
        } else {
            refused.push(format!(
                "namespace `{}` is not named by this twin's record: not deleted",
                crate::escape::line(ns)
            ));
        }
    }
    if let Err(e) = batch::namespaces("del", &delete) {
        errors.push(e);
    }
    // FRR makes a folder per pathspace under /var/run/frr (empty once bgpd is gone).
    for ns in rec.namespaces.iter().filter(|n| rec.made(n)) {
        if let Some(sw) = ns.strip_prefix(&format!("{}-s-", rec.id)) {
            let _ = std::fs::remove_dir(Path::new("/var/run/frr").join(format!("{}-{sw}", rec.id)));
        }
    }
    // Everything else `up` wrote is inside the state folder: the daemons' folders, the
    // pidfiles, the record (remove_dir_all removes symlinks, never what they point to).
    // The folder itself goes when that leaves it empty (a `--state` folder may hold
    // the user's own files).
    for sub in ["ovs", "switches", "hosts", "rulesets"] {
        let _ = std::fs::remove_dir_all(state.join(sub));
    }
    for f in rec.pidfiles.iter().filter(|f| f.parent() == Some(state)) {
        let _ = std::fs::remove_file(f);
    }
    let _ = std::fs::remove_file(state::file(state));
    let _ = std::fs::remove_dir(state);
    errors.extend(refused);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("; "))
    }
}

pub(crate) fn down(build: &Path, state: Option<&Path>) -> Result<String, (String, i32)> {
    let t0 = Instant::now();
    let state = state_dir(build, state);
    match Created::load(&state).map_err(|e| (e, 2))? {
        None => Ok(format!("no twin is up (no record in {})", state.display())),
        Some(rec) => {
            down_record(&rec, &state).map_err(|e| (e, 2))?;
            Ok(format!(
                "twin `{}` is down: {} namespaces and {} daemons removed in {:.1} s",
                rec.id,
                rec.namespaces.len(),
                rec.pidfiles.len(),
                t0.elapsed().as_secs_f64()
            ))
        }
    }
}

/// `twin script BUILD SWITCH`: the switch's emulation steps as a shell script.
pub(crate) fn script(
    build: &Path,
    state: Option<&Path>,
    name: &str,
) -> Result<String, (String, i32)> {
    let b = build::Build::read(build).map_err(|e| (e, 2))?;
    let names = net::Names::new(&b.show);
    let Some(sw) = b.switches.get(name) else {
        return Err((
            format!(
                "no switch `{}` in {}",
                crate::escape::line(name),
                crate::escape::line(&build.display().to_string())
            ),
            2,
        ));
    };
    let state = state_dir(build, state);
    let rules = build.join("openflow").join(format!("{name}.flows"));
    let places = names.places(&b);
    let site = switch::Site::Twin(&places[name]);
    let steps = switch::steps(
        sw,
        site,
        &net::switch_dirs(&state, name),
        rules.is_file().then_some(rules.as_path()),
        &names.pathspace(name),
    );
    Ok(switch::script(sw, site, &steps))
}

/// The twin's WAN delay (`up --delay`) on `dev` as one shell line, for the lab's `exec`.
pub(crate) fn netem_command(dev: &str, us: u64) -> String {
    net::netem(dev, us).shell()
}

/// Where a lab stand-in keeps its daemons' folders (the container's own /run).
pub(crate) const LAB_STATE: &str = "/run/democ";

/// A lab stand-in's script (`lab/nodes/<switch>.sh`): the twin's steps for the switch's
/// IR (the type `ir/<switch>.json` is read into), inside a container whose ports the
/// topology wires by canonical port (`wired`), with the ruleset bound at `ruleset`.
pub(crate) fn lab_script(
    sw: &crate::ir::Switch,
    wired: &std::collections::BTreeMap<String, String>,
    ruleset: Option<&Path>,
) -> Result<String, String> {
    let site = switch::Site::Lab(wired);
    let d = switch::Dirs::under(Path::new(LAB_STATE));
    // One switch per container: FRR's pathspace need only be fixed.
    let steps = switch::steps(sw, site, &d, ruleset, "democ");
    Ok(switch::script(sw, site, &steps))
}

/// A lab host's Open vSwitch bonds (`lab/nodes/<host>.bonds.sh`, run by its `tune` where
/// the lab machine's kernel has no bonding driver): the twin's stand-in for its Linux
/// bonds, inside the container, whose ports the topology wires as `wired` says.
pub(crate) fn lab_bonds_script(
    host: &crate::ir::host::Host,
    wired: &std::collections::BTreeMap<String, String>,
) -> String {
    let d = switch::Dirs::under(&Path::new(LAB_STATE).join("bonds"));
    let steps = bond::steps(&host.bonds, &d, |port| wired.get(port).cloned());
    format!(
        "#!/bin/sh\n# {}: its bonds as Open vSwitch bonds (democ twin's stand-in for a kernel without\n# the bonding driver); `tune` runs it in the lab only where Linux bonds cannot be made.\nset -eu\n{}",
        crate::escape::line(&host.name),
        switch::steps_text(&steps)
    )
}

pub(crate) use test::test;

//! `democ lab up | test | down BUILD_DIR`: the build's containerlab topology deployed on
//! this machine (Docker, containerlab, root) from a private copy, tested with the twin's
//! matrix inside the containers, and destroyed without a trace. See
//! lab/containerlab/README.md.

mod copy;
mod engine;
mod hosts;
mod partition;
mod parts;
mod record;
mod site;
mod split;

use std::io::{BufRead as _, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use record::Record;

use crate::build_dir::BuildDir;
use crate::twin::build::Build;
use crate::twin::cmd::Cmd;
use crate::twin::net::Names;
use crate::twin::state;

pub(crate) use engine::unavailable;
pub(crate) use parts::Place;
pub(crate) use split::{HostsFrom, Refused, check_on, run as split};

/// Runs containerlab (in network namespace `netns` when given: a side-by-side part),
/// its log lines on stderr as they come (a deploy takes minutes); Ok(the log) when it
/// exits 0.
fn containerlab(args: &[String], netns: Option<&str>) -> Result<String, String> {
    let mut command = match netns {
        Some(ns) => {
            let mut c = Command::new("ip");
            c.args(["netns", "exec", ns, "containerlab"]);
            c
        }
        None => Command::new("containerlab"),
    };
    let mut child = command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("containerlab: {e}"))?;
    let out = child.stdout.take();
    // The table of nodes containerlab prints on stdout at the end: kept, not shown.
    let table = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(o) = out {
            use std::io::Read as _;
            let _ = BufReader::new(o).read_to_string(&mut s);
        }
        s
    });
    let mut log = String::new();
    if let Some(err) = child.stderr.take() {
        for line in BufReader::new(err).lines().map_while(Result::ok) {
            eprintln!("containerlab: {}", crate::escape::line(&line));
            log.push_str(&line);
            log.push('\n');
        }
    }
    let status = child.wait().map_err(|e| format!("containerlab: {e}"))?;
    let _ = table.join();
    if status.success() {
        Ok(log)
    } else {
        Err(format!(
            "`containerlab {}` failed ({status})",
            args.join(" ")
        ))
    }
}

/// The `exec` commands containerlab reports failed, one line each.
fn failed_execs(log: &str) -> Vec<String> {
    log.lines()
        .filter(|l| l.contains("Failed to execute command"))
        .map(|l| l.split_once("ERRO ").map_or(l, |x| x.1).to_owned())
        .collect()
}

/// The main process of container `name` (its namespaces are the node's).
fn container_pid(name: &str) -> Result<u32, String> {
    Cmd::new(&["docker", "inspect", "--format", "{{.State.Pid}}", name])
        .run()?
        .trim()
        .parse()
        .map_err(|e| format!("{name}: no process ({e})"))
}

/// Starts the twin's test controller in the node that holds each controller address
/// the switches dial (on the management network), recording each; notes for addresses
/// no deployed node holds.
fn start_controllers(
    b: &Build,
    topo: &crate::ir::lab::Topology,
    state: &Path,
    rec: &mut Record,
) -> Result<Vec<String>, String> {
    let mut ctls: Vec<(String, u16)> = b
        .switches
        .values()
        .filter(|s| rec.nodes.contains(&s.hostname))
        .filter_map(|s| s.openflow.as_ref())
        .map(|o| (o.controller.address.clone(), o.controller.port))
        .collect();
    ctls.sort();
    ctls.dedup();
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut notes = Vec::new();
    for (k, (addr, port)) in ctls.iter().enumerate() {
        let node = topo
            .topology
            .nodes
            .iter()
            .find(|(name, n)| n.mgmt_ipv4.as_deref() == Some(addr) && rec.nodes.contains(name));
        let Some((name, _)) = node else {
            notes.push(format!(
                "no deployed node holds the controller address {addr}: the control channels to it cannot connect"
            ));
            continue;
        };
        let pid = container_pid(&rec.container(name))?;
        let pidfile = state.join(format!("controller-{k}.pid"));
        Cmd::new(&["setsid", "-f", "nsenter", "-t", &pid.to_string(), "-n"])
            .arg(exe.display().to_string())
            .arg("twin")
            .arg("controller")
            .arg(format!("{addr}:{port}"))
            .arg("--pidfile")
            .arg(pidfile.display().to_string())
            .run_detached()?;
        let t = Instant::now();
        while state::live_pid(&pidfile).is_none() && t.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(50));
        }
        match state::daemon(&pidfile) {
            Some(d) => rec.controllers.push(d),
            None => {
                return Err(format!(
                    "the test controller for {addr}:{port} did not start"
                ));
            }
        }
        rec.save(state)?;
    }
    Ok(notes)
}

/// `lab up` (of a split lab's parts with `place`). Ok(message) or Err(message, exit
/// code).
pub(crate) fn up(
    build: &Path,
    node_filter: Option<&str>,
    place: Option<&Place>,
) -> Result<String, (String, i32)> {
    let t0 = Instant::now();
    let state = record::state_dir(build);
    if let Some(r) = Record::load(&state).map_err(|e| (e, 2))? {
        return Ok(format!(
            "lab `{}` is already up (state {}); `democ lab down` first to redeploy it",
            r.id,
            state.display()
        ));
    }
    let b = Build::read(build).map_err(|e| (e, 2))?;
    let dir = BuildDir::open(build).map_err(|e| (e.to_string(), 2))?;
    let (rel, mut topo) = copy::read(&dir).map_err(|e| (e, 2))?;
    let split = match place {
        Some(p) => {
            let Some(sp) = split::read(&dir).map_err(|e| (e, 2))? else {
                return Err((
                    format!(
                        "{} holds no split lab ({} is missing): `democ lab split` it first",
                        build.display(),
                        split::SUMMARY
                    ),
                    2,
                ));
            };
            if node_filter.is_some() {
                return Err((
                    "--node-filter and a split lab's parts do not go together".into(),
                    2,
                ));
            }
            if parts::chosen(&sp, p).is_empty() {
                return Err(("the split names no such lab host".into(), 2));
            }
            Some(sp)
        }
        None => None,
    };
    let nodes: Vec<String> = match node_filter {
        Some(f) => {
            let want: Vec<String> = f.split(',').map(|s| s.trim().to_owned()).collect();
            if let Some(x) = want.iter().find(|n| !topo.topology.nodes.contains_key(*n)) {
                return Err((
                    format!(
                        "--node-filter: the topology has no node `{}`",
                        crate::escape::line(x)
                    ),
                    2,
                ));
            }
            // A node's script sets up every port it is cabled on: a filter must keep
            // both ends of every cable it keeps one end of.
            for l in &topo.topology.links {
                let [a, b] = l
                    .endpoints
                    .each_ref()
                    .map(|e| e.split(':').next().unwrap_or_default());
                let kept = |n: &str| want.iter().any(|w| w == n);
                if kept(a) != kept(b) {
                    let (inside, outside) = if kept(a) { (a, b) } else { (b, a) };
                    return Err((
                        format!(
                            "--node-filter: `{}` is cabled to `{}`, which the filter leaves out; a node's script needs every port it is cabled on: add `{}` or leave `{}` out",
                            crate::escape::line(inside),
                            crate::escape::line(outside),
                            crate::escape::line(outside),
                            crate::escape::line(inside)
                        ),
                        2,
                    ));
                }
            }
            want
        }
        None => topo.topology.nodes.keys().cloned().collect(),
    };
    let nonce = state::nonce().map_err(|e| (e, 2))?;
    let names = Names::with_nonce(&b.show, &nonce);
    state::make(&state).map_err(|e| (e, 2))?;
    let mut notes = Vec::new();
    // A WAN link's delay needs the kernel's netem: where it is missing the `exec` lines
    // would fail at deploy, so the copy leaves them out, and says so.
    let netem = crate::twin::netem_available(&names);
    if let Err(why) = &netem {
        let delayed = topo
            .topology
            .nodes
            .values()
            .flat_map(|n| &n.exec)
            .filter(|c| crate::lower::is_wan_delay(c))
            .count();
        if delayed > 0 {
            notes.push(format!(
                "WAN delays are not applied ({delayed} interfaces): {why}"
            ));
        }
    }
    let keep = |c: &str| netem.is_ok() || !crate::lower::is_wan_delay(c);
    // The copy carries the lab's own names, so `deploy` and `destroy` (which reads the
    // topology again) agree on them without flags.
    let network = format!("democ-{}", names.id);
    topo.name = names.id.clone();
    if let Some(m) = &mut topo.mgmt {
        m.network = network.clone();
    }
    let fail = |e: String| {
        let _ = std::fs::remove_dir_all(state.join("copy"));
        Record::remove(&state);
        (e, 2)
    };
    copy::fresh(&state.join("copy")).map_err(fail)?;
    let topology = copy::make(&dir, &rel, &mut topo, &state.join("copy"), keep).map_err(fail)?;
    let part_records = match (&split, place) {
        (Some(sp), Some(p)) => {
            parts::copies(&dir, sp, p, &names.id, &network, &state.join("copy"), &keep)
                .map_err(fail)?
        }
        _ => Vec::new(),
    };
    let nodes: Vec<String> = if part_records.is_empty() {
        nodes
    } else {
        part_records.iter().flat_map(|p| p.nodes.clone()).collect()
    };
    for line in engine::images(&topo, &state.join("image")).map_err(fail)? {
        eprintln!("lab: {line}");
    }
    for n in &notes {
        eprintln!("lab: note: {n}");
    }
    let mut rec = Record {
        id: names.id.clone(),
        nonce,
        topology: topology.clone(),
        network,
        nodes: nodes.clone(),
        controllers: Vec::new(),
        notes: notes.clone(),
        parts: part_records,
        underlay: Vec::new(),
        own_network: false,
    };
    rec.save(&state).map_err(|e| (e, 2))?;
    if let (Some(sp), Some(Place::SideBySide)) = (&split, place) {
        let made = parts::underlay(sp, &rec.nonce.clone(), &mut rec, &state).and_then(|()| {
            rec.own_network = true;
            rec.save(&state)?;
            parts::network(&topo, &rec.network)
        });
        if let Err(e) = made {
            let _ = rec.save(&state);
            let _ = down(build);
            return Err((format!("lab up failed, the lab is removed again: {e}"), 2));
        }
    }
    eprintln!(
        "lab: deploying `{}`: {} nodes (containerlab, a few minutes)",
        names.id,
        nodes.len()
    );
    // The whole lab, or each part (in its namespace side by side).
    let deploys: Vec<(std::path::PathBuf, Option<String>)> = if rec.parts.is_empty() {
        vec![(topology.clone(), None)]
    } else {
        rec.parts
            .iter()
            .map(|p| (p.topology.clone(), p.netns.clone()))
            .collect()
    };
    let mut log = String::new();
    for (file, netns) in &deploys {
        let mut args: Vec<String> = ["deploy", "-t"].map(String::from).to_vec();
        args.push(file.display().to_string());
        if node_filter.is_some() {
            args.push("--node-filter".into());
            args.push(nodes.join(","));
        }
        match containerlab(&args, netns.as_deref()) {
            Ok(l) => log.push_str(&l),
            Err(e) => {
                let _ = down(build);
                return Err((format!("lab up failed, the lab is removed again: {e}"), 2));
            }
        }
    }
    let failed = failed_execs(&log);
    if !failed.is_empty() {
        return Err((
            format!(
                "lab `{}` is up, but {} node commands failed (inspect, then `democ lab down`):\n{}",
                names.id,
                failed.len(),
                failed.join("\n")
            ),
            2,
        ));
    }
    let more = start_controllers(&b, &topo, &state, &mut rec).map_err(|e| (e, 2))?;
    rec.notes.extend(more.iter().cloned());
    rec.save(&state).map_err(|e| (e, 2))?;
    for n in &more {
        eprintln!("lab: note: {n}");
    }
    let parts_said = if rec.parts.is_empty() {
        String::new()
    } else {
        format!(
            " in {} parts ({})",
            rec.parts.len(),
            rec.parts
                .iter()
                .map(|p| p.host.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    Ok(format!(
        "lab `{}` is up{parts_said}: {} nodes, every node's script done, {} test controllers, in {:.1} s (state {})",
        names.id,
        nodes.len(),
        rec.controllers.len(),
        t0.elapsed().as_secs_f64(),
        state.display()
    ))
}

/// `lab test`: Ok((summary, every row passed)); the table row by row on `table`.
pub(crate) fn test(
    build: &Path,
    table: &mut dyn std::io::Write,
) -> Result<(String, crate::twin::report::Verdict), (String, i32)> {
    let t0 = Instant::now();
    let state = record::state_dir(build);
    let Some(rec) = Record::load(&state).map_err(|e| (e, 2))? else {
        return Err((
            format!(
                "no lab is up for {} (run `democ lab up` first)",
                build.display()
            ),
            2,
        ));
    };
    let mut b = Build::read(build).map_err(|e| (e, 2))?;
    let mut notes = rec.notes.clone();
    notes.extend(site::deployed_only(&mut b, &rec.nodes));
    let s = site::Containers { rec: &rec };
    let limit = crate::twin::load::limit().map_err(|e| (e, 2))?;
    let report = crate::twin::test::matrix(&b, &s, "lab", notes, table, limit);
    let dir = build.join("lab");
    crate::twin::test::write_report(&report, &dir)?;
    Ok((
        crate::twin::test::summary("lab", &report, t0, &dir),
        report.verdict(),
    ))
}

/// What of a lab is still on the machine: its containers, its management network,
/// containerlab's namespace links for it.
fn leftovers(rec: &Record) -> Vec<String> {
    let mut left = Vec::new();
    for id in rec.lab_ids() {
        let label = format!("label=containerlab={id}");
        if let Ok(out) = Cmd::new(&["docker", "ps", "-a", "-q", "--filter", &label]).run()
            && !out.trim().is_empty()
        {
            left.push(format!(
                "containers {}",
                out.split_whitespace().collect::<Vec<_>>().join(" ")
            ));
        }
    }
    if Cmd::new(&["docker", "network", "inspect", &rec.network])
        .try_run()
        .0
    {
        left.push(format!("Docker network {}", rec.network));
    }
    let prefixes: Vec<String> = rec
        .lab_ids()
        .iter()
        .map(|id| format!("clab-{id}-"))
        .collect();
    let ns: Vec<String> = state::namespaces()
        .into_iter()
        .filter(|n| prefixes.iter().any(|p| n.starts_with(p)) || rec.underlay.contains(n))
        .collect();
    if !ns.is_empty() {
        left.push(format!("network namespaces {}", ns.join(" ")));
    }
    left
}

/// `lab down`: the test controllers stopped, the lab destroyed, its copy removed, and
/// nothing of it left (checked).
pub(crate) fn down(build: &Path) -> Result<String, (String, i32)> {
    let t0 = Instant::now();
    let state = record::state_dir(build);
    let Some(rec) = Record::load(&state).map_err(|e| (e, 2))? else {
        return Ok(format!("no lab is up (no record in {})", state.display()));
    };
    for d in &rec.controllers {
        if d.pidfile.starts_with(&state) && state::same(d) {
            let _ = Cmd::new(&["kill", &d.pid.to_string()]).run();
        }
    }
    let mut errors = Vec::new();
    let destroys: Vec<(&Path, Option<&str>)> = if rec.parts.is_empty() {
        vec![(rec.topology.as_path(), None)]
    } else {
        rec.parts
            .iter()
            .map(|p| (p.topology.as_path(), p.netns.as_deref()))
            .collect()
    };
    let present = state::namespaces();
    for (topology, netns) in destroys {
        // A part whose namespace `up` never made was never deployed.
        if netns.is_some_and(|ns| !present.iter().any(|p| p == ns)) {
            continue;
        }
        if topology.starts_with(&state) {
            let args: Vec<String> = vec![
                "destroy".into(),
                "-t".into(),
                topology.display().to_string(),
                "--cleanup".into(),
            ];
            if let Err(e) = containerlab(&args, netns) {
                errors.push(e);
            }
        } else {
            errors.push(format!(
                "the record's topology {} is outside the state folder: not destroyed",
                topology.display()
            ));
        }
    }
    errors.extend(parts::remove(&rec));
    let left = leftovers(&rec);
    if !left.is_empty() {
        errors.push(format!("still here after destroy: {}", left.join("; ")));
    }
    if !errors.is_empty() {
        return Err((errors.join("; "), 2));
    }
    let _ = std::fs::remove_dir_all(state.join("copy"));
    for d in &rec.controllers {
        if d.pidfile.parent() == Some(state.as_path()) {
            let _ = std::fs::remove_file(&d.pidfile);
        }
    }
    Record::remove(&state);
    Ok(format!(
        "lab `{}` is down: {} nodes destroyed, no container, network or namespace of it left, in {:.1} s",
        rec.id,
        rec.nodes.len(),
        t0.elapsed().as_secs_f64()
    ))
}

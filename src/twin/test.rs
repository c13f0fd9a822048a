//! `twin test` and `lab test`: every declared flow's pairs pinged, path-MTU probed and
//! sent a short TCP iperf3, the flow's cookie counters checked against its planned
//! OpenFlow switches and its routed hops against a traceroute; one row per OpenFlow
//! switch for the control channel. Prints a table as it goes, writes
//! `twin/report.json` (`lab/report.json`). The matrix is one; where its commands run
//! (the twin's namespaces, a lab's containers) is the `Site`.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use super::build::Build;
use super::cmd::{At, Cmd};
use super::counters;
use super::load::{self, Figures, Meter};
use super::net::{self, Names};
use super::pace::Pace;
use super::place::Place;
use super::report::{ControlRow, FlowRow, Machine, Report, Verdict};
use super::state::Created;
use super::switch::{self, Dirs};
use crate::ir::Switch;
use crate::ir::flow::{Flow, Pair};

/// Where the matrix runs its commands: the twin's namespaces or a lab's containers.
pub(crate) trait Site: Sync {
    /// Where DTN `host` runs a command (ping, iperf3, traceroute).
    fn host(&self, host: &str) -> At;
    /// Where switch `sw`'s daemons answer `ovs-vsctl`, `ovs-ofctl` and `vtysh`.
    fn switch(&self, sw: &str) -> At;
    /// The folders of switch `sw`'s daemons, as seen there.
    fn dirs(&self, sw: &str) -> Dirs;
    /// The name of switch `sw`'s OpenFlow bridge.
    fn of_bridge(&self, sw: &str) -> String;
}

/// The twin: a namespace per DTN and per switch, the daemons' folders in the state.
struct Twin<'a> {
    names: Names,
    state: &'a Path,
    places: BTreeMap<String, Place>,
}

impl Site for Twin<'_> {
    fn host(&self, host: &str) -> At {
        At::Netns(self.names.host(host))
    }
    fn switch(&self, sw: &str) -> At {
        At::Netns(self.names.switch(sw))
    }
    fn dirs(&self, sw: &str) -> Dirs {
        net::switch_dirs(self.state, sw)
    }
    fn of_bridge(&self, sw: &str) -> String {
        self.places.get(sw).map_or_else(
            || "of".into(),
            |p| switch::of_bridge_name(switch::Site::Twin(p)),
        )
    }
}

fn of_switches(b: &Build) -> Vec<&str> {
    b.switches
        .values()
        .filter(|s| s.openflow.is_some())
        .map(|s| s.hostname.as_str())
        .collect()
}

/// Every switch address (ports, SVIs) -> the switch.
fn address_owner(b: &Build) -> BTreeMap<String, String> {
    let mut m = BTreeMap::new();
    for s in b.switches.values() {
        let ips = s
            .interfaces
            .iter()
            .filter_map(|i| i.switching.ipv4.as_ref())
            .chain(
                s.vlans
                    .iter()
                    .filter_map(|v| v.l3.as_ref().map(|l| &l.ipv4)),
            )
            .chain(
                s.port_channels
                    .iter()
                    .filter_map(|p| p.switching.ipv4.as_ref()),
            );
        for ip in ips {
            m.insert(ip.address.clone(), s.hostname.clone());
        }
    }
    m
}

/// Whether a switch routes a packet that enters it on `port`: the port is routed, or
/// its VLAN has an SVI.
fn routes_at(sw: &Switch, port: &str) -> bool {
    let Some(i) = sw.interfaces.iter().find(|i| i.port == port) else {
        return false;
    };
    if i.switching.ipv4.is_some() {
        return true;
    }
    let svi = |v: u16| sw.vlans.iter().any(|x| x.id == v && x.l3.is_some());
    i.switching.access_vlan.is_some_and(svi) || i.switching.trunk_vlans.iter().any(|v| svi(*v))
}

/// Runs `pair`'s probes, waiting as `pace` says; fills everything but `path`.
fn probe(
    b: &Build,
    site: &dyn Site,
    flow: &Flow,
    pair: &Pair,
    owners: &BTreeMap<String, String>,
    port: u16,
    pace: Pace,
) -> FlowRow {
    let mut row = FlowRow {
        flow: flow.name.clone(),
        src: pair.src.clone(),
        dst: pair.dst.clone(),
        protocol: flow.protocol.clone(),
        ping: false,
        pmtu: false,
        mtu: pair.mtu,
        tcp_gbps: None,
        path: false,
        routed_hops: false,
        passed: false,
        overloaded: None,
        detail: Vec::new(),
    };
    let Some(dst) = pair.dst_address.clone() else {
        row.detail.push("the destination has no address".into());
        return row;
    };
    let src = site.host(&pair.src);
    let dst_at = site.host(&pair.dst);
    let wait = pace.secs(1).to_string();
    let ping = |extra: &[&str]| {
        let mut c = Cmd::new(&["ping", "-n", "-q", "-c", "3", "-i", "0.2", "-W", &wait]);
        c.argv.extend(extra.iter().map(|s| (*s).to_owned()));
        c.arg(dst.clone()).at(Some(src.clone())).try_run().0
    };
    row.ping = ping(&[]);
    if !row.ping {
        row.detail.push("ping: no reply".into());
    }
    let size = pair.mtu.saturating_sub(28).to_string();
    row.pmtu = ping(&["-M", "do", "-s", &size]);
    if !row.pmtu {
        row.detail.push(format!(
            "path MTU: a {}-byte packet with DF set got no reply",
            pair.mtu
        ));
    }
    if flow.protocol == "rdma" {
        row.detail
            .push("rdma flow tested as TCP on the same path (no RDMA NICs in the twin)".into());
    }
    if row.ping {
        let p = port.to_string();
        let server = Cmd::new(&["timeout", &pace.secs(15).to_string(), "iperf3", "-s", "-1"])
            .arg("-p")
            .arg(p.clone())
            .arg("-B")
            .arg(dst.clone())
            .at(Some(dst_at));
        let handle = std::thread::spawn(move || server.try_run());
        std::thread::sleep(Duration::from_millis(300 * pace.secs(1)));
        let client = Cmd::new(&["timeout", &pace.secs(10).to_string(), "iperf3", "-J"])
            .arg("-t")
            .arg("1")
            .arg("-c")
            .arg(dst.clone())
            .arg("-p")
            .arg(p)
            .at(Some(src.clone()));
        let (ok, out) = client.try_run();
        let _ = handle.join();
        row.tcp_gbps = ok
            .then(|| serde_json::from_str::<serde_json::Value>(&out).ok())
            .flatten()
            .and_then(|v| v["end"]["sum_received"]["bits_per_second"].as_f64())
            .map(|bps| (bps / 1e8).round() / 10.0);
        if row.tcp_gbps.is_none() {
            row.detail.push("iperf3: no TCP transfer".into());
        }
        // Routed hops: the switches that route it, in order, as the plan says.
        let want: Vec<&str> = pair
            .path
            .iter()
            .filter(|h| {
                b.switches
                    .get(&*h.switch)
                    .is_some_and(|s| routes_at(s, &h.in_port))
            })
            .map(|h| &*h.switch)
            .collect();
        let max = (pair.path.len() + 2).to_string();
        // Three probes per hop, one at a time: a single probe lost on a loaded machine (or
        // an ICMP reply the destination's rate limit swallowed among probes sent at once)
        // read as a missing hop and failed a flow whose path was right.
        let (_, out) = Cmd::new(&["traceroute", "-n", "-q", "3", "-w"])
            .arg(pace.secs(2).to_string())
            .args(["-N", "1", "-m"])
            .arg(max)
            .arg(dst.clone())
            .at(Some(src))
            .try_run();
        let seen: Vec<String> = out
            .lines()
            .skip(1)
            .map(hop_address)
            .filter(|ip| *ip != dst)
            .map(|ip| owners.get(&ip).cloned().unwrap_or(ip))
            .collect();
        row.routed_hops = seen.iter().map(String::as_str).eq(want.iter().copied());
        if !row.routed_hops {
            row.detail.push(format!(
                "routed hops: planned [{}], traceroute saw [{}]",
                want.join(", "),
                seen.join(", ")
            ));
        }
    }
    row
}

/// The address that answered on one traceroute line (`" 2  10.0.0.1  0.4 ms * 0.3 ms"`,
/// `" 2  * 10.0.0.1  0.3 ms *"`), or `*` when no probe did.
fn hop_address(line: &str) -> String {
    line.split_whitespace()
        .skip(1)
        .find(|w| w.parse::<std::net::Ipv4Addr>().is_ok())
        .unwrap_or("*")
        .to_owned()
}

fn control_rows(b: &Build, site: &dyn Site, pace: Pace) -> Vec<ControlRow> {
    let mut rows = Vec::new();
    // Generous: on a loaded machine a switch daemon may take a while to (re)connect.
    let deadline = Instant::now() + Duration::from_secs(pace.secs(30));
    for s in b.switches.values() {
        let Some(of) = &s.openflow else { continue };
        let d = site.dirs(&s.hostname);
        let connected = loop {
            let (_, out) = switch::vsctl(&d)
                .arg("get")
                .arg("controller")
                .arg(site.of_bridge(&s.hostname))
                .arg("is_connected")
                .at(Some(site.switch(&s.hostname)))
                .try_run();
            if out.trim() == "true" {
                break true;
            }
            if Instant::now() > deadline {
                break false;
            }
            std::thread::sleep(Duration::from_millis(250));
        };
        rows.push(ControlRow {
            switch: s.hostname.clone(),
            controller: format!("{}:{}", of.controller.address, of.controller.port),
            connected,
            overloaded: None,
        });
    }
    rows
}

/// Waits (at most 30 s, stretched by `pace`) until every BGP session of the twin is
/// established.
fn wait_bgp(b: &Build, site: &dyn Site, pace: Pace) -> Vec<String> {
    let wait = pace.secs(30);
    let deadline = Instant::now() + Duration::from_secs(wait);
    let mut down = Vec::new();
    for s in b.switches.values().filter(|s| s.bgp.is_some()) {
        let d = site.dirs(&s.hostname);
        loop {
            let (_, out) = Cmd::new(&[
                // No `-N`: vtysh would look for the daemons' sockets in a folder named
                // after the pathspace below `--vty_socket`, find none, and count no
                // session as established.
                "vtysh",
                "--vty_socket",
                &d.frr.display().to_string(),
                "-c",
                "show bgp summary json",
            ])
            .at(Some(site.switch(&s.hostname)))
            .try_run();
            let want = s.bgp.as_ref().map_or(0, |g| g.neighbors.len());
            let up = out.matches("\"state\":\"Established\"").count()
                + out.matches("\"state\": \"Established\"").count();
            if up >= want {
                break;
            }
            if Instant::now() > deadline {
                down.push(format!(
                    "`{}`: {} of {want} BGP sessions established after {wait} s",
                    s.hostname, up
                ));
                break;
            }
            std::thread::sleep(Duration::from_millis(500));
        }
    }
    // Established sessions exchange their first updates right after the OPEN (no
    // advertisement interval in the twin): give them a moment to land in the kernel.
    if down.is_empty() && b.switches.values().any(|s| s.bgp.is_some()) {
        std::thread::sleep(Duration::from_secs(3));
    }
    down
}

fn yes(b: bool) -> &'static str {
    if b { "ok" } else { "FAIL" }
}

/// `twin test`: Ok((summary, verdict)). The table goes to `table` row by row as each is
/// measured (a large show takes minutes): stdout for `twin test`, stderr for `democ
/// validate`, whose stdout is its own report.
pub(crate) fn test(
    build: &Path,
    state_arg: Option<&Path>,
    table: &mut dyn Write,
) -> Result<(String, Verdict), (String, i32)> {
    let t0 = Instant::now();
    let (b, names, st) = running(build, state_arg)?;
    let limit = load::limit().map_err(|e| (e, 2))?;
    let site = Twin {
        places: names.places(&b),
        names,
        state: &st,
    };
    let report = matrix(&b, &site, "twin", Vec::new(), table, limit);
    let dir = build.join("twin");
    write_report(&report, &dir)?;
    Ok((summary("twin", &report, t0, &dir), report.verdict()))
}

/// The build of a twin that is up, the names `up` gave it (its nonce among them, from
/// root's record) and its state folder; Err when no twin is up for it.
pub(crate) fn running(
    build: &Path,
    state_arg: Option<&Path>,
) -> Result<(Build, Names, std::path::PathBuf), (String, i32)> {
    let b = Build::read(build).map_err(|e| (e, 2))?;
    let st = super::state_dir(build, state_arg);
    let Some(rec) = Created::load(&st).map_err(|e| (e, 2))? else {
        return Err((
            format!(
                "no twin is up for {} (run `democ twin up` first)",
                build.display()
            ),
            2,
        ));
    };
    Ok((b, Names::recorded(&rec.id), st))
}

/// Writes `report.json` into `dir` (made when missing).
pub(crate) fn write_report(report: &Report, dir: &Path) -> Result<(), (String, i32)> {
    std::fs::create_dir_all(dir).map_err(|e| (format!("{}: {e}", dir.display()), 2))?;
    let text = serde_json::to_string_pretty(report).unwrap_or_default() + "\n";
    crate::write::file(&dir.join("report.json"), text.as_bytes()).map_err(|e| (e.into(), 2))
}

/// `twin test: 40 of 43 rows passed, 3 not tested (machine overloaded) in 12.0 s
/// (DIR/report.json)`.
pub(crate) fn summary(what: &str, report: &Report, t0: Instant, dir: &Path) -> String {
    let (failed, untested) = report.counts();
    let total = report.flows.len() + report.control.len();
    let not_tested = if untested > 0 {
        format!(
            ", {untested} not tested (machine overloaded: failed while its CPUs were saturated)"
        )
    } else {
        String::new()
    };
    format!(
        "{what} test: {} of {total} rows passed{not_tested} in {:.1} s ({})",
        total - failed - untested,
        t0.elapsed().as_secs_f64(),
        dir.join("report.json").display()
    )
}

/// `1 min 20 s`.
fn span(secs: u64) -> String {
    if secs >= 60 {
        format!("{} min {} s", secs / 60, secs % 60)
    } else {
        format!("{secs} s")
    }
}

/// The result column of a row.
fn result(passed: bool, overloaded: Option<&Figures>, why: &str) -> String {
    match (passed, overloaded) {
        (true, _) => "pass".into(),
        (false, Some(f)) => format!("not tested: machine overloaded ({})", f.text()),
        (false, None) => format!("FAIL: {why}"),
    }
}

/// The matrix on `site`: the table row by row on `table`, progress lines prefixed by
/// `what` on stderr; `notes` are carried into the report. A failed row whose time had the
/// machine's CPU pressure at `limit` percent or more is reported not tested.
pub(crate) fn matrix(
    b: &Build,
    site: &dyn Site,
    what: &str,
    mut notes: Vec<String>,
    table: &mut dyn Write,
    limit: f64,
) -> Report {
    let meter = Meter::start();
    // A second of the machine before any probe: how busy it is without the test.
    std::thread::sleep(Duration::from_secs(1));
    let t0 = Instant::now();
    let before = meter.since(t0 - Duration::from_secs(1));
    let pace = Pace::of(before.as_ref());
    if let Some(f) = &before {
        eprintln!(
            "{what}: the machine before the test: {}; {}",
            f.text(),
            pace.text()
        );
    }
    let judge = |from: Instant| meter.since(from).filter(|f| f.saturated(limit));
    let down = wait_bgp(b, site, pace);
    for note in &down {
        eprintln!("{what}: {note}");
    }
    notes.extend(down);
    // A closed stdout or stderr is no reason to stop testing.
    let _ = writeln!(
        table,
        "{:<10} {:<28} {:<44} {:>4} {:>4} {:>8} {:>4} {:>6}  result",
        "kind", "flow / switch", "pair / controller", "ping", "pmtu", "tcp", "path", "routed"
    );
    let from = Instant::now();
    let mut control = control_rows(b, site, pace);
    let over = judge(from);
    for c in &mut control {
        if !c.connected {
            c.overloaded = over;
        }
        let _ = writeln!(
            table,
            "{:<10} {:<28} {:<44} {:>4} {:>4} {:>8} {:>4} {:>6}  {}",
            "control",
            c.switch,
            c.controller,
            "",
            "",
            "",
            "",
            "",
            result(c.connected, c.overloaded.as_ref(), "not connected")
        );
    }
    let owners = address_owner(b);
    let ofs = of_switches(b);
    let total: usize = b.flows.iter().map(|f| f.pairs.len()).sum();
    let mut rows = Vec::new();
    for flow in &b.flows {
        let from = Instant::now();
        let pace = Pace::of(meter.now().as_ref());
        // The rules that carry this flow, per OpenFlow switch, and their counts before.
        let keys: BTreeMap<&str, Vec<counters::Key>> = ofs
            .iter()
            .map(|s| (*s, counters::carrying(&b.switches[*s], flow)))
            .collect();
        let count = |s: &str| counters::packets(&counters::dump(site, &b.switches[s]), &keys[s]);
        let before: BTreeMap<&str, u64> = ofs
            .iter()
            .filter(|s| !keys[**s].is_empty())
            .map(|s| (*s, count(s)))
            .collect();
        // A flow's pairs run side by side, as many at once as the machine has room for
        // (they share the flow's cookie); flows one after another, so each flow's
        // counters move only with its own packets.
        let mut flow_rows: Vec<FlowRow> = Vec::new();
        let pairs: Vec<(usize, &Pair)> = flow.pairs.iter().enumerate().collect();
        for chunk in pairs.chunks(pace.parallel) {
            flow_rows.extend(std::thread::scope(|sc| {
                let hs: Vec<_> = chunk
                    .iter()
                    .map(|&(k, p)| {
                        let owners = &owners;
                        let port = 5201 + (k % 1000) as u16;
                        sc.spawn(move || probe(b, site, flow, p, owners, port, pace))
                    })
                    .collect();
                hs.into_iter()
                    .filter_map(|h| h.join().ok())
                    .collect::<Vec<_>>()
            }));
        }
        let rose: BTreeSet<&str> = ofs
            .iter()
            .filter(|s| before.get(*s).is_some_and(|&n| count(s) > n))
            .copied()
            .collect();
        let planned: BTreeSet<&str> = flow
            .pairs
            .iter()
            .flat_map(|p| &p.path)
            .filter(|h| {
                b.switches.get(&*h.switch).is_some_and(|s| {
                    s.openflow.is_some()
                        && (s.under_controller(&h.in_port) || s.under_controller(&h.out_port))
                })
            })
            .map(|h| &*h.switch)
            .collect();
        let path_ok = rose == planned;
        let over = judge(from);
        for r in &mut flow_rows {
            r.path = path_ok;
            if !path_ok {
                let list = |s: &BTreeSet<&str>| s.iter().copied().collect::<Vec<_>>().join(", ");
                r.detail.push(format!(
                    "cookie {}/{}: counters rose on [{}], the plan's OpenFlow switches are [{}]",
                    flow.cookie,
                    flow.cookie_mask,
                    list(&rose),
                    list(&planned)
                ));
            }
            r.passed = r.ping && r.pmtu && r.tcp_gbps.is_some() && r.path && r.routed_hops;
            if !r.passed {
                r.overloaded = over;
            }
            let _ = writeln!(
                table,
                "{:<10} {:<28} {:<44} {:>4} {:>4} {:>8} {:>4} {:>6}  {}",
                "flow",
                r.flow,
                format!("{} -> {}", r.src, r.dst),
                yes(r.ping),
                yes(r.pmtu),
                r.tcp_gbps.map_or("FAIL".into(), |g| format!("{g}G")),
                yes(r.path),
                yes(r.routed_hops),
                result(r.passed, r.overloaded.as_ref(), &r.detail.join("; "))
            );
        }
        rows.extend(flow_rows);
        let _ = table.flush();
        let done = rows.len();
        let spent = t0.elapsed().as_secs();
        let left = (spent * (total - done) as u64)
            .checked_div(done as u64)
            .unwrap_or(0);
        eprintln!(
            "{what}: {done}/{total} pairs, {} elapsed, about {} left ({})",
            span(spent),
            span(left),
            meter.now().map_or_else(String::new, |f| f.text())
        );
    }
    if b.flows.is_empty() {
        notes.push("the show declares no flows".into());
    }
    let passed = rows.iter().all(|r| r.passed) && control.iter().all(|c| c.connected);
    Report {
        show: b.show.clone(),
        passed,
        flows: rows,
        control,
        machine: Machine {
            before,
            during: meter.since(t0),
            saturated_at_pct: limit,
        },
        notes,
    }
}

#[cfg(test)]
mod tests {
    use super::hop_address;

    #[test]
    fn a_hop_is_the_first_address_any_probe_got() {
        assert_eq!(hop_address(" 2  10.0.0.1  0.4 ms  *  0.3 ms"), "10.0.0.1");
        assert_eq!(hop_address(" 2  *  10.0.0.1  0.3 ms  *"), "10.0.0.1");
        assert_eq!(hop_address(" 3  * * *"), "*");
        // The hop number is never read as an address.
        assert_eq!(hop_address(" 1  * * *"), "*");
    }
}

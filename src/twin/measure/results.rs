//! What `--measure` leaves for `democ verify BUILD twin/results`: the files the host
//! scripts keep in `DEMOC_LOG`, in their names and formats, and the switches' counters
//! as the switches print them.
//! - `<flow>+<source>+<sink>+<source>+<start>.iperf3.json`: each pair's sender's
//!   `iperf3 --json` report (the twin runs no fio: its DTNs' drives are folders);
//! - `<switch>+dump-ports+<start>-1.txt` and `-2.txt`: `ovs-ofctl dump-ports` of every
//!   bridge the switch has in the twin, at the start and the end of the measured window,
//!   one bridge after the other. The twin names a switch's ports in its one Open vSwitch
//!   `<key>p<index>` (`s3p5`); here each is named by the plan's port (`1/2`), and the
//!   twin's own ports (patch ports, a bridge's LOCAL, an SVI's leg) are left out;
//! - `twin-scale.json`: the scale and the throttles of the run (`crate::verify::TwinRun`).

use std::collections::BTreeMap;
use std::path::Path;

use super::super::build::Build;
use super::super::cmd::Cmd;
use super::super::net::{self, Names};
use super::super::switch::{self, Site};
use crate::verify::TwinRun;

/// Below the build's `twin/`.
pub(crate) const FOLDER: &str = "results";

/// One switch's bridges in the twin and its ports' names there.
struct Bridges {
    switch: String,
    /// `ovs-ofctl dump-ports BRIDGE` per bridge.
    dumps: Vec<Cmd>,
    /// The twin's port name -> the plan's.
    ports: BTreeMap<String, String>,
}

/// Every switch's counters, read as `ovs-ofctl` prints them.
pub(crate) struct Switches(Vec<Bridges>);

impl Switches {
    pub(crate) fn of(b: &Build, names: &Names, state: &Path) -> Switches {
        let places = names.places(b);
        let d = net::ovs_dirs(state);
        let mut out = Vec::new();
        for (name, sw) in &b.switches {
            let Some(place) = places.get(name) else {
                continue;
            };
            let site = Site::Twin(place);
            let ports: BTreeMap<String, String> = switch::ports_at(sw, site)
                .into_iter()
                .map(|(port, (local, _))| (local, port.to_owned()))
                .collect();
            let mut bridges = vec![site.name("l2"), switch::of_bridge_name(site)];
            bridges.extend(
                sw.port_channels
                    .iter()
                    .filter(|p| p.openflow())
                    .map(|p| site.name(&format!("lag{}", p.id))),
            );
            let dumps = bridges
                .into_iter()
                .map(|br| {
                    switch::ofctl(&d, sw)
                        .arg("--names")
                        .arg("dump-ports")
                        .arg(br)
                        .in_ns(&place.ovs)
                })
                .collect();
            out.push(Bridges {
                switch: name.clone(),
                dumps,
                ports,
            });
        }
        Switches(out)
    }

    /// Per switch, its bridges' `dump-ports` with the plan's port names (a switch with
    /// no bridge in the twin, all its ports routed, is left out).
    pub(crate) fn read(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for s in &self.0 {
            let text: String = s
                .dumps
                .iter()
                .filter_map(|c| {
                    let (ok, text) = c.try_run();
                    ok.then(|| mapped(&text, &s.ports))
                })
                .collect();
            if text.lines().any(|l| l.trim_start().starts_with("port ")) {
                out.push((s.switch.clone(), text));
            }
        }
        out
    }
}

/// `dump-ports` output with each port named as `names` maps it; ports it does not map
/// are left out (their `rx`, `tx` and `duration` lines with them).
pub(crate) fn mapped(text: &str, names: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    let mut keep = true;
    for line in text.lines() {
        let t = line.trim_start();
        if let Some((name, rest)) = t.strip_prefix("port ").and_then(|r| r.split_once(": ")) {
            let name = name.trim().trim_matches('"');
            keep = false;
            if let Some(port) = names.get(name) {
                keep = true;
                out.push_str(&format!("  port \"{port}\": {rest}\n"));
            }
            continue;
        }
        if t.contains(" reply") {
            keep = true;
        }
        if keep {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// What one measurement leaves: the senders' reports, by pair, and the counters at the
/// start and the end of the window.
pub(crate) struct Left<'a> {
    pub(crate) run: &'a TwinRun,
    /// (flow, source, sink, iperf3's JSON).
    pub(crate) reports: Vec<(&'a str, &'a str, &'a str, &'a str)>,
    pub(crate) before: Vec<(String, String)>,
    pub(crate) after: Vec<(String, String)>,
}

/// Writes `dir` afresh (a folder of the twin's own under the build: the last run's
/// results are removed first, so verify never mixes two runs).
pub(crate) fn write(dir: &Path, left: &Left) -> Result<(), String> {
    let at = |e: std::io::Error| format!("{}: {e}", dir.display());
    match std::fs::symlink_metadata(dir) {
        Ok(m) if m.is_dir() => std::fs::remove_dir_all(dir).map_err(at)?,
        Ok(_) => std::fs::remove_file(dir).map_err(at)?,
        Err(_) => {}
    }
    std::fs::create_dir_all(dir).map_err(at)?;
    let put = |name: &str, text: &str| crate::write::file(&dir.join(name), text.as_bytes());
    let when = &left.run.started;
    for (flow, src, dst, json) in &left.reports {
        put(
            &format!("{flow}+{src}+{dst}+{src}+{when}.iperf3.json"),
            json,
        )?;
    }
    for (k, snaps) in [(1, &left.before), (2, &left.after)] {
        for (sw, text) in snaps {
            put(&format!("{sw}+dump-ports+{when}-{k}.txt"), text)?;
        }
    }
    let stamp = serde_json::to_string_pretty(left.run).unwrap_or_default() + "\n";
    put(crate::verify::TWIN_STAMP, &stamp).map_err(Into::into)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_get_the_plans_names_and_the_twins_own_are_left_out() {
        // As ovs-ofctl 3.1 printed sc15's cit-z9100-2 port-channel bridge in the twin.
        let text = "OFPST_PORT reply (OF1.3) (xid=0x2): 3 ports
  port  s1p1: rx pkts=1326, bytes=11453372, drop=1, errs=0, frame=0, over=0, crc=0
           tx pkts=677, bytes=5791689, drop=0, errs=0, coll=0
           duration=17.998s
  port  \"s1lag41-up\": rx pkts=1075, bytes=76853, drop=?, errs=?, frame=?, over=?, crc=?
           tx pkts=1340, bytes=11454384, drop=?, errs=?, coll=?
           duration=18.237s
  port LOCAL: rx pkts=8, bytes=656, drop=0, errs=0, frame=0, over=0, crc=0
           tx pkts=0, bytes=0, drop=0, errs=0, coll=0
           duration=18.554s
";
        let names = BTreeMap::from([("s1p1".to_owned(), "1/2".to_owned())]);
        let m = mapped(text, &names);
        assert_eq!(
            m,
            "OFPST_PORT reply (OF1.3) (xid=0x2): 3 ports
  port \"1/2\": rx pkts=1326, bytes=11453372, drop=1, errs=0, frame=0, over=0, crc=0
           tx pkts=677, bytes=5791689, drop=0, errs=0, coll=0
           duration=17.998s
"
        );
    }
}

//! SONiC switches run the FRR file democ ships (`switches/<name>.frr.conf`, the
//! `config_file` of their IR) as written, not FRR configuration the twin derives from
//! the IR: the build's file is read here and replaces the derived one in the switch's
//! steps. Cumulus Linux switches run the build's `.frr-derived.conf` the same way:
//! NVUE renders FRR's file on the switch, so the twin runs democ's rendering of the
//! same intent, the file the build ships beside the NVUE one. Two things are added, each outside the shipped lines: the log file in the
//! twin's state folder, and per neighbor the twin's fast timers (connect retry 1 s, no
//! advertisement interval), in a `router bgp` block of their own after the shipped one,
//! so that a test starts as soon as the sessions are up.

use std::collections::BTreeMap;
use std::path::Path;

use super::switch::Step;
use crate::build_dir::{BuildDir, SMALL_BYTES};
use crate::ir::Switch;

/// The shipped (SONiC) or derived (Cumulus) FRR text of each such switch of the
/// build, by hostname.
pub(crate) fn read(
    dir: &BuildDir,
    switches: &BTreeMap<String, Switch>,
) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    for (name, sw) in switches {
        if (sw.sonic.is_some() || sw.cumulus.is_some()) && !sw.external {
            out.insert(name.clone(), dir.text(&sw.config_file, SMALL_BYTES)?);
        }
    }
    Ok(out)
}

/// `shipped`, made to run in the twin: the log file after `hostname` and the timers
/// before the closing `end`.
pub(crate) fn twin_text(sw: &Switch, shipped: &str, log: &Path) -> String {
    let mut out = String::with_capacity(shipped.len() + 256);
    let mut body: Vec<&str> = shipped.lines().collect();
    while body
        .last()
        .is_some_and(|l| l.trim() == "end" || l.trim().is_empty())
    {
        body.pop();
    }
    for line in body {
        out.push_str(line);
        out.push('\n');
        if line.starts_with("hostname ") {
            out.push_str(&format!("log file {}\n", log.display()));
        }
    }
    if let Some(bgp) = &sw.bgp {
        out.push_str(&format!("! twin: fast timers\nrouter bgp {}\n", bgp.asn));
        for n in &bgp.neighbors {
            out.push_str(&format!(" neighbor {} timers connect 1\n", n.address));
            out.push_str(&format!(
                " neighbor {} advertisement-interval 0\n",
                n.address
            ));
        }
        out.push_str("!\n");
    }
    out.push_str("end\n");
    out
}

/// The switch's steps with the derived FRR configuration replaced by `shipped`.
pub(crate) fn use_shipped(steps: &mut [Step], sw: &Switch, shipped: &str) {
    for st in steps {
        if let Step::Write { path, text } = st {
            if path.file_name().is_some_and(|n| n == "frr.conf") {
                let log = path.with_file_name("bgpd.log");
                *text = twin_text(sw, shipped, &log);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    /// The shipped lines stay as they are, in order; the twin's lines come after the
    /// hostname (the log) and after the shipped `router bgp` (the timers).
    #[test]
    fn the_shipped_lines_are_kept_and_the_twin_adds_after_them() {
        let (_, lab) = crate::testkit::render_fixture();
        let sw = lab
            .switches
            .iter()
            .find(|s| s.bgp.as_ref().is_some_and(|b| !b.neighbors.is_empty()))
            .expect("the fixture has a BGP switch");
        let shipped = "frr defaults traditional\nhostname x\n!\nrouter bgp 1\n network 10.0.0.0/24\n!\nline vty\n!\nend\n";
        let text = super::twin_text(sw, shipped, std::path::Path::new("/run/x/bgpd.log"));
        let before_end = shipped.strip_suffix("end\n").expect("ends with end");
        let with_log = before_end.replace("hostname x\n", "hostname x\nlog file /run/x/bgpd.log\n");
        assert!(text.starts_with(&with_log), "{text}");
        let n = &sw.bgp.as_ref().expect("bgp").neighbors[0];
        assert!(text.contains(&format!(" neighbor {} timers connect 1\n", n.address)));
        assert!(text.ends_with("!\nend\n"));
    }
}

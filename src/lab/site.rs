//! The twin's test matrix in a deployed lab: every DTN and stand-in is a container
//! (`docker exec`), a stand-in's daemons keep their folders under the container's own
//! `/run/democ` (the twin's lab script).

use std::path::Path;

use super::record::Record;
use crate::twin::build::Build;
use crate::twin::cmd::At;
use crate::twin::switch::Dirs;
use crate::twin::test::Site;

pub(crate) struct Containers<'a> {
    pub(crate) rec: &'a Record,
}

impl Site for Containers<'_> {
    fn host(&self, host: &str) -> At {
        At::Container(self.rec.container(host))
    }
    fn switch(&self, sw: &str) -> At {
        At::Container(self.rec.container(sw))
    }
    fn dirs(&self, _sw: &str) -> Dirs {
        Dirs::under(Path::new(crate::twin::LAB_STATE))
    }
    fn of_bridge(&self, _sw: &str) -> String {
        "of".into()
    }
}

/// Keeps the flows whose every pair runs between deployed hosts across deployed
/// switches, and the deployed switches (a `--node-filter` lab); a note when some are
/// left out.
pub(crate) fn deployed_only(b: &mut Build, nodes: &[String]) -> Vec<String> {
    let up = |n: &str| nodes.iter().any(|x| x == n);
    let before = b.flows.len();
    b.flows.retain(|f| {
        f.pairs
            .iter()
            .all(|p| up(&p.src) && up(&p.dst) && p.path.iter().all(|h| up(&h.switch)))
    });
    b.switches.retain(|name, _| up(name));
    b.hosts.retain(|name, _| up(name));
    let left_out = before - b.flows.len();
    if left_out == 0 {
        Vec::new()
    } else {
        vec![format!(
            "{left_out} flows left out: a host or switch of theirs is not deployed (--node-filter)"
        )]
    }
}

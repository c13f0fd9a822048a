//! Where a switch of the twin lives. The twin runs one `ovs-vswitchd` and one
//! `ovsdb-server` for the whole show (a userspace datapath polls: one daemon per switch
//! saturated two cores at 50 switches), in a namespace of its own; each switch is a set
//! of bridges there, named with the switch's key, holding the switch's bridged ports.
//! The switch's routed side (routed ports, SVIs, static routes, FRR) lives in the
//! switch's own namespace, joined to its `l2` bridge by one veth per SVI.

use crate::ir::Switch;
use crate::ir::interface::{Interface, Mode};

/// One switch's place in the twin.
#[derive(Debug, Clone)]
pub(crate) struct Place {
    /// Prefix of its bridges and bridged ports in the shared Open vSwitch (`s3`): names
    /// in one datapath must differ, and a port's name at most 15 bytes.
    pub(crate) key: String,
    /// The namespace of the twin's Open vSwitch (bridges, bridged ports).
    pub(crate) ovs: String,
    /// The switch's own namespace (routed ports, SVIs, routes, FRR).
    pub(crate) ns: String,
    /// Canonical ports a converged spanning tree blocks (`loops`): left out of `l2`.
    pub(crate) blocked: std::collections::BTreeSet<String>,
}

/// The key of the switch at `index` in the build's sorted list of switches.
pub(crate) fn key(index: usize) -> String {
    format!("s{index}")
}

/// Whether port `i` of `sw` belongs to a bridge (under the controller, an access or
/// trunk port, or a member of a port-channel that is either): those live in the Open
/// vSwitch's namespace; the rest (routed ports, ports that forward nothing) in the
/// switch's.
pub(crate) fn bridged(sw: &Switch, i: &Interface) -> bool {
    let l2 = |m: Option<Mode>| matches!(m, Some(Mode::Access | Mode::Trunk));
    if i.openflow() {
        return true;
    }
    match &i.lag {
        Some(m) => sw
            .port_channels
            .iter()
            .any(|pc| pc.id == m.id && (pc.openflow() || l2(pc.switching.mode))),
        None => l2(i.switching.mode),
    }
}

//! Where the plan's loads can be seen: which collector watches each switch (gNMI where
//! its config enables it, else SNMP where it has a community, else none), and for each
//! planned direction of a link or LAG, the switch port whose counters carry it.

use std::collections::HashMap;

use crate::check::load::Res;
use crate::ir::Lab;
use crate::ir::switch::Switch;
use crate::resolve::model::{End, Model, NodeId};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Collector {
    Gnmi,
    Snmp,
}

/// A port counter to read: the switch, the port in the vendor's spelling, and whether
/// the load leaves by it (else it enters by it).
#[derive(Clone, Debug)]
pub(crate) struct Point {
    pub(crate) switch: String,
    pub(crate) port: String,
    pub(crate) collector: Collector,
    pub(crate) outgoing: bool,
}

/// How each switch of the build is watched.
pub(crate) struct Watched<'a> {
    pub(crate) by_name: HashMap<&'a str, (&'a Switch, Option<Collector>)>,
}

impl<'a> Watched<'a> {
    pub(crate) fn new(lab: &'a Lab) -> Self {
        let by_name = lab
            .switches
            .iter()
            .map(|s| (s.hostname.as_str(), (s, collector(s))))
            .collect();
        Watched { by_name }
    }

    /// The port a link or LAG direction is read at: the sending end's transmit counter
    /// when a watched switch sends, else the receiving end's receive counter. None for a
    /// host's NIC, a PCIe link or drives, and for links between unwatched devices.
    pub(crate) fn point(&self, m: &Model, res: Res) -> Option<Point> {
        let (from, to) = ends(m, res)?;
        let lag = matches!(res, Res::Lag(..));
        self.at(m, from, lag, true)
            .or_else(|| self.at(m, to, lag, false))
    }

    fn at(&self, m: &Model, end: End, lag: bool, outgoing: bool) -> Option<Point> {
        let NodeId::Switch(_) = end.node else {
            return None;
        };
        let &(sw, Some(collector)) = self.by_name.get(m.node_name(end.node))? else {
            return None;
        };
        let name = &m.port(end).name;
        let iface = sw.interfaces.iter().find(|i| &i.port == name)?;
        let port = match (&iface.lag, lag) {
            (Some(member), true) => member.name.clone(),
            _ => iface.name.clone(),
        };
        Some(Point {
            switch: sw.hostname.clone(),
            port,
            collector,
            outgoing,
        })
    }
}

/// A link or LAG direction's sending and receiving ends (a LAG's: its first member's).
fn ends(m: &Model, res: Res) -> Option<(End, End)> {
    let k = match res {
        Res::Link(l, _) => &m.links[l],
        Res::Lag(g, _) => &m.links[*m.lags[g].members.first()?],
        _ => return None,
    };
    let (Res::Link(_, fwd) | Res::Lag(_, fwd)) = res else {
        return None;
    };
    Some(if fwd { (k.a, k.b) } else { (k.b, k.a) })
}

/// Whether a host sends over this link or LAG direction: a flow's load there is the
/// flow's own, leaving one of its sources.
pub(crate) fn host_sends(m: &Model, res: Res) -> bool {
    ends(m, res).is_some_and(|(from, _)| matches!(from.node, NodeId::Host(_)))
}

/// gNMI where the config enables it; SNMP where it has a community; else none.
fn collector(s: &Switch) -> Option<Collector> {
    let sv = s.services.as_ref()?;
    if s.external {
        return None;
    }
    if sv.gnmi.is_some() {
        Some(Collector::Gnmi)
    } else if sv.snmp.is_some() {
        Some(Collector::Snmp)
    } else {
        None
    }
}

//! Inline boxes on a link or circuit (`middleboxes:`), folded into what the link is:
//! its capacity (the slowest box, and the wire its encapsulation takes), its IP MTU (the
//! smallest a box passes) and its latency (what the boxes add). The boxes stay on the
//! link by name, so findings and the plan can say which one binds.

use super::model::{Middlebox, Model};
use crate::spec::middlebox::{Middlebox as Spec, MiddleboxKind};
use crate::spec::units::Rate;
use crate::yaml::decode::Located;

/// The IP MTU an encapsulation's cost is counted against when neither the box nor the
/// link says: 9000, the data-transfer norm (catalog/physics.yaml has no better figure
/// for a link whose ports decide it later).
const ASSUMED_MTU: u32 = 9000;

/// What a link's boxes make of it.
pub(crate) struct Inline {
    pub(crate) boxes: Vec<Middlebox>,
    /// The smallest per-direction throughput of the boxes, counted on the wire.
    pub(crate) capacity: Option<Rate>,
    /// The smallest IP MTU of the boxes, with where it is written.
    pub(crate) mtu: Option<Located<u32>>,
    pub(crate) latency_us: f64,
}

/// The boxes on one link entry; `link_mtu` is the entry's own `mtu:`.
pub(crate) fn inline(
    boxes: Option<&Vec<Located<Spec>>>,
    link_mtu: Option<&Located<u32>>,
) -> Inline {
    let mut out = Inline {
        boxes: Vec::new(),
        capacity: None,
        mtu: None,
        latency_us: 0.0,
    };
    for b in boxes.into_iter().flatten() {
        let mtu = b.mtu.clone();
        if let Some(m) = &mtu
            && out.mtu.as_ref().is_none_or(|o| m.value < o.value)
        {
            out.mtu = Some(m.clone());
        }
        let overhead = b.overhead_bytes.as_ref().map_or(0, |o| o.value);
        if let Some(t) = &b.throughput {
            // The box's figure is for the traffic it is given; its own headers ride on
            // top, so what crosses it shrinks by their share of each packet.
            let inner = mtu.as_ref().or(link_mtu).map_or(ASSUMED_MTU, |m| m.value);
            let share = f64::from(inner) / f64::from(inner + overhead);
            let cap = Rate(t.value.bps() * share);
            if out.capacity.is_none_or(|c| cap.bps() < c.bps()) {
                out.capacity = Some(cap);
            }
        }
        out.latency_us += b.latency_us.as_ref().map_or(0.0, |l| l.value);
        out.boxes.push(Middlebox {
            name: b.name.clone(),
            kind: b.kind.value,
            stateful: b.stateful.as_ref().map_or(
                matches!(b.kind.value, MiddleboxKind::Firewall | MiddleboxKind::Ids),
                |s| s.value,
            ),
            span: b.span,
        });
    }
    out
}

/// The link's MTU with its boxes': the smaller, and where it is written.
pub(crate) fn mtu(link: Option<Located<u32>>, inline: &Inline) -> Option<Located<u32>> {
    match (link, &inline.mtu) {
        (Some(l), Some(b)) if b.value < l.value => Some(b.clone()),
        (Some(l), _) => Some(l),
        (None, b) => b.clone(),
    }
}

impl Model {
    /// The boxes on a link, in words (`firewall `fw1``), for findings and the plan.
    pub(crate) fn boxes_on(&self, l: usize) -> Option<String> {
        let link = self.links.get(l)?;
        // A device at an end whose forwarding rate caps the link is named as a box is.
        let devices = [link.a, link.b].into_iter().filter_map(|e| match e.node {
            super::model::NodeId::Switch(s) => {
                let sw = &self.switches[s];
                sw.throughput
                    .map(|t| format!("`{}` (forwards {t})", sw.name.value))
            }
            super::model::NodeId::Host(_) => None,
        });
        let all: Vec<String> = link
            .middleboxes
            .iter()
            .map(|x| format!("{} `{}`", x.kind.as_str(), x.name.value))
            .chain(devices)
            .collect();
        (!all.is_empty()).then(|| all.join(", "))
    }
}

//! What a newer kernel adds to one stream's rate on the same CPU (catalog
//! `physics.kernel_gain`: the SC24 INDIS measurements of 6.8 against 5.15). Only a sender
//! that declares its `kernel:` gains; an undeclared kernel changes nothing.

use crate::derive::paths::PairRoute;
use crate::resolve::model::{LinkKind, Model};
use crate::spec::catalog_file::KernelGain;

/// The factor on the per-stream CPU figure of `pr`'s sender: `wan` on a path that
/// crosses a WAN link, `lan` otherwise, for a kernel at or after `since`; else 1.
pub(crate) fn stream_gain(g: &KernelGain, m: &Model, pr: &PairRoute) -> f64 {
    match m.hosts[pr.src].kernel {
        Some(k) if k >= g.since => {
            let wan = pr.hops.iter().any(|h| {
                h.via
                    .links(m)
                    .first()
                    .is_some_and(|&l| matches!(m.links[l].kind, LinkKind::Wan(_)))
            });
            if wan { g.wan } else { g.lan }
        }
        _ => 1.0,
    }
}

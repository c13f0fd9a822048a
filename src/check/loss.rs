//! TCP on lossy paths: the share of packets a path loses, and the streams a demand
//! needs; what one stream reaches under that loss is its congestion control's model
//! (`check::congestion`).

use crate::derive::paths::PairRoute;
use crate::resolve::model::{LinkKind, Model};

/// The share of packets a pair's path loses: one minus the product of what each lossy
/// WAN hop delivers.
pub(crate) fn path_loss(m: &Model, pr: &PairRoute) -> f64 {
    let delivered: f64 = pr
        .hops
        .iter()
        .filter_map(|h| {
            let &l = h.via.links(m).first()?;
            let LinkKind::Wan(w) = m.links[l].kind else {
                return None;
            };
            m.wans[w].loss.as_ref().map(|p| 1.0 - p.value)
        })
        .product();
    (1.0 - delivered).max(0.0)
}

/// Streams of `per_stream` Gbit/s each that carry `demand` Gbit/s.
pub(crate) fn streams_for(demand: f64, per_stream: f64) -> u32 {
    if per_stream <= 0.0 {
        return u32::MAX;
    }
    (demand / per_stream).ceil().clamp(1.0, f64::from(u32::MAX)) as u32
}

#[cfg(test)]
mod tests {
    #[test]
    fn streams_cover_the_demand() {
        assert_eq!(super::streams_for(10.0, 0.55), 19);
        assert_eq!(super::streams_for(0.1, 0.55), 1);
    }
}

//! The model's port -> OpenFlow port map (catalog `openflow.port_numbers`): port `1/N` is
//! `(N - 1) * step + 1`, breakout subport `1/N:k` is `(N - 1) * step + k`, port-channel
//! `id` is `lag_base + id`. Without catalog data: `step` the model's widest breakout, so
//! subports never meet the next port's number, and `lag_base` 1000 (OVS accepts
//! `ofport_request` values up to 65279).

use crate::spec::catalog_file::{OpenflowCaps, SwitchModel};

pub(crate) const DEFAULT_LAG_BASE: u32 = 1000;

/// How one model numbers its OpenFlow ports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PortMap {
    pub(crate) step: u32,
    pub(crate) lag_base: u32,
}

impl PortMap {
    pub(crate) fn of(model: Option<&SwitchModel>) -> PortMap {
        let caps: Option<&OpenflowCaps> = model.and_then(|m| m.openflow.as_ref());
        if let Some(p) = caps.and_then(|c| c.port_numbers.as_ref()) {
            return PortMap {
                step: p.step.max(1),
                lag_base: p.lag_base,
            };
        }
        let widest = model
            .into_iter()
            .flat_map(|m| m.ports.iter())
            .flat_map(|g| g.breakout.iter().flatten())
            .filter_map(|b| b.value.split_once('x').and_then(|(n, _)| n.parse().ok()))
            .max()
            .unwrap_or(1);
        PortMap {
            step: widest,
            lag_base: DEFAULT_LAG_BASE,
        }
    }

    /// The OpenFlow number of canonical port `unit/N` or `unit/N:k`; None for other
    /// names, or a subport beyond `step`.
    pub(crate) fn port(self, canonical: &str) -> Option<u32> {
        let (_, rest) = canonical.rsplit_once('/')?;
        let (n, k) = match rest.split_once(':') {
            Some((n, k)) => (n.parse::<u32>().ok()?, k.parse::<u32>().ok()?),
            None => (rest.parse::<u32>().ok()?, 1),
        };
        if n == 0 || k == 0 || k > self.step {
            return None;
        }
        (n - 1).checked_mul(self.step)?.checked_add(k)
    }

    pub(crate) fn lag(self, id: u16) -> Option<u32> {
        self.lag_base.checked_add(u32::from(id))
    }
}

/// Where a switch's OpenFlow port numbers come from.
pub(crate) enum Numbers {
    /// democ's scheme: numbers democ requests (OVS mode), a documented rule, or
    /// placeholders the spec declared.
    Scheme(PortMap),
    /// The spec's `port_map` (the switch's own numbers), with the scheme for the ports
    /// it lacks when the rest are placeholders.
    Given {
        map: crate::fxhash::FxMap<String, u32>,
        rest: Option<PortMap>,
    },
}

impl Numbers {
    /// `port`: the canonical port name.
    pub(crate) fn port(&self, port: &str) -> Option<u32> {
        match self {
            Numbers::Scheme(m) => m.port(port),
            Numbers::Given { map, rest } => map
                .get(port)
                .copied()
                .or_else(|| rest.and_then(|m| m.port(port))),
        }
    }

    pub(crate) fn lag(&self, id: u16) -> Option<u32> {
        match self {
            Numbers::Scheme(m) => m.lag(id),
            Numbers::Given { map, rest } => map
                .get(&lag_key(id))
                .copied()
                .or_else(|| rest.and_then(|m| m.lag(id))),
        }
    }
}

/// How `port_map` names port-channel `id`.
pub(crate) fn lag_key(id: u16) -> String {
    format!("port-channel {id}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_subports_and_lags() {
        let m = PortMap {
            step: 4,
            lag_base: 1000,
        };
        assert_eq!(m.port("1/1"), Some(1));
        assert_eq!(m.port("1/2"), Some(5));
        assert_eq!(m.port("1/17:2"), Some(66));
        assert_eq!(m.port("1/17:5"), None, "beyond the step");
        assert_eq!(m.port("p0"), None);
        assert_eq!(m.lag(10), Some(1010));
        let flat = PortMap {
            step: 1,
            lag_base: 1000,
        };
        assert_eq!(flat.port("1/32"), Some(32));
    }
}

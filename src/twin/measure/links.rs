//! The links a measurement shapes and reads: every cable of the twin (a veth pair) each
//! way, and the directed links each flow pair crosses, a port-channel's members
//! counted as one link.

use std::collections::BTreeMap;

use super::super::build::Build;
use super::super::net::{Cable, End};
use crate::ir::flow::Pair;

/// A cable end that sends, shaped at `bps` (the cable's capacity / N, or a throttle's).
#[derive(Debug, Clone)]
pub(crate) struct Sender {
    pub(crate) end: End,
    pub(crate) bps: f64,
}

/// One direction of a link (of a port-channel: its members) as flows cross it.
#[derive(Debug, Clone)]
pub(crate) struct Link {
    /// The ends that send this way, one per member.
    pub(crate) members: Vec<Sender>,
    /// The throttle on it, as given (`50G`), when one is.
    pub(crate) throttled: Option<String>,
}

impl Link {
    pub(crate) fn shaped_bps(&self) -> f64 {
        self.members.iter().map(|m| m.bps).sum()
    }
}

/// A shaped cable end, and the throttle's rate as given (`50G`) when one shapes it.
pub(crate) type Shaped = (Sender, Option<String>);

/// `--throttle DEVICE:PORT=RATE`: the cable at that port carries RATE each way (before
/// scaling), in place of its declared speed.
#[derive(Debug, Clone)]
pub(crate) struct Throttle {
    pub(crate) device: String,
    pub(crate) port: String,
    pub(crate) bps: f64,
    pub(crate) text: String,
}

impl Throttle {
    pub(crate) fn parse(arg: &str) -> Result<Throttle, String> {
        let help = "write `--throttle DEVICE:PORT=RATE` (`--throttle cit-z9100-1:1/2=40G`)";
        let (at, rate) = arg
            .rsplit_once('=')
            .ok_or_else(|| format!("`--throttle {arg}`: no `=RATE`; {help}"))?;
        let (device, port) = at
            .split_once(':')
            .ok_or_else(|| format!("`--throttle {arg}`: no `DEVICE:PORT`; {help}"))?;
        let r =
            crate::spec::units::parse_rate(rate).map_err(|e| format!("`--throttle {arg}`: {e}"))?;
        Ok(Throttle {
            device: device.to_owned(),
            port: port.to_owned(),
            bps: r.bps(),
            text: rate.trim().to_owned(),
        })
    }

    fn at(&self, e: &End) -> bool {
        e.device == self.device && e.port == self.port
    }
}

/// Every cable of the twin, shaped: (sender, its rate, the throttle's text) for both ends.
/// Err names a throttle that matches no cable.
pub(crate) fn shaped(
    cables: &[Cable],
    scale: f64,
    throttles: &[Throttle],
) -> Result<Vec<Shaped>, String> {
    for t in throttles {
        if !cables.iter().any(|c| t.at(&c.a) || t.at(&c.b)) {
            return Err(format!(
                "`--throttle {}:{}`: no cable of the twin ends at that port (a switch's canonical port, `1/2`, or a DTN's, `p0`)",
                t.device, t.port
            ));
        }
    }
    let mut out = Vec::new();
    for c in cables {
        let throttle = throttles.iter().find(|t| t.at(&c.a) || t.at(&c.b));
        // A cable with no declared speed (none in the IR) is not shaped.
        let Some(bps) = throttle
            .map(|t| t.bps)
            .or(c.speed_mbps().map(|m| m as f64 * 1e6))
        else {
            continue;
        };
        for end in [&c.a, &c.b] {
            out.push((
                Sender {
                    end: end.clone(),
                    bps: bps / scale,
                },
                throttle.map(|t| t.text.clone()),
            ));
        }
    }
    Ok(out)
}

/// The switch ports a path names: the port itself, or a port-channel's members (`lag42`).
fn ports<'a>(b: &'a Build, switch: &str, port: &str) -> Vec<&'a str> {
    let Some(sw) = b.switches.get(switch) else {
        return Vec::new();
    };
    if let Some(i) = sw.interfaces.iter().find(|i| i.port == port) {
        return vec![i.port.as_str()];
    }
    let lag = port.strip_prefix("lag").and_then(|n| n.parse::<u16>().ok());
    sw.interfaces
        .iter()
        .filter(|i| lag.is_some() && i.lag.as_ref().map(|l| l.id) == lag)
        .map(|i| i.port.as_str())
        .collect()
}

/// Directed links by name (`cit-z9100-1:1/2 -> sc100G-2:p0`, a port-channel
/// `cit-z9100-2:lag42 -> sc400g-2`), as pairs cross them.
pub(crate) struct Links<'a> {
    /// (device, port) -> (the shaped sender there, its throttle; the far end).
    ends: BTreeMap<(&'a str, &'a str), (&'a Shaped, &'a End)>,
    pub(crate) by_name: BTreeMap<String, Link>,
}

impl<'a> Links<'a> {
    pub(crate) fn new(shaped: &'a [Shaped], cables: &'a [Cable]) -> Links<'a> {
        let mut ends = BTreeMap::new();
        for s in shaped {
            let e = &s.0.end;
            let far = cables.iter().find_map(|c| {
                if c.a.device == e.device && c.a.port == e.port {
                    Some(&c.b)
                } else if c.b.device == e.device && c.b.port == e.port {
                    Some(&c.a)
                } else {
                    None
                }
            });
            if let Some(far) = far {
                ends.insert((e.device.as_str(), e.port.as_str()), (s, far));
            }
        }
        Links {
            ends,
            by_name: BTreeMap::new(),
        }
    }

    /// The directed links `pair` crosses, in order (their names; each added to
    /// `by_name`); Err: a hop the twin has no cable for.
    pub(crate) fn of_pair(&mut self, b: &Build, pair: &Pair) -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        for (k, hop) in pair.path.iter().enumerate() {
            // Into the first switch: sent by the far ends of its in-port's cables.
            if k == 0 {
                out.push(self.add(b, &hop.switch, &hop.in_port, true)?);
            }
            out.push(self.add(b, &hop.switch, &hop.out_port, false)?);
        }
        Ok(out)
    }

    /// The link out of (`into`: into) `switch` at `port`.
    fn add(&mut self, b: &Build, switch: &str, port: &str, into: bool) -> Result<String, String> {
        let members = ports(b, switch, port);
        let mut senders = Vec::new();
        let mut far_device = String::new();
        let mut throttled = None;
        for m in &members {
            let Some(&((s, t), far)) = self.ends.get(&(switch, *m)) else {
                return Err(format!(
                    "`{switch}` {m}: the twin has no shaped cable there"
                ));
            };
            let (sender, other) = if into {
                let Some(&((fs, ft), _)) = self.ends.get(&(far.device.as_str(), far.port.as_str()))
                else {
                    return Err(format!("`{}` {}: not shaped", far.device, far.port));
                };
                throttled = throttled.or(ft.clone());
                (fs.clone(), s.end.clone())
            } else {
                throttled = throttled.or(t.clone());
                (s.clone(), far.clone())
            };
            far_device.clone_from(&other.device);
            senders.push((sender, other));
        }
        let Some((first, other)) = senders.first() else {
            return Err(format!("`{switch}` has no port `{port}`"));
        };
        let name = if members.len() == 1 {
            format!(
                "{}:{} -> {}:{}",
                first.end.device, first.end.port, other.device, other.port
            )
        } else if into {
            format!("{} -> {switch}:{port}", first.end.device)
        } else {
            format!("{switch}:{port} -> {far_device}")
        };
        self.by_name.entry(name.clone()).or_insert_with(|| Link {
            members: senders.into_iter().map(|(s, _)| s).collect(),
            throttled,
        });
        Ok(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_throttle_names_a_port_and_a_rate() {
        let t = Throttle::parse("sw1:1/31:2=40G").expect("parses");
        assert_eq!((t.device.as_str(), t.port.as_str()), ("sw1", "1/31:2"));
        assert_eq!((t.bps, t.text.as_str()), (40e9, "40G"));
        for bad in ["sw1=40G", "sw1:1/1", "sw1:1/1=40"] {
            let e = Throttle::parse(bad).expect_err("refused");
            assert!(e.contains("--throttle"), "{e}");
        }
    }
}

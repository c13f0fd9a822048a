//! Switch state as the switches print it. Arista EOS's JSON (`| json`, the eAPI's
//! result): `show interfaces counters` (`interfaces.<name>.inOctets`, `outOctets`,
//! `inDiscards`, `outDiscards`, `lastUpdateTimestamp`), `show interfaces counters rates`
//! (`inBpsRate`, `outBpsRate` over `interval` seconds), `show interfaces transceiver`
//! (`rxPower`, `txPower`, dBm) and `show lldp neighbors` (`lldpNeighbors[]`: `port`,
//! `neighborDevice`, `neighborPort`); the shapes of Arista's ANTA test data and eAPI
//! examples. Open vSwitch's `ovs-ofctl dump-ports` (`port N: rx pkts=, bytes=, drop=,
//! errs=...`, `tx ...`, `duration=S`) and `dump-flows` (`cookie=, duration=, n_packets=,
//! n_bytes=` per rule), as ovs-ofctl(8) shows them; a counter the datapath lacks is `?`.

use std::collections::BTreeMap;

use serde_json::Value;

use super::located::{Bad, Text, amount};

/// One port's counters at one moment (octets since the counters were cleared).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Counters {
    pub(crate) in_octets: Option<f64>,
    pub(crate) out_octets: Option<f64>,
    pub(crate) in_discards: Option<f64>,
    pub(crate) out_discards: Option<f64>,
    /// When they were read (EOS: a Unix time; OVS: the port's age), seconds.
    pub(crate) at: Option<f64>,
}

/// One port's rates, bit/s.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Rates {
    pub(crate) in_bps: f64,
    pub(crate) out_bps: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Neighbor {
    pub(crate) port: String,
    pub(crate) device: String,
    pub(crate) remote_port: String,
}

/// One OpenFlow rule's counters.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Rule {
    pub(crate) cookie: u64,
    pub(crate) packets: u64,
    pub(crate) bytes: u64,
    /// The `dump-flows` line, for the report.
    pub(crate) line: usize,
}

const EOS_HELP: &str = "save the switch's own JSON: `show interfaces counters | json` (or `counters rates`, `transceiver`, `lldp neighbors`) as <switch>+<state>+<time>.json";

/// The `interfaces` object of an EOS reply, per interface.
fn interfaces<'v>(t: &Text, v: &'v Value) -> Result<&'v serde_json::Map<String, Value>, Bad> {
    v.get("interfaces")
        .and_then(Value::as_object)
        .ok_or_else(|| {
            t.bad(
                t.at("{"),
                "no `interfaces` object: not the JSON of an EOS `show interfaces ...` command",
                EOS_HELP,
            )
        })
}

pub(crate) fn eos_counters(t: &Text) -> Result<BTreeMap<String, Counters>, Bad> {
    let v = t.json("EOS JSON")?;
    let mut out = BTreeMap::new();
    for (name, c) in interfaces(t, &v)? {
        if !c.is_object() {
            return Err(t.bad(
                t.at_key(name),
                format!("`{name}` is not an object"),
                EOS_HELP,
            ));
        }
        if c.get("inOctets").is_none() && c.get("outOctets").is_none() {
            return Err(t.bad(t.at_key(name), format!("`{name}` has neither `inOctets` nor `outOctets`: not `show interfaces counters`"), EOS_HELP));
        }
        out.insert(
            name.clone(),
            Counters {
                in_octets: amount(&c["inOctets"]),
                out_octets: amount(&c["outOctets"]),
                in_discards: amount(&c["inDiscards"]),
                out_discards: amount(&c["outDiscards"]),
                at: amount(&c["lastUpdateTimestamp"]),
            },
        );
    }
    Ok(out)
}

pub(crate) fn eos_rates(t: &Text) -> Result<BTreeMap<String, Rates>, Bad> {
    let v = t.json("EOS JSON")?;
    let mut out = BTreeMap::new();
    for (name, r) in interfaces(t, &v)? {
        let (Some(i), Some(o)) = (amount(&r["inBpsRate"]), amount(&r["outBpsRate"])) else {
            return Err(t.bad(t.at_key(name), format!("`{name}` lacks `inBpsRate` or `outBpsRate` (non-negative numbers): not `show interfaces counters rates`"), EOS_HELP));
        };
        out.insert(
            name.clone(),
            Rates {
                in_bps: i,
                out_bps: o,
            },
        );
    }
    Ok(out)
}

/// Receive power per interface, dBm; interfaces without a reading (no optic, a DAC)
/// are left out.
pub(crate) fn eos_transceiver(t: &Text) -> Result<BTreeMap<String, f64>, Bad> {
    let v = t.json("EOS JSON")?;
    let mut out = BTreeMap::new();
    for (name, x) in interfaces(t, &v)? {
        match &x["rxPower"] {
            Value::Null => {}
            Value::Number(n) => match n.as_f64().filter(|f| f.is_finite()) {
                Some(p) => {
                    out.insert(name.clone(), p);
                }
                None => {
                    return Err(t.bad(
                        t.at_key(name),
                        format!("`{name}`'s `rxPower` is not a finite number"),
                        EOS_HELP,
                    ));
                }
            },
            _ => {
                return Err(t.bad(
                    t.at_key(name),
                    format!("`{name}`'s `rxPower` is not a number (dBm)"),
                    EOS_HELP,
                ));
            }
        }
    }
    Ok(out)
}

pub(crate) fn eos_lldp(t: &Text) -> Result<Vec<Neighbor>, Bad> {
    let v = t.json("EOS JSON")?;
    let Some(list) = v.get("lldpNeighbors").and_then(Value::as_array) else {
        return Err(t.bad(
            t.at("{"),
            "no `lldpNeighbors` list: not the JSON of `show lldp neighbors`",
            EOS_HELP,
        ));
    };
    let mut out = Vec::new();
    for n in list {
        let s = |k: &str| n.get(k).and_then(Value::as_str).map(str::to_owned);
        let (Some(port), Some(device), Some(remote_port)) =
            (s("port"), s("neighborDevice"), s("neighborPort"))
        else {
            return Err(t.bad(
                t.at_key("lldpNeighbors"),
                "a neighbour lacks `port`, `neighborDevice` or `neighborPort`",
                EOS_HELP,
            ));
        };
        out.push(Neighbor {
            port,
            device,
            remote_port,
        });
    }
    Ok(out)
}

const OVS_HELP: &str = "save `ovs-ofctl dump-ports BRIDGE` (or `dump-flows BRIDGE`) as it prints, as <switch>+dump-ports+<time>.txt";

/// `key=value` pairs of a line, commas and spaces apart.
fn fields(line: &str) -> BTreeMap<&str, &str> {
    line.split([',', ' '])
        .filter_map(|w| w.trim().split_once('='))
        .collect()
}

/// A counter of ovs-ofctl: a number, or `?` when the datapath has none (None).
fn counter(v: Option<&&str>) -> Result<Option<f64>, ()> {
    match v {
        None | Some(&"?") => Ok(None),
        Some(s) => s.parse::<u64>().map(|n| Some(n as f64)).map_err(|_| ()),
    }
}

/// Per port (its number, `LOCAL`, or its name when ovs-ofctl shows names).
pub(crate) fn dump_ports(t: &Text) -> Result<BTreeMap<String, Counters>, Bad> {
    let text = t.text();
    if !text
        .lines()
        .any(|l| l.contains("OFPST_PORT reply") || l.contains("OFPMP_PORT_STATS reply"))
    {
        return Err(t.syntax(
            "no `OFPST_PORT reply` line: not the output of `ovs-ofctl dump-ports`",
            OVS_HELP,
        ));
    }
    let mut out: BTreeMap<String, Counters> = BTreeMap::new();
    let mut current: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        let bad = || t.bad(t.line(i), "a counter is neither a number nor `?`", OVS_HELP);
        if let Some(rest) = l.strip_prefix("port") {
            let Some((name, stats)) = rest.split_once(": ") else {
                continue;
            };
            let name = name.trim().trim_matches('"').to_owned();
            let f = fields(stats);
            let c = out.entry(name.clone()).or_default();
            c.in_octets = counter(f.get("bytes")).map_err(|()| bad())?;
            c.in_discards = counter(f.get("drop")).map_err(|()| bad())?;
            current = Some(name);
        } else if let Some(stats) = l.strip_prefix("tx ") {
            let Some(c) = current.as_ref().and_then(|n| out.get_mut(n)) else {
                return Err(t.bad(t.line(i), "a `tx` line before any `port` line", OVS_HELP));
            };
            let f = fields(stats);
            c.out_octets = counter(f.get("bytes")).map_err(|()| bad())?;
            c.out_discards = counter(f.get("drop")).map_err(|()| bad())?;
        } else if let Some(d) = l.strip_prefix("duration=") {
            if let Some(c) = current.as_ref().and_then(|n| out.get_mut(n)) {
                c.at = d
                    .trim_end_matches('s')
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite());
            }
        }
    }
    Ok(out)
}

pub(crate) fn dump_flows(t: &Text) -> Result<Vec<Rule>, Bad> {
    let text = t.text();
    if !text.lines().any(|l| {
        l.contains("OFPST_FLOW reply") || l.contains("OFPST_FLOW") || l.contains("cookie=")
    }) {
        return Err(t.syntax(
            "no `cookie=` rule: not the output of `ovs-ofctl dump-flows`",
            OVS_HELP,
        ));
    }
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if !line.trim_start().starts_with("cookie=") {
            continue;
        }
        let f = fields(line);
        let num = |k: &str| f.get(k).and_then(|v| v.parse::<u64>().ok());
        let cookie = f
            .get("cookie")
            .and_then(|c| u64::from_str_radix(c.trim_start_matches("0x"), 16).ok());
        let (Some(cookie), Some(packets), Some(bytes)) = (cookie, num("n_packets"), num("n_bytes"))
        else {
            return Err(t.bad(
                t.line(i),
                "a rule without a hex `cookie`, `n_packets` or `n_bytes`",
                OVS_HELP,
            ));
        };
        out.push(Rule {
            cookie,
            packets,
            bytes,
            line: i + 1,
        });
    }
    Ok(out)
}

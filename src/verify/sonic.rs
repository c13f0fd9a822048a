//! SONiC's interface counters as `show interfaces counters --json` (and `show interfaces
//! counters rates --json`) print them: sonic-utilities' portstat writes its table as one
//! object per interface, the column heads as keys and the cells as the table shows them
//! (`"RX_DRP": "18,682"`, `"RX_BPS": "653.87 MB/s"`, `"N/A"` where it has none). SONiC
//! prints no octet totals there, only packets, drops and a rate in bytes per second that
//! it averages itself; verify takes the drops as counters (two snapshots give the
//! discards between them) and the rates as a rates file.

use std::collections::BTreeMap;

use serde_json::Value;

use super::located::{Bad, Text};
use super::switch::{Counters, Rates};

const HELP: &str = "save SONiC's own JSON: `show interfaces counters --json` (or `show interfaces counters rates --json`) as <switch>+counters+<time>.json";

/// A count as portstat prints it: digits with thousands commas; `N/A` is none.
fn count(v: &Value) -> Option<f64> {
    let s = v.as_str()?.replace(',', "");
    s.parse::<u64>().ok().map(|n| n as f64)
}

/// A rate as portstat prints it (`653.87 MB/s`, decimal units of bytes), bit/s.
fn rate(v: &Value) -> Option<f64> {
    let s = v.as_str()?.trim();
    let (num, unit) = s.split_once(' ')?;
    let scale = match unit {
        "B/s" => 1.0,
        "KB/s" => 1e3,
        "MB/s" => 1e6,
        "GB/s" => 1e9,
        _ => return None,
    };
    let n: f64 = num
        .parse()
        .ok()
        .filter(|x: &f64| x.is_finite() && *x >= 0.0)?;
    Some(n * scale * 8.0)
}

/// The interfaces of a portstat reply, each checked to be portstat's row.
fn rows<'v>(t: &Text, v: &'v Value) -> Result<&'v serde_json::Map<String, Value>, Bad> {
    let Some(rows) = v.as_object() else {
        return Err(t.bad(
            t.at("{"),
            "not an object of interfaces: not SONiC's `show interfaces counters --json`",
            HELP,
        ));
    };
    for (name, r) in rows {
        if !r.is_object() || (r.get("RX_OK").is_none() && r.get("RX_DRP").is_none()) {
            return Err(t.bad(
                t.at_key(name),
                format!("`{name}` has neither `RX_OK` nor `RX_DRP`: not SONiC's `show interfaces counters --json`"),
                HELP,
            ));
        }
    }
    Ok(rows)
}

/// Per interface, by the switch's names.
type Ports<T> = BTreeMap<String, T>;

/// Drops per interface (and each rate SONiC printed, for the rates file).
pub(crate) fn counters(t: &Text) -> Result<(Ports<Counters>, Ports<Rates>), Bad> {
    let v = t.json("SONiC JSON")?;
    let mut drops = BTreeMap::new();
    for (name, r) in rows(t, &v)? {
        drops.insert(
            name.clone(),
            Counters {
                in_discards: count(&r["RX_DRP"]),
                out_discards: count(&r["TX_DRP"]),
                ..Counters::default()
            },
        );
    }
    Ok((drops, rates_of(rows(t, &v)?)))
}

/// Rates per interface; interfaces whose rate SONiC has not computed (`N/A`) are left
/// out.
pub(crate) fn rates(t: &Text) -> Result<BTreeMap<String, Rates>, Bad> {
    let v = t.json("SONiC JSON")?;
    let rows = rows(t, &v)?;
    if let Some((name, _)) = rows
        .iter()
        .find(|(_, r)| r.get("RX_BPS").is_none() || r.get("TX_BPS").is_none())
    {
        return Err(t.bad(
            t.at_key(name),
            format!(
                "`{name}` lacks `RX_BPS` or `TX_BPS`: not `show interfaces counters rates --json`"
            ),
            HELP,
        ));
    }
    Ok(rates_of(rows))
}

fn rates_of(rows: &serde_json::Map<String, Value>) -> BTreeMap<String, Rates> {
    rows.iter()
        .filter_map(|(name, r)| {
            Some((
                name.clone(),
                Rates {
                    in_bps: rate(&r["RX_BPS"])?,
                    out_bps: rate(&r["TX_BPS"])?,
                },
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn cells_read_as_portstat_prints_them() {
        assert_eq!(count(&json!("18,682")), Some(18_682.0));
        assert_eq!(count(&json!("N/A")), None);
        let r = rate(&json!("653.87 MB/s")).unwrap_or(0.0);
        assert!((r - 5_230.96e6).abs() < 1.0, "{r}");
        assert_eq!(rate(&json!("0.00 B/s")), Some(0.0));
        assert_eq!(rate(&json!("N/A")), None);
        assert_eq!(rate(&json!("-1 MB/s")), None);
    }
}

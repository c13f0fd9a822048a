//! The catalog entries a name that is no key may mean. Planners write what is on the
//! quote or the box: a vendor part number (`DCS-7060DX5-64S`, `MCX75310AAS-NEAT`) or
//! a model as its vendor spells it. An entry matches when its key or title holds the
//! name, or the name without its first dash-separated word (a vendor's prefix such as
//! Arista's `DCS-`), ignoring case and punctuation.

use super::{Catalog, titles};

/// Matches need this many letters and digits: shorter names would match half the
/// catalog.
const LEAST: usize = 5;

fn folded(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The forms of `written` to look for: itself, and without its first word.
fn forms(written: &str) -> Vec<String> {
    let mut out = vec![folded(written)];
    if let Some((_, rest)) = written.split_once('-') {
        out.push(folded(rest));
    }
    out.retain(|f| f.len() >= LEAST);
    out
}

/// Keys of the `(key, title)` entries that `written` may mean, in the entries' order.
pub(crate) fn matches<'a>(entries: &'a [(String, String)], written: &str) -> Vec<&'a str> {
    let forms = forms(written);
    if forms.is_empty() {
        return Vec::new();
    }
    entries
        .iter()
        .filter(|(key, title)| {
            let (key, title) = (folded(key), folded(title));
            forms
                .iter()
                .any(|f| key.contains(f.as_str()) || title.contains(f.as_str()))
        })
        .map(|(key, _)| key.as_str())
        .collect()
}

/// Every table's `(key, title)` entries, with what a planner calls such an entry.
pub(crate) fn tables(db: &Catalog) -> Vec<(&'static str, Vec<(String, String)>)> {
    vec![
        ("switch model", titles(&db.switches, |m| &m.title)),
        ("NIC", titles(&db.nics, |m| &m.title)),
        ("CPU", titles(&db.cpus, |m| &m.title)),
        ("chassis", titles(&db.chassis, |m| &m.title)),
        ("drive", titles(&db.drives, |m| &m.title)),
        ("optic", titles(&db.optics, |m| &m.title)),
        ("cable", titles(&db.cables, |m| &m.title)),
    ]
}

/// The help for an unknown model when some entries match: which to write.
pub(crate) fn hint(entries: &[(String, String)], written: &str) -> Option<String> {
    let found = matches(entries, written);
    let title = |k: &str| {
        entries
            .iter()
            .find(|(key, _)| key == k)
            .map_or("", |(_, t)| t.as_str())
    };
    match found.as_slice() {
        [] => None,
        [one] => Some(format!(
            "`{written}` is catalog entry `{one}` ({}): write `{one}`",
            title(one)
        )),
        many => {
            let names: Vec<String> = many.iter().take(8).map(|k| format!("`{k}`")).collect();
            Some(format!(
                "`{written}` matches catalog entries {}: write the one you mean",
                names.join(", ")
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries() -> Vec<(String, String)> {
        [
            (
                "arista-7060dx5-64s",
                "Arista 7060DX5-64S (64x400GbE QSFP-DD)",
            ),
            ("arista-7280cr-48", "Arista 7280CR-48"),
            (
                "mellanox-cx7-400g",
                "NVIDIA ConnectX-7 single-port 400GbE OSFP (MCX75310AAS-NEAT class)",
            ),
        ]
        .into_iter()
        .map(|(k, t)| (k.to_owned(), t.to_owned()))
        .collect()
    }

    #[test]
    fn part_numbers_find_their_entry() {
        let e = entries();
        assert_eq!(matches(&e, "DCS-7060DX5-64S"), ["arista-7060dx5-64s"]);
        assert_eq!(matches(&e, "MCX75310AAS-NEAT"), ["mellanox-cx7-400g"]);
        assert_eq!(matches(&e, "7280CR"), ["arista-7280cr-48"]);
    }

    #[test]
    fn short_or_foreign_names_find_nothing() {
        let e = entries();
        assert!(matches(&e, "DCS-72").is_empty());
        assert!(matches(&e, "juniper-qfx5220").is_empty());
        assert_eq!(hint(&e, "x"), None);
    }
}

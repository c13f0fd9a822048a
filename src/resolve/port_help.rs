//! What to say when a switch port does not exist: the model's valid ranges, which of
//! them break out, and the accepted spelling. A near miss by text distance (`1/60` ->
//! `1/6`) points at a different port, so democ names the ranges instead.

use crate::resolve::model::Port;
use crate::spec::catalog_file::SwitchModel;

/// A port found by the name democ's config gives it.
pub(crate) struct Named {
    canonical: String,
    os: String,
    name: String,
}

/// The port democ's own config for a switch names `asked` (the OS's interface name, as
/// `lower::naming` prints it): its canonical name and the OS's title and name for it.
/// Case and spaces do not matter (`Ethernet9/1`, `ethernet 9/1`).
pub(crate) fn vendor_named(vendor: &str, os: &str, ports: &[Port], asked: &str) -> Option<Named> {
    let squash = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let want = squash(asked);
    let (_, f) = crate::vendor::vendors().ok()?.flavour(vendor, os)?;
    ports.iter().find_map(|p| {
        let name = super::naming::os_interface(f, p)?;
        (squash(&name) == want).then(|| Named {
            canonical: p.name.clone(),
            os: f.title.clone(),
            name,
        })
    })
}

/// `1/[1-48]` as `1/1`..`1/48` (or the one name).
fn range(names: &[String]) -> String {
    match (names.first(), names.last()) {
        (Some(a), Some(b)) if a != b => format!("`{a}`..`{b}`"),
        (Some(a), _) => format!("`{a}`"),
        _ => String::new(),
    }
}

/// The help line for `asked`, a port `model` does not have (`split`: the canonical
/// names of the ports this switch breaks out, which lose their whole-port name; `named`:
/// what `vendor_named` found).
pub(crate) fn help(
    model: &SwitchModel,
    asked: &str,
    split: &[&str],
    named: Option<Named>,
) -> String {
    let mut groups = Vec::new();
    let mut breakouts = Vec::new();
    for g in &model.ports {
        let names = g.names.expand();
        let r = range(&names);
        if let (Some(first), Some(mode)) = (names.first(), g.breakout.iter().flatten().next()) {
            let modes: Vec<&str> = g.breakout.iter().flatten().map(|m| m.as_str()).collect();
            let n = mode.split_once(['x', 'X']).map_or("N", |(n, _)| n);
            breakouts.push(format!(
                "{r} break out as {} (`ports: {{ \"{first}\": {{ breakout: {} }} }}`, then `{first}:1`..`{first}:{n}`)",
                modes.join(", "),
                mode.as_str()
            ));
        }
        groups.push(r);
    }
    let mut out = format!(
        "{}this model's ports are {}",
        named.map_or_else(
            || spelling(model, asked, split),
            |n| format!(
                "democ's {} config calls `{}` `{}`: write `{}` (democ names ports `unit/N`, subports `unit/N:k`); ",
                n.os, n.canonical, n.name, n.canonical
            )
        ),
        groups.join(" and ")
    );
    for b in breakouts {
        out.push_str("; ");
        out.push_str(&b);
    }
    out
}

/// The accepted spelling of what was probably meant, when it can be told.
fn spelling(model: &SwitchModel, asked: &str, split: &[&str]) -> String {
    let group = |name: &str| {
        model
            .ports
            .iter()
            .find(|g| g.names.expand().iter().any(|n| n == name))
    };
    let exists = |name: &str| group(name).is_some();
    // `49`, `Ethernet49`, `ethernet1/1/49`, `xe-1/1/49`: the vendor's or a bare number.
    let digits: String = asked
        .rsplit(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap_or_default()
        .to_owned();
    let (base, sub) = match asked.split_once(':') {
        Some((b, s)) => (b, Some(s)),
        None => (asked, None),
    };
    if let Some(k) = sub {
        let breaks = group(base).is_some_and(|g| g.breakout.iter().flatten().next().is_some());
        if exists(base) && !breaks {
            return format!("`{base}` cannot break out, so it has no `{base}:{k}`; ");
        }
        if breaks && !split.contains(&base) {
            return format!(
                "`{base}` is not broken out: give it `ports: {{ \"{base}\": {{ breakout: ... }} }}` to use `{base}:{k}`; "
            );
        }
    }
    if split.contains(&asked) {
        return format!("`{asked}` is broken out: cable its subports `{asked}:1`..; ");
    }
    let canonical = format!("1/{digits}");
    if !digits.is_empty() && asked != canonical && sub.is_none() && exists(&canonical) {
        return format!("write `{canonical}` (democ names ports `unit/N`, subports `unit/N:k`); ");
    }
    "democ names ports `unit/N`, subports `unit/N:k`; ".to_owned()
}

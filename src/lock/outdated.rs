//! `--locked`: the lock must already hold exactly what this compilation allocated (for
//! CI: a show whose committed lock is stale would renumber on the next build). One
//! E0132 lists what would change, located at the first change.

use std::collections::BTreeMap;
use std::fmt::Display;

use super::AddressLock;
use crate::diag::{Diagnostic, codes, plural};
use crate::source::Span;
use crate::yaml::decode::Located;

/// Changes listed one per note; the rest are counted.
const LISTED: usize = 12;

#[derive(Default)]
struct Changes {
    added: usize,
    dropped: usize,
    moved: usize,
    /// (where, what) in section and key order.
    lines: Vec<(Span, String)>,
}

impl Changes {
    fn section<T: PartialEq + Clone>(
        &mut self,
        old: &BTreeMap<String, Located<T>>,
        next: &BTreeMap<String, Located<T>>,
        show: impl Fn(&T) -> String,
    ) {
        for (k, o) in old {
            match next.get(k) {
                None => {
                    self.dropped += 1;
                    let line = format!("`{k}`: {} would be dropped", show(&o.value));
                    self.lines.push((o.span, line));
                }
                Some(n) if n.value != o.value => {
                    self.moved += 1;
                    let line = format!(
                        "`{k}`: would move from {} to {}",
                        show(&o.value),
                        show(&n.value)
                    );
                    self.lines.push((o.span, line));
                }
                Some(_) => {}
            }
        }
        for (k, n) in next.iter().filter(|(k, _)| !old.contains_key(*k)) {
            self.added += 1;
            let line = format!("`{k}`: {} would be added", show(&n.value));
            self.lines.push((n.span, line));
        }
    }
}

fn one<T: Display>(a: &T) -> String {
    a.to_string()
}

/// E0132 when `next` differs from the lock as read (`old`, None: no file).
pub(crate) fn check(
    old: Option<&AddressLock>,
    next: &AddressLock,
    path: &str,
) -> Option<Diagnostic> {
    let empty = AddressLock::default();
    let mut c = Changes::default();
    let o = old.unwrap_or(&empty);
    c.section(&o.hosts, &next.hosts, one);
    c.section(&o.links, &next.links, |p: &[std::net::Ipv4Addr; 2]| {
        format!("[{}, {}]", p[0], p[1])
    });
    c.section(&o.switches, &next.switches, one);
    c.section(&o.lab, &next.lab, one);
    let (at, _) = c.lines.first()?;
    let what = [
        (c.added, "added"),
        (c.dropped, "dropped"),
        (c.moved, "moved"),
    ]
    .into_iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, w)| format!("{} {w}", plural(n, "address")))
    .collect::<Vec<_>>()
    .join(", ");
    let message = match old {
        None => format!("`{path}` does not exist and `--locked` forbids writing it ({what})"),
        Some(_) => format!("`{path}` is out of date and `--locked` forbids changing it ({what})"),
    };
    let mut d = Diagnostic::new(codes::LOCK_OUTDATED, *at, message)
        .label("the first change")
        .help(format!(
            "build without `--locked` and commit the `{path}` it writes"
        ));
    for (_, line) in c.lines.iter().take(LISTED) {
        d = d.note(line.clone());
    }
    if c.lines.len() > LISTED {
        d = d.note(format!("and {} more", c.lines.len() - LISTED));
    }
    Some(d)
}

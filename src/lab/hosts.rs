//! The lab hosts a split lab is spread over: `--lab-hosts a=10.0.0.1,b=10.0.0.2` on the
//! command line, or a file with one `NAME,ADDRESS` (or `NAME=ADDRESS`) per line. Every
//! bad entry is a located E0701 with a help line, all of them reported at once.

use std::collections::HashMap;
use std::net::IpAddr;

use crate::diag::{Diagnostic, Diags, codes};
use crate::source::{FileId, Span};

/// One machine of a split lab.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LabHost {
    pub(crate) name: String,
    /// Its underlay address: where the other hosts send their VXLAN packets.
    pub(crate) address: IpAddr,
}

/// The longest host name: it becomes part of container names.
const NAME_MAX: usize = 20;

fn name_ok(n: &str) -> bool {
    !n.is_empty()
        && n.len() <= NAME_MAX
        && n.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
        && n.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// The entries of `text` (file `file` in the session's sources) with their byte offsets:
/// lines of a file, comma-separated pairs of a command-line value.
fn entries(text: &str, lines: bool) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let sep = if lines { '\n' } else { ',' };
    let mut at = 0;
    for piece in text.split(sep) {
        let body = if lines {
            piece.split('#').next().unwrap_or_default()
        } else {
            piece
        };
        let trimmed = body.trim();
        if !trimmed.is_empty() {
            let lead = body.len() - body.trim_start().len();
            out.push((at + lead, trimmed));
        }
        at += piece.len() + 1;
    }
    out
}

/// The hosts `text` names (a file when `lines`), or the diagnostics that refuse it.
pub(crate) fn parse(text: &str, file: FileId, lines: bool) -> Result<Vec<LabHost>, Diags> {
    let mut diags = Diags::default();
    let mut hosts: Vec<LabHost> = Vec::new();
    let mut names: HashMap<String, Span> = HashMap::new();
    let mut addresses: HashMap<IpAddr, Span> = HashMap::new();
    let form = if lines {
        "`NAME,ADDRESS` or `NAME=ADDRESS`, one a line"
    } else {
        "`NAME=ADDRESS`, pairs separated by commas"
    };
    let seps: &[char] = if lines { &['=', ','] } else { &['='] };
    for (at, entry) in entries(text, lines) {
        let whole = Span::new(file, at, at + entry.len());
        let Some(cut) = entry.find(seps) else {
            diags.push(
                Diagnostic::new(
                    codes::LAB_HOSTS,
                    whole,
                    format!("`{entry}` is not a lab host: no address"),
                )
                .label("a host needs a name and an address")
                .help(format!("write {form}: `a=10.0.0.1`")),
            );
            continue;
        };
        let (name, address) = (entry[..cut].trim(), entry[cut + 1..].trim());
        let name_at = Span::new(file, at, at + entry[..cut].trim_end().len());
        let addr_start =
            at + cut + 1 + (entry[cut + 1..].len() - entry[cut + 1..].trim_start().len());
        let addr_at = Span::new(file, addr_start, addr_start + address.len());
        let mut ok = true;
        if !name_ok(name) {
            ok = false;
            diags.push(
                Diagnostic::new(
                    codes::LAB_HOSTS,
                    name_at,
                    format!("`{name}` is not a lab host name"),
                )
                .label("lowercase letters, digits and `-`")
                .help(format!(
                    "name a host with lowercase letters, digits and `-`, starting with a letter or digit, at most {NAME_MAX} characters (it becomes part of container names)"
                )),
            );
        }
        let parsed: Option<IpAddr> = address.parse().ok();
        if parsed.is_none() {
            ok = false;
            diags.push(
                Diagnostic::new(
                    codes::LAB_HOSTS,
                    addr_at,
                    format!("`{address}` is not an IP address"),
                )
                .label("the host's underlay address")
                .help("give the address the other lab hosts reach this one at (`10.0.0.2`, `2001:db8::2`): their VXLAN packets are sent there"),
            );
        }
        if let Some(first) = names.get(name) {
            ok = false;
            diags.push(
                Diagnostic::new(
                    codes::LAB_HOSTS,
                    name_at,
                    format!("lab host `{name}` is named twice"),
                )
                .label("again here")
                .also(*first, "first here")
                .help("give each lab host its own name"),
            );
        }
        if let Some(a) = parsed
            && let Some(first) = addresses.get(&a)
        {
            ok = false;
            diags.push(
                Diagnostic::new(
                    codes::LAB_HOSTS,
                    addr_at,
                    format!("address {a} is given to two lab hosts"),
                )
                .label("again here")
                .also(*first, "first here")
                .help("each lab host is a machine of its own with its own underlay address; to try a split on one machine, `democ lab up --side-by-side` gives every part its own network namespace"),
            );
        }
        names.entry(name.to_owned()).or_insert(name_at);
        if let Some(a) = parsed {
            addresses.entry(a).or_insert(addr_at);
        }
        if ok && let Some(address) = parsed {
            hosts.push(LabHost {
                name: name.to_owned(),
                address,
            });
        }
    }
    if !diags.has_errors() && hosts.len() < 2 {
        diags.push(
            Diagnostic::new(
                codes::LAB_HOSTS,
                Span::new(file, 0, text.trim_end().len()),
                format!(
                    "{} lab host: nothing to split",
                    if hosts.is_empty() { "no" } else { "one" }
                ),
            )
            .label("the hosts")
            .help(format!(
                "name at least two lab hosts ({form}), or deploy the lab on one machine with `democ lab up`"
            )),
        );
    }
    if diags.has_errors() {
        Err(diags)
    } else {
        Ok(hosts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Sources;

    fn run(text: &str, lines: bool) -> Result<Vec<LabHost>, Vec<String>> {
        let mut s = Sources::default();
        let f = s.add("--lab-hosts", text.to_owned());
        parse(text, f, lines).map_err(|d| {
            d.items()
                .iter()
                .map(|d| {
                    let sp = d.primary.span;
                    format!("{}@{}..{}", d.code.id, sp.start, sp.end)
                })
                .collect()
        })
    }

    #[test]
    fn pairs_on_the_command_line_and_lines_of_a_file() {
        let h = run("a=10.0.0.1, b=10.0.0.2", false).unwrap();
        assert_eq!(h.len(), 2);
        assert_eq!(h[1].name, "b");
        assert_eq!(h[1].address.to_string(), "10.0.0.2");
        let h = run(
            "# lab machines\nhall-a,10.1.0.1\nhall-b = 2001:db8::2 # v6\n",
            true,
        )
        .unwrap();
        assert_eq!(h[0].name, "hall-a");
        assert_eq!(h[1].address.to_string(), "2001:db8::2");
    }

    #[test]
    fn every_bad_entry_is_located() {
        let e = run("a=10.0.0.1,B=10.0.0.2,c=10.0.0.1,d=x,e", false).unwrap_err();
        assert_eq!(
            e,
            [
                "E0701@11..12",
                "E0701@24..32",
                "E0701@35..36",
                "E0701@37..38"
            ]
        );
        assert_eq!(run("a=10.0.0.1", false).unwrap_err(), ["E0701@0..10"]);
        assert_eq!(
            run("a=10.0.0.1,a=10.0.0.2", false).unwrap_err(),
            ["E0701@11..12"]
        );
    }
}

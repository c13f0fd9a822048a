//! Names, name ranges (`cit-dtn-[1-10]`) and link endpoints (`switch:port`).
//! Names reach device configs and shell scripts, so their alphabet is fixed here, at
//! parse time: letters, digits, `-`, `_`, `.`; ports may also hold `/` and `:`.

use super::error::RangeMismatch;
use crate::diag::{Diagnostic, codes};
use crate::source::Span;
use crate::yaml::decode::{Decode, DecodeContext, Located};
use crate::yaml::node::Node;

/// Largest number of names one range may expand to.
pub(crate) const MAX_RANGE: u64 = 100_000;
/// The most hosts a show may declare, ranges expanded: ten times the largest show democ
/// is measured on (10,000 DTNs). Without it a few-kilobyte spec of ranges could ask for
/// millions of hosts and exhaust memory before any check ran.
pub(crate) const MAX_HOSTS: usize = 100_000;
/// The most host pairs all flows may make together (a flow from one host to a range
/// makes a pair per host): ten times the largest measured show's 100,000.
pub(crate) const MAX_PAIRS: usize = 1_000_000;
pub(crate) const MAX_NAME_LEN: usize = 63;

/// Why a name is not acceptable, or None.
pub(crate) fn name_problem(name: &str, port: bool) -> Option<String> {
    // A name holds ASCII letters, digits, `-`, `_` and `.`, a port's also `/` and `:`.
    // Tested byte by byte (a large show checks a few hundred thousand names, nearly all
    // fine); characters are decoded only to name the one at fault.
    let allowed = |b: u8| {
        b.is_ascii_alphanumeric()
            || matches!(b, b'-' | b'_' | b'.')
            || (port && matches!(b, b'/' | b':'))
    };
    if name.is_empty() {
        return Some("a name cannot be empty".into());
    }
    if name.len() > MAX_NAME_LEN {
        return Some(format!(
            "a name has at most {MAX_NAME_LEN} characters, this one has {}",
            name.len()
        ));
    }
    if !name.as_bytes()[0].is_ascii_alphanumeric() {
        let first = name.chars().next().unwrap_or(' ');
        return Some(format!(
            "a name must start with a letter or digit, not `{}`",
            first.escape_debug()
        ));
    }
    // Every byte before the first one refused is ASCII, so it starts a character.
    if let Some(at) = name.bytes().position(|b| !allowed(b)) {
        let bad = name[at..].chars().next().unwrap_or(' ');
        return Some(format!("`{}` is not allowed in a name", bad.escape_debug()));
    }
    None
}

/// The shell variable that holds a host port's kernel interface name in the host
/// scripts: `IF_` and the port name with every character a variable cannot hold as `_`
/// (`p-0` -> `IF_p_0`). Readable but not injective (`p-0` and `p.0` meet), so resolve
/// refuses two ports of one host with the same variable.
pub(crate) fn port_shell_var(port: &str) -> String {
    // Written straight into one string of the right size: every host port of a show
    // has one (ten thousand on the largest synth show).
    let mut var = String::with_capacity(3 + port.len());
    var.push_str("IF_");
    var.extend(
        port.chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }),
    );
    var
}

fn bad_name(cx: &mut DecodeContext, span: Span, problem: String, port: bool) {
    let alphabet = if port {
        "letters, digits, `-`, `_`, `.`, `/` and `:`"
    } else {
        "letters, digits, `-`, `_` and `.`"
    };
    cx.error(
        Diagnostic::new(codes::BAD_NAME, span, problem)
            .label("invalid name")
            .help(format!(
                "use only {alphabet}, starting with a letter or digit"
            )),
    );
}

/// Checks a declared name (a key of `switches:` and the like).
pub(crate) fn check_name(cx: &mut DecodeContext, name: &Located<String>) -> bool {
    match name_problem(name, false) {
        Some(p) => {
            bad_name(cx, name.span, p, false);
            false
        }
        None => true,
    }
}

/// A name that may hold one numeric range: `dtn-[1-10]`, `1/[21-30]`, `dtn-[01-16]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    pub(crate) prefix: String,
    pub(crate) range: Option<(u64, u64, usize)>,
    pub(crate) suffix: String,
}

impl Pattern {
    /// How many names the pattern expands to, without expanding it.
    pub(crate) fn count(&self) -> usize {
        self.range.map_or(1, |(a, b, _)| {
            usize::try_from(b - a + 1).unwrap_or(usize::MAX)
        })
    }

    pub(crate) fn expand(&self) -> Vec<String> {
        match self.range {
            None => vec![self.prefix.clone()],
            Some((a, b, width)) => (a..=b)
                .map(|i| numbered(&self.prefix, i, width, &self.suffix))
                .collect(),
        }
    }
}

/// Name `i` of a range: the number zero-padded to `width` digits.
fn numbered(prefix: &str, i: u64, width: usize, suffix: &str) -> String {
    format!("{prefix}{i:0width$}{suffix}")
}

impl std::fmt::Display for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self.range {
            None => f.write_str(&self.prefix),
            Some((a, b, w)) => write!(f, "{}[{a:0w$}-{b:0w$}]{}", self.prefix, self.suffix),
        }
    }
}

const RANGE_HELP: &str =
    "write a range as `name-[1-10]`: one pair of brackets holding two whole numbers";

/// Parses `prefix[a-b]suffix` (or a plain name); the error is the message.
pub(crate) fn parse_pattern(text: &str, port: bool) -> Result<Pattern, (String, String)> {
    // Written out only for an error: a plain name (most of a show's) allocates nothing here.
    let help = || RANGE_HELP.to_owned();
    let Some(open) = text.find('[') else {
        return match name_problem(text, port) {
            Some(p) => Err((p, String::new())),
            None => Ok(Pattern {
                prefix: text.into(),
                range: None,
                suffix: String::new(),
            }),
        };
    };
    let close = text[open..]
        .find(']')
        .map(|i| open + i)
        .ok_or_else(|| ("unclosed `[` in a name range".to_owned(), help()))?;
    let (prefix, inner, suffix) = (&text[..open], &text[open + 1..close], &text[close + 1..]);
    let (a, b) = inner
        .split_once('-')
        .ok_or_else(|| ("a range needs two numbers: `[1-10]`".to_owned(), help()))?;
    if a.is_empty() || b.starts_with('-') {
        return Err((
            format!("the range `[{inner}]` holds a negative number or misses one"),
            "ranges count whole numbers from 0 up: `[0-10]`".into(),
        ));
    }
    let width = if a.starts_with('0') && a.len() > 1 {
        a.len()
    } else {
        0
    };
    let parse = |s: &str| match s.parse::<u64>() {
        Ok(n) => Ok(n),
        Err(_) if !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit()) => Err((
            format!("`{s}` is too large for a name range"),
            format!("a range holds at most {MAX_RANGE} names; use smaller numbers"),
        )),
        Err(_) if s.is_empty() => Err((
            format!("the range `[{inner}]` misses its second number"),
            help(),
        )),
        Err(_) => Err((format!("`{s}` is not a whole number"), help())),
    };
    let (lo, hi) = (parse(a)?, parse(b)?);
    if lo > hi {
        return Err((
            format!("the range `[{a}-{b}]` runs backwards"),
            "write the smaller number first".into(),
        ));
    }
    // `hi - lo + 1` overflows for `[0-18446744073709551615]`: compare the difference.
    if hi - lo >= MAX_RANGE {
        let count = u128::from(hi - lo) + 1;
        return Err((
            format!(
                "the range `[{a}-{b}]` expands to {count} names, above the limit of {MAX_RANGE}"
            ),
            "split the declaration or use a smaller range".into(),
        ));
    }
    let sample = format!("{prefix}{hi}{suffix}");
    if suffix.contains('[') {
        return Err(("only one range is allowed in a name".into(), help()));
    }
    if let Some(p) = name_problem(&sample, port) {
        return Err((p, String::new()));
    }
    Ok(Pattern {
        prefix: prefix.into(),
        range: Some((lo, hi, width)),
        suffix: suffix.into(),
    })
}

fn decode_pattern(node: &Node, cx: &mut DecodeContext, port: bool) -> Option<Pattern> {
    let text = crate::yaml::decode::text(node, cx)?;
    match parse_pattern(&text, port) {
        Ok(p) => Some(p),
        Err((msg, help)) => {
            let too_big = msg.contains("above the limit");
            if help.is_empty() {
                bad_name(cx, node.span, msg, port);
            } else {
                let code = if too_big {
                    codes::LIMIT
                } else {
                    codes::INVALID_VALUE
                };
                cx.error(
                    Diagnostic::new(code, node.span, msg)
                        .label("in this name")
                        .help(help),
                );
            }
            None
        }
    }
}

impl Decode for Pattern {
    fn decode(node: &Node, cx: &mut DecodeContext) -> Option<Pattern> {
        decode_pattern(node, cx, false)
    }
}

impl schemars::JsonSchema for Pattern {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "NamePattern".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]*(\\[[0-9]+-[0-9]+\\][A-Za-z0-9._-]*)?$",
            "description": "a name, optionally with one numeric range: dtn-[1-10]"
        })
    }
}

/// `node:port`, either side may hold a range: `sl-dtn-[1-4]:p0`, `sw1:1/[21-30]`.
#[derive(Clone, Debug)]
pub struct Endpoint {
    pub(crate) node: Pattern,
    pub(crate) port: Pattern,
    /// Where the node name and the port name are written, for diagnostics about one of them.
    pub(crate) node_span: Span,
    pub(crate) port_span: Span,
}

/// Spans of the node and port parts of an endpoint scalar written at `span`. A quoted
/// scalar's span holds its quotes; names have no escapes, so offsets are plain.
fn part_spans(span: Span, text: &str, colon: usize) -> (Span, Span) {
    let (start, end) = (span.start as usize, span.end as usize);
    let quoted = end - start == text.len() + 2;
    let first = if quoted { start + 1 } else { start };
    if end - first < text.len() {
        return (span, span);
    }
    let node = Span::new(span.file, first, first + colon);
    let port = Span::new(span.file, first + colon + 1, first + text.len());
    (node, port)
}

impl Endpoint {
    /// The (node, port) pairs this endpoint names, zipped when both sides are ranges.
    pub(crate) fn expand(&self) -> Result<Vec<(String, String)>, RangeMismatch> {
        let nodes = self.node.expand();
        let ports = self.port.expand();
        match (nodes.len(), ports.len()) {
            (1, _) => Ok(ports.into_iter().map(|p| (nodes[0].clone(), p)).collect()),
            (_, 1) => Ok(nodes.into_iter().map(|n| (n, ports[0].clone())).collect()),
            (a, b) if a == b => Ok(nodes.into_iter().zip(ports).collect()),
            (nodes, ports) => Err(RangeMismatch { nodes, ports }),
        }
    }
}

impl std::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{}:{}", self.node, self.port)
    }
}

impl Decode for Endpoint {
    fn decode(node: &Node, cx: &mut DecodeContext) -> Option<Endpoint> {
        let text = crate::yaml::decode::text(node, cx)?;
        let Some((n, p)) = text.split_once(':') else {
            cx.invalid(
                node.span,
                format!("`{text}` is not an endpoint"),
                "write an endpoint as `node:port`, for example `cit-z9100-1:1/1`",
            );
            return None;
        };
        let sub = |s: &str, port: bool, cx: &mut DecodeContext| -> Option<Pattern> {
            match parse_pattern(s, port) {
                Ok(p) => Some(p),
                Err((msg, help)) => {
                    if help.is_empty() {
                        bad_name(cx, node.span, msg, port);
                    } else {
                        let code = if msg.contains("above the limit") {
                            codes::LIMIT
                        } else {
                            codes::INVALID_VALUE
                        };
                        cx.error(
                            Diagnostic::new(code, node.span, msg)
                                .label("in this endpoint")
                                .help(help),
                        );
                    }
                    None
                }
            }
        };
        let node_p = sub(n, false, cx);
        let port_p = sub(p, true, cx);
        let (node_span, port_span) = part_spans(node.span, &text, n.len());
        let ep = Endpoint {
            node: node_p?,
            port: port_p?,
            node_span,
            port_span,
        };
        if let Err(msg) = ep.expand() {
            cx.invalid(
                node.span,
                msg.to_string(),
                "give both ranges the same number of items, or use a single node or port",
            );
            return None;
        }
        Some(ep)
    }
}

impl schemars::JsonSchema for Endpoint {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Endpoint".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^[^:]+:.+$",
            "description": "node:port, for example cit-z9100-1:1/1 or sl-dtn-[1-4]:p0"
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_names_are_written_as_format_writes_them() {
        for i in [0, 1, 9, 10, 99, 100, 12345, u64::MAX] {
            for width in [0, 1, 2, 3, 5, 25] {
                assert_eq!(numbered("a-", i, width, "/x"), format!("a-{i:0width$}/x"));
            }
        }
    }

    /// The byte-wise test reports what a character-wise reading of the rule reports.
    #[test]
    fn name_problems_are_the_rules() {
        fn by_chars(name: &str, port: bool) -> Option<String> {
            let extra: &[char] = if port {
                &['-', '_', '.', '/', ':']
            } else {
                &['-', '_', '.']
            };
            let first = name.chars().next()?;
            if name.len() > MAX_NAME_LEN {
                return Some("long".into());
            }
            if !first.is_ascii_alphanumeric() {
                return Some(format!(
                    "a name must start with a letter or digit, not `{}`",
                    first.escape_debug()
                ));
            }
            let bad = name
                .chars()
                .find(|c| !(c.is_ascii_alphanumeric() || extra.contains(c)))?;
            Some(format!("`{}` is not allowed in a name", bad.escape_debug()))
        }
        let names = [
            "a",
            "dtn-01",
            "sw_1.a",
            "1/17",
            "1/17:2",
            "Eth1/2",
            "-a",
            ".a",
            "/1",
            "a b",
            "a\tb",
            "\u{e9}t\u{e9}",
            "a\u{e9}",
            "a\u{1f600}b",
            "caf\u{e9}-1",
            "a/b:c.d-e_f",
            "\u{0}",
            "a\u{7f}",
            "A9z",
        ];
        for name in names {
            for port in [false, true] {
                assert_eq!(
                    name_problem(name, port),
                    by_chars(name, port),
                    "{name:?} {port}"
                );
            }
        }
        assert!(name_problem("", false).is_some());
        let long = "a".repeat(MAX_NAME_LEN + 1);
        assert!(name_problem(&long, false).is_some_and(|p| p.contains("at most")));
        assert_eq!(name_problem(&long[1..], false), None);
    }

    #[test]
    fn port_shell_vars_keep_letters_and_digits() {
        assert_eq!(port_shell_var("p-0"), "IF_p_0");
        assert_eq!(port_shell_var("Eth1/2.3:x"), "IF_Eth1_2_3_x");
        assert_eq!(port_shell_var("\u{e9}1"), "IF__1");
    }

    #[test]
    fn ranges_expand() {
        let p = parse_pattern("dtn-[01-03]", false).unwrap();
        assert_eq!(p.expand(), ["dtn-01", "dtn-02", "dtn-03"]);
        let p = parse_pattern("1/[21-23]", true).unwrap();
        assert_eq!(p.expand(), ["1/21", "1/22", "1/23"]);
        assert!(parse_pattern("dtn-[1-1000000000]", false).is_err());
        assert!(parse_pattern("dtn-[5-1]", false).is_err());
        assert!(parse_pattern("bad name", false).is_err());
        assert!(parse_pattern("evil;reboot", false).is_err());
    }

    /// Issue 14: `[0-18446744073709551615]` overflowed the size computation and then
    /// panicked with a capacity overflow; `[-1-2]` said "`` is not a whole number".
    #[test]
    fn extreme_ranges_are_refused_with_a_reason() {
        let msg = |t: &str, port| parse_pattern(t, port).map(|_| ()).unwrap_err().0;
        let m = msg("dtn-[0-18446744073709551615]", false);
        assert!(m.contains("18446744073709551616 names"), "{m}");
        let m = msg("1/[0-18446744073709551615]", true);
        assert!(m.contains("above the limit"), "{m}");
        let m = msg("dtn-[1-99999999999999999999999]", false);
        assert!(m.contains("too large"), "{m}");
        let m = msg("dtn-[-1-2]", false);
        assert!(m.contains("negative"), "{m}");
        let m = msg("dtn-[1--2]", false);
        assert!(m.contains("negative"), "{m}");
        let m = msg("dtn-[1-]", false);
        assert!(m.contains("second number"), "{m}");
        let p = parse_pattern("d[18446744073709551614-18446744073709551615]", false).unwrap();
        assert_eq!(p.expand().len(), 2);
    }
}

/// A port name that may hold one numeric range: `1/[1-32]`. Ports may also use `/` and `:`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortPattern(pub(crate) Pattern);

impl std::ops::Deref for PortPattern {
    type Target = Pattern;
    fn deref(&self) -> &Pattern {
        &self.0
    }
}

impl Decode for PortPattern {
    fn decode(node: &Node, cx: &mut DecodeContext) -> Option<PortPattern> {
        decode_pattern(node, cx, true).map(PortPattern)
    }
}

impl schemars::JsonSchema for PortPattern {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "PortPattern".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^[A-Za-z0-9][A-Za-z0-9._/:-]*(\\[[0-9]+-[0-9]+\\][A-Za-z0-9._/:-]*)?$",
            "description": "a port name, optionally with one numeric range: 1/[1-32]"
        })
    }
}

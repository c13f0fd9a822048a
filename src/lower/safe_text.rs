//! Free text (descriptions) made safe for a CLI line. Names are restricted at parse
//! time; descriptions are not, so every one passes through here: control characters
//! (a newline above all) never reach a config, whatever the vendor.

use crate::vendor::TextRules;

/// One safe line: printable ASCII only (control characters and line separators become
/// spaces, other characters `_`), whitespace collapsed, the vendor's replacements
/// applied (quotes, `?`), cut to the vendor's length. None when nothing is left.
pub(crate) fn sanitize(text: &str, rules: &TextRules) -> Option<String> {
    // The one-character keys, taken out of the map once rather than for every character.
    let swaps: Vec<(char, &str)> = rules
        .replace
        .iter()
        .filter_map(|(k, r)| {
            let mut chars = k.chars();
            let c = chars.next()?;
            chars.next().is_none().then_some((c, r.as_str()))
        })
        .collect();
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let c = if c.is_control() || c.is_whitespace() {
            ' '
        } else if c.is_ascii() {
            c
        } else {
            '_'
        };
        if c == ' ' && (out.is_empty() || out.ends_with(' ')) {
            continue;
        }
        match swaps.iter().find(|(k, _)| *k == c) {
            Some((_, r)) => out.push_str(r),
            None => out.push(c),
        }
    }
    // Cut at the `max_len`th character by index, then copied once (collecting the
    // characters one by one and copying again was a third of this function).
    let kept = out.trim();
    let end = kept
        .char_indices()
        .nth(rules.max_len)
        .map_or(kept.len(), |(i, _)| i);
    let trimmed = kept[..end].trim_end();
    (!trimmed.is_empty()).then(|| trimmed.to_owned())
}

/// Text that should be a name but is not checked at parse time (the show's name,
/// catalog model keys): letters, digits, `-`, `_`, `.` kept, anything else `_`.
pub(crate) fn name_like(text: &str) -> String {
    let out: String = text
        .chars()
        .take(63)
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() { "_".into() } else { out }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> TextRules {
        TextRules {
            max_len: 20,
            replace: [
                ("\"".to_owned(), "'".to_owned()),
                ("?".to_owned(), String::new()),
            ]
            .into(),
        }
    }

    #[test]
    fn newlines_and_controls_never_survive() {
        let r = rules();
        assert_eq!(sanitize("x\nreload", &r).as_deref(), Some("x reload"));
        assert_eq!(
            sanitize("a\r\n\tb\u{2028}c\u{85}d\u{1b}[2J", &r).as_deref(),
            Some("a b c d [2J")
        );
        assert_eq!(sanitize("say \"hi\"?", &r).as_deref(), Some("say 'hi'"));
        assert_eq!(
            sanitize("booth – 2437", &r).as_deref(),
            Some("booth _ 2437")
        );
        assert_eq!(sanitize(" \n ", &r), None);
        assert_eq!(
            sanitize("0123456789 0123456789 x", &r).as_deref(),
            Some("0123456789 012345678")
        );
    }
}

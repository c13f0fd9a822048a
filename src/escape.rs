//! Text from a spec made safe to print: on a terminal (control characters shown as
//! visible symbols, so that a show name cannot clear the screen, set the window title or
//! overwrite a line) and in Markdown (a show name cannot open a header or a link).

use std::borrow::Cow;

/// Characters a terminal acts on instead of showing: C0 and C1 controls and DEL, and
/// the bidirectional overrides that reorder what is shown ("Trojan source").
fn acts(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The visible stand-in: a C0 control's Unicode control picture (`␛` for ESC), `␡` for
/// DEL, `�` for the rest. One character for one, so columns stay where they were.
pub(crate) fn visible(c: char) -> char {
    match u32::from(c) {
        n @ 0..=0x1F => char::from_u32(0x2400 + n).unwrap_or('\u{FFFD}'),
        0x7F => '\u{2421}',
        _ => '\u{FFFD}',
    }
}

fn replace<'a>(s: &'a str, keep: &[char]) -> Cow<'a, str> {
    let unsafe_char = |c: char| acts(c) && !keep.contains(&c);
    if !s.chars().any(unsafe_char) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.chars()
            .map(|c| if unsafe_char(c) { visible(c) } else { c })
            .collect(),
    )
}

/// One line for a terminal: every control character but tab made visible (a newline
/// too, so that spec text cannot start a line of its own).
pub(crate) fn line(s: &str) -> Cow<'_, str> {
    replace(s, &['\t'])
}

/// Several lines for a terminal: as [`line`], newlines kept.
pub(crate) fn lines(s: &str) -> Cow<'_, str> {
    replace(s, &['\t', '\n'])
}

/// Spec text inside a Markdown document: control characters made visible (no new line,
/// hence no header) and the punctuation that opens emphasis, code, links, HTML or table
/// cells backslash-escaped.
pub(crate) fn markdown(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in line(s).chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '&' | '#' | '!'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Spec text inside HTML (element content and quoted attribute values): `&`, `<`, `>`,
/// both quotes escaped, control characters made visible. Nothing the spec says can open a
/// tag, close an attribute or start a script.
pub(crate) fn html(s: &str) -> String {
    // Most text needs nothing (printable ASCII but the five): copied whole, not a
    // character at a time (a report at 100,000 flows escapes some 200,000 texts).
    let plain =
        |b: &u8| (0x20..0x7f).contains(b) && !matches!(b, b'&' | b'<' | b'>' | b'"' | b'\'');
    if s.as_bytes().iter().all(plain) {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len());
    for c in line(s).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_cannot_open_a_tag_or_close_an_attribute() {
        assert_eq!(
            html("<script>x</script>\" onload='y' &"),
            "&lt;script&gt;x&lt;/script&gt;&quot; onload=&#39;y&#39; &amp;"
        );
        // Plain text comes back as it is; a control character or a bidirectional
        // override anywhere still turns the slow way.
        assert_eq!(html("sw-1:1/2 to sw-2 ~"), "sw-1:1/2 to sw-2 ~");
        assert_eq!(html("a\u{7f}b\u{202E}c"), "a\u{2421}b\u{FFFD}c");
    }

    #[test]
    fn controls_become_visible_one_for_one() {
        assert_eq!(line("a\u{1b}]0;x\u{7}b"), "a\u{241b}]0;x\u{2407}b");
        assert_eq!(line("a\nb\tc\r"), "a\u{240a}b\tc\u{240d}");
        assert_eq!(lines("a\nb\u{9b}c\u{202e}"), "a\nb\u{fffd}c\u{fffd}");
        assert!(matches!(line("plain-name_1"), Cow::Borrowed(_)));
    }

    #[test]
    fn markdown_cannot_open_a_header_or_a_link() {
        assert_eq!(
            markdown("x\n# Pwned [a](http://e) `c` <b>|"),
            "x\u{240a}\\# Pwned \\[a\\](http://e) \\`c\\` \\<b\\>\\|"
        );
        assert_eq!(markdown("cit-dtn-1"), "cit-dtn-1");
    }
}

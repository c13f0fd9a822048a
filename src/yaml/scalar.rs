//! The reading of a plain (unquoted) scalar when it has exactly one: YAML 1.2 and the
//! YAML 1.1 spellings users still write (`yes`, `off`, `012`) disagree on many words, so
//! anything a YAML reader could take for a number, boolean or null is left to
//! serde-saphyr, which decides it (and says so in its errors).

use super::node::Kind;

/// The reading of a plain scalar, or None when it is not obvious.
pub(crate) fn plain(text: &str) -> Option<Kind> {
    match reading(text)? {
        Reading::Text => Some(Kind::Str(text.into())),
        Reading::Value(kind) => Some(kind),
    }
}

/// What [`reading`] finds: text (left uncopied, so that the fast reader's counting pass
/// can check a scalar without allocating) or a boolean or number.
pub(crate) enum Reading {
    Text,
    Value(Kind),
}

/// As [`plain`], without copying a text's characters.
pub(crate) fn reading(text: &str) -> Option<Reading> {
    match text {
        "true" => return Some(Reading::Value(Kind::Bool(true))),
        "false" => return Some(Reading::Value(Kind::Bool(false))),
        "" | "~" => return None,
        _ => {}
    }
    let bytes = text.as_bytes();
    // A word starting with a letter (most names and keywords) is no number: it is text
    // unless it is a YAML 1.1 boolean or null spelling. Decided here in one look, before
    // the number scans below (which would all fail on it).
    if bytes.first().is_some_and(u8::is_ascii_alphabetic) {
        return (!special_word(text)).then_some(Reading::Text);
    }
    let digits = |b: &[u8]| !b.is_empty() && b.iter().all(u8::is_ascii_digit);
    let (neg, body) = match bytes.first() {
        Some(b'-') => (true, &bytes[1..]),
        _ => (false, bytes),
    };
    // Leading zeros, signs, exponents, hex or octal: let serde-saphyr decide.
    let no_leading_zero = |b: &[u8]| b.len() == 1 || b.first() != Some(&b'0');
    if digits(body) && no_leading_zero(body) {
        return text
            .parse::<i64>()
            .ok()
            .map(|n| Reading::Value(Kind::Int(n)));
    }
    if let Some(dot) = body.iter().position(|&b| b == b'.') {
        let (int, frac) = (&body[..dot], &body[dot + 1..]);
        if digits(int) && no_leading_zero(int) && digits(frac) {
            return text
                .parse::<f64>()
                .ok()
                .filter(|f| f.is_finite())
                .map(|f| Reading::Value(Kind::Float(f)));
        }
    }
    let _ = neg;
    // Text no YAML number, boolean or null spelling can be: it holds a character none of
    // them uses (a space, `/`, `(`, `,` ...).
    let numberish =
        |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.' | b'_' | b':');
    if !bytes.iter().all(numberish) {
        return Some(Reading::Text);
    }
    // Starting with a digit: still a word when no number syntax (decimal, exponent, hex,
    // octal, binary, sexagesimal, underscores) could read it: a letter none of them uses
    // (`100G`, `4x25G`), or several dots.
    let number_chars = |b: &u8| {
        b.is_ascii_hexdigit()
            || matches!(
                b,
                b'+' | b'-' | b'.' | b'_' | b':' | b'x' | b'X' | b'o' | b'O'
            )
    };
    let dots = bytes.iter().filter(|&&b| b == b'.').count();
    let not_a_number = !bytes.iter().all(number_chars) || dots >= 2;
    (bytes[0].is_ascii_digit() && not_a_number && !bytes.contains(&b'_')).then_some(Reading::Text)
}

/// A YAML 1.1 boolean or null spelling (or `nan`, `inf`), in any case. Compared in place:
/// lowering a copy of every word was a tenth of parsing.
fn special_word(text: &str) -> bool {
    text.len() <= 5
        && [
            "yes", "no", "on", "off", "y", "n", "true", "false", "null", "nan", "inf",
        ]
        .iter()
        .any(|w| text.eq_ignore_ascii_case(w))
}

//! Whole numbers written as decimal text without the formatting machinery: names are
//! numbered by the thousand (every port of every switch, every host of a range), where
//! `format!` cost about three times this.

/// Appends `v` in decimal, zero-padded on the left to at least `width` digits (as
/// `{v:0width$}` writes it).
pub(crate) fn push(out: &mut String, v: u64, width: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut n = v;
    loop {
        at -= 1;
        // `n % 10` is below 10: the cast keeps it whole.
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let digits = &digits[at..];
    out.reserve(width.max(digits.len()));
    out.extend(std::iter::repeat_n('0', width.saturating_sub(digits.len())));
    // ASCII digits only.
    out.extend(digits.iter().map(|&d| char::from(d)));
}

/// How many digits `v` has in decimal.
pub(crate) fn digits(v: u64) -> usize {
    let mut n = 1;
    let mut rest = v / 10;
    while rest > 0 {
        n += 1;
        rest /= 10;
    }
    n
}

#[cfg(test)]
mod tests {
    #[test]
    fn written_as_format_writes_them() {
        for v in [0, 1, 9, 10, 99, 100, 12345, u64::from(u32::MAX), u64::MAX] {
            for width in [0, 1, 2, 5, 25] {
                let mut s = String::from("x");
                super::push(&mut s, v, width);
                assert_eq!(s, format!("x{v:0width$}"));
                assert_eq!(super::digits(v), v.to_string().len());
            }
        }
    }
}

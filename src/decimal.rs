//! Numbers written as decimal text without the formatting machinery: names are
//! numbered by the thousand (every port of every switch, every host of a range), where
//! `format!` cost about three times this; figures to a fixed number of places.

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
    // A char at a time, but by `push`: `extend` with an iterator of chars went through
    // UTF-8 encoding per char, and `push_str` through a UTF-8 check per number, each
    // costing more than the digits (three or four on a port name).
    for _ in digits.len()..width {
        out.push('0');
    }
    for &d in digits {
        out.push(char::from(d));
    }
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

/// `v` with `places` digits after the point, as `{v:.places$}` writes it (no width or
/// other flags). Through the integer formatter when `v` is, but for rounding error far
/// below the last place, a whole number of that place (`100` Gbit/s, `12.5`): std's
/// exact formatter falls back to big-number arithmetic for many such figures, about
/// 10,000 instructions each, a tenth of `check`'s findings on sc16.
pub(crate) fn fixed(v: f64, places: usize) -> Fixed {
    Fixed { v, places }
}

/// See [`fixed`].
pub(crate) struct Fixed {
    v: f64,
    places: usize,
}

impl Fixed {
    /// `v` in units of its last place, when that is whole: the exact product differs
    /// from the rounded one by at most half a unit in its last place, 2^-13 below 2^40,
    /// so rounding `v` to `places` gives that number (no tie is that close).
    fn scaled(&self) -> Option<u64> {
        const POW: [f64; 4] = [1.0, 10.0, 100.0, 1000.0];
        let scale = *POW.get(self.places)?;
        let n = self.v * scale;
        // Positive only: `-0.0` prints as `-0`.
        (self.v.is_sign_positive() && n.fract() == 0.0 && n < (1u64 << 40) as f64)
            .then_some(n as u64)
    }
}

impl std::fmt::Display for Fixed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Some(n) = self.scaled() else {
            return write!(f, "{:.*}", self.places, self.v);
        };
        let mut text = String::with_capacity(24);
        let unit = 10u64.pow(self.places as u32);
        push(&mut text, n / unit, 0);
        if self.places > 0 {
            text.push('.');
            push(&mut text, n % unit, self.places);
        }
        f.write_str(&text)
    }
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

    #[test]
    fn fixed_writes_what_precision_writes() {
        let mut values = vec![
            0.0,
            -0.0,
            0.05,
            0.15,
            0.25,
            0.5,
            1.5,
            2.5,
            12.5,
            99.95,
            100.0,
            1000.0,
            0.1,
            0.3,
            1e-9,
            1e12,
            1e15,
            1e300,
            -1.0,
            -12.5,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MIN_POSITIVE,
            1_099_511_627_776.0,
            4_503_599_627_370_496.5,
        ];
        // Every tenth, hundredth and thousandth near the rates and percentages printed.
        values.extend((0..20_000).map(|i| f64::from(i) / 1000.0));
        values.extend((0..20_000).map(|i| f64::from(i) * 0.1));
        values.extend((0..5_000).map(|i| f64::from(i) / 3.0));
        for v in values {
            for places in 0..=4 {
                assert_eq!(
                    super::fixed(v, places).to_string(),
                    format!("{v:.places$}"),
                    "{v} to {places} places"
                );
            }
        }
    }
}

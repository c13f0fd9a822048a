//! Quantities with units: rates. Accepted: a number, optional space, a prefix
//! (k, M, G, T) and optionally `bps`, `b/s` or `bit/s`: `100G`, `1Tbps`, `25 Gbit/s`.
//! Refused with a hint: bytes (`GB`), bare `b` (`100Gb` reads as bits or bytes
//! depending on who wrote it), and plain numbers without a unit.

use super::error::RateError;
use crate::diag::{Diagnostic, codes};
use crate::yaml::decode::{Decode, DecodeContext};
use crate::yaml::node::{Kind, Node};

/// A data rate in bits per second.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd, Default, serde::Serialize)]
pub struct Rate(pub(crate) f64);

impl Rate {
    pub(crate) fn bps(self) -> f64 {
        self.0
    }
    pub(crate) fn gbps(self) -> f64 {
        self.0 / 1e9
    }
    pub(crate) fn from_gbps(g: f64) -> Rate {
        Rate(g * 1e9)
    }
}

impl std::fmt::Display for Rate {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let g = self.gbps();
        if g >= 1000.0 && (g / 1000.0).fract() == 0.0 {
            write!(f, "{}T", whole(g / 1000.0))
        } else if g >= 1.0 || g == 0.0 {
            let r = (g * 10.0).round() / 10.0;
            write!(f, "{}G", whole(r))
        } else {
            write!(f, "{}M", (g * 1000.0 * 10.0).round() / 10.0)
        }
    }
}

/// A figure as `{}` prints an f64, whole numbers (nearly every rate: `100G`) through
/// the integer formatter: rates name every port, and the float formatter was a twentieth
/// of `democ check` on sc16.
fn whole(v: f64) -> impl std::fmt::Display {
    enum Figure {
        Whole(u64),
        Float(f64),
    }
    impl std::fmt::Display for Figure {
        fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            match self {
                Figure::Whole(n) => write!(f, "{n}"),
                Figure::Float(v) => write!(f, "{v}"),
            }
        }
    }
    // From 1 (no `-0`) to 2^53, where every whole f64 is exact and printed in full.
    if v.fract() == 0.0 && (1.0..=9_007_199_254_740_992.0).contains(&v) {
        Figure::Whole(v as u64)
    } else {
        Figure::Float(v)
    }
}

/// What a rate may look like, for help lines.
pub(crate) const ACCEPTED: &str = "a number, then k, M, G or T, optionally followed by `bps`, `b/s` or `bit/s` (`100G`, `25Gbps`, `400 Gbit/s`)";

/// Parses a rate; the error is the help line, which always says what is accepted.
pub(crate) fn parse_rate(text: &str) -> Result<Rate, RateError> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let unit = unit.trim_start();
    let value: f64 = match num.parse() {
        Ok(v) => v,
        Err(_) if t.starts_with('-') => {
            return Err(RateError::Negative);
        }
        Err(_) => return Err(RateError::NotANumber),
    };
    let (prefix, rest) = unit.split_at(unit.chars().next().map_or(0, char::len_utf8));
    let mult = match prefix {
        "k" | "K" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "" => {
            return Err(RateError::NoUnit { value });
        }
        "m" | "g" | "t" => {
            return Err(RateError::LowerCasePrefix {
                value,
                prefix: prefix.to_owned(),
                rest: rest.to_owned(),
            });
        }
        _ => {
            return Err(RateError::UnknownPrefix {
                unit: unit.to_owned(),
            });
        }
    };
    let (unit, prefix) = (unit.to_owned(), prefix.to_owned());
    match rest {
        "" | "bps" | "b/s" | "bit/s" | "bits/s" | "E" => {}
        "B" | "Bps" | "B/s" | "byte/s" | "bytes/s" => {
            return Err(RateError::Bytes {
                unit,
                value,
                prefix,
            });
        }
        "b" => {
            return Err(RateError::Ambiguous {
                unit,
                value,
                prefix,
            });
        }
        "bit" | "bits" => {
            return Err(RateError::Amount {
                unit,
                value,
                prefix,
            });
        }
        _ => {
            return Err(RateError::UnknownSuffix {
                unit,
                value,
                prefix,
            });
        }
    }
    if !value.is_finite() || value <= 0.0 {
        return Err(RateError::NotPositive);
    }
    Ok(Rate(value * mult))
}

impl Decode for Rate {
    fn decode(node: &Node, cx: &mut DecodeContext) -> Option<Rate> {
        let text = match &node.kind {
            Kind::Str(s) => s,
            Kind::Int(_) | Kind::Float(_) => {
                let n = node.lexeme.as_deref().unwrap_or("100");
                cx.error(
                    Diagnostic::new(codes::INVALID_VALUE, node.span, "a rate needs a unit")
                        .label("plain number")
                        .help(format!(
                            "write `{n}G` for {n} gigabits per second; accepted: {ACCEPTED}"
                        )),
                );
                return None;
            }
            _ => {
                cx.wrong_type(node, "a rate such as `100G`");
                return None;
            }
        };
        match parse_rate(text) {
            Ok(r) => Some(r),
            Err(help) => {
                cx.error(
                    Diagnostic::new(
                        codes::INVALID_VALUE,
                        node.span,
                        format!("`{text}` is not a valid rate"),
                    )
                    .label("not a rate")
                    .help(help.to_string()),
                );
                None
            }
        }
    }
}

impl schemars::JsonSchema for Rate {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Rate".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^[0-9]+(\\.[0-9]+)?\\s*[kKMGT](bps|b/s|bit/s|bits/s|E)?$",
            "description": "bits per second with a unit: 100G, 25Gbps, 1T, 400 Gbit/s"
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole-number route prints what the float formatter prints.
    #[test]
    fn whole_figures_print_as_floats_do() {
        let mut values = vec![
            0.0,
            -0.0,
            0.5,
            1.0,
            2.5,
            99.9,
            100.0,
            400.0,
            1e15,
            9_007_199_254_740_992.0,
            9_007_199_254_740_994.0,
            1e300,
            f64::MAX,
            f64::INFINITY,
            f64::NAN,
            -3.0,
        ];
        values.extend((0..5000).map(|i| f64::from(i) / 10.0));
        for v in values {
            assert_eq!(whole(v).to_string(), format!("{v}"), "{v:?}");
        }
        for g in [
            0.0, 0.8, 1.0, 10.0, 25.0, 40.5, 100.0, 1000.0, 1500.0, 3000.0,
        ] {
            let r = Rate::from_gbps(g).to_string();
            assert!(r.ends_with(['G', 'T', 'M']), "{r}");
        }
        assert_eq!(Rate::from_gbps(100.0).to_string(), "100G");
        assert_eq!(Rate::from_gbps(2000.0).to_string(), "2T");
        assert_eq!(Rate::from_gbps(2.5).to_string(), "2.5G");
    }

    #[test]
    fn accepted_units() {
        for (t, g) in [
            ("100G", 100.0),
            ("1Tbps", 1000.0),
            ("25 Gbit/s", 25.0),
            ("2.5G", 2.5),
            ("800M", 0.8),
            ("100GE", 100.0),
        ] {
            assert_eq!(parse_rate(t).map(|r| r.gbps()), Ok(g), "{t}");
        }
    }

    #[test]
    fn refused_units() {
        for t in ["100Gb", "100GB", "100", "-1G", "0G", "100X", "G"] {
            assert!(parse_rate(t).is_err(), "{t}");
        }
    }
}

//! Why a value of the spec did not parse, or a show's files could not be read: each
//! error's text is the help line (or usage message) democ prints for it.

use std::path::PathBuf;

use crate::read::ReadError;

use super::units::ACCEPTED;

/// Why text is not an IPv4 prefix.
#[derive(Debug, PartialEq)]
pub(crate) enum PrefixError {
    NoLength { text: String },
    NotIpv4 { addr: String },
    BadLength { len: String },
}

impl std::fmt::Display for PrefixError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PrefixError::NoLength { text } => {
                write!(
                    f,
                    "`{text}` has no prefix length: write it as `10.16.0.0/16`"
                )
            }
            PrefixError::NotIpv4 { addr } => write!(f, "`{addr}` is not an IPv4 address"),
            PrefixError::BadLength { len } => {
                write!(f, "`/{len}` is not a prefix length from 0 to 32")
            }
        }
    }
}

impl std::error::Error for PrefixError {}

/// Why text is not a rate. `value` is the number written, `prefix` the unit's first
/// letter (`G`), `unit` all that follows the number.
#[derive(Debug, PartialEq)]
pub(crate) enum RateError {
    Negative,
    NotANumber,
    NoUnit {
        value: f64,
    },
    /// `g`, `t` or `m` where `G`, `T` or `M` was meant.
    LowerCasePrefix {
        value: f64,
        prefix: String,
        rest: String,
    },
    UnknownPrefix {
        unit: String,
    },
    Bytes {
        unit: String,
        value: f64,
        prefix: String,
    },
    /// A bare `b`: bits or bytes?
    Ambiguous {
        unit: String,
        value: f64,
        prefix: String,
    },
    /// `Gbit`: an amount of data, not a rate.
    Amount {
        unit: String,
        value: f64,
        prefix: String,
    },
    UnknownSuffix {
        unit: String,
        value: f64,
        prefix: String,
    },
    NotPositive,
}

impl std::fmt::Display for RateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RateError::Negative => write!(f, "a rate cannot be negative; write {ACCEPTED}"),
            RateError::NotANumber => write!(f, "write a rate as {ACCEPTED}"),
            RateError::NoUnit { value } => write!(
                f,
                "add a unit: `{value}G` for gigabits per second; accepted: {ACCEPTED}"
            ),
            RateError::LowerCasePrefix {
                value,
                prefix,
                rest,
            } => {
                let upper = prefix.to_uppercase();
                let milli = if prefix == "m" { " (`m` is milli)" } else { "" };
                write!(
                    f,
                    "unit prefixes are upper-case{milli}: write `{value}{upper}{rest}`; accepted: {ACCEPTED}"
                )
            }
            RateError::UnknownPrefix { unit } => {
                write!(f, "unknown unit `{unit}`; accepted: {ACCEPTED}")
            }
            RateError::Bytes {
                unit,
                value,
                prefix,
            } => write!(
                f,
                "`{unit}` is bytes per second; rates are in bits: write `{}{prefix}`",
                value * 8.0
            ),
            RateError::Ambiguous {
                unit,
                value,
                prefix,
            } => write!(
                f,
                "`{unit}` is ambiguous (bits or bytes?); write `{value}{prefix}` or `{value}{prefix}bps`"
            ),
            RateError::Amount {
                unit,
                value,
                prefix,
            } => write!(
                f,
                "`{unit}` is an amount, not a rate; write `{value}{prefix}` or `{value}{prefix}bit/s`"
            ),
            RateError::UnknownSuffix {
                unit,
                value,
                prefix,
            } => write!(
                f,
                "unknown unit `{unit}`; write `{value}{prefix}` or `{value}{prefix}bps`; accepted: {ACCEPTED}"
            ),
            RateError::NotPositive => {
                write!(f, "a rate must be greater than zero; accepted: {ACCEPTED}")
            }
        }
    }
}

impl std::error::Error for RateError {}

/// Why an endpoint's node and port ranges do not pair up.
#[derive(Debug, PartialEq)]
pub(crate) struct RangeMismatch {
    pub(crate) nodes: usize,
    pub(crate) ports: usize,
}

impl std::fmt::Display for RangeMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} nodes against {} ports: the two ranges must have the same length",
            self.nodes, self.ports
        )
    }
}

impl std::error::Error for RangeMismatch {}

/// Why a show's files could not be read at all: a usage error (exit 2), where what
/// is wrong inside a file is a diagnostic.
#[derive(Debug)]
pub(crate) enum LoadError {
    /// A folder given with `--allow-include-outside` that cannot be resolved.
    IncludeRoot {
        dir: PathBuf,
        error: ReadError,
    },
    MainIsFolder {
        path: PathBuf,
    },
    MainUnreadable {
        path: PathBuf,
        error: ReadError,
    },
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::IncludeRoot { dir, error } => write!(
                f,
                "cannot use `--allow-include-outside {}`: {}",
                dir.display(),
                error.reason()
            ),
            LoadError::MainIsFolder { path } => write!(
                f,
                "`{}` is a directory; give the show's main YAML file",
                path.display()
            ),
            LoadError::MainUnreadable { path, error } => {
                write!(f, "cannot read `{}`: {}", path.display(), error.reason())
            }
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::IncludeRoot { error, .. } | LoadError::MainUnreadable { error, .. } => {
                Some(error)
            }
            LoadError::MainIsFolder { .. } => None,
        }
    }
}

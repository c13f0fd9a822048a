//! Why a monitoring file could not be written (its document did not serialize: a democ
//! bug, an internal error), and why a flow is not watched as a flow (a note in the file).

#[derive(Debug)]
pub(crate) struct MonitorError {
    /// The file under the build, `monitoring/gnmic.yaml`.
    pub(crate) file: &'static str,
    pub(crate) error: serde_saphyr::SerializeError,
}

impl MonitorError {
    /// A `map_err` for the document of `file`.
    pub(crate) fn of(file: &'static str) -> impl FnOnce(serde_saphyr::SerializeError) -> Self {
        move |error| MonitorError { file, error }
    }
}

impl std::fmt::Display for MonitorError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file, self.error)
    }
}

impl std::error::Error for MonitorError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// Why a flow is not watched as a flow (its links still are): the link at its sender.
#[derive(Clone, Debug)]
pub(crate) enum Unwatched<'a> {
    /// The link is on no switch democ watches.
    NoWatchedSwitch { link: &'a str },
    /// The link carries other flows too: its counters are not this flow's.
    Shared { link: &'a str, others: usize },
}

impl std::fmt::Display for Unwatched<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unwatched::NoWatchedSwitch { link } => write!(f, "{link} is on no watched switch"),
            Unwatched::Shared { link, others } => {
                write!(f, "{link} is shared with {others} other flow(s)")
            }
        }
    }
}

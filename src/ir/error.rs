//! Why part of the IR could not be written out: a democ bug (lowering builds it), an
//! internal error.

/// Why a containerlab topology gave no file.
#[derive(Debug)]
pub(crate) enum TopologyError {
    /// Links that name a missing node or interface, and the like (`lab::check`).
    Inconsistent { file: String, problems: Vec<String> },
    Serialize {
        file: String,
        error: serde_saphyr::SerializeError,
    },
}

impl std::fmt::Display for TopologyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TopologyError::Inconsistent { file, problems } => {
                write!(f, "{file} is inconsistent: {}", problems.join("; "))
            }
            TopologyError::Serialize { file, error } => write!(f, "{file}: {error}"),
        }
    }
}

impl std::error::Error for TopologyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TopologyError::Inconsistent { .. } => None,
            TopologyError::Serialize { error, .. } => Some(error),
        }
    }
}

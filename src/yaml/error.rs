//! Why democ's own embedded data did not read: a bug in templates/ (a test reads every
//! file), reported as an internal error.

use std::sync::Arc;

/// Why [`super::embedded::data`] gave no value.
#[derive(Clone, Debug)]
pub(crate) enum EmbeddedError {
    /// No embedded file has the path.
    Missing { path: String },
    /// The file's JSON is not the type asked for. Shared: the data is parsed once and
    /// its error handed to every caller.
    Shape {
        path: String,
        error: Arc<serde_json::Error>,
    },
}

impl std::fmt::Display for EmbeddedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EmbeddedError::Missing { path } => write!(f, "{path} is missing"),
            EmbeddedError::Shape { path, error } => write!(f, "{path}: {error}"),
        }
    }
}

impl std::error::Error for EmbeddedError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EmbeddedError::Missing { .. } => None,
            EmbeddedError::Shape { error, .. } => Some(&**error),
        }
    }
}

impl From<EmbeddedError> for String {
    fn from(e: EmbeddedError) -> String {
        e.to_string()
    }
}

//! Why the embedded vendor data is unusable: a bug in templates/ (a test reads every
//! file), reported as an internal error.

use crate::yaml::error::EmbeddedError;

#[derive(Clone, Debug)]
pub(crate) enum VendorError {
    Embedded(EmbeddedError),
    /// A flavour names a template that is not embedded.
    MissingTemplate {
        path: String,
        os: String,
        template: String,
    },
    /// A flavour's `containerlab:` is neither a stand-in nor a full kind.
    LabKind {
        path: String,
        os: String,
    },
}

impl std::fmt::Display for VendorError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VendorError::Embedded(e) => e.fmt(f),
            VendorError::MissingTemplate { path, os, template } => write!(
                f,
                "templates/{path}: flavour `{os}` names a missing template `{template}`"
            ),
            VendorError::LabKind { path, os } => write!(
                f,
                "templates/{path}: flavour `{os}`: `containerlab:` holds either `standin:` (why no kind runs the OS) or `kind:`, `image:` and `interfaces:`"
            ),
        }
    }
}

impl std::error::Error for VendorError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            VendorError::Embedded(e) => Some(e),
            _ => None,
        }
    }
}

impl From<EmbeddedError> for VendorError {
    fn from(e: EmbeddedError) -> VendorError {
        VendorError::Embedded(e)
    }
}

impl From<VendorError> for String {
    fn from(e: VendorError) -> String {
        e.to_string()
    }
}

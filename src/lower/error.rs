//! Why lowering could not run: democ's own data is broken (a bug in templates/, which
//! tests read whole), an internal error. What a show asks that a vendor cannot do is a
//! diagnostic, never this.

use crate::vendor::error::VendorError;
use crate::yaml::error::EmbeddedError;

#[derive(Debug)]
pub(crate) enum LowerError {
    Vendor(VendorError),
    /// Host tuning or fabric data.
    Embedded(EmbeddedError),
    /// The twin's script for a lab stand-in, in the twin's words.
    LabScript(String),
}

impl std::fmt::Display for LowerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LowerError::Vendor(e) => e.fmt(f),
            LowerError::Embedded(e) => e.fmt(f),
            LowerError::LabScript(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for LowerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LowerError::Vendor(e) => Some(e),
            LowerError::Embedded(e) => Some(e),
            LowerError::LabScript(_) => None,
        }
    }
}

impl From<VendorError> for LowerError {
    fn from(e: VendorError) -> LowerError {
        LowerError::Vendor(e)
    }
}

impl From<EmbeddedError> for LowerError {
    fn from(e: EmbeddedError) -> LowerError {
        LowerError::Embedded(e)
    }
}

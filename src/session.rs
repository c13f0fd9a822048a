//! One compilation's state: the files read, the diagnostics found, the address lock.

use crate::diag::Diags;
use crate::source::Sources;

/// Everything read and reported during one compilation.
#[derive(Debug, Default)]
pub struct Session {
    pub sources: Sources,
    pub diags: Diags,
    /// The spec's address lock: what it held and what this compilation allocated (None
    /// without a spec file or with `--no-lock`).
    pub(crate) lock: Option<crate::lock::Locking>,
}

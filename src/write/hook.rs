//! Fault injection for the integration tests, read once from `DEMOC_TEST_HOOK`: a
//! build that stalls while staging (so a test can signal or race it at a known point)
//! and a disk that fills up mid-file. Unset, nothing changes.

use std::sync::OnceLock;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Hook {
    None,
    /// Wait (up to 30 s, or until a signal) after staging the first file.
    StallStaging,
    /// Every file write fails halfway with "no space left on device".
    DiskFull,
}

pub(crate) fn hook() -> Hook {
    static HOOK: OnceLock<Hook> = OnceLock::new();
    *HOOK.get_or_init(|| match std::env::var("DEMOC_TEST_HOOK").as_deref() {
        Ok("stall-staging") => Hook::StallStaging,
        Ok("disk-full") => Hook::DiskFull,
        _ => Hook::None,
    })
}

//! SIGINT, SIGTERM and SIGHUP while the output is being written: the first one only
//! sets a flag, which the writer checks between files (it then removes its staging
//! folder and stops, leaving the previous output as it was); a second one acts as if
//! democ had no handler, so a stuck write can still be killed with another Ctrl-C.
//! Outside of writing, signals keep their default action: nothing is on disk yet.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use signal_hook::SigId;

#[cfg(unix)]
const SIGNALS: &[i32] = &[
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
];
#[cfg(not(unix))]
const SIGNALS: &[i32] = &[signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM];

/// Handlers installed for as long as it lives.
pub(crate) struct Guard {
    armed: Arc<AtomicBool>,
    which: Arc<AtomicUsize>,
    ids: Vec<SigId>,
}

impl Guard {
    pub(crate) fn install() -> Guard {
        let armed = Arc::new(AtomicBool::new(false));
        let which = Arc::new(AtomicUsize::new(0));
        let mut ids = Vec::with_capacity(SIGNALS.len() * 3);
        for &sig in SIGNALS {
            // Registered first, so it sees the flag as the previous signal left it.
            ids.extend(
                signal_hook::flag::register_conditional_default(sig, Arc::clone(&armed)).ok(),
            );
            // Which signal, stored before the flag says there is one.
            let n = usize::try_from(sig).unwrap_or(0);
            ids.extend(signal_hook::flag::register_usize(sig, Arc::clone(&which), n).ok());
            ids.extend(signal_hook::flag::register(sig, Arc::clone(&armed)).ok());
        }
        Guard { armed, which, ids }
    }

    /// The signal received, if any.
    pub(crate) fn raised(&self) -> Option<i32> {
        if !self.armed.load(Ordering::SeqCst) {
            return None;
        }
        i32::try_from(self.which.load(Ordering::SeqCst)).ok()
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        for id in self.ids.drain(..) {
            signal_hook::low_level::unregister(id);
        }
    }
}

/// The signal's name for messages.
pub(crate) fn name(sig: i32) -> &'static str {
    match sig {
        signal_hook::consts::SIGINT => "SIGINT",
        signal_hook::consts::SIGTERM => "SIGTERM",
        _ => "a termination signal",
    }
}

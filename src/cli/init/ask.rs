//! Questions for a person at the terminal: asked only when standard input is one, on
//! stderr, each with the default an empty answer takes. Flags always win, and without a
//! terminal (scripts, CI) the defaults are taken without a question.

use std::io::{BufRead, IsTerminal, Write};

pub(super) struct Ask {
    interactive: bool,
}

impl Ask {
    pub(super) fn new() -> Ask {
        Ask {
            interactive: std::io::stdin().is_terminal(),
        }
    }

    pub(super) fn interactive(&self) -> bool {
        self.interactive
    }

    /// The answer to `question`, or `default` for an empty line, end of input or no
    /// terminal.
    pub(super) fn answer(&self, question: &str, default: &str) -> String {
        if !self.interactive {
            return default.to_owned();
        }
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "{question} [{default}]: ");
        let _ = err.flush();
        let mut line = String::new();
        match std::io::stdin().lock().read_line(&mut line) {
            Ok(0) | Err(_) => default.to_owned(),
            Ok(_) if line.trim().is_empty() => default.to_owned(),
            Ok(_) => line.trim().to_owned(),
        }
    }
}

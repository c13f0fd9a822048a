//! democ's answers on standard output. `print!` panics when the reader has gone
//! (`democ ir --schema | cmp - file` stops reading at the first difference), and a
//! panic is a bug: a write that fails ends democ with exit code 2, as any other I/O
//! problem does, saying why unless the reader simply closed the pipe.

use std::io::Write as _;

/// Writes `text` to standard output, or exits with 2.
pub(crate) fn put(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            let _ = writeln!(
                std::io::stderr(),
                "democ: cannot write to standard output: {e}"
            );
        }
        std::process::exit(2);
    }
}

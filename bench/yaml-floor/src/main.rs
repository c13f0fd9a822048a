//! Reads one YAML file with serde-saphyr into `IgnoredAny` (every event parsed and
//! counted against a budget as democ's reader does, nothing kept, no locations asked
//! for) and exits 0. bench/guard.sh times it beside `democ check` of the same file: whatever
//! democ does on top of serde-saphyr, it cannot take less than this.

use serde::de::IgnoredAny;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: democ-yaml-floor FILE");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    // As src/spec/load.rs sets them, with limits no spec reaches.
    let mut budget = serde_saphyr::Budget::default();
    budget.max_reader_input_bytes = Some(usize::MAX);
    budget.max_events = usize::MAX;
    budget.max_nodes = usize::MAX;
    budget.max_depth = 64;
    let mut options = serde_saphyr::Options::default();
    options.budget = Some(budget);
    options.with_snippet = false;
    if let Err(e) = serde_saphyr::from_str_with_options::<IgnoredAny>(&text, options) {
        eprintln!("{path}: {e}");
        std::process::exit(1);
    }
}

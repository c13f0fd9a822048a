//! The YAML fast path against serde-saphyr on arbitrary text: whenever the fast path
//! accepts a document, serde-saphyr must read it to the same tree, spans included.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Err(e) = democ::yaml_paths_agree(text) {
            panic!("{e}\n--- input ---\n{text}");
        }
    }
});

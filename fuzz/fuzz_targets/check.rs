//! Parse + resolve + derive + check on arbitrary bytes, rendering the diagnostics as text
//! and JSON: whatever the input, democ must not panic, hang or exhaust memory.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let code = democ::check_bytes(data);
    assert!((0..=2).contains(&code), "exit code {code}");
});

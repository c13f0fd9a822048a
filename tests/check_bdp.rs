//! `democ check` on TCP windows: too few streams for the bandwidth-delay product, and
//! socket buffers taking more than half a host's memory.

#[path = "fixtures/check/support.rs"]
mod support;

#[test]
fn streams_and_buffers() {
    support::expect("bdp", 0, &["W0230", "W0231"]);
}

//! `democ check` on OTN WAN links: clients without a line signal.

#[path = "fixtures/check/support.rs"]
mod support;

#[test]
fn unknown_client() {
    support::expect("otn", 1, &["E0220"]);
}

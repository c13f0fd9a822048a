//! `democ check` on OpenFlow: flow tables too small or nearly full for the routed pairs,
//! and a switch without a controller.

#[path = "fixtures/check/support.rs"]
mod support;

#[test]
fn tables_and_controller() {
    support::expect("openflow", 1, &["E0235", "W0236", "E0237"]);
}

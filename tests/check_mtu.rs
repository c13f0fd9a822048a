//! `democ check` on MTUs: host MTUs above a hop's, switch frames too small for the hosts'
//! packets, host MTUs above their NIC's maximum.

#[path = "fixtures/check/support.rs"]
mod support;

#[test]
fn path_mtu() {
    support::expect("mtu-path", 1, &["E0225"]);
}

#[test]
fn frame_mtu() {
    support::expect("mtu-frame", 1, &["E0226", "E0113"]);
}

//! `democ check` on fiber links: budget, margin, reach, mismatched ends, fiber type,
//! rate, missing optics, FEC and catalog entries without figures.

#[path = "fixtures/check/support.rs"]
mod support;

#[test]
fn dark_fiber() {
    support::expect(
        "optics-wan",
        1,
        &["E0210", "W0211", "E0212", "E0214", "E0215", "W0218"],
    );
}

#[test]
fn booth_fiber() {
    support::expect("optics-lan", 1, &["E0212", "E0213", "W0216", "W0217"]);
}

#[test]
fn a_feasible_show_is_clean() {
    support::expect("clean", 0, &[]);
}

#[test]
fn short_multimode_runs_keep_to_the_channel_loss() {
    let (code, text) = support::check("optics-mmf");
    for port in ["1/1`", "1/2`", "1/3`"] {
        assert!(!text.contains(port), "{port} reported:\n{text}");
    }
    assert!(!text.contains("amplification"), "{text}");
    support::expect("optics-mmf", code, &["E0210"]);
}

//! Issue 12 section 3: the 400G example checks clean (its only warnings list the
//! unconfirmed breakout keywords it relies on, W0305) and builds configs that break a
//! 400G or 800G port out on every vendor with a 400G model.

#[path = "fixtures/render/support.rs"]
mod support;

use support::{build, democ, example, stderr};

#[test]
fn checks_clean() {
    let spec = example("sc25-400g");
    let o = democ(&["check", &spec]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout).into_owned() + &stderr(&o);
    assert!(out.contains("ok: sc25-400g"), "{out}");
    let others: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("warning[") && !l.starts_with("warning[W0305]"))
        .collect();
    assert!(others.is_empty(), "{out}");
}

#[test]
fn every_vendor_breaks_a_400g_port_out() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(&example("sc25-400g"), &out);
    let cfg = |name: &str| {
        std::fs::read_to_string(out.join("switches").join(name)).expect("democ wrote it")
    };
    // (config, the line that splits the port, a line on one of its subports)
    let cases = [
        // EOS: lane speed on each subport of the QSFP-DD cage, PAM4 spelling.
        // The fourth 100G-2 subport of an octal port is lane 7 (Arista, "Octal Port
        // Renumber to Four Interfaces"); it used to be named Ethernet9/4.
        ("cit-7060.cfg", "interface Ethernet9/7", "speed 100g-2"),
        // OS10: the breakout map.
        (
            "sl-z9432.cfg",
            "interface breakout 1/1/9 map 200g-2x",
            "interface ethernet1/1/9:2",
        ),
        // Cumulus Linux (NVUE) on the SN4700: `link breakout 8x` on the parent, the
        // eighth subport counted from 0.
        ("nv-sn4700.nvue.yaml", "            8x: {}", "      swp9s7:"),
        // SONiC on the SN5600: the platform.json mode on the parent, the second
        // subport named by its first lane.
        (
            "scinet-core.config_db.json",
            "\"brkout_mode\": \"2x400G[200G,100G,50G,40G,25G,10G]\"",
            "\"lanes\": \"4,5,6,7\"",
        ),
        // PicOS on the Edgecore AS9716-32D.
        (
            "ucsd-as9716.cfg",
            "set interface gigabit-ethernet xe-1/1/9 breakout-mode 4x100G",
            "xe-1/1/9.4",
        ),
    ];
    for (file, split, sub) in cases {
        let text = cfg(file);
        assert!(text.contains(split), "{file} lacks `{split}`:\n{text}");
        assert!(text.contains(sub), "{file} lacks `{sub}`:\n{text}");
    }
}

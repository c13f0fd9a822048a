//! A switch's config as the kind the lab runs it under takes it (`lab/configs/<switch>.cfg`):
//! democ's config with the management port renamed and the blocks of ports the lab does
//! not wire left out (cEOS-lab refuses both; templates/arista/vendor.yaml cites why).

use std::collections::BTreeSet;

/// How one lab config is made from the build's.
#[derive(Debug, Default)]
pub(crate) struct LabConfig {
    /// The build's config (`switches/<switch>.cfg`).
    pub(crate) source: String,
    /// The switch's management port name and the kind's.
    pub(crate) rename: Option<(String, String)>,
    /// Interfaces the lab does not wire.
    pub(crate) unwired: BTreeSet<String>,
}

impl LabConfig {
    /// The lab's text of `config` (EOS-style blocks: `interface NAME` at the margin, its
    /// lines indented, `!` after it).
    pub(crate) fn apply(&self, config: &str) -> String {
        let mut out = String::with_capacity(config.len());
        let mut skipping = false;
        for line in config.lines() {
            let top = !line.starts_with(char::is_whitespace);
            if skipping {
                if line.trim() == "!" {
                    skipping = false;
                    continue;
                }
                if !top {
                    continue;
                }
                skipping = false;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let names_unwired = |w: &[&str]| w.last().is_some_and(|n| self.unwired.contains(*n));
            match words.as_slice() {
                ["interface", _] if top && names_unwired(&words) => {
                    skipping = true;
                    continue;
                }
                ["bind", "interface", _] if names_unwired(&words) => continue,
                _ => {}
            }
            match &self.rename {
                Some((from, to)) if words.contains(&from.as_str()) => {
                    let indent = &line[..line.len() - line.trim_start().len()];
                    let words: Vec<&str> = words
                        .iter()
                        .map(|w| if w == from { to.as_str() } else { w })
                        .collect();
                    out.push_str(indent);
                    out.push_str(&words.join(" "));
                }
                _ => out.push_str(line),
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_management_and_leaves_unwired_ports_out() {
        let c = LabConfig {
            source: "switches/x.cfg".into(),
            rename: Some(("Management1".into(), "Management0".into())),
            unwired: BTreeSet::from(["Ethernet2/1".to_owned()]),
        };
        let text = "hostname x\n!\ninterface Management1\n   ip address 192.168.16.2/24\n!\ninterface Ethernet1/1\n   no shutdown\n!\ninterface Ethernet2/1\n   shutdown\n!\ninterface Ethernet20/1\n   shutdown\n!\nopenflow\n   bind interface Ethernet1/1\n   bind interface Ethernet2/1\n!\nlogging source-interface Management1\n";
        assert_eq!(
            c.apply(text),
            "hostname x\n!\ninterface Management0\n   ip address 192.168.16.2/24\n!\ninterface Ethernet1/1\n   no shutdown\n!\ninterface Ethernet20/1\n   shutdown\n!\nopenflow\n   bind interface Ethernet1/1\n!\nlogging source-interface Management0\n"
        );
    }
}

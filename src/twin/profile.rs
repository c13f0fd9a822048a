//! The twin refuses a ruleset the switch would refuse: before any switch comes up, each
//! `openflow/<switch>.flows` is read against its OS's OpenFlow profile (vendor.yaml
//! `openflow.profile`, the table the compiler lowers within) and its version. Open vSwitch
//! would load anything; this is what makes the twin fail where the hardware does.

use crate::ir::Switch;
use crate::vendor::Support;
use crate::vendor::profile::in_version;

/// The match field and action names of one ovs-ofctl flow line (`name=value` before
/// `actions=`, `name[:value]` after it).
fn names(line: &str) -> Vec<&str> {
    let (head, actions) = line.split_once("actions=").unwrap_or((line, ""));
    let fields = head
        .split(',')
        .filter_map(|w| w.split('=').next())
        .map(str::trim);
    let acts = actions
        .split(',')
        .filter_map(|w| w.split(':').next())
        .map(str::trim);
    fields.chain(acts).filter(|w| !w.is_empty()).collect()
}

/// The first line of `text` (a switch's `.flows`) that uses a field or action its OS's
/// agent lacks, or that its OpenFlow version does not have, as a message naming it.
/// Unconfirmed entries pass: the build listed them (W0305) and the twin cannot know more.
pub(crate) fn check(sw: &Switch, text: &str) -> Result<(), String> {
    let Some(of) = &sw.openflow else {
        return Ok(());
    };
    let vendors = crate::vendor::vendors()?;
    let Some(caps) = vendors
        .flavour(&sw.vendor, &sw.os)
        .and_then(|(_, f)| f.openflow.as_ref())
    else {
        return Ok(());
    };
    let version = &of.version;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        for name in names(line) {
            let why = if !in_version(name, version) {
                format!("OpenFlow {version} has no `{name}`")
            } else if caps.profile.support(name, caps.normal) == Support::No {
                format!("`{}`'s OpenFlow agent does not have `{name}`", sw.os)
            } else {
                continue;
            };
            return Err(format!(
                "openflow/{}.flows line {}: {why} (templates/<vendor>/vendor.yaml `openflow.profile`), so `{}` would refuse this rule: {}",
                sw.hostname,
                n + 1,
                sw.hostname,
                crate::escape::line(line)
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::names;

    #[test]
    fn names_of_a_flow_line() {
        let l = "cookie=0x1,table=0,priority=1000,in_port=49,dl_vlan=3611,dl_type=0x0800,nw_src=10.0.0.1,nw_dst=10.0.0.2,actions=pop_vlan,set_queue:3,output:13";
        assert_eq!(
            names(l),
            [
                "cookie",
                "table",
                "priority",
                "in_port",
                "dl_vlan",
                "dl_type",
                "nw_src",
                "nw_dst",
                "pop_vlan",
                "set_queue",
                "output"
            ]
        );
        assert_eq!(
            names("cookie=0x2,table=0,priority=0,actions=drop"),
            ["cookie", "table", "priority", "drop"]
        );
    }
}

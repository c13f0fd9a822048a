//! With `--hosts`, each host node binds its `hosts/<name>.sh` and runs its `tune` at
//! deploy (`DEMOC_LAB=1`: only what belongs to the container; the lab machine's kernel
//! settings are left alone), each port under the name the topology wires it as.

use crate::ir::host::Host;
use crate::ir::lab::Containerlab;

/// Where a host's container sees its script.
const SCRIPT: &str = "/democ/host.sh";
/// Where it sees its bonds' stand-in (`tune` runs it where Linux bonds cannot be made).
const BONDS: &str = "/democ/bonds.sh";

pub(crate) fn bind_scripts(lab: &mut Containerlab, hosts: &[Host]) {
    for h in hosts {
        let (Some(node), Some(wired)) = (
            lab.topology.topology.nodes.get_mut(&h.name),
            lab.host_ports.get(&h.name),
        ) else {
            continue;
        };
        // A port the lab does not wire has no interface in the container: the script
        // would stop at it, so such a host keeps the plain settings.
        let Some(vars) = h
            .interfaces
            .iter()
            .map(|i| wired.get(&i.port).map(|name| format!("{}={name}", i.var)))
            .collect::<Option<Vec<String>>>()
        else {
            continue;
        };
        let mut exec = vec![format!(
            "env DEMOC_LAB=1 {} bash {SCRIPT} tune",
            vars.join(" ")
        )];
        // TX checksum offload off, or TCP through a stand-in's userspace datapath fails
        // silently (the twin does the same).
        exec.extend(wired.values().map(|n| format!("ethtool -K {n} tx off")));
        // A WAN end's delay last: after tune's fq, which it replaces.
        exec.extend(
            node.exec
                .iter()
                .filter(|c| super::delays::is_delay(c))
                .cloned(),
        );
        // First, before what else it binds (the controller's rulesets).
        node.binds
            .insert(0, format!("../{}:{SCRIPT}:ro", h.script_file));
        // Its bonds as the twin stands them in, for `tune` on a lab machine whose kernel
        // has no bonding driver.
        if !h.bonds.is_empty() {
            let file = format!("nodes/{}.bonds.sh", h.name);
            node.binds.insert(1, format!("{file}:{BONDS}:ro"));
            lab.scripts.insert(
                format!("lab/{file}"),
                crate::twin::lab_bonds_script(h, wired),
            );
        }
        node.exec = exec;
    }
}

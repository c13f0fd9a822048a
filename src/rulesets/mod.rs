//! The files that carry each OpenFlow switch's ruleset out of the IR: ovs-ofctl flow
//! files (`openflow/<switch>.flows`, `.meters`) and OpenDaylight RESTCONF bodies
//! (`openflow/odl/<switch>.json`, with `openflow/odl/push.sh` to install them). They only
//! print the IR's rules.

pub(crate) mod odl;
pub(crate) mod ofctl;

use crate::ir::Lab;
use crate::write::OutFile;

/// Installs the ODL bodies through a controller's RESTCONF API (run with `sh`).
const PUSH_SH: &str = include_str!("push.sh");

/// push.sh with the spec's RESTCONF flavour as its default (`ODL_API` still wins).
fn push_sh(api: &str) -> String {
    PUSH_SH
        .replace("${ODL_API:-rfc8040}", &format!("${{ODL_API:-{api}}}"))
        .replace("rfc8040 in this build", &format!("{api} in this build"))
}

/// Every ruleset file of a build.
pub(crate) fn files(lab: &Lab) -> Vec<OutFile> {
    let mut out = Vec::new();
    for sw in &lab.switches {
        let Some(of) = &sw.openflow else { continue };
        let rs = &of.ruleset;
        out.push(OutFile {
            path: format!("openflow/{}.flows", sw.hostname),
            bytes: ofctl::flows(&sw.hostname, &lab.show, rs).into_bytes(),
        });
        if !rs.meters.is_empty() {
            out.push(OutFile {
                path: format!("openflow/{}.meters", sw.hostname),
                bytes: ofctl::meters(rs).into_bytes(),
            });
        }
        let node = of.datapath_id.as_deref().and_then(odl::node_id);
        out.push(OutFile {
            path: format!("openflow/odl/{}.json", sw.hostname),
            bytes: odl::document(node.as_deref(), rs).into_bytes(),
        });
    }
    if !out.is_empty() {
        out.push(OutFile {
            path: "openflow/odl/push.sh".into(),
            bytes: push_sh(&lab.management.restconf).into_bytes(),
        });
    }
    out
}

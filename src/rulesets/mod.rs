//! The files that carry each OpenFlow switch's ruleset out of the IR: ovs-ofctl flow
//! files (`openflow/<switch>.flows`, `.meters`). They only print the IR's rules.

pub(crate) mod ofctl;

use crate::ir::Lab;
use crate::write::OutFile;

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
    }
    out
}

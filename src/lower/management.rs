//! The out-of-band management port: the switch's `mgmt` address with the prefix length
//! of the `addressing.mgmt` pool.

use super::Lx;
use crate::diag::{Diagnostic, codes};
use crate::ir::switch::{Ipv4, Management};

pub(crate) fn lower(lx: &mut Lx) -> Option<Management> {
    let s = lx.switch();
    let addr = s.mgmt.as_ref()?;
    // `{unit}`: the stack unit the OS numbers this model's ports from (FTOS 9:
    // `ManagementEthernet 0/0` on the S4810/Z9000, `1/1` on the Z9100).
    let unit = s.ports.iter().find_map(|p| p.native).map_or(1, |(u, _)| u);
    let Some(interface) =
        lx.f.management
            .as_ref()
            .map(|m| m.replace("{unit}", &unit.to_string()))
    else {
        let os = lx.os();
        lx.manual(
            "mgmt",
            addr.span,
            format!("democ has no management-port syntax for `{os}`"),
            "configure the management address by hand",
        );
        return None;
    };
    let pool =
        lx.m.settings
            .pools
            .mgmt
            .as_ref()
            .filter(|p| p.contains(addr.value));
    let Some(pool) = pool else {
        lx.report(
            "mgmt-len",
            Diagnostic::new(codes::CONFIG_PARTIAL, addr.span, format!("management address {} of `{}` has no prefix length", addr.value, s.name.value))
                .label("not inside an `addressing.mgmt` pool")
                .help("add `addressing: { mgmt: <prefix> }` covering this address; the config leaves the management port alone until then"),
        );
        return None;
    };
    Some(Management {
        interface,
        address: Ipv4::new(addr.value, pool.len),
    })
}

//! A port's MTU in both units (src/derive/mtu.rs computes them, the same figures the
//! MTU check reads) and in its OS's unit (vendor.yaml `mtu:`): FTOS, OS10, Onyx and
//! PicOS take a frame size, EOS the IP MTU, OS10 routed interfaces also an `ip mtu`.

use super::Lx;
use crate::derive::mtu::{self as figures, FCS, Origin};
use crate::ir::interface::Mtu;
use crate::resolve::model::Port;
use crate::vendor::MtuUnit;

/// The MTU of a cabled port (None when it is not cabled); `routed`: it holds an address.
pub(crate) fn port(lx: &mut Lx, p: &Port, index: usize, routed: bool) -> Option<Mtu> {
    let link = &lx.m.links[p.link?];
    let fig = figures::port(lx.m, lx.sw, index, link);
    let cli = &lx.f.mtu;
    let fcs_less = if cli.fcs { 0 } else { FCS };
    let (frame, ip) = match cli.counts {
        MtuUnit::Frame => {
            let set = fig.frame - fcs_less.min(fig.frame);
            let frame = clamp(lx, set, fig.origin) + fcs_less;
            let by_frame = frame.saturating_sub(figures::overhead(fig.tags));
            (frame, fig.ip.min(by_frame))
        }
        MtuUnit::Ip => {
            let ip = clamp(lx, fig.ip, fig.origin);
            (fig.frame, ip)
        }
    };
    Some(write(lx, frame, ip, fig.tags, routed))
}

/// The figures of a VLAN interface over a member port: untagged, same IP MTU.
pub(crate) fn vlan_interface(lx: &Lx, member: Mtu) -> Mtu {
    let frame = member.frame - figures::VLAN_TAG * member.tags;
    write(lx, frame, member.ip, 0, true)
}

fn write(lx: &Lx, frame: u32, ip: u32, tags: u32, routed: bool) -> Mtu {
    let cli = &lx.f.mtu;
    let ip_set = cli
        .ip_below_frame
        .filter(|_| routed)
        .map(|gap| ip.min(frame.saturating_sub(gap)));
    let ip = ip_set.unwrap_or(ip);
    let set = match cli.counts {
        MtuUnit::Frame => frame - if cli.fcs { 0 } else { FCS.min(frame) },
        MtuUnit::Ip => ip,
    };
    Mtu {
        ip,
        frame,
        tags,
        set,
        ip_set,
    }
}

/// The OS's ceiling (the EOS 9214 quirk): a value the spec asked for above it is
/// lowered with a warning; the model's own maximum is lowered silently.
fn clamp(lx: &mut Lx, value: u32, origin: Origin) -> u32 {
    let max = lx.f.max_mtu;
    if value <= max {
        return value;
    }
    if let Origin::Port(span) | Origin::Show(span) = origin {
        let os = lx.os();
        lx.manual(
            "mtu",
            span,
            format!(
                "`{os}` accepts an MTU of at most {max}; `{}` uses {max}",
                lx.name()
            ),
            format!("set the MTU to {max} or less"),
        );
    }
    max
}

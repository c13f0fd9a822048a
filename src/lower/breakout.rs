//! Breakout: one entry per split parent port, with the OS's keyword for the mode.

use super::Lx;
use super::naming;
use crate::ir::interface::Breakout;
use crate::resolve::model::Port;

/// A whole port run below its default speed on an OS that does that with a breakout
/// mode (`1x40G`): the mode's entry, if the OS has one.
pub(crate) fn single(lx: &Lx, p: &Port) -> Option<Breakout> {
    if !lx.f.speed_via_breakout
        || p.parent.is_some()
        || p.link.is_none()
        || p.speeds.first() == Some(&p.speed)
    {
        return None;
    }
    let caps = lx.f.breakout.as_ref()?;
    let mode = format!("1x{}", p.speed);
    let map = caps.modes.get(&mode)?;
    let target =
        naming::numbered(p).and_then(|c| caps.target.as_deref().map(|t| naming::fill(t, c)));
    Some(Breakout {
        port: p.name.clone(),
        mode,
        target,
        map: map.clone(),
    })
}

/// The breakouts of this switch, in port order; unsupported modes are errors.
pub(crate) fn lower(lx: &mut Lx) -> Vec<Breakout> {
    let s = lx.switch();
    let mut out: Vec<Breakout> = Vec::new();
    for (i, p) in s.ports.iter().enumerate() {
        if let Some(b) = single(lx, p) {
            if lx
                .f
                .breakout
                .as_ref()
                .is_some_and(|c| c.unconfirmed.contains(&b.mode))
            {
                lx.unconfirmed
                    .insert(format!("breakout `{}` ({})", b.map, b.mode));
            }
            out.push(b);
            continue;
        }
        let Some(parent) = &p.parent else { continue };
        if out.last().is_some_and(|b| b.port == *parent) {
            continue;
        }
        let lanes = s.ports[i..]
            .iter()
            .take_while(|q| q.parent.as_ref() == Some(parent))
            .count();
        let mode = format!("{lanes}x{}", p.speed);
        let span = p.span.unwrap_or(s.model.span);
        let (os, name) = (lx.os(), lx.name());
        let Some(caps) = &lx.f.breakout else {
            lx.unsupported(
                "breakout",
                span,
                format!("democ has no breakout syntax for `{os}` (`{name}:{parent}`)"),
                "cable the port unsplit, or use a switch whose OS democ can break out",
            );
            continue;
        };
        let Some(map) = caps.modes.get(&mode) else {
            let modes: Vec<&str> = caps.modes.keys().map(String::as_str).collect();
            lx.unsupported(
                "breakout",
                span,
                format!("democ cannot break out `{name}:{parent}` as {mode} on `{os}`"),
                format!("`{os}` breakout modes: {}", crate::diag::list(&modes)),
            );
            continue;
        };
        if caps.unconfirmed.contains(&mode) {
            lx.unconfirmed.insert(format!("breakout `{map}` ({mode})"));
        }
        // The parent's whole-port number: the first lane's, in the OS's numbering (SONiC
        // names the parent by its first lane, the first subport's).
        let target = naming::os_number(p)
            .or_else(|| naming::parse(parent))
            .and_then(|c| caps.target.as_deref().map(|t| naming::fill(t, c)))
            .map(|t| naming::with_lane(t, p));
        out.push(Breakout {
            port: parent.clone(),
            mode,
            target,
            map: map.clone(),
        });
    }
    out
}

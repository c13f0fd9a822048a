//! `stripe:` on a flow: each host pair becomes one pair per named sender port, bound to
//! that port (the "4 x 10GE" DTN, FDT over several interfaces). Routing sends each
//! stripe out by its port's cable, so the prediction sums paths that each carry their
//! own NIC, slot and link limits.

use super::Rx;
use super::model::{Flow, Model};
use crate::diag::{Diagnostic, codes};
use crate::spec::flow::Protocol;
use crate::yaml::decode::Located;

/// Expands `f`'s pairs over `ports`; on any refused port the flow stays unstriped (the
/// error stops the build).
pub(super) fn stripe(rx: &mut Rx, m: &Model, f: &mut Flow, ports: &[Located<String>]) {
    let refuse = |rx: &mut Rx, at: crate::source::Span, msg: String, label: &str, help: String| {
        rx.diags.push(
            Diagnostic::new(codes::STRIPE_PORT, at, msg)
                .label(label)
                .help(help),
        );
    };
    if f.protocol.value == Protocol::Rdma {
        let at = ports.first().map_or(f.span, |p| p.span);
        refuse(
            rx,
            at,
            format!("RDMA flow `{}` cannot be striped", f.name.value),
            "stripe on an RDMA flow",
            "declare one RDMA flow per NIC port instead (each with its own `from` port's host), or carry the flow over TCP".into(),
        );
        return;
    }
    if ports.is_empty() {
        refuse(
            rx,
            f.span,
            format!("flow `{}` stripes over no port", f.name.value),
            "empty `stripe:`",
            "name at least two of the sender's ports (`stripe: [p0, p1]`), or leave `stripe:` out"
                .into(),
        );
        return;
    }
    let mut per_pair: Vec<Vec<usize>> = Vec::with_capacity(f.pairs.len());
    let mut ok = true;
    for &(s, _) in &f.pairs {
        let h = &m.hosts[s];
        let mut chosen = Vec::with_capacity(ports.len());
        for (k, p) in ports.iter().enumerate() {
            if ports[..k].iter().any(|q| q.value == p.value) {
                refuse(
                    rx,
                    p.span,
                    format!("port `{}` is named twice in `stripe:`", p.value),
                    "named again",
                    "name each port once".into(),
                );
                ok = false;
                continue;
            }
            let Some(i) = h.ports.iter().position(|x| x.name == p.value) else {
                let have: Vec<&str> = h.ports.iter().map(|x| x.name.as_str()).collect();
                refuse(
                    rx,
                    p.span,
                    format!("`{}` has no port `{}`", h.name.value, p.value),
                    "not a port of the sender",
                    format!("the sender's NIC ports are {}", have.join(", ")),
                );
                ok = false;
                continue;
            };
            match h.ports[i].link {
                None => {
                    refuse(
                        rx,
                        p.span,
                        format!("`{}:{}` is not cabled", h.name.value, p.value),
                        "no link",
                        "cable the port in `links:`, or leave it out of `stripe:`".into(),
                    );
                    ok = false;
                }
                Some(l) if m.links[l].lag.is_some() => {
                    refuse(rx, p.span, format!("`{}:{}` is a member of a bond", h.name.value, p.value), "bonded", "a bond's members share its address and the bond already spreads streams over them: stripe over unbonded ports, or drop the `lag:`".into());
                    ok = false;
                }
                Some(_) => chosen.push(i),
            }
        }
        per_pair.push(chosen);
        if !ok {
            return;
        }
    }
    let width = ports.len();
    let mut pairs = Vec::with_capacity(f.pairs.len() * width);
    let mut stripes = Vec::with_capacity(f.pairs.len() * width);
    for (&pair, chosen) in f.pairs.iter().zip(&per_pair) {
        for &i in chosen {
            pairs.push(pair);
            stripes.push(i);
        }
    }
    f.pairs = pairs;
    f.stripes = stripes;
    f.stripe_width = width;
}

/// `pin:` sockets each end's hosts have (E0274).
pub(super) fn pinned_sockets(rx: &mut Rx, m: &Model, f: &Flow, pin: &crate::spec::flow::Pin) {
    let ends = [(&pin.sender, true), (&pin.receiver, false)];
    for (socket, sender) in ends {
        let Some(s) = socket else { continue };
        let short = f
            .pairs
            .iter()
            .map(|&(a, b)| if sender { a } else { b })
            .find(|&h| s.value >= m.hosts[h].sockets);
        if let Some(h) = short {
            let h = &m.hosts[h];
            rx.diags.push(
                Diagnostic::new(
                    codes::PIN_SOCKET,
                    s.span,
                    format!("`{}` has no socket {}", h.name.value, s.value),
                )
                .label(format!("sockets are 0 to {}", h.sockets.saturating_sub(1)))
                .help("pin to a socket the host has, or leave `pin:` out to run on each NIC's own"),
            );
        }
    }
}

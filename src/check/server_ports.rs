//! Test-server ports per receiving host: the host scripts start one server (iperf3 or
//! ib_write_bw) per routed pair on the receiving host, each on its own port counted up
//! from `first_port` (templates/linux/tuning.yaml) to 65535. A host with more pairs than
//! ports is refused (E0228) rather than given servers on ports below `first_port`, which
//! belong to other services; that many servers on one host is no throughput test anyway.

use super::CheckInput;
use crate::diag::{Diagnostic, Diags, codes};
use crate::host_tuning::first_server_port;

/// E0228 once per host that runs out, at the flow whose pair finds no port left.
pub(crate) fn check(cx: &CheckInput, diags: &mut Diags) {
    let Ok(first) = first_server_port() else {
        return;
    };
    let ports = usize::from(u16::MAX - first) + 1;
    let m = cx.m;
    let mut pairs = vec![0usize; m.hosts.len()];
    // Per host: the flow and sending host of the first pair without a port.
    let mut short = vec![None; m.hosts.len()];
    for (fi, fr) in cx.routes.flows.iter().enumerate() {
        for pr in &fr.pairs {
            pairs[pr.dst] += 1;
            if pairs[pr.dst] == ports + 1 {
                short[pr.dst] = Some((fi, pr.src));
            }
        }
    }
    for (dst, at) in short.into_iter().enumerate() {
        let Some((fi, src)) = at else { continue };
        let (f, host) = (&m.flows[fi], &m.hosts[dst].name.value);
        diags.push(
            Diagnostic::new(
                codes::SERVER_PORTS,
                f.name.span,
                format!(
                    "host `{host}` receives {} test pairs but has {ports} server ports \
                     ({first} to 65535)",
                    pairs[dst]
                ),
            )
            .label(format!(
                "flow `{}`: the pair from `{}` finds no port left on `{host}`",
                f.name.value, m.hosts[src].name.value
            ))
            .help(format!(
                "spread these flows over more receiving hosts: each routed pair runs its own \
                 test server on the receiver, one port each from {first} up, so one host \
                 serves at most {ports} pairs"
            )),
        );
    }
}

//! Diagnostics from the loads and predictions: oversubscribed links and LAGs, missing
//! drives, too few TCP streams, NUMA crossings, flows predicted below their demand.

use super::CheckInput;
use super::load::{Loads, Res};
use super::predict::{Detail, Plan, SHORTFALL};
use crate::diag::{Diagnostic, Diags, Severity, codes, plural};
use crate::resolve::model::LinkKind;
use crate::source::Span;

fn link_span(cx: &CheckInput, r: &Res) -> Option<Span> {
    Some(match r {
        Res::Link(l, _) => match cx.m.links[*l].kind {
            LinkKind::Wan(w) => cx.m.wans[w].name.span,
            LinkKind::Lan => cx.m.links[*l].span_a,
        },
        Res::Lag(g, _) => cx.m.lags[*g].span,
        _ => return None,
    })
}

fn capacity(cx: &CheckInput, plan: &Plan, loads: &Loads, diags: &mut Diags) {
    let warn = cx.m.settings.warn_utilization;
    for (r, u) in &plan.links {
        let Some(span) = link_span(cx, r) else {
            continue;
        };
        let (sev, what) = if u.utilization_pct > 100.0 + 1e-6 {
            (Severity::Error, "oversubscribed")
        } else if u.utilization_pct > warn {
            (Severity::Warning, "nearly full")
        } else {
            continue;
        };
        let code = if sev == Severity::Error {
            codes::OVERSUBSCRIBED
        } else {
            codes::HIGH_UTILIZATION
        };
        let mut d = Diagnostic::new(code, span, format!("{} is {what}: {:.0} Gbit/s of demand on {:.0} Gbit/s ({:.0}%)", u.link, u.load_gbps, u.capacity_gbps, u.utilization_pct))
            .severity(sev)
            .label(format!("{what} ({})", u.direction))
            .help("add capacity (more members or links), route some flows another way (`path:` or `routing: widest`), or lower their rates");
        for &fi in loads.flows(r).iter().take(3) {
            d = d.also(
                cx.m.flows[fi].rate.span,
                format!("`{}` adds load", cx.m.flows[fi].name.value),
            );
        }
        if only_expected(cx, plan, loads.flows(r)) {
            d = d.severity(Severity::Note).note(
                "expected: a flow here says `expect: infeasible`, and every other flow on this link gets its demand",
            );
        }
        diags.push(d);
    }
}

/// Whether a full resource is full only because of flows that expect to be infeasible:
/// some of its flows say `expect: infeasible`, and every other one is predicted to reach
/// its demand (max-min sharing leaves them their share).
fn only_expected(cx: &CheckInput, plan: &Plan, flows: &[usize]) -> bool {
    let expected = |&f: &usize| cx.m.flows[f].expect_infeasible;
    flows.iter().any(expected)
        && flows
            .iter()
            .filter(|f| !expected(f))
            .all(|&f| plan.flows.get(f).is_some_and(|p| p.feasible))
}

fn storage(cx: &CheckInput, loads: &Loads, facts: &[super::predict::HostFacts], diags: &mut Diags) {
    for (r, demand) in loads.used() {
        let (h, write) = match r {
            Res::Read(h) => (h, false),
            Res::Write(h) => (h, true),
            _ => continue,
        };
        let io = &facts[h].io;
        let have = if write { io.write_gbps } else { io.read_gbps };
        let demand = demand / 1e9;
        if demand <= have * 1.0001 {
            continue;
        }
        let host = &cx.m.hosts[h];
        let per = if write {
            io.per_drive_write
        } else {
            io.per_drive_read
        };
        let need = if per > 0.0 {
            (demand / per).ceil() as u32
        } else {
            0
        };
        let span = host
            .nvme
            .first()
            .map(|g| g.span)
            .or(host.raid.first().map(|a| a.span))
            .unwrap_or(host.name.span);
        let verb = if write { "write" } else { "read" };
        let missing = need.saturating_sub(io.drives);
        let help = if !host.raid.is_empty() {
            format!(
                "{}: add members or another array on its own controller, or use a level that {verb}s at more members (RAID 0 all, RAID 5 n-1, RAID 6 n-2, RAID 10 n/2 writing)",
                if write { &io.write_why } else { &io.read_why }
            )
        } else if missing > 0 {
            format!(
                "{demand:.0} Gbit/s needs {need} drives at {per:.1} Gbit/s each: add {} (or faster drives)",
                plural(missing as usize, "drive")
            )
        } else {
            format!(
                "the drives are enough but their PCIe path is not: {}",
                if write { &io.write_why } else { &io.read_why }
            )
        };
        let mut d = Diagnostic::new(
            codes::STORAGE,
            span,
            format!(
                "{} drives {verb} {have:.1} Gbit/s, its disk flows need {demand:.1}",
                host.shown()
            ),
        )
        .label(format!("{} drive(s)", io.drives))
        .help(help)
        .severity(Severity::Warning);
        for &fi in loads.flows(&r).iter().take(2) {
            d = d.also(
                cx.m.flows[fi].rate.span,
                format!("`{}`", cx.m.flows[fi].name.value),
            );
        }
        diags.push(d);
    }
}

fn flows(cx: &CheckInput, plan: &Plan, diags: &mut Diags) {
    for (f, p) in cx.m.flows.iter().zip(&plan.flows) {
        let cpu =
            cx.m.hosts
                .get(f.pairs[0].0)
                .filter(|_| f.streams.is_some())
                .and_then(|h| cx.db.cpus.get(&h.cpu));
        if let (Some(s), Some(cpu)) = (&f.streams, cpu) {
            let need = (f.pair_rate().gbps() / cpu.tcp_stream_gbps).ceil() as u32;
            if f.protocol.value != crate::spec::flow::Protocol::Rdma && s.value < need {
                diags.push(
                    Diagnostic::new(codes::CPU_STREAMS, s.span, format!("{} at {:.1} Gbit/s per stream on `{}` carry {:.0} of the {:.0} Gbit/s each pair needs", plural(s.value as usize, "stream"), cpu.tcp_stream_gbps, cx.m.hosts[f.pairs[0].0].cpu.value, f64::from(s.value) * cpu.tcp_stream_gbps, f.pair_rate().gbps()))
                        .label("too few streams")
                        .help(format!("use `streams: {need}` (one core each, on the NIC's socket)")),
                );
            }
        }
        if let Some(what) = p.numa_remote {
            diags.push(
                Diagnostic::new(codes::NUMA, f.name.span, format!("flow `{}` moves data between {what} on different sockets", f.name.value))
                    .label("crosses the socket interconnect")
                    .help(if what == "a pinned socket and its NIC" {
                        "the flow's `pin:` runs it away from its NIC: leave `pin:` out (each end then runs on its NIC's socket), or acknowledge with `allow: [W0242]` when the crossing is the demonstration; the prediction assumes the cross-socket cost"
                    } else {
                        "move the NIC or the drives to the same socket, or pin the transfer with `numactl -N <socket>` on the NIC's socket; the prediction assumes the cross-socket cost"
                    }),
            );
        }
        if p.predicted_gbps < SHORTFALL * p.demand_gbps {
            let d = Diagnostic::new(
                codes::SHORTFALL,
                f.rate.span,
                format!(
                    "flow `{}` is predicted to reach {:.1} of {:.1} Gbit/s",
                    f.name.value, p.predicted_gbps, p.demand_gbps
                ),
            )
            .label(format!("bottleneck: {}", p.bottleneck.why))
            .help(p.bottleneck.fix.clone().unwrap_or_else(|| {
                "`democ plan` shows every limit; raise the bottleneck or lower the rate".into()
            }));
            diags.push(if f.expect_infeasible {
                d.severity(Severity::Note)
                    .note("expected: the flow says `expect: infeasible`")
            } else {
                d
            });
        }
    }
}

/// The findings, from a prediction at `detail`; the plan when that is `Full` (a build
/// shows it: predicted once, not again for plan.json and the report). The findings are
/// the same at either detail.
pub(crate) fn check(cx: &CheckInput, diags: &mut Diags, detail: Detail) -> Option<Plan> {
    let (plan, loads, facts) = super::predict::analyse(cx, detail);
    capacity(cx, &plan, &loads, diags);
    super::lag_hashing::check(cx, &loads, diags);
    storage(cx, &loads, &facts, diags);
    flows(cx, &plan, diags);
    if detail == Detail::Full && !plan.fabrics.is_empty() {
        let fabrics = super::fabrics::predict(cx, &facts, &plan.flows, Detail::Shortfalls);
        super::fabrics::check(cx, &fabrics, diags);
    } else {
        super::fabrics::check(cx, &plan.fabrics, diags);
    }
    (detail == Detail::Full).then_some(plan)
}

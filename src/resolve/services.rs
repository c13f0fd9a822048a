//! `show.services` with its defaults applied, and the SNMP community checked as a token
//! that can reach a device config.

use std::net::Ipv4Addr;

use super::model::{Services, Sflow, Snmp};
use crate::diag::{Diagnostic, Diags, codes};
use crate::spec::addr::Addr;
use crate::spec::services::Services as Spec;
use crate::yaml::decode::Located;

/// sFlow's IANA-assigned collector port.
const SFLOW_PORT: u16 = 6343;
/// One packet in 16384: the default sampling rate of several switch OSes for 100G
/// ports, and a rate every OS democ writes accepts.
const SFLOW_SAMPLE_RATE: u32 = 16384;
const SFLOW_POLLING_S: u32 = 20;

/// A community reaches every OS's CLI as one word: letters, digits, `-`, `_`, `.`, at
/// most 20 characters (FTOS 9's limit, the smallest of the OSes democ writes).
fn community_ok(c: &str) -> bool {
    !c.is_empty()
        && c.len() <= 20
        && c.chars()
            .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '-' | '_' | '.'))
}

/// The addresses of a list, each once, in the order written.
fn addresses(list: Option<&Vec<Located<Addr>>>) -> Vec<Located<Ipv4Addr>> {
    let mut out: Vec<Located<Ipv4Addr>> = Vec::new();
    for a in list.into_iter().flatten() {
        if !out.iter().any(|o| o.value == a.value.0) {
            out.push(Located::new(a.value.0, a.span));
        }
    }
    out
}

pub(super) fn services(spec: Option<&Spec>, diags: &mut Diags) -> Services {
    let Some(s) = spec else {
        return Services {
            lldp: true,
            ..Services::default()
        };
    };
    let snmp = s.snmp.as_ref().and_then(|n| {
        if !community_ok(&n.community.value) {
            diags.push(
                Diagnostic::new(
                    codes::INVALID_VALUE,
                    n.community.span,
                    "this community cannot be written into a switch config as one word",
                )
                .label("not a community democ writes")
                .help("use letters, digits, `-`, `_` and `.`, at most 20 characters (FTOS 9's limit): `sc16-ro`"),
            );
            return None;
        }
        Some(Snmp {
            community: n.community.value.clone(),
            community_span: n.community.span,
            traps: addresses(n.traps.as_ref()),
        })
    });
    let sflow = s.sflow.as_ref().map(|f| Sflow {
        collector: Located::new(f.collector.value.0, f.collector.span),
        port: f.port.as_ref().map_or(SFLOW_PORT, |p| p.value),
        sample_rate: f
            .sample_rate
            .clone()
            .unwrap_or(Located::new(SFLOW_SAMPLE_RATE, f.collector.span)),
        polling_s: f.polling_s.as_ref().map_or(SFLOW_POLLING_S, |p| p.value),
    });
    Services {
        ntp: addresses(s.ntp.as_ref()),
        syslog: addresses(s.syslog.as_ref()),
        snmp,
        sflow,
        lldp: s.lldp.as_ref().is_none_or(|l| l.value),
        gnmi: s.gnmi.as_ref().filter(|g| g.value).map(|g| g.span),
    }
}

//! `ir/flows/flows.json` written in place: the bytes `serde_json::to_writer_pretty`
//! gives for the flows' IR (fields in the structs' order), without serde_json's
//! per-field calls and its byte-at-a-time test for escapes of every key and name (at
//! 100,000 flows the file is 67 MB, a third of a build's serializing). The fields must
//! follow `ir::flow`'s; `tests::same_as_serde` holds them to it. A build writes it
//! from views of the model (`lower::flows::write`), never holding the flows' IR.

use crate::ir::flow::Flow;
use crate::plan::sorted::{Open, array, integer, number, optional, string};

/// Bytes gathered before they go to the writer (a few in tests, so they hand over
/// blocks mid-array).
const BLOCK: usize = if cfg!(test) { 64 } else { 1 << 20 };

/// A flow of the IR as flows.json prints it, borrowed from wherever its texts are.
pub(crate) struct FlowView<'a> {
    pub(crate) name: &'a str,
    pub(crate) protocol: &'a str,
    pub(crate) cookie: &'a str,
    pub(crate) cookie_mask: &'a str,
    pub(crate) pairs: &'a [PairView<'a>],
}

pub(crate) struct PairView<'a> {
    pub(crate) src: &'a str,
    pub(crate) dst: &'a str,
    pub(crate) src_address: Option<&'a str>,
    pub(crate) dst_address: Option<&'a str>,
    pub(crate) mtu: u32,
    pub(crate) rtt_ms: f64,
    pub(crate) path: &'a [HopView<'a>],
}

/// A hop: its switch, and the ports the pair enters and leaves by.
pub(crate) type HopView<'a> = [&'a str; 3];

/// The flows `flow(i, out)` writes (each with [`flow`], one level deep), as pretty
/// JSON and a newline, to `w` a block at a time.
pub(crate) fn write_each(
    n: usize,
    w: &mut dyn std::io::Write,
    mut flow: impl FnMut(usize, &mut Vec<u8>),
) -> std::io::Result<()> {
    let mut out = Vec::with_capacity(2 * BLOCK);
    let mut a = Open::new(&mut out, 0, b'[');
    for i in 0..n {
        a.next(&mut out);
        flow(i, &mut out);
        if out.len() >= BLOCK {
            w.write_all(&out)?;
            out.clear();
        }
    }
    a.close(&mut out, b']');
    out.push(b'\n');
    w.write_all(&out)
}

/// The flows of a lowered IR (`democ ir`'s, the library's builds) as [`write_each`]
/// writes them.
pub(crate) fn write(flows: &[Flow], w: &mut dyn std::io::Write) -> std::io::Result<()> {
    let mut hops = Vec::new();
    write_each(flows.len(), w, |i, out| {
        let f = &flows[i];
        hops.clear();
        for p in &f.pairs {
            hops.extend(
                p.path
                    .iter()
                    .map(|h| [&*h.switch, &*h.in_port, &*h.out_port]),
            );
        }
        // Borrowing `hops`, so made afresh per flow.
        let mut pairs = Vec::with_capacity(f.pairs.len());
        let mut at = 0;
        for p in &f.pairs {
            let path = &hops[at..at + p.path.len()];
            at += p.path.len();
            pairs.push(PairView {
                src: &p.src,
                dst: &p.dst,
                src_address: p.src_address.as_deref(),
                dst_address: p.dst_address.as_deref(),
                mtu: p.mtu,
                rtt_ms: p.rtt_ms,
                path,
            });
        }
        let view = FlowView {
            name: &f.name,
            protocol: &f.protocol,
            cookie: &f.cookie,
            cookie_mask: &f.cookie_mask,
            pairs: &pairs,
        };
        flow(out, 1, &view);
    })
}

/// One flow `depth` levels deep.
pub(crate) fn flow(out: &mut Vec<u8>, depth: usize, f: &FlowView) {
    let mut o = Open::new(out, depth, b'{');
    texts(
        out,
        &mut o,
        [
            ("name", f.name),
            ("protocol", f.protocol),
            ("cookie", f.cookie),
            ("cookie_mask", f.cookie_mask),
        ],
    );
    o.key(out, "pairs");
    array(out, depth + 1, f.pairs, pair);
    o.close(out, b'}');
}

/// Members whose values are texts, in order.
fn texts<const N: usize>(out: &mut Vec<u8>, o: &mut Open, members: [(&str, &str); N]) {
    for (k, v) in members {
        o.key(out, k);
        string(out, v);
    }
}

fn pair(out: &mut Vec<u8>, depth: usize, p: &PairView) {
    let mut o = Open::new(out, depth, b'{');
    texts(out, &mut o, [("src", p.src), ("dst", p.dst)]);
    o.key(out, "src_address");
    optional(out, p.src_address);
    o.key(out, "dst_address");
    optional(out, p.dst_address);
    o.key(out, "mtu");
    integer(out, p.mtu);
    o.key(out, "rtt_ms");
    number(out, p.rtt_ms);
    o.key(out, "path");
    array(out, depth + 1, p.path, hop);
    o.close(out, b'}');
}

fn hop(out: &mut Vec<u8>, depth: usize, h: &HopView) {
    let mut o = Open::new(out, depth, b'{');
    let [switch, in_port, out_port] = *h;
    texts(
        out,
        &mut o,
        [
            ("switch", switch),
            ("in_port", in_port),
            ("out_port", out_port),
        ],
    );
    o.close(out, b'}');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::flow::{Hop, Pair};

    fn serde(flows: &[Flow]) -> Vec<u8> {
        let mut want = serde_json::to_vec_pretty(flows).unwrap();
        want.push(b'\n');
        want
    }

    fn written(flows: &[Flow]) -> Vec<u8> {
        let mut out = Vec::new();
        write(flows, &mut out).unwrap();
        out
    }

    /// Written in place, the flows print as serde_json prints them: empty lists, absent
    /// addresses, texts needing escapes, odd numbers, and blocks handed over mid-array.
    #[test]
    fn same_as_serde() {
        let hop = |s: &str, i: &str| Hop {
            switch: s.into(),
            in_port: i.into(),
            out_port: "1/26".into(),
        };
        let pair = |path: Vec<Hop>, rtt_ms: f64| Pair {
            src: "dtn-\"1\"".into(),
            dst: "dtn-2\\\n".into(),
            src_address: Some("10.0.0.1".into()),
            dst_address: None,
            mtu: 9000,
            rtt_ms,
            path,
        };
        let flow = |name: &str, pairs: Vec<Pair>| Flow {
            name: name.into(),
            protocol: "tcp".into(),
            cookie: "0xdc5a59c644000000".into(),
            cookie_mask: "0xffffffffff000000".into(),
            pairs,
        };
        let flows = [
            flow("f-0", Vec::new()),
            flow(
                "f-é\t",
                vec![
                    pair(vec![hop("sw-1", "1/1"), hop("sw-2", "lag7")], 0.006),
                    pair(Vec::new(), f64::NAN),
                    pair(vec![hop("a", "\u{1f}")], 1e21),
                ],
            ),
            flow("f-2", vec![pair(vec![hop("sw-3", "1/3")], 12.5)]),
        ];
        assert_eq!(written(&[]), serde(&[]));
        for n in 0..=flows.len() {
            assert_eq!(
                String::from_utf8(written(&flows[..n])).unwrap(),
                String::from_utf8(serde(&flows[..n])).unwrap()
            );
        }
    }
}

//! The allowed range of every number a user writes where the type alone allows nonsense:
//! VLAN ids, ASNs, MTUs, latencies, lengths. A field declared `= opt in BOUND` in
//! `spec_struct!` is checked here at parse time (E0114, with the range and the reason in
//! the help) and carries the same minimum and maximum in the JSON Schema, so the two
//! cannot drift. Values past the bound would otherwise reach configs a switch rejects,
//! scripts that do nonsense, or (negative latencies) a routing search that never ends.

use crate::diag::{Diagnostic, codes};
use crate::source::Span;
use crate::yaml::decode::{DecodeContext, Located, Named};

/// A closed range, what the number is, and why the range is what it is.
pub(crate) struct Bound {
    pub(crate) lo: f64,
    pub(crate) hi: f64,
    /// "a VLAN id": completes "use ... from LO to HI".
    pub(crate) what: &'static str,
    pub(crate) why: &'static str,
    /// Only powers of two inside the range are allowed.
    pub(crate) pow2: bool,
}

impl Bound {
    /// The bounds as JSON numbers for the schema (integers stay integers).
    pub(crate) fn min_json(&self) -> serde_json::Value {
        json_number(self.lo)
    }
    pub(crate) fn max_json(&self) -> serde_json::Value {
        json_number(self.hi)
    }

    fn admits(&self, v: f64) -> bool {
        // NaN fails both comparisons and is refused.
        let inside = v >= self.lo && v <= self.hi;
        inside && (!self.pow2 || (v.fract() == 0.0 && (v as u64).is_power_of_two()))
    }
}

fn json_number(x: f64) -> serde_json::Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        serde_json::Value::from(x as i64)
    } else {
        serde_json::Value::from(x)
    }
}

/// A number as a user would write it: whole numbers without `.0`, huge ones in
/// exponent form (1e308 has 309 digits).
pub(crate) fn show(x: f64) -> String {
    if x.is_finite() && x.abs() >= 1e12 {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// A number a bound can judge.
pub(crate) trait Num: Copy {
    fn to_f64(self) -> f64;
}

macro_rules! num {
    ($($t:ty),*) => {$(
        impl Num for $t {
            // u64 past 2^53 rounds, which cannot move it across any bound here.
            #[allow(clippy::cast_precision_loss)]
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
    )*};
}
num!(u8, u16, u32, u64, f64);

/// A field value whose numbers a bound can check: one number, or a list or map of them.
pub(crate) trait Bounded {
    /// Reports each number outside `b`, at its own span or else at `at` (the field's
    /// value); true when all are inside.
    fn within(&self, cx: &mut DecodeContext, key: &str, at: Span, b: &Bound) -> bool;
}

impl<T: Num> Bounded for Located<T> {
    fn within(&self, cx: &mut DecodeContext, key: &str, _: Span, b: &Bound) -> bool {
        self.value.within(cx, key, self.span, b)
    }
}

impl<T: Num> Bounded for T {
    fn within(&self, cx: &mut DecodeContext, key: &str, at: Span, b: &Bound) -> bool {
        let v = self.to_f64();
        if b.admits(v) {
            return true;
        }
        let (lo, hi) = (show(b.lo), show(b.hi));
        let kind = if b.pow2 { "a power of two" } else { "a value" };
        cx.error(
            Diagnostic::new(
                codes::OUT_OF_RANGE,
                at,
                format!("`{key}` {} is out of range", show(v)),
            )
            .label(format!("not {kind} from {lo} to {hi}"))
            .help(format!("use {} from {lo} to {hi}: {}", b.what, b.why)),
        );
        false
    }
}

impl<T: Bounded> Bounded for Vec<T> {
    fn within(&self, cx: &mut DecodeContext, key: &str, at: Span, b: &Bound) -> bool {
        // Every bad item is reported, so no short-circuit.
        self.iter()
            .filter(|item| !item.within(cx, key, at, b))
            .count()
            == 0
    }
}

impl<T: Num> Bounded for Named<T> {
    fn within(&self, cx: &mut DecodeContext, key: &str, _: Span, b: &Bound) -> bool {
        self.iter()
            .filter(|(k, v)| !v.within(cx, key, k.span, b))
            .count()
            == 0
    }
}

/// What `spec_struct!` does with a bounded field: the value when inside, else the
/// diagnostics and nothing (an optional field then falls back to its default, a required
/// one fails its mapping; either way the run has an error).
pub(crate) fn keep<T: Bounded>(
    v: Option<T>,
    cx: &mut DecodeContext,
    key: &str,
    at: Span,
    b: &Bound,
) -> Option<T> {
    match v {
        Some(x) if !x.within(cx, key, at, b) => None,
        other => other,
    }
}

// ---- the bounds ------------------------------------------------------------------------

pub(crate) const VLAN_ID: Bound = Bound {
    lo: 1.0,
    hi: 4094.0,
    what: "a VLAN id",
    why: "IEEE 802.1Q has 12 bits for the id and reserves 0 (priority-tagged frames) and 4095",
    pow2: false,
};

pub(crate) const ASN: Bound = Bound {
    lo: 1.0,
    hi: 4_294_967_294.0,
    what: "an AS number",
    why: "4-byte ASNs (RFC 6793) end at 4294967295, which RFC 7300 reserves, and RFC 7607 \
          reserves AS 0",
    pow2: false,
};

pub(crate) const MEMORY_GB: Bound = Bound {
    lo: 1.0,
    hi: 1_048_576.0,
    what: "a memory size in GB",
    why: "a host without memory cannot run, and the buffer check divides by it; the largest \
          servers hold a few TB, far below a PB",
    pow2: false,
};

pub(crate) const TCP_PORT: Bound = Bound {
    lo: 1.0,
    hi: 65535.0,
    what: "a TCP port",
    why: "port 0 means \"any port\" to the socket API and cannot be connected to",
    pow2: false,
};

pub(crate) const MTU: Bound = Bound {
    lo: 1280.0,
    hi: 65535.0,
    what: "an MTU in bytes",
    why: "below 1280 Linux turns IPv6 off on the interface (RFC 8200's minimum link MTU) and \
          no data-transfer show runs that small (1500 is Ethernet's default, 9000 the DTN \
          norm); above 65535 no IP packet fits. The NIC's or switch's own maximum is checked \
          against the catalog",
    pow2: false,
};

pub(crate) const OVERHEAD_BYTES: Bound = Bound {
    lo: 0.0,
    hi: 1024.0,
    what: "bytes of encapsulation per packet",
    why: "MACsec adds 32 bytes and IPsec or VXLAN tunnels well under 100; a kilobyte of \
          headers per packet is no encapsulation a show would carry",
    pow2: false,
};

pub(crate) const PCIE_MPS: Bound = Bound {
    lo: 128.0,
    hi: 4096.0,
    what: "a MaxPayloadSize in bytes, a power of two",
    why: "the PCIe Device Control register encodes 128, 256, 512, 1024, 2048 or 4096 bytes",
    pow2: true,
};

pub(crate) const PCIE_GEN: Bound = Bound {
    lo: 1.0,
    hi: 6.0,
    what: "a PCIe generation",
    why: "PCIe generations 1 to 6 are the ones the catalog knows",
    pow2: false,
};

pub(crate) const PCIE_WIDTH: Bound = Bound {
    lo: 1.0,
    hi: 16.0,
    what: "a PCIe link width in lanes",
    why: "a slot links x1, x2, x4, x8 or x16",
    pow2: true,
};

pub(crate) const PFC_PRIORITY: Bound = Bound {
    lo: 0.0,
    hi: 7.0,
    what: "an 802.1p priority",
    why: "the priority code point of an 802.1Q tag has 3 bits",
    pow2: false,
};

pub(crate) const STREAMS: Bound = Bound {
    lo: 1.0,
    hi: 128.0,
    what: "a number of TCP streams per host pair",
    why: "iperf3 refuses `-P` above 128, and past a few dozen streams per pair more streams \
          only add contention; spread the rate over more host pairs instead",
    pow2: false,
};

pub(crate) const HOP_LATENCY_US: Bound = Bound {
    lo: 0.0,
    hi: 1_000_000.0,
    what: "a latency per switch hop in microseconds",
    why: "a switch adds between a few hundred nanoseconds and a few microseconds; a negative \
          latency has no meaning and above a second it is no switch",
    pow2: false,
};

pub(crate) const RTT_MS: Bound = Bound {
    lo: 0.0,
    hi: 10_000.0,
    what: "a round-trip time in milliseconds",
    why: "the longest paths on earth, geostationary satellite hops included, stay under a \
          second; a negative time has no meaning",
    pow2: false,
};

pub(crate) const LENGTH_M: Bound = Bound {
    lo: 0.0,
    hi: 200_000.0,
    what: "a cable length in meters",
    why: "a LAN cable is at most tens of kilometers even with ZR optics; longer spans are \
          `wan:` dark fiber in kilometers. The medium's own reach is checked against the \
          catalog",
    pow2: false,
};

pub(crate) const LENGTH_KM: Bound = Bound {
    lo: 0.0,
    hi: 40_075.0,
    what: "a fiber length in kilometers",
    why: "no span is longer than the earth's circumference (40,075 km)",
    pow2: false,
};

pub(crate) const SPLICES: Bound = Bound {
    lo: 0.0,
    hi: 100_000.0,
    what: "a count of splices or connectors",
    why: "a splice every 2 km around the earth is 20,000; more is surely a typo",
    pow2: false,
};

pub(crate) const MARGIN_DB: Bound = Bound {
    lo: 0.0,
    hi: 40.0,
    what: "an optical margin in dB",
    why: "a negative margin accepts links that do not close, and no optic's budget reaches \
          40 dB",
    pow2: false,
};

pub(crate) const PERCENT: Bound = Bound {
    lo: 0.0,
    hi: 100.0,
    what: "a percentage",
    why: "a share of a link's capacity is between 0 and 100 %",
    pow2: false,
};

/// Catalog figures that are physical magnitudes: lengths, rates, losses, latencies,
/// sizes. Negative ones would turn checks inside out (a negative fiber latency even made
/// routing loop); dBm figures are not magnitudes and are not bounded.
pub(crate) const MAGNITUDE: Bound = Bound {
    lo: 0.0,
    hi: 1e15,
    what: "a figure",
    why: "a physical magnitude (length, rate, loss, latency, size) is not negative",
    pow2: false,
};

/// Catalog factors between nothing and all: encoding efficiency, the NUMA penalty.
pub(crate) const LOSS: Bound = Bound {
    lo: 0.0,
    hi: 0.5,
    what: "a packet loss rate, as a fraction (1e-5 is one packet in 100,000)",
    why: "a path that loses half its packets carries no TCP at all; a negative rate has no \
          meaning",
    pow2: false,
};

pub(crate) const FRACTION: Bound = Bound {
    lo: 0.0,
    hi: 1.0,
    what: "a fraction",
    why: "an efficiency or a slowdown factor is a share of the whole",
    pow2: false,
};

/// How many packets share one descriptor fetch, write-back, doorbell or interrupt: at
/// least one (a figure per batch is divided by it).
pub(crate) const BATCH: Bound = Bound {
    lo: 1.0,
    hi: 1e6,
    what: "a batch size (packets)",
    why: "a descriptor, doorbell or interrupt serves at least one packet",
    pow2: false,
};

/// Drives in a RAID array or behind one controller: at least one; 240 is what the
/// largest tri-mode controllers address through expanders.
pub(crate) const DRIVES: Bound = Bound {
    lo: 1.0,
    hi: 240.0,
    what: "a drive count",
    why: "an array holds at least one drive, and no controller addresses more than 240",
    pow2: false,
};

/// The OS's own maximum (vendor data) is not checked yet; 0 is no port-channel anywhere.
pub(crate) const LAG_ID: Bound = Bound {
    lo: 1.0,
    hi: 65535.0,
    what: "a port-channel number",
    why: "port-channel numbers start at 1 on every switch OS democ writes",
    pow2: false,
};

pub(crate) const SFLOW_SAMPLE_RATE: Bound = Bound {
    lo: 1.0,
    hi: 4_294_967_295.0,
    what: "an sFlow sampling rate (one packet in N)",
    why: "sFlow v5 carries the sampling rate as a 32-bit number; each switch OS narrows \
          the range further (templates/<vendor>/vendor.yaml)",
    pow2: false,
};

pub(crate) const SFLOW_POLLING_S: Bound = Bound {
    lo: 1.0,
    hi: 3600.0,
    what: "an sFlow counter-polling interval in seconds",
    why: "0 turns counter polling off on most switches, and counters polled less often \
          than hourly tell nothing about a show's transfers",
    pow2: false,
};

//! Effective DMA bandwidth of a PCIe link, after Neugebauer et al., "Understanding PCIe
//! performance for end host networking" (SIGCOMM 2018): the physical layer's encoding
//! and SKP ordered sets, the data-link layer's Ack and UpdateFC DLLPs, the transaction
//! layer's headers (MWr for a device writing host memory; MRd requests one way and CplD
//! completions the other for a device reading it) and, for a NIC, the descriptors,
//! write-backs, doorbells and interrupts around each packet. Every figure is catalog data
//! (`pcie_dma:` in catalog/physics.yaml).

use crate::spec::catalog_file::{PcieDma, PcieGen};

use super::pcie::Lanes;

/// Which way the data goes, seen from the device.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Dir {
    /// The device reads host memory (a NIC sending, a drive being written): MRd + CplD.
    Read,
    /// The device writes host memory (a NIC receiving, a drive being read): MWr.
    Write,
}

/// What moves: bulk transfers (drives, anything without per-packet descriptors) or
/// packets of this many bytes, each with a NIC's descriptor traffic.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Unit {
    Bulk,
    Packet(u32),
}

/// The platform's negotiated Max_Payload_Size and Max_Read_Request_Size, bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Platform {
    pub(crate) mps: u32,
    pub(crate) mrrs: u32,
}

/// Bytes a bulk read or write is cut into: one read request, or one payload.
fn bulk_bytes(p: Platform, dir: Dir) -> f64 {
    f64::from(match dir {
        Dir::Read => p.mrrs,
        Dir::Write => p.mps,
    })
}

/// Rate left for TLPs, Gbit/s: line rate after encoding, minus DLLPs and SKP sets.
pub(crate) fn tlp_gbps(m: &PcieDma, g: &PcieGen, l: Lanes, mps: u32) -> Result<f64, String> {
    let interval = interval_symbols(m, l, mps)?;
    let width = f64::from(l.width.max(1));
    // An interval of N symbol times moves N bytes on each lane; the DLLPs spread over
    // all lanes.
    let dllp = m.dllps_per_interval * m.dllp_bytes / (interval * width);
    let skip = m.skip_symbols / m.skip_interval_symbols.max(1.0);
    let line = g.gt_per_s * width * g.encoding_efficiency;
    Ok((line * (1.0 - dllp - skip)).max(0.0))
}

/// The DLLP interval for a link: the nearest generation and width at or below it in the
/// table, the column of the largest tabulated MPS not above the link's.
fn interval_symbols(m: &PcieDma, l: Lanes, mps: u32) -> Result<f64, String> {
    let gen_row = m
        .interval_symbols
        .iter()
        .filter_map(|(k, v)| Some((k.value.parse::<u8>().ok()?, v)))
        .filter(|(g, _)| *g <= l.generation)
        .max_by_key(|(g, _)| *g)
        .map(|(_, v)| v)
        .ok_or_else(|| format!("no PCIe DLLP interval for generation {}", l.generation))?;
    let widths = gen_row
        .iter()
        .filter_map(|(k, v)| Some((k.value.strip_prefix('x')?.parse::<u8>().ok()?, v)))
        .filter(|(w, _)| *w <= l.width)
        .max_by_key(|(w, _)| *w)
        .map(|(_, v)| v)
        .ok_or_else(|| format!("no PCIe DLLP interval for width x{}", l.width))?;
    let col = m
        .interval_mps
        .iter()
        .enumerate()
        .filter(|(_, c)| **c <= mps)
        .map(|(i, _)| i)
        .next_back()
        .unwrap_or(0);
    match widths.get(col) {
        Some(&v) if v > 0.0 => Ok(v),
        _ => Err(format!(
            "the PCIe DLLP interval table has no positive figure for x{} at MPS {mps}",
            l.width
        )),
    }
}

/// TLPs needed for `bytes` in pieces of at most `piece`.
fn tlps(bytes: f64, piece: f64) -> f64 {
    (bytes / piece.max(1.0)).ceil().max(1.0)
}

/// Effective data rate of DMA in one direction, Gbit/s.
pub(crate) fn dma_gbps(
    m: &PcieDma,
    g: &PcieGen,
    l: Lanes,
    p: Platform,
    dir: Dir,
    unit: Unit,
) -> Result<f64, String> {
    let tlp = tlp_gbps(m, g, l, p.mps)?;
    let (data, there, back) = match unit {
        Unit::Bulk => {
            let s = bulk_bytes(p, dir);
            let (there, back) = transfer(m, p, dir, s);
            (s, there, back)
        }
        Unit::Packet(size) => {
            let s = f64::from(size.max(1));
            let (mut there, mut back) = transfer(m, p, dir, s);
            let (t, b) = nic_overhead(m, p, dir);
            there += t;
            back += b;
            (s, there, back)
        }
    };
    // The data direction carries `there` bytes per unit, the other direction `back`
    // (read requests, descriptor traffic); whichever fills first sets the rate.
    let rate = tlp * data / there;
    Ok(if back > 0.0 {
        rate.min(tlp * data / back)
    } else {
        rate
    })
}

/// Bytes on the wire for one transfer of `s` bytes: (data direction, other direction).
fn transfer(m: &PcieDma, p: Platform, dir: Dir, s: f64) -> (f64, f64) {
    let mps = f64::from(p.mps);
    match dir {
        Dir::Write => (s + tlps(s, mps) * m.mwr_header_bytes, 0.0),
        // No completion is larger than its request: pieces of at most min(MPS, MRRS).
        Dir::Read => (
            s + tlps(s, mps.min(f64::from(p.mrrs))) * m.cpld_header_bytes,
            tlps(s, f64::from(p.mrrs)) * m.mrd_header_bytes,
        ),
    }
}

/// A NIC's bytes per packet besides the packet: (data direction, other direction).
fn nic_overhead(m: &PcieDma, p: Platform, dir: Dir) -> (f64, f64) {
    let n = &m.nic;
    let mps = f64::from(p.mps);
    let write = |bytes: f64| bytes + tlps(bytes, mps) * m.mwr_header_bytes;
    // A fetch of `batch` descriptors: its read requests go out, its completions come in.
    let fetch = |batch: f64| {
        let bytes = n.descriptor_bytes * batch;
        (
            (bytes + tlps(bytes, mps) * m.cpld_header_bytes) / batch,
            tlps(bytes, f64::from(p.mrrs)) * m.mrd_header_bytes / batch,
        )
    };
    let interrupt = write(n.interrupt_bytes) / n.interrupt_batch;
    match dir {
        // Sending: the packet and the descriptors come from the host (completions), the
        // host rings the doorbell; the NIC writes back and interrupts the other way.
        Dir::Read => {
            let (cpl, req) = fetch(n.tx_fetch_batch);
            let doorbell = write(n.doorbell_bytes) / n.tx_doorbell_batch;
            let wb = write(n.writeback_bytes * n.tx_writeback_batch) / n.tx_writeback_batch;
            (cpl + doorbell, req + wb + interrupt)
        }
        // Receiving: the packet, its write-back, the interrupt and the descriptor read
        // requests go to the host; descriptors and free-list doorbells come back.
        Dir::Write => {
            let (cpl, req) = fetch(n.rx_fetch_batch);
            let doorbell = write(n.doorbell_bytes) / n.rx_doorbell_batch;
            let wb = write(n.writeback_bytes * n.rx_writeback_batch) / n.rx_writeback_batch;
            (wb + interrupt + req, cpl + doorbell)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog() -> (&'static PcieDma, impl Fn(u8) -> &'static PcieGen) {
        // Leaked: the tests hold its entries for their whole run.
        let db: &'static crate::catalog::Catalog = Box::leak(Box::new(
            crate::catalog::owned().expect("the embedded catalog parses"),
        ));
        let m = db.pcie_dma.as_ref().unwrap();
        let generation = move |g: u8| db.pcie.get(&g.to_string()).unwrap();
        (m, generation)
    }

    const P: Platform = Platform {
        mps: 256,
        mrrs: 512,
    };

    fn lanes(generation: u8, width: u8) -> Lanes {
        Lanes { generation, width }
    }

    #[test]
    fn gen4_and_gen5_take_gen3_intervals_and_x12_takes_x8() {
        let (m, _) = catalog();
        let i = |g, w| interval_symbols(m, lanes(g, w), 256).unwrap();
        assert_eq!(i(4, 16), i(3, 16));
        assert_eq!(i(5, 8), i(3, 8));
        assert_eq!(i(3, 12), i(3, 8));
        // An MPS between columns takes the smaller column.
        assert_eq!(
            interval_symbols(m, lanes(3, 8), 384).unwrap(),
            interval_symbols(m, lanes(3, 8), 256).unwrap()
        );
    }

    #[test]
    fn read_requests_smaller_than_the_payload_size_cut_completions_smaller() {
        // MRRS 128 under MPS 256: every completion carries at most 128 B, so its 20 B
        // header weighs twice as much as at MRRS 512.
        let (m, generation) = catalog();
        let g = generation(3);
        let big = dma_gbps(m, g, lanes(3, 8), P, Dir::Read, Unit::Bulk).unwrap();
        let small = Platform {
            mps: 256,
            mrrs: 128,
        };
        let small = dma_gbps(m, g, lanes(3, 8), small, Dir::Read, Unit::Bulk).unwrap();
        assert!(small < big, "{small} < {big}");
    }

    #[test]
    fn a_nic_loses_more_on_small_packets_than_on_jumbo_frames() {
        let (m, generation) = catalog();
        let g = generation(3);
        let l = lanes(3, 16);
        for dir in [Dir::Read, Dir::Write] {
            let small = dma_gbps(m, g, l, P, dir, Unit::Packet(1514)).unwrap();
            let jumbo = dma_gbps(m, g, l, P, dir, Unit::Packet(9014)).unwrap();
            let bulk = dma_gbps(m, g, l, P, dir, Unit::Bulk).unwrap();
            assert!(
                small < jumbo && jumbo < bulk * 1.01,
                "{dir:?}: {small} {jumbo} {bulk}"
            );
        }
    }

    #[test]
    fn a_zero_interval_is_an_error_not_a_negative_rate() {
        let (m, generation) = catalog();
        let mut bad = m.clone();
        for (_, widths) in bad.interval_symbols.entries.iter_mut() {
            for (_, v) in widths.entries.iter_mut() {
                v.iter_mut().for_each(|x| *x = 0.0);
            }
        }
        assert!(dma_gbps(&bad, generation(3), lanes(3, 8), P, Dir::Write, Unit::Bulk).is_err());
    }
}

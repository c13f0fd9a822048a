//! The cabling plan and bill of materials: every cable with both ends and what is
//! plugged into them, and the parts to order per site (`cabling.csv`, `bom.csv`).

use schemars::JsonSchema;
use serde::Serialize;

/// One end of a cable.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CableEnd {
    pub(crate) site: String,
    /// The site's booth number, or its location (remote sites).
    pub(crate) booth: Option<String>,
    pub(crate) device: String,
    /// The physical port (a breakout's parent, `1/17`; a NIC port, `p0`).
    pub(crate) port: String,
    /// The breakout lane (`2` of `1/17:2`).
    pub(crate) subport: Option<String>,
    /// Catalog optic in this port; none for copper and AOC.
    pub(crate) optic: Option<String>,
}

/// One cable (or one WAN hand-off: a fiber pair to a carrier or a dark-fiber span).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Cable {
    /// `<show>-<n>`, numbered in the spec's order: what the label starts with.
    pub(crate) id: String,
    /// `lan`, `dark-fiber`, `otn` or `circuit`; `otn-client` for the run from a switch
    /// port to an OTN transponder's client port (`client_a:` / `client_b:`); `mgmt` for
    /// a management port's patch to its site's management switch.
    pub(crate) kind: String,
    /// The WAN entry, for WAN links.
    pub(crate) wan: Option<String>,
    pub(crate) speed: String,
    /// `dac`, `aoc`, `fiber` or `copper` (a management patch); empty when the spec does
    /// not say (a circuit hand-off).
    pub(crate) media: String,
    /// `smf` or `mmf` for fiber.
    pub(crate) fiber: Option<String>,
    /// As declared (`length_m`, a WAN's `length_km`).
    pub(crate) length_m: Option<f64>,
    /// Port-channel number when the cable is a LAG member.
    pub(crate) lag: Option<u16>,
    pub(crate) a: CableEnd,
    pub(crate) b: CableEnd,
    /// Text to print on the label at both ends.
    pub(crate) label: String,
    /// Patch-panel and plant notes (connectors, splices, breakout, carrier).
    pub(crate) notes: String,
}

/// A part to order at one site (`site` is `total` on the summed lines).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct BomLine {
    pub(crate) site: String,
    /// `optic`, `dac`, `aoc`, `breakout-cable`, `breakout-fiber`, `fiber-patch` or
    /// `copper-patch` (management).
    pub(crate) category: String,
    pub(crate) part: String,
    pub(crate) length_m: Option<f64>,
    /// What the show uses.
    pub(crate) quantity: u32,
    /// `show.spares_percent` of it, rounded up.
    pub(crate) spares: u32,
}

/// The show's cabling and bill of materials.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Cabling {
    pub(crate) spares_percent: f64,
    pub(crate) cables: Vec<Cable>,
    /// Per site, then the totals; sorted by site, category, part and length.
    pub(crate) bom: Vec<BomLine>,
}

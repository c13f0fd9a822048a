//! What a show measured, beside the report's predictions (`democ report --results`):
//! per flow and per link direction (by the plan's link words), the rate measured, how it
//! stands against the prediction and, for a flow short of it, the causes `democ verify`
//! found. Filled by the command line from verify's judgement; the report only prints it.

use std::collections::BTreeMap;

use serde::Serialize;

#[derive(Debug, Default, Serialize)]
pub(crate) struct Row {
    pub(crate) gbps: Option<f64>,
    /// verify's word: `ok`, `short`, `above`, `discards`, `unmeasured`, ...
    pub(crate) status: String,
    pub(crate) causes: Vec<String>,
}

#[derive(Debug, Default)]
pub(crate) struct Measured {
    pub(crate) flows: BTreeMap<String, Row>,
    pub(crate) links: BTreeMap<String, Row>,
}

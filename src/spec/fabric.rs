//! `nvme_fabrics:`: NVMe over Fabrics targets and their initiators.

use super::macros::spec_struct;
use super::name::Pattern;
use crate::yaml::decode::{Located, keyword_enum};

keyword_enum! {
    /// NVMe-oF transport.
    pub enum Transport ("NVMe-oF transport") { Rdma = "rdma", Tcp = "tcp" }
}

spec_struct! {
    /// An NVMe-oF target host exporting drives to initiators.
    pub struct Fabric ("NVMe fabric") {
        name: Located<String> = req,
        transport: Located<Transport> = req,
        target: Located<String> = req,
        /// Drives exported (default all of the target's).
        drives: Option<Located<u32>> = opt,
        initiators: Vec<Located<Pattern>> = req,
        /// Transport service id (default 4420).
        port: Option<Located<u16>> = opt in TCP_PORT,
    }
}

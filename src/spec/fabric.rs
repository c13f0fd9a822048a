//! `nvme_fabrics:`: NVMe over Fabrics targets and their initiators.

use super::macros::spec_struct;
use super::name::Pattern;
use crate::yaml::decode::{Sp, keyword_enum};

keyword_enum! {
    /// NVMe-oF transport.
    pub enum Transport ("NVMe-oF transport") { Rdma = "rdma", Tcp = "tcp" }
}

spec_struct! {
    /// An NVMe-oF target host exporting drives to initiators.
    pub struct Fabric ("NVMe fabric") {
        name: Sp<String> = req,
        transport: Sp<Transport> = req,
        target: Sp<String> = req,
        /// Drives exported (default all of the target's).
        drives: Option<Sp<u32>> = opt,
        initiators: Vec<Sp<Pattern>> = req,
        /// Transport service id (default 4420).
        port: Option<Sp<u16>> = opt in TCP_PORT,
    }
}

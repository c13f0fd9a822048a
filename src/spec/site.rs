//! `sites:`: booths, the NOC, remote sites.

use super::addr::{Addr, Prefix};
use super::macros::spec_struct;
use crate::yaml::decode::{Located, keyword_enum};

keyword_enum! {
    /// What kind of place a site is.
    pub enum SiteKind ("site kind") { Booth = "booth", Noc = "noc", Remote = "remote", Lab = "lab" }
}

spec_struct! {
    /// A place equipment sits: a booth, the NOC, or a remote site reached over the WAN.
    pub struct Site ("site") {
        kind: Located<SiteKind> = req,
        /// Booth number on the show floor.
        booth: Option<String> = opt,
        /// City or institution, for documentation.
        location: Option<String> = opt,
        /// For the planner's documents; democ does not read it.
        #[allow(dead_code)]
        title: Option<String> = opt,
        /// The site's own management network (a remote site's, which the show floor's
        /// `addressing.mgmt` does not reach): its switches take their management
        /// addresses from `subnet` and route through `gateway`.
        mgmt: Option<SiteMgmt> = opt,
    }
}

spec_struct! {
    /// A site's management network: a subnet and its router.
    pub struct SiteMgmt ("site management network") {
        /// The subnet the site's switches and hosts take management addresses from.
        subnet: Located<Prefix> = req,
        /// The subnet's router, inside `subnet`.
        gateway: Located<Addr> = req,
    }
}

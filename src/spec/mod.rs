//! Pass 1 types: what the planner wrote, every value with its span.

pub(crate) mod addr;
pub(crate) mod bounds;
pub(crate) mod catalog_file;
pub(crate) mod error;
pub(crate) mod examples;
pub(crate) mod fabric;
pub(crate) mod flow;
pub(crate) mod folders;
pub(crate) mod host;
pub(crate) mod kernel;
pub(crate) mod link;
pub(crate) mod load;
pub(crate) mod macros;
pub(crate) mod middlebox;
pub(crate) mod name;
pub(crate) mod services;
pub(crate) mod show;
pub(crate) mod site;
pub(crate) mod switch;
pub(crate) mod units;
pub(crate) mod wan;

use macros::spec_struct;

use crate::spec::catalog_file::CatalogFile;
use crate::yaml::decode::{Located, Named};

spec_struct! {
    /// A show spec file. The main file has `show:`; included files hold the other sections.
    pub struct SpecFile ("spec file") {
        show: Option<show::Show> = opt,
        /// Other spec files to merge in, relative to this file.
        include: Option<Vec<Located<String>>> = opt,
        /// Extra or overriding hardware models.
        catalog: Option<CatalogFile> = opt,
        sites: Option<Named<site::Site>> = opt,
        switches: Option<Named<switch::Switch>> = opt,
        hosts: Option<Named<host::Host>> = opt,
        links: Option<Vec<Located<link::Link>>> = opt,
        wan: Option<Vec<Located<wan::Wan>>> = opt,
        nvme_fabrics: Option<Vec<Located<fabric::Fabric>>> = opt,
        flows: Option<Vec<Located<flow::Flow>>> = opt,
    }
}

/// All files of a show merged: sections concatenated in include order.
#[derive(Debug, Default)]
pub struct Spec {
    pub(crate) show: Option<show::Show>,
    pub(crate) catalogs: Vec<CatalogFile>,
    pub(crate) sites: Vec<(Located<String>, site::Site)>,
    pub(crate) switches: Vec<(Located<String>, switch::Switch)>,
    pub(crate) hosts: Vec<(Located<String>, host::Host)>,
    pub(crate) links: Vec<Located<link::Link>>,
    pub(crate) wan: Vec<Located<wan::Wan>>,
    pub(crate) fabrics: Vec<Located<fabric::Fabric>>,
    pub(crate) flows: Vec<Located<flow::Flow>>,
}

impl Spec {
    pub(crate) fn merge(&mut self, file: SpecFile) {
        if file.show.is_some() {
            self.show = file.show;
        }
        self.catalogs.extend(file.catalog);
        self.sites.extend(file.sites.unwrap_or_default().entries);
        self.switches
            .extend(file.switches.unwrap_or_default().entries);
        self.hosts.extend(file.hosts.unwrap_or_default().entries);
        append(&mut self.links, file.links);
        append(&mut self.wan, file.wan);
        append(&mut self.fabrics, file.nvme_fabrics);
        append(&mut self.flows, file.flows);
    }
}

/// A file's list after those of the files before it: taken whole when it is the first
/// (nearly always, and the largest show's 100,000 flows are then not copied).
fn append<T>(to: &mut Vec<T>, more: Option<Vec<T>>) {
    match more {
        Some(more) if to.is_empty() => *to = more,
        Some(more) => to.extend(more),
        None => {}
    }
}

/// The spec's JSON Schema as the types give it; `catalog::editor::spec_schema` adds
/// what an editor needs of the catalog (model names as completions).
pub(crate) fn json_schema_value() -> serde_json::Value {
    let mut schema = schemars::schema_for!(SpecFile);
    let name = schemars::json_schema!({
        "type": "string",
        "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$|^[A-Za-z0-9][A-Za-z0-9._-]*\\[[0-9]+-[0-9]+\\][A-Za-z0-9._-]*$"
    });
    schema.insert(
        "$id".into(),
        "https://democ.dev/schema/democ.schema.json".into(),
    );
    if let Some(defs) = schema.get_mut("$defs").and_then(|d| d.as_object_mut()) {
        defs.insert("Name".into(), name.to_value());
    }
    schema.to_value()
}

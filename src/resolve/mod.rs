//! Pass 2: resolve names to ids, attach catalog entries, expand ranges and
//! breakouts, and report every dangling reference, duplicate and impossible port.

mod allow;
mod client_runs;
mod flows;
mod hosts;
mod links;
pub(crate) mod mgmt_net;
pub(crate) mod middleboxes;
pub(crate) mod model;
pub(crate) mod naming;
mod no_openflow;
mod no_os;
mod port_help;
mod raid;
mod services;
mod settings;
mod stripes;
mod switches;

use crate::fxhash::FxMap as HashMap;
use crate::fxhash::FxSet as HashSet;

use crate::catalog::Catalog;
use crate::diag::{Diagnostic, Diags, codes, suggest};
use crate::source::Span;
use crate::spec::Spec;
use model::*;

/// Shared state while resolving.
pub(crate) struct Rx<'a> {
    pub(crate) db: &'a Catalog,
    pub(crate) diags: &'a mut Diags,
    pub(crate) sites: HashMap<String, SiteId>,
    pub(crate) nodes: HashMap<String, (NodeId, Span)>,
    /// Switches declared with a model the catalog lacks: E0103 reported them, so a
    /// reference to one is not an unknown name (no cascade of E0101).
    pub(crate) unresolved: HashSet<String>,
    /// Unknown site names, with where the one diagnostic about each points.
    pub(crate) bad_sites: HashMap<String, Span>,
    /// Every (node, port) a link or WAN endpoint names, resolved or not: a port named
    /// by a broken link already has its error and is not also "not cabled" (W0122).
    pub(crate) named_ends: HashSet<(String, String)>,
}

impl Rx<'_> {
    /// Reports an unknown name with a did-you-mean over `candidates`.
    pub(crate) fn unknown<'c>(
        &mut self,
        span: Span,
        what: &str,
        name: &str,
        candidates: impl IntoIterator<Item = &'c str> + Clone,
    ) {
        self.diags.push(
            Diagnostic::new(codes::UNKNOWN_REF, span, format!("unknown {what} `{name}`"))
                .label(format!("no {what} of this name is declared"))
                .help(suggest(name, candidates)),
        );
    }

    /// E0103 with the entry a part number or vendor spelling means (catalog::lookup),
    /// else a did-you-mean over the keys. `entries`: the table's (key, title) pairs.
    pub(crate) fn unknown_model(
        &mut self,
        span: Span,
        what: &str,
        name: &str,
        entries: &[(String, String)],
    ) {
        let keys = entries.iter().map(|(k, _)| k.as_str());
        let hint = match crate::diag::did_you_mean(name, keys.clone()) {
            Some(_) => suggest(name, keys),
            None => {
                crate::catalog::lookup::hint(entries, name).unwrap_or_else(|| suggest(name, keys))
            }
        };
        self.diags.push(
            Diagnostic::new(
                codes::UNKNOWN_MODEL,
                span,
                format!("unknown {what} model `{name}`"),
            )
            .label("not in the catalog")
            .help(format!(
                "{hint} (`democ catalog` lists the models; `catalog:` in the spec adds one)"
            )),
        );
    }

    pub(crate) fn duplicate(&mut self, span: Span, first: Span, what: &str, name: &str) {
        self.diags.push(
            Diagnostic::new(
                codes::DUPLICATE_NAME,
                span,
                format!("{what} `{name}` is declared twice"),
            )
            .label("second declaration")
            .also(first, "first declared here")
            .help("rename one of them; names must be unique"),
        );
    }

    pub(crate) fn site(&mut self, name: &crate::yaml::decode::Located<String>) -> Option<SiteId> {
        if let Some(&id) = self.sites.get(name.as_str()) {
            return Some(id);
        }
        // One misspelling, one diagnostic: later uses become labels on the first.
        if let Some(&first) = self.bad_sites.get(name.as_str()) {
            let d = self
                .diags
                .items_mut()
                .iter_mut()
                .find(|d| d.code == codes::UNKNOWN_REF && d.primary.span == first);
            if let Some(d) = d {
                d.secondary.push(crate::diag::Label {
                    span: name.span,
                    message: "the same unknown site".into(),
                });
            }
            return None;
        }
        self.bad_sites.insert(name.value.clone(), name.span);
        let names: Vec<String> = self.sites.keys().cloned().collect();
        self.unknown(name.span, "site", name, names.iter().map(String::as_str));
        None
    }
}

/// Resolves a merged spec against the catalog.
pub(crate) fn resolve(spec: &Spec, db: &Catalog, diags: &mut Diags) -> Option<Model> {
    let settings = settings::settings(spec, diags)?;
    let mut rx = Rx {
        db,
        diags,
        sites: HashMap::default(),
        nodes: HashMap::default(),
        unresolved: HashSet::default(),
        bad_sites: HashMap::default(),
        named_ends: HashSet::default(),
    };
    let sites = settings::sites(spec, &mut rx);
    let mut m = Model {
        settings,
        sites,
        switches: Vec::new(),
        hosts: Vec::new(),
        links: Vec::new(),
        lags: Vec::new(),
        wans: Vec::new(),
        fabrics: Vec::new(),
        flows: Vec::new(),
        allows: Vec::new(),
        lab_mgmt: Default::default(),
    };
    switches::resolve(spec, &mut rx, &mut m);
    if !hosts::resolve(spec, &mut rx, &mut m) {
        // Past the host limit nothing further is resolved: every link and flow naming a
        // host that was not declared would only add an error of its own.
        return None;
    }
    links::resolve(spec, &mut rx, &mut m);
    flows::resolve(spec, &mut rx, &mut m);
    m.allows = allow::resolve(spec, &mut rx);
    Some(m)
}

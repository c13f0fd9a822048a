//! `democ init [DIR]`: a first show spec from a few flags, or from questions when a
//! person is at the terminal. The spec is checked in memory before it is written, so
//! what `init` writes passes `democ check`; a flag democ cannot use is refused at its
//! place on the command line (E0013) with the catalog entries that would do.

mod ask;
mod choices;
mod layout;
mod said;
mod show;

use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use clap::Args;

use self::ask::Ask;
use self::choices::{Choices, Site, WanKind, entry, name};
use self::said::Said;
use super::usage;
use crate::catalog::Catalog;
use crate::compile::{self, Input, Options, Session};
use crate::diag::{Severity, plural, render};

#[derive(Args, Debug)]
pub(super) struct InitArgs {
    /// Folder to write `show.yaml` into (created when missing; default: this folder).
    dir: Option<PathBuf>,
    /// The show's name (default: the folder's name).
    #[arg(long)]
    name: Option<String>,
    /// A booth on the show floor (repeatable; default: `booth-a` and `booth-b`).
    #[arg(long = "booth", value_name = "NAME")]
    booths: Vec<String>,
    /// A remote site reached over the WAN (repeatable; default with `--wan`: `pop`).
    #[arg(long = "remote", value_name = "NAME")]
    remotes: Vec<String>,
    /// Catalog switch model for every site, or `SITE=MODEL` for one (repeatable;
    /// default `arista-7060dx5-64s`; a vendor part number is answered with its entry).
    #[arg(long = "switch", value_name = "MODEL")]
    switches: Vec<String>,
    /// DTNs per site (default 2).
    #[arg(long, value_name = "N")]
    dtns: Option<String>,
    /// Catalog chassis of the DTNs (default `dell-r7625`).
    #[arg(long)]
    chassis: Option<String>,
    /// Catalog NIC of the DTNs (default `nvidia-cx7-400g`).
    #[arg(long)]
    nic: Option<String>,
    /// Catalog CPU of the DTNs (default: a guess from the chassis, marked in the spec).
    #[arg(long)]
    cpu: Option<String>,
    /// What carries the WAN to the remote sites (default with `--remote`: dark-fiber).
    #[arg(long, value_enum)]
    wan: Option<WanKind>,
    /// The WAN's length in kilometres (default 20).
    #[arg(long, value_name = "KM")]
    wan_km: Option<String>,
    /// Each flow's rate (default: three quarters of the slowest port on its way).
    #[arg(long)]
    rate: Option<String>,
    /// Overwrite an existing `show.yaml`.
    #[arg(long)]
    force: bool,
}

/// The spec's file name: what `check`, `plan` and `build` take without an argument.
const SPEC: &str = super::LOCAL_SPEC;
/// The spec's JSON Schema beside it, for editors (the spec's first line names it).
const SCHEMA: &str = "democ.schema.json";

const DEFAULT_SWITCH: &str = "arista-7060dx5-64s";
const DEFAULT_CHASSIS: &str = "dell-r7625";
const DEFAULT_NIC: &str = "nvidia-cx7-400g";
const DEFAULT_DTNS: &str = "2";
const DEFAULT_KM: &str = "20";
const MAX_DTNS: u32 = 48;

fn color() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// One value: the flag's when given (checked once), else a person's answer (asked
/// again until it checks), else the default.
fn value<T>(
    said: &mut Said,
    ask: &Ask,
    given: Option<&str>,
    question: &str,
    default: &str,
    mut check: impl FnMut(&mut Said, &str) -> Option<T>,
) -> Option<T> {
    if let Some(v) = given {
        return check(said, v);
    }
    loop {
        let answer = ask.answer(question, default);
        let got = check(said, &answer);
        match said.take_text(color()) {
            Some(text) if ask.interactive() => eprint!("{text}"),
            Some(text) => {
                // A default that does not check is democ's own fault; say so plainly.
                eprint!("{text}");
                return None;
            }
            None => return got,
        }
    }
}

/// Names from a list of flags or a comma-separated answer.
fn names(said: &mut Said, flag: &str, written: &[String]) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for w in written {
        out.push(name(said, flag, w)?);
    }
    Some(out)
}

fn split(answer: &str) -> Vec<String> {
    answer
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The show's name when none is given: the folder's, where it is a valid name.
fn folder_name(dir: &Path) -> String {
    let full = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    full.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| crate::spec::name::name_problem(n, false).is_none())
        .unwrap_or_else(|| "my-show".to_owned())
}

fn gather<'d>(a: &InitArgs, db: &'d Catalog, said: &mut Said, ask: &Ask) -> Option<Choices<'d>> {
    let dir = a.dir.clone().unwrap_or_else(|| PathBuf::from("."));
    let show_name = value(
        said,
        ask,
        a.name.as_deref(),
        "Show name",
        &folder_name(&dir),
        |s, v| name(s, "--name", v),
    );
    let booths = if a.booths.is_empty() {
        value(
            said,
            ask,
            None,
            "Booths on the show floor (comma-separated)",
            "booth-a, booth-b",
            |s, v| names(s, "--booth", &split(v)),
        )
    } else {
        names(said, "--booth", &a.booths)
    };
    let remote_default = if a.wan.is_some() { "pop" } else { "" };
    let remotes = if a.remotes.is_empty() && (a.wan.is_some() || !ask.interactive()) {
        Some(split(remote_default))
    } else if a.remotes.is_empty() {
        value(
            said,
            ask,
            None,
            "Remote sites over the WAN (comma-separated, empty for none)",
            remote_default,
            |s, v| names(s, "--remote", &split(v)),
        )
    } else {
        names(said, "--remote", &a.remotes)
    };
    // Every value is checked before any is refused, so one run reports every bad flag.
    let no_remote = remotes.as_ref().is_none_or(Vec::is_empty);
    let wan = match (a.wan, no_remote) {
        (Some(k), _) => Some(k),
        (None, true) => Some(WanKind::DarkFiber),
        (None, false) => value(
            said,
            ask,
            None,
            "WAN to the remote sites (dark-fiber, otn, circuit)",
            "dark-fiber",
            |s, v| {
                WanKind::parse(v).or_else(|| {
                    s.refuse(
                        "--wan",
                        v,
                        format!("no WAN kind `{v}`"),
                        "write `dark-fiber`, `otn` or `circuit`".to_owned(),
                    );
                    None
                })
            },
        ),
    };
    let wan_km = if no_remote && a.wan_km.is_none() {
        Some(0.0)
    } else {
        value(
            said,
            ask,
            a.wan_km.as_deref(),
            "WAN length in km",
            DEFAULT_KM,
            km,
        )
    };
    let sites = booths.zip(remotes).and_then(|(booths, remotes)| {
        let mut sites: Vec<(String, bool)> = booths.into_iter().map(|b| (b, false)).collect();
        sites.extend(remotes.into_iter().map(|r| (r, true)));
        distinct(said, sites)
    });
    let sites = sites.and_then(|sites| switch_models(a, db, said, ask, sites));
    let dtns = value(
        said,
        ask,
        a.dtns.as_deref(),
        "DTNs per site",
        DEFAULT_DTNS,
        dtn_count,
    );
    let chassis = value(
        said,
        ask,
        a.chassis.as_deref(),
        "DTN chassis",
        DEFAULT_CHASSIS,
        |s, v| entry(s, "--chassis", v, "chassis", &db.chassis, |m| &m.title),
    );
    let nic = value(
        said,
        ask,
        a.nic.as_deref(),
        "DTN NIC",
        DEFAULT_NIC,
        |s, v| entry(s, "--nic", v, "NIC", &db.nics, |m| &m.title),
    );
    let cpu = match a.cpu.as_deref() {
        Some(c) => {
            entry(said, "--cpu", c, "CPU", &db.cpus, |m| &m.title).map(|(k, m)| (k, m, false))
        }
        None => chassis
            .and_then(|(_, c)| choices::cpu_for(db, c))
            .map(|(k, m)| (k, m, true)),
    };
    let rate = match a.rate.as_deref() {
        None => Some(None),
        Some(r) => match crate::spec::units::parse_rate(r) {
            Ok(rate) if rate.gbps() > 0.0 => Some(Some(rate)),
            Ok(_) => {
                said.refuse(
                    "--rate",
                    r,
                    "a flow's rate is above zero".to_owned(),
                    "write a rate such as `100G`".to_owned(),
                );
                None
            }
            Err(why) => {
                said.refuse("--rate", r, format!("`{r}` is no rate"), why.to_string());
                None
            }
        },
    };
    Some(Choices {
        name: show_name?,
        sites: sites?,
        dtns: dtns?,
        chassis: chassis?,
        nic: nic?,
        cpu: cpu?,
        wan: wan?,
        wan_km: wan_km?,
        rate: rate?,
    })
}

fn km(said: &mut Said, v: &str) -> Option<f64> {
    match v.parse::<f64>() {
        Ok(k) if k > 0.0 && k <= 20_000.0 => Some(k),
        _ => {
            said.refuse(
                "--wan-km",
                v,
                format!("`{v}` is no WAN length"),
                "a length in kilometres above 0 and at most 20000 (`22`, `0.5`)".to_owned(),
            );
            None
        }
    }
}

fn dtn_count(said: &mut Said, v: &str) -> Option<u32> {
    match v.parse::<u32>() {
        Ok(n) if (1..=MAX_DTNS).contains(&n) => Some(n),
        _ => {
            said.refuse(
                "--dtns",
                v,
                format!("`{v}` is no number of DTNs per site"),
                format!("a whole number from 1 to {MAX_DTNS}; declare more in the spec itself"),
            );
            None
        }
    }
}

/// The sites, each named once.
fn distinct(said: &mut Said, sites: Vec<(String, bool)>) -> Option<Vec<(String, bool)>> {
    let mut seen = std::collections::HashSet::new();
    for (s, remote) in &sites {
        if !seen.insert(s.as_str()) {
            let flag = if *remote { "--remote" } else { "--booth" };
            said.refuse(
                flag,
                s,
                format!("site `{s}` is named twice"),
                "name each booth and remote site once".to_owned(),
            );
            return None;
        }
    }
    if sites.is_empty() {
        said.refuse(
            "--booth",
            "",
            "a show needs at least one booth".to_owned(),
            "`--booth NAME`".to_owned(),
        );
        return None;
    }
    Some(sites)
}

/// Each site's switch model: `--switch SITE=MODEL`, else `--switch MODEL`, else the
/// answer or the default.
fn switch_models<'d>(
    a: &InitArgs,
    db: &'d Catalog,
    said: &mut Said,
    ask: &Ask,
    sites: Vec<(String, bool)>,
) -> Option<Vec<Site<'d>>> {
    let mut every: Option<&str> = None;
    let mut per_site: Vec<(&str, &str)> = Vec::new();
    for w in &a.switches {
        match w.split_once('=') {
            Some((site, model)) => {
                if !sites.iter().any(|(s, _)| s == site) {
                    let known: Vec<&str> = sites.iter().map(|(s, _)| s.as_str()).collect();
                    said.refuse(
                        "--switch",
                        w,
                        format!("no site `{site}` in this show"),
                        format!("the sites are {}", crate::diag::list(&known)),
                    );
                    return None;
                }
                per_site.push((site, model));
            }
            None => every = Some(w),
        }
    }
    let lookup = |s: &mut Said, v: &str, shown: &str| {
        let found = entry(s, "--switch", v, "switch model", &db.switches, |m| &m.title);
        // `SITE=MODEL` is located as written.
        if found.is_none() && shown != v {
            let span = s.place("--switch", shown);
            if let Some(d) = s.diags.items_mut().last_mut() {
                d.primary.span = span;
            }
        }
        found
    };
    let all = match every {
        Some(m) => lookup(said, m, m),
        None if per_site.len() == sites.len() => lookup(said, DEFAULT_SWITCH, DEFAULT_SWITCH),
        None => value(
            said,
            ask,
            None,
            "Switch model (a catalog name: `democ catalog` lists them)",
            DEFAULT_SWITCH,
            |s, v| lookup(s, v, v),
        ),
    };
    let mut out = Vec::new();
    for (site, remote) in sites {
        let own = per_site.iter().find(|(s, _)| *s == site).map(|(_, m)| *m);
        let (model, switch) = match own {
            Some(m) => lookup(said, m, &format!("{site}={m}"))?,
            None => all?,
        };
        out.push(Site {
            name: site,
            remote,
            model,
            switch,
        });
    }
    Some(out)
}

/// The spec's file: refuses to replace one without `--force`.
fn target(a: &InitArgs) -> Result<PathBuf, String> {
    let dir = a.dir.clone().unwrap_or_else(|| PathBuf::from("."));
    if dir.exists() && !dir.is_dir() {
        return Err(format!("{} is not a folder", dir.display()));
    }
    let spec = dir.join(SPEC);
    if !a.force && std::fs::symlink_metadata(&spec).is_ok() {
        return Err(format!(
            "{} exists: democ init does not replace a spec (remove it, pick another folder, or `--force`)",
            spec.display()
        ));
    }
    Ok(spec)
}

pub(super) fn run(a: &InitArgs, argv: &[OsString]) -> i32 {
    let spec = match target(a) {
        Ok(p) => p,
        Err(e) => return usage(&e),
    };
    let db = crate::catalog::embedded_db();
    let mut said = Said::new(argv);
    let ask = Ask::new();
    let choices = gather(a, &db, &mut said, &ask);
    let text = choices.as_ref().and_then(|c| {
        show::text(c, &db, Some(SCHEMA))
            .map_err(|r| said.refuse(r.flag, &r.value, r.message, r.help))
            .ok()
    });
    if let Some(errors) = said.take_text(color()) {
        eprint!("{errors}");
        eprintln!(
            "init: nothing written; `democ init --help` lists the flags, `democ catalog` the models"
        );
        return 2;
    }
    let (Some(c), Some(text)) = (choices, text) else {
        return usage("init: nothing written");
    };
    // Checked as `democ check` will check it, before anything is written.
    let mut s = Session::default();
    let shown = spec.display().to_string();
    let opts = Options {
        checks_only: true,
        lock: compile::LockMode::Ignore,
        ..Options::default()
    };
    let input = Input::Bytes {
        name: &shown,
        bytes: text.as_bytes(),
    };
    if let Err(e) = compile::lowered(input, &opts, &mut s) {
        return usage(&e);
    }
    s.diags.sort();
    if !s.diags.items().is_empty() {
        eprint!("{}", render::to_text(&s.sources, s.diags.items(), color()));
    }
    if s.diags.has_errors() {
        eprintln!(
            "init: nothing written: the show these choices make does not check (above); change the flags"
        );
        return 1;
    }
    if let Some(dir) = spec.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Err(e) = std::fs::create_dir_all(dir) {
            return usage(&format!("cannot create {}: {e}", dir.display()));
        }
    }
    let schema = spec.with_file_name(SCHEMA);
    for (path, bytes) in [
        (&schema, crate::catalog::editor::spec_schema()),
        (&spec, text),
    ] {
        if let Err(e) = crate::write::file(path, bytes.as_bytes()) {
            return usage(&e);
        }
    }
    summary(&c, &spec, &s);
    0
}

fn summary(c: &Choices, spec: &Path, s: &Session) {
    let remote = c.sites.iter().filter(|s| s.remote).count();
    let hosts = c.sites.len() * c.dtns as usize;
    eprintln!(
        "wrote {} ({}, {}, {}, {}; checked: {}) and {SCHEMA} beside it for editors",
        spec.display(),
        plural(c.sites.len() - remote, "booth"),
        plural(remote, "remote site"),
        plural(c.sites.len(), "switch"),
        plural(hosts, "DTN"),
        plural(s.diags.count(Severity::Warning), "warning"),
    );
    let cd = spec
        .parent()
        .filter(|d| !d.as_os_str().is_empty() && *d != Path::new("."))
        .map(|d| format!("cd {} && ", d.display()))
        .unwrap_or_default();
    eprintln!("next: {cd}democ check && democ plan && democ build -o out --hosts");
}

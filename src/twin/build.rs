//! A build folder as the twin reads it: the manifest's show, and the IR of every
//! switch, DTN and flow, read with the very types `democ build` wrote them with. A
//! build folder is input like any other, and the twin runs as root: every file comes
//! through [`BuildDir`] (no symlink, regular files, a size cap), a file with a field the
//! IR does not have, or without one it requires, is refused, and so is any text in it
//! that democ would never write (a control character outside a description, a
//! switch, host or flow name outside the spec's name rules): such text would otherwise
//! reach the shell scripts and FRR configurations the twin writes.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::build_dir::{BuildDir, MAX_BYTES, SMALL_BYTES};
use crate::ir::Switch;
use crate::ir::flow::Flow;
use crate::ir::host::Host;

/// Everything the twin reads from one build folder.
pub(crate) struct Build {
    pub(crate) show: String,
    /// By hostname.
    pub(crate) switches: BTreeMap<String, Switch>,
    /// By name.
    pub(crate) hosts: BTreeMap<String, Host>,
    pub(crate) flows: Vec<Flow>,
    /// The FRR file each SONiC switch ships, by hostname (twin/shipped.rs).
    pub(crate) frr: BTreeMap<String, String>,
}

/// The one field of manifest.json the twin needs.
#[derive(Deserialize)]
struct Manifest {
    show: String,
}

/// A JSON file of the build, checked as text first ([`plain`]), then as its type.
pub(crate) fn read<T: DeserializeOwned>(
    dir: &BuildDir,
    rel: &str,
    limit: u64,
) -> Result<T, String> {
    let bytes = dir.read(rel, limit)?;
    let at = || format!("{}/{rel}", dir.path().display());
    let value: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|e| format!("{}: {e}", at()))?;
    plain(&value, "").map_err(|e| format!("{}: {e}", at()))?;
    T::deserialize(value).map_err(|e| format!("{}: {e}", at()))
}

/// Err naming the first string of `v` that holds a control character, except in a
/// description (free text, which every consumer quotes or escapes).
fn plain(v: &serde_json::Value, at: &str) -> Result<(), String> {
    match v {
        serde_json::Value::String(s) if !at.ends_with("description") => {
            match s.chars().find(|c| c.is_control()) {
                Some(c) => Err(format!(
                    "`{at}` holds the control character {c:?}, which democ never writes there; \
                     the build folder was altered"
                )),
                None => Ok(()),
            }
        }
        serde_json::Value::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, x)| plain(x, &format!("{at}[{i}]"))),
        serde_json::Value::Object(map) => map.iter().try_for_each(|(k, x)| {
            plain(&serde_json::Value::String(k.clone()), &format!("{at}.key"))?;
            plain(
                x,
                &if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                },
            )
        }),
        _ => Ok(()),
    }
}

/// Err unless `name` (a switch, host or flow of the IR) follows the spec's name rules.
fn name(what: &str, name: &str, rel: &str) -> Result<(), String> {
    match crate::spec::name::name_problem(name, false) {
        None => Ok(()),
        Some(p) => Err(format!(
            "{rel}: the {what} name `{}` is not one democ writes ({p}); the build folder was altered",
            crate::escape::line(name)
        )),
    }
}

/// Err unless `text` (an interface name or port id of the IR: `Ethernet1/1`,
/// `TenGigabitEthernet 0/1`, `1/31:2`, `p0`) holds only what democ writes there:
/// letters, digits, `/ : . _ -` and the characters of `also`, at most 63 of them.
fn port(what: &str, text: &str, also: &str, rel: &str) -> Result<(), String> {
    let ok = !text.is_empty()
        && text.len() <= 63
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/:._-".contains(c) || also.contains(c));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{rel}: the {what} `{}` is not one democ writes; the build folder was altered",
            crate::escape::line(text)
        ))
    }
}

/// The `.json` files of one folder of the build, sorted.
fn json_files(dir: &BuildDir, rel: &str) -> Result<Vec<String>, String> {
    Ok(dir
        .files_in(rel)?
        .into_iter()
        .filter(|n| n.ends_with(".json"))
        .map(|n| format!("{rel}/{n}"))
        .collect())
}

impl Build {
    pub(crate) fn read(path: &Path) -> Result<Build, String> {
        let dir = BuildDir::open(path)?;
        let manifest: Manifest = read(&dir, "manifest.json", SMALL_BYTES)
            .map_err(|e| format!("{e} (is this a `democ build` folder?)"))?;
        name("show", &manifest.show, "manifest.json")?;
        let mut switches = BTreeMap::new();
        for rel in json_files(&dir, "ir")? {
            let s: Switch = read(&dir, &rel, SMALL_BYTES)?;
            name("switch", &s.hostname, &rel)?;
            for i in &s.interfaces {
                port("interface", &i.name, " ", &rel)?;
                port("port", &i.port, "", &rel)?;
                if let Some(p) = &i.peer {
                    name("peer", &p.device, &rel)?;
                    port("peer port", &p.port, "", &rel)?;
                }
            }
            switches.insert(s.hostname.clone(), s);
        }
        if !dir.has_folder("ir/hosts") {
            return Err(format!(
                "{} has no DTN IR: build it with `democ build --hosts`",
                path.display()
            ));
        }
        let mut hosts = BTreeMap::new();
        for rel in json_files(&dir, "ir/hosts")? {
            let h: Host = read(&dir, &rel, SMALL_BYTES)?;
            name("host", &h.name, &rel)?;
            hosts.insert(h.name.clone(), h);
        }
        let flows: Vec<Flow> = read(&dir, "ir/flows/flows.json", MAX_BYTES)?;
        for f in &flows {
            name("flow", &f.name, "ir/flows/flows.json")?;
        }
        let frr = super::shipped::read(&dir, &switches)?;
        Ok(Build {
            show: manifest.show,
            switches,
            hosts,
            flows,
            frr,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A build folder's IR as `democ build` writes it for the render fixture.
    fn folder(dir: &Path) {
        let (_, lab) = crate::testkit::render_fixture();
        let write = |path: &Path, text: String| {
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("folder");
            std::fs::write(path, text).expect("written");
        };
        write(
            &dir.join("manifest.json"),
            format!("{{\"show\": \"{}\"}}", lab.show),
        );
        for s in &lab.switches {
            write(
                &dir.join(format!("ir/{}.json", s.hostname)),
                crate::ir::to_json(s),
            );
        }
        for h in &lab.hosts {
            write(
                &dir.join(format!("ir/hosts/{}.json", h.name)),
                crate::ir::to_json(h),
            );
        }
        std::fs::create_dir_all(dir.join("ir/hosts")).expect("folder");
        write(
            &dir.join("ir/flows/flows.json"),
            crate::ir::to_json(&lab.flows),
        );
    }

    /// The twin reads back what a build wrote, and refuses a switch's IR with a field
    /// the IR does not have, anywhere in it (a port's flattened switching included).
    #[test]
    fn reads_what_a_build_wrote_and_refuses_unknown_fields() {
        let tmp = tempfile::tempdir().expect("tempdir");
        folder(tmp.path());
        let b = Build::read(tmp.path()).expect("reads the build");
        assert!(!b.switches.is_empty() && !b.flows.is_empty());
        let (name, _) = b.switches.first_key_value().expect("a switch");
        let path = tmp.path().join(format!("ir/{name}.json"));
        let good = std::fs::read_to_string(&path).expect("read");
        for (field, at) in [
            ("\"hostname\"", "\"extra\": 1, \"hostname\""),
            ("\"speed_mbps\"", "\"extra\": 1, \"speed_mbps\""),
        ] {
            std::fs::write(&path, good.replacen(field, at, 1)).expect("written");
            let e = Build::read(tmp.path()).err().expect("refused");
            assert!(
                e.contains("unknown field `extra`") && e.contains(name.as_str()),
                "{e}"
            );
        }
    }
}

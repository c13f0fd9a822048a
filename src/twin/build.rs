//! A build folder as the twin reads it: the manifest's show, and the IR of every
//! switch, DTN and flow, read with the very types `democ build` wrote them with. A
//! build folder is input like any other: a file with a field the IR does not have, or
//! without one it requires, is refused, naming the file.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use serde::de::DeserializeOwned;

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
}

/// The one field of manifest.json the twin needs.
#[derive(Deserialize)]
struct Manifest {
    show: String,
}

fn read<T: DeserializeOwned>(path: &Path) -> Result<T, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The `.json` files of one folder, sorted.
fn json_files(dir: &Path) -> Result<Vec<std::path::PathBuf>, String> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "json"))
        .collect();
    out.sort();
    Ok(out)
}

impl Build {
    pub(crate) fn read(dir: &Path) -> Result<Build, String> {
        let manifest: Manifest = read(&dir.join("manifest.json"))
            .map_err(|e| format!("{e} (is this a `democ build` folder?)"))?;
        let ir = dir.join("ir");
        let mut switches = BTreeMap::new();
        for p in json_files(&ir)? {
            let s: Switch = read(&p)?;
            switches.insert(s.hostname.clone(), s);
        }
        let hosts_dir = ir.join("hosts");
        if !hosts_dir.is_dir() {
            return Err(format!(
                "{} has no DTN IR: build it with `democ build --hosts`",
                dir.display()
            ));
        }
        let mut hosts = BTreeMap::new();
        for p in json_files(&hosts_dir)? {
            let h: Host = read(&p)?;
            hosts.insert(h.name.clone(), h);
        }
        let flows = read(&ir.join("flows").join("flows.json"))?;
        Ok(Build {
            show: manifest.show,
            switches,
            hosts,
            flows,
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

//! The result files `democ verify` is given: folders (as the host scripts' `DEMOC_LOG`
//! leaves them, and the switch state saved beside them) and single files. A result
//! folder is input from the show floor: read like a build folder (no symlink followed
//! below the folder named, regular files only, a size cap per file), and a file that is
//! not a result (fio's text log, anything else in /var/tmp) is skipped when found in a
//! folder, refused when named.

use std::path::{Path, PathBuf};

use crate::build_dir::BuildDir;
use crate::diag::{Diagnostic, Diags, codes};
use crate::source::{FileId, Sources, Span};

/// A result file is at most this large (iperf3's JSON for an hour of one-second
/// intervals with 128 streams is about 60 MiB).
const MAX_RESULT: u64 = 128 * 1024 * 1024;

/// Sub-folders read below a folder named on the command line (a folder per host or
/// switch, and one more level for a run's date).
const DEPTH: usize = 2;

/// What a result file holds, from the end of its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Iperf3,
    IbWriteBw,
    /// fio on the host's own drives (`read` or `write`).
    Fio(Rw),
    /// fio on an NVMe-oF fabric's namespaces: the flow's own bytes.
    Fabric(Rw),
    /// Switch state, by the command that printed it.
    Switch(State),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rw {
    Read,
    Write,
}

/// Switch state a result folder may hold, as `<switch>+<state>+<when>.<ext>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    /// EOS `show interfaces counters | json` (OS10: RESTCONF interfaces-state; SONiC:
    /// `show interfaces counters --json`).
    Counters,
    /// EOS `show interfaces counters rates | json` (SONiC: `... rates --json`).
    Rates,
    /// EOS `show interfaces transceiver | json`.
    Transceiver,
    /// EOS `show lldp neighbors | json` (SONiC: lldpd's `lldpctl -f json`).
    Lldp,
    /// `ovs-ofctl dump-ports BRIDGE`.
    DumpPorts,
    /// `ovs-ofctl dump-flows BRIDGE`.
    DumpFlows,
}

impl State {
    pub(crate) const ALL: [(&'static str, State, &'static str); 6] = [
        ("counters", State::Counters, "json"),
        ("rates", State::Rates, "json"),
        ("transceiver", State::Transceiver, "json"),
        ("lldp", State::Lldp, "json"),
        ("dump-ports", State::DumpPorts, "txt"),
        ("dump-flows", State::DumpFlows, "txt"),
    ];
}

const HOST_KINDS: [(&str, Kind); 6] = [
    ("iperf3.json", Kind::Iperf3),
    ("ib_write_bw.txt", Kind::IbWriteBw),
    ("fio-read.json", Kind::Fio(Rw::Read)),
    ("fio-write.json", Kind::Fio(Rw::Write)),
    ("nvmeof-read.json", Kind::Fabric(Rw::Read)),
    ("nvmeof-write.json", Kind::Fabric(Rw::Write)),
];

/// Who a result file is about, from its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Subject {
    /// `<flow>+<source>+<sink>+<host>+<when>`.
    Transfer {
        flow: String,
        src: String,
        dst: String,
        host: String,
    },
    /// `<switch>+<state>+<when>`.
    Switch(String),
}

/// A result file read into the sources.
#[derive(Debug)]
pub(crate) struct Input {
    pub(crate) file: FileId,
    pub(crate) kind: Kind,
    pub(crate) subject: Subject,
    /// The start time the name carries (`20261129T023100Z`): orders a pair's runs and a
    /// switch's snapshots.
    pub(crate) when: String,
}

/// A file's name read as a result's: `None` when it is none.
pub(crate) fn parse_name(name: &str) -> Option<(Kind, Subject, String)> {
    let parts: Vec<&str> = name.split('+').collect();
    let (last, head) = parts.split_last()?;
    let (when, suffix) = last.split_once('.')?;
    if head.iter().chain([&when]).any(|p| p.is_empty()) {
        return None;
    }
    if let [flow, src, dst, host] = head {
        let kind = HOST_KINDS.iter().find(|(s, _)| *s == suffix)?.1;
        let subject = Subject::Transfer {
            flow: (*flow).to_owned(),
            src: (*src).to_owned(),
            dst: (*dst).to_owned(),
            host: (*host).to_owned(),
        };
        return Some((kind, subject, when.to_owned()));
    }
    if let [switch, state] = head {
        let (_, st, ext) = State::ALL.iter().find(|(n, _, _)| n == state)?;
        return (suffix == *ext).then(|| {
            (
                Kind::Switch(*st),
                Subject::Switch((*switch).to_owned()),
                when.to_owned(),
            )
        });
    }
    None
}

/// What [`gather`] found.
#[derive(Debug, Default)]
pub(crate) struct Gathered {
    pub(crate) files: Vec<Input>,
    /// Twin stamps (`twin-scale.json`: a twin's results, and the scale they are at).
    pub(crate) stamps: Vec<FileId>,
    /// Files in folders that are not results.
    pub(crate) skipped: usize,
}

/// A diagnostic on a file that has no text to point into: at its start.
fn at_file(sources: &mut Sources, shown: &str) -> Span {
    let id = sources.add(shown.to_owned(), String::new());
    Span::new(id, 0, 0)
}

/// Reads every result under `paths` into `sources`; what cannot be read is a
/// diagnostic.
pub(crate) fn gather(paths: &[PathBuf], sources: &mut Sources, diags: &mut Diags) -> Gathered {
    let mut out = Gathered::default();
    for p in paths {
        let shown = p.display().to_string();
        match std::fs::symlink_metadata(p) {
            Ok(m) if m.is_dir() || (m.is_symlink() && p.is_dir()) => match BuildDir::open(p) {
                Ok(dir) => walk(&dir, "", &shown, 0, sources, diags, &mut out),
                Err(e) => unreadable(sources, diags, &shown, &e.to_string()),
            },
            Ok(_) => {
                let name = p
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let parsed = parse_name(&name);
                if parsed.is_none() && name != super::twin_run::FILE {
                    let span = at_file(sources, &shown);
                    diags.push(
                        Diagnostic::new(codes::RESULT_NAME, span, format!("`{name}` is not named as a result file"))
                            .help("name host results `<flow>+<source>+<sink>+<host>+<time>.iperf3.json` (or `.ib_write_bw.txt`, `.fio-read.json`, ...) as the host scripts do, and switch state `<switch>+<state>+<time>.json` (states: counters, rates, transceiver, lldp; `dump-ports`, `dump-flows` as .txt): see docs/verify.md"),
                    );
                    continue;
                }
                let parent = p
                    .parent()
                    .filter(|d| !d.as_os_str().is_empty())
                    .unwrap_or(Path::new("."));
                match BuildDir::open(parent)
                    .map_err(String::from)
                    .and_then(|d| d.text(&name, MAX_RESULT).map_err(String::from))
                {
                    Ok(text) => {
                        let file = sources.add(shown, text);
                        out.add(file, parsed);
                    }
                    Err(e) => unreadable(sources, diags, &shown, &e.to_string()),
                }
            }
            Err(e) => unreadable(sources, diags, &shown, &e.to_string()),
        }
    }
    out
}

impl Gathered {
    /// A file read: a result as its name says, else the twin's stamp.
    fn add(&mut self, file: FileId, parsed: Option<(Kind, Subject, String)>) {
        match parsed {
            Some((kind, subject, when)) => self.files.push(Input {
                file,
                kind,
                subject,
                when,
            }),
            None => self.stamps.push(file),
        }
    }
}

fn unreadable(sources: &mut Sources, diags: &mut Diags, shown: &str, why: &str) {
    let span = at_file(sources, shown);
    diags.push(
        Diagnostic::new(codes::RESULT_UNREADABLE, span, format!("cannot read `{shown}`: {why}"))
            .help("name a folder of result files (a host's DEMOC_LOG, the switch state saved beside it) or a result file; symlinks inside a folder are not followed"),
    );
}

fn walk(
    dir: &BuildDir,
    rel: &str,
    shown: &str,
    depth: usize,
    sources: &mut Sources,
    diags: &mut Diags,
    out: &mut Gathered,
) {
    let join = |name: &str| {
        if rel.is_empty() {
            name.to_owned()
        } else {
            format!("{rel}/{name}")
        }
    };
    match dir.files_in(rel) {
        Ok(files) => {
            for name in files {
                let parsed = parse_name(&name);
                if parsed.is_none() && name != super::twin_run::FILE {
                    out.skipped += 1;
                    continue;
                }
                let path = join(&name);
                let show = format!("{}/{path}", shown.trim_end_matches('/'));
                match dir.text(&path, MAX_RESULT) {
                    Ok(text) => {
                        let file = sources.add(show, text);
                        out.add(file, parsed);
                    }
                    Err(e) => unreadable(sources, diags, &show, &e.message),
                }
            }
        }
        Err(e) => unreadable(sources, diags, shown, &e.message),
    }
    if depth < DEPTH {
        if let Ok(folders) = dir.folders_in(rel) {
            for f in folders {
                walk(dir, &join(&f), shown, depth + 1, sources, diags, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        let (k, s, w) =
            parse_name("net-100g+sc100G-1+sc100G-2+sc100G-1+20261129T023100Z.iperf3.json").unwrap();
        assert_eq!(k, Kind::Iperf3);
        assert_eq!(w, "20261129T023100Z");
        assert!(
            matches!(s, Subject::Transfer { ref flow, ref host, .. } if flow == "net-100g" && host == "sc100G-1")
        );
        let (k, s, _) = parse_name("cit-a-arista+counters+1.json").unwrap();
        assert_eq!(
            (k, s),
            (
                Kind::Switch(State::Counters),
                Subject::Switch("cit-a-arista".into())
            )
        );
        for bad in [
            "x.json",
            "a+b+c+d+.iperf3.json",
            "a+b+c+d+t.fio.json",
            "sw+lldp+t.txt",
            "f+a+b+c+d+e+t.iperf3.json",
            "+counters+t.json",
        ] {
            assert!(parse_name(bad).is_none(), "{bad}");
        }
    }
}

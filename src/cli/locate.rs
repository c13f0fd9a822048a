//! Where democ finds the files it uses but must not carry: containerlab's JSON Schema
//! (containerlab's, under its own licence) and the Python that has democ's validator
//! packages. One search, the same for an installed binary and a checkout's, in this
//! order: a flag, an environment variable, democ's data folder (which `democ data
//! --fetch` fills), containerlab's own installation, the checkout democ was built from.
//! democ's own files (catalog, templates, the example show) are embedded in the binary.

use std::path::{Path, PathBuf};

/// containerlab's schema's file name wherever it is kept.
pub(crate) const CLAB_SCHEMA: &str = "clab.schema.json";

/// democ's data folder: DEMOC_DATA_DIR; else `$XDG_DATA_HOME/democ`; else
/// `~/.local/share/democ`.
pub(crate) fn data_dir() -> Option<PathBuf> {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    env("DEMOC_DATA_DIR")
        .or_else(|| env("XDG_DATA_HOME").map(|d| d.join("democ")))
        .or_else(|| env("HOME").map(|h| h.join(".local/share/democ")))
}

/// One place looked in: what it is, and the path it names there (None: not set).
pub(crate) struct Place {
    pub(crate) what: &'static str,
    pub(crate) path: Option<PathBuf>,
}

/// An environment variable naming a file (empty: not set).
fn from_env(what: &'static str) -> Place {
    Place {
        what,
        path: std::env::var_os(what)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from),
    }
}

/// The checkout this binary was built from, when it is still there.
fn checkout() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    dir.join("Cargo.toml").is_file().then_some(dir)
}

/// `containerlab` on PATH, its symlinks resolved.
pub(crate) fn containerlab_bin() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("containerlab"))
        .find(|p| p.is_file())
        .and_then(|p| std::fs::canonicalize(p).ok())
}

/// Where containerlab's own installation would hold its schema: under `schemas/` (as
/// in containerlab's source tree) in its package's data folder, `/etc/containerlab`, or
/// `<prefix>/share/containerlab` beside its binary. Its deb, rpm and apk packages ship
/// none today (their .goreleaser.yml installs lab-examples and templates there), so
/// this finds a schema put there by hand or by a future package; `democ data --fetch`
/// fetches the one of the installed version.
fn containerlab_places() -> Vec<PathBuf> {
    let mut roots = vec![PathBuf::from("/etc/containerlab")];
    if let Some(prefix) = containerlab_bin()
        .as_deref()
        .and_then(Path::parent)
        .and_then(Path::parent)
    {
        roots.push(prefix.join("share/containerlab"));
    }
    roots
        .into_iter()
        .map(|r| r.join("schemas").join(CLAB_SCHEMA))
        .collect()
}

/// Every place containerlab's schema is looked for, in order.
pub(crate) fn clab_schema_places(flag: Option<&Path>) -> Vec<Place> {
    let mut out = vec![
        Place {
            what: "--clab-schema",
            path: flag.map(Path::to_path_buf),
        },
        from_env("DEMOC_CLAB_SCHEMA"),
        Place {
            what: "democ's data folder",
            path: data_dir().map(|d| d.join(CLAB_SCHEMA)),
        },
    ];
    out.extend(containerlab_places().into_iter().map(|p| Place {
        what: "containerlab's installation",
        path: Some(p),
    }));
    out.push(Place {
        what: "beside democ's checkout",
        path: checkout().and_then(|c| Some(c.parent()?.join("shared/schemas").join(CLAB_SCHEMA))),
    });
    out
}

/// The schema to use: the first place that names one. A flag or a variable that names
/// a missing file is still the answer (its reader says so): a planner who named a file
/// must not have another one checked instead.
pub(crate) fn clab_schema(flag: Option<&Path>) -> Option<(&'static str, PathBuf)> {
    clab_schema_places(flag).into_iter().find_map(|p| {
        let path = p.path?;
        let named = matches!(p.what, "--clab-schema" | "DEMOC_CLAB_SCHEMA");
        (named || path.is_file()).then_some((p.what, path))
    })
}

/// Every place SONiC's YANG models (a `sonic-yang` folder holding `yang-models/`) are
/// looked for, in order: DEMOC_SONIC_YANG, democ's data folder, beside the checkout.
pub(crate) fn sonic_yang_places() -> Vec<Place> {
    vec![
        from_env("DEMOC_SONIC_YANG"),
        Place {
            what: "democ's data folder",
            path: data_dir().map(|d| d.join("sonic-yang")),
        },
        Place {
            what: "beside democ's checkout",
            path: checkout().and_then(|c| Some(c.parent()?.join("shared/schemas/sonic-yang"))),
        },
    ]
}

/// SONiC's YANG models to use: the first place that names a folder (the variable is
/// the answer even when wrong, as for the schema).
pub(crate) fn sonic_yang() -> Option<(&'static str, PathBuf)> {
    sonic_yang_places().into_iter().find_map(|p| {
        let path = p.path?;
        (p.what == "DEMOC_SONIC_YANG" || path.is_dir()).then_some((p.what, path))
    })
}

/// Every place the validators' Python is looked for, in order.
pub(crate) fn python_places() -> Vec<Place> {
    vec![
        from_env("DEMOC_PYTHON"),
        Place {
            what: "democ's data folder",
            path: data_dir().map(|d| d.join("venv/bin/python")),
        },
        Place {
            what: "the checkout's .venv (./test.sh)",
            path: checkout().map(|c| c.join(".venv/bin/python")),
        },
        Place {
            what: "PATH",
            path: Some(PathBuf::from("python3")),
        },
    ]
}

/// The short form of the search, for help lines.
pub(crate) const CLAB_SEARCH: &str = "--clab-schema, DEMOC_CLAB_SCHEMA, democ's data folder (`democ data`), containerlab's installation, beside democ's checkout";

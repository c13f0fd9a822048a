//! Includes never open a file outside the show's folder: random include graphs whose
//! paths try to leave it (`..`, absolute paths, symlinks to files and to folders
//! outside), checked through the bounded reader's record of every file it opened.

use std::path::{Path, PathBuf};

use proptest::prelude::*;

use super::{Limits, Loader};
use crate::diag::Diags;
use crate::source::Sources;
use crate::spec::Spec;

/// Files of the show's folder that may include others (besides `main.yaml`).
const INSIDE: &[&str] = &["a.yaml", "b.yaml", "sub/c.yaml", "sub/deep/d.yaml"];

/// Include paths, relative to whichever file names them; `{root}` is the temp folder
/// holding `show/` (the spec's folder) and `out/` (files that must never be opened).
const PATHS: &[&str] = &[
    "a.yaml",
    "b.yaml",
    "sub/c.yaml",
    "c.yaml",
    "deep/d.yaml",
    "../a.yaml",
    "../../a.yaml",
    "./b.yaml",
    "../out/o.yaml",
    "../../out/o.yaml",
    "../../../out/o.yaml",
    "sub/../../out/o.yaml",
    "{root}/out/o.yaml",
    "{root}/show/b.yaml",
    "{root}/show/../out/o.yaml",
    "escape.yaml",
    "escdir/o.yaml",
    "sub/escape.yaml",
    "../escape.yaml",
    "inward.yaml",
    "/etc/passwd",
    "/proc/self/environ",
    "/dev/stdin",
];

/// A show folder with symlinks leaving it and a folder beside it that includes more:
/// the temp folder, its canonical path, and the show's folder in it.
fn layout() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let root = tmp.path().canonicalize().expect("canonical temp dir");
    let show = root.join("show");
    std::fs::create_dir_all(show.join("sub/deep")).expect("mkdir");
    std::fs::create_dir_all(root.join("out")).expect("mkdir");
    // Outside files include each other: opening one would open more.
    std::fs::write(root.join("out/o.yaml"), "include: [p.yaml]\n").expect("write");
    std::fs::write(root.join("out/p.yaml"), "sites: {}\n").expect("write");
    let link = |target: &str, at: &str| {
        std::os::unix::fs::symlink(target, show.join(at)).expect("symlink");
    };
    link("../out/o.yaml", "escape.yaml");
    link("../out", "escdir");
    link("../../out/p.yaml", "sub/escape.yaml");
    link("sub/c.yaml", "inward.yaml");
    (tmp, root, show)
}

/// Loads `show/main.yaml`; returns the diagnostics and every file the reader opened.
fn load(show: &Path, allowed: &[PathBuf]) -> (Diags, Vec<PathBuf>) {
    let (mut sources, mut diags, mut spec) =
        (Sources::default(), Diags::default(), Spec::default());
    crate::read::hook::take();
    let mut loader = Loader::new(&mut sources, &mut diags, Limits::default());
    loader
        .allow_outside(allowed)
        .expect("allowed folders exist");
    loader
        .load_main(&show.join("main.yaml"), &mut spec)
        .expect("main.yaml is readable");
    (diags, crate::read::hook::take())
}

fn includes(paths: &[usize], root: &Path) -> String {
    let list: Vec<String> = paths
        .iter()
        .map(|&i| PATHS[i].replace("{root}", &root.to_string_lossy()))
        .map(|p| format!("\"{p}\""))
        .collect();
    format!("include: [{}]\n", list.join(", "))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn includes_never_open_a_file_outside_the_show(
        graph in proptest::collection::vec(
            proptest::collection::vec(0..PATHS.len(), 0..5),
            INSIDE.len() + 1,
        ),
    ) {
        let (_tmp, root, show) = layout();
        std::fs::write(
            show.join("main.yaml"),
            format!("show: {{ name: x }}\n{}", includes(&graph[0], &root)),
        )
        .expect("write");
        for (name, paths) in INSIDE.iter().zip(&graph[1..]) {
            std::fs::write(show.join(name), includes(paths, &root)).expect("write");
        }
        let (diags, opened) = load(&show, &[]);
        prop_assert!(!opened.is_empty());
        for path in &opened {
            prop_assert!(path.starts_with(&show), "opened {} outside {}", path.display(), show.display());
        }
        // Each include that leaves is refused, never silently skipped.
        let leaves = graph[0].iter().any(|&i| {
            matches!(PATHS[i], "../out/o.yaml" | "{root}/out/o.yaml" | "escape.yaml" | "/etc/passwd")
        });
        if leaves {
            prop_assert!(diags.items().iter().any(|d| d.code.id == "E0012"));
        }
    }
}

#[test]
fn an_allowed_folder_is_read() {
    let (_tmp, root, show) = layout();
    std::fs::write(
        show.join("main.yaml"),
        "show: { name: x }\ninclude: [escdir/o.yaml]\n",
    )
    .expect("write");
    let (diags, opened) = load(&show, &[root.join("out")]);
    assert!(!diags.has_errors(), "{:?}", diags.items());
    assert_eq!(opened.len(), 3, "{opened:?}");
    assert!(opened[2].ends_with("out/p.yaml"), "{opened:?}");
}

//! The modules follow the pipeline (ARCHITECTURE.md): a module may use the ones of its
//! own layer and of the layers before it, never one of a later pass. Every `crate::x`
//! path in src/ is read; an import that runs back up fails this test unless it is one
//! of the known ones listed in `KNOWN`, which may only shrink: an entry that no longer
//! exists fails the test too, so that fixing one also takes it off the list.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each top-level module and its layer, in pipeline order.
const LAYERS: &[(&str, u8)] = &[
    // Foundations: files, spans, diagnostics, the located YAML tree.
    ("fxhash", 0),
    ("escape", 0),
    ("source", 0),
    ("read", 0),
    ("build_dir", 0),
    ("manifest", 0),
    ("stages", 0),
    ("diag", 1),
    ("yaml", 2),
    // The model: what the planner wrote, the catalog, names resolved, the lock.
    ("catalog", 3),
    ("vendor", 3),
    ("host_tuning", 3),
    ("spec", 3),
    ("resolve", 4),
    ("lock", 4),
    ("session", 4),
    ("derive", 5),
    // Analysis.
    ("check", 6),
    // Backend: the IR, the plan's presentation and what is made from them.
    ("ir", 7),
    ("plan", 8),
    ("lower", 9),
    ("render", 11),
    ("config_db", 11),
    ("nvue", 11),
    ("rulesets", 11),
    ("csv", 10),
    ("report", 10),
    ("monitor", 11),
    ("emit", 11),
    ("write", 11),
    // Running a build.
    ("twin", 12),
    ("lab", 12),
    ("verify", 12),
    // The pipeline's driver and the front doors.
    ("compile", 13),
    ("synth", 13),
    ("api", 14),
    ("cli", 14),
];

/// Test support (`#[cfg(test)]`): any module's unit tests may use it.
const TEST_SUPPORT: &str = "testkit";

/// Imports that run back up today (from, to): the debt issue 37 §5 is paying off.
const KNOWN: &[(&str, &str)] = &[
    // A lab stand-in's script is the twin's emulation of the switch (`twin::lab_script`),
    // and a lab host's bonds the twin's stand-in for them (`twin::lab_bonds_script`).
    ("lower", "twin"),
];

fn layer(m: &str) -> Option<u8> {
    LAYERS.iter().find(|(n, _)| *n == m).map(|(_, l)| *l)
}

/// Top-level module -> the top-level modules its files name through `crate::`.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("src is readable").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let rel = p.strip_prefix(&src).expect("under src");
            let first = rel
                .components()
                .next()
                .and_then(|c| c.as_os_str().to_str())
                .unwrap_or("");
            let top = first.trim_end_matches(".rs").to_owned();
            if top == "lib" || top == "main" || top == TEST_SUPPORT {
                continue;
            }
            // Unit and property tests may run the whole pipeline: only the code a
            // build runs counts (test modules sit at the end of a file, or in files of
            // their own).
            let file = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if file == "props.rs" || file == "tests.rs" || file.ends_with("_tests.rs") {
                continue;
            }
            let whole = std::fs::read_to_string(&p).expect("utf-8 source");
            let text = whole.split("#[cfg(test)]").next().unwrap_or("");
            let named = out.entry(top.clone()).or_default();
            for used in crate_paths(text) {
                if used != top && layer(&used).is_some() {
                    named.insert(used);
                }
            }
        }
    }
    out
}

/// The first segment of every `crate::a` and `crate::{a, b}` in `text`.
fn crate_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for part in group[..end].split(',') {
                out.push(ident(part.trim()));
            }
        } else {
            out.push(ident(rest));
        }
    }
    out
}

#[test]
fn every_top_level_module_has_a_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for e in std::fs::read_dir(&src).expect("src").flatten() {
        let name = e
            .file_name()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_owned();
        if name == "lib" || name == "main" || name == TEST_SUPPORT {
            continue;
        }
        assert!(
            layer(&name).is_some(),
            "src/{name}: give it a layer in LAYERS"
        );
    }
}

#[test]
fn no_module_imports_a_later_pass_beyond_the_known_ones() {
    let known: BTreeSet<(String, String)> = KNOWN
        .iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect();
    let mut back = BTreeSet::new();
    for (from, tos) in imports() {
        let Some(lf) = layer(&from) else { continue };
        for to in tos {
            if layer(&to).is_some_and(|lt| lt > lf) {
                back.insert((from.clone(), to));
            }
        }
    }
    let new: Vec<_> = back.difference(&known).collect();
    assert!(
        new.is_empty(),
        "imports that run back up the pipeline (from, to): {new:?}; move the shared type \
         down to the earlier layer instead"
    );
    let gone: Vec<_> = known.difference(&back).collect();
    assert!(
        gone.is_empty(),
        "these back imports no longer exist: take them off KNOWN: {gone:?}"
    );
}

/// Modules of one layer may use each other, but not in a circle: a cycle makes the two
/// one module in all but name (spec and catalog were one until the catalog's file format
/// moved into the spec layer). The known back imports are left out, as they are debts
/// listed above.
#[test]
fn no_import_cycle_outside_the_known_back_imports() {
    let known: BTreeSet<(&str, &str)> = KNOWN.iter().copied().collect();
    let graph = imports();
    let edges = |from: &str| -> Vec<String> {
        graph
            .get(from)
            .map(|tos| {
                tos.iter()
                    .filter(|to| !known.contains(&(from, to.as_str())))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    };
    // A module is on a cycle when it reaches itself; the graph has a few dozen nodes.
    for start in graph.keys() {
        let mut seen: BTreeSet<String> = BTreeSet::new();
        let mut stack = edges(start);
        while let Some(m) = stack.pop() {
            assert!(
                m != *start,
                "`{start}` reaches itself through its imports: move what they share down a layer"
            );
            if seen.insert(m.clone()) {
                stack.extend(edges(&m));
            }
        }
    }
}

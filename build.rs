//! Embeds examples/sc16 (every YAML file under it) so `democ` has a default show, and
//! every file under templates/ (vendor data and templates), so adding a vendor is adding
//! a folder. democ's own YAML data (catalog/*.yaml and the YAML under templates/) is also
//! read here, once, by serde-saphyr, and embedded as JSON that serde_json reads at run
//! time: a run reads no YAML of its own (reading it was most of `democ check` on sc16).

use std::fmt::Write as _;
use std::path::Path;

use indexmap::IndexMap;
use serde_saphyr::Spanned;

fn collect(dir: &Path, out: &mut Vec<String>) {
    collect_ext(dir, out, &["yaml", "yml"]);
}

fn collect_ext(dir: &Path, out: &mut Vec<String>, exts: &[&str]) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            collect_ext(&p, out, exts);
        } else if p.extension().is_some_and(|e| exts.iter().any(|x| e == *x)) {
            out.push(p.to_string_lossy().replace('\\', "/"));
        }
    }
}

fn main() {
    println!("cargo::rerun-if-changed=examples/sc16");
    let mut files = Vec::new();
    collect(Path::new("examples/sc16"), &mut files);
    let mut code = String::from("[\n");
    for f in &files {
        println!("cargo::rerun-if-changed={f}");
        let _ = writeln!(
            code,
            "    ({f:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/{f}\"))),"
        );
    }
    code.push(']');
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(Path::new(&out).join("embedded_sc16.rs"), code).expect("OUT_DIR is writable");
    std::fs::write(Path::new(&out).join("embedded_templates.rs"), templates())
        .expect("OUT_DIR is writable");
    data(Path::new(&out));
}

/// catalog/*.yaml and every YAML file under templates/: `embedded_catalog.rs` (the
/// catalog's `[(path, text)]`, sorted, so a new catalog file needs no code),
/// `catalog_sections.rs` (each catalog file's sections: each entry's name, the byte range
/// of that name in the file, and its value as JSON) and `data_json.rs` (`[(path, JSON)]`
/// for the YAML under templates/).
fn data(out: &Path) {
    println!("cargo::rerun-if-changed=catalog");
    let mut catalog = Vec::new();
    collect(Path::new("catalog"), &mut catalog);
    let mut templates = Vec::new();
    collect(Path::new("templates"), &mut templates);
    let include =
        |f: &str| format!("include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/{f}\"))");
    let mut cat = String::from("[\n");
    let mut sections = String::from("[\n");
    for (i, f) in catalog.iter().enumerate() {
        println!("cargo::rerun-if-changed={f}");
        let _ = writeln!(cat, "    ({f:?}, {}),", include(f));
        let text = read(f);
        // Every section is a mapping: of entries by name, or of a singleton's fields.
        let file: IndexMap<String, IndexMap<Spanned<String>, serde_json::Value>> =
            serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{f}: {e}"));
        for (name, entries) in file {
            let _ = writeln!(
                sections,
                "    Section {{ file: {i}, name: {name:?}, entries: &["
            );
            for (key, value) in entries {
                let s = key.referenced.span();
                let (start, len) = (s.byte_offset(), s.byte_len());
                let (Some(start), Some(len)) = (start, len) else {
                    panic!("{f}: `{}` has no location", key.value)
                };
                let _ = writeln!(
                    sections,
                    "        Entry {{ name: {:?}, start: {start}, end: {}, json: {:?} }},",
                    key.value,
                    start + len,
                    value.to_string()
                );
            }
            sections.push_str("    ] },\n");
        }
    }
    cat.push(']');
    sections.push(']');
    std::fs::write(out.join("embedded_catalog.rs"), cat).expect("OUT_DIR is writable");
    std::fs::write(out.join("catalog_sections.rs"), sections).expect("OUT_DIR is writable");
    let mut json = String::from("[\n");
    for f in &templates {
        println!("cargo::rerun-if-changed={f}");
        let value: serde_json::Value =
            serde_saphyr::from_str(&read(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
        let _ = writeln!(json, "    ({f:?}, {:?}),", value.to_string());
    }
    json.push(']');
    std::fs::write(out.join("data_json.rs"), json).expect("OUT_DIR is writable");
}

fn read(f: &str) -> String {
    std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{f}: {e}"))
}

/// `[("dell/os10.j2", include_str!(...)), ...]`: every vendor.yaml and template, by path
/// under templates/.
fn templates() -> String {
    println!("cargo::rerun-if-changed=templates");
    let mut files = Vec::new();
    collect_ext(Path::new("templates"), &mut files, &["yaml", "j2"]);
    let mut code = String::from("[\n");
    for f in &files {
        println!("cargo::rerun-if-changed={f}");
        let key = f.strip_prefix("templates/").unwrap_or(f);
        let _ = writeln!(
            code,
            "    ({key:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/{f}\"))),"
        );
    }
    code.push(']');
    code
}

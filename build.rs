//! Embeds examples/sc16 (every YAML file under it) so `democ` has a default show, and
//! every file under templates/ (vendor data and templates), so adding a vendor is adding
//! a folder.

use std::fmt::Write as _;
use std::path::Path;

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

//! Embeds examples/sc16 (every YAML file under it) so `democ` has a default show.

use std::fmt::Write as _;
use std::path::Path;

fn collect(dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "yaml" || e == "yml") {
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
        let _ = writeln!(code, "    ({f:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/{f}\"))),");
    }
    code.push(']');
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(Path::new(&out).join("embedded_sc16.rs"), code).expect("OUT_DIR is writable");
}

//! Embeds examples/sc16 (every YAML file under it) so `democ` has a default show, and
//! every file under templates/ (vendor data and templates), so adding a vendor is adding
//! a folder. democ's own YAML data (catalog/*.yaml and the YAML under templates/) is also
//! read here, once, with democ's fast reader, and embedded as located trees
//! (src/yaml/packed.rs): a run then reads no YAML of its own (the planner's loop spent a
//! third of `democ check` on sc16 reading it). A file the fast reader refuses is embedded
//! as text only and read at run time by the general parser, which reports its errors.

use std::fmt::Write as _;
use std::path::Path;

// The reader and the packed form are democ's own modules, compiled here as well, so the
// trees built now are exactly the ones a run would read.
#[allow(dead_code)]
#[path = "src/yaml/fast.rs"]
mod fast;
#[allow(dead_code)]
#[path = "src/fxhash.rs"]
mod fxhash;
#[allow(dead_code)]
#[path = "src/yaml/node.rs"]
mod node;
#[allow(dead_code)]
#[path = "src/yaml/packed.rs"]
mod packed;
#[allow(dead_code)]
#[path = "src/yaml/scalar.rs"]
mod scalar;
#[allow(dead_code)]
#[path = "src/source.rs"]
mod source;
#[allow(dead_code)]
#[path = "src/yaml/text.rs"]
mod text;

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
/// catalog's `[(path, text)]`, sorted, so a new catalog file needs no code) and
/// `embedded_data.rs` (`[File { path, text, packed }]`, `packed` the tree's bytes when
/// the fast reader takes the file).
fn data(out: &Path) {
    println!("cargo::rerun-if-changed=catalog");
    for f in [
        "src/source.rs",
        "src/fxhash.rs",
        "src/yaml/node.rs",
        "src/yaml/scalar.rs",
        "src/yaml/fast.rs",
        "src/yaml/packed.rs",
    ] {
        println!("cargo::rerun-if-changed={f}");
    }
    let mut catalog = Vec::new();
    collect(Path::new("catalog"), &mut catalog);
    let mut templates = Vec::new();
    collect(Path::new("templates"), &mut templates);
    let include =
        |f: &str| format!("include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/{f}\"))");
    let mut cat = String::from("[\n");
    for f in &catalog {
        println!("cargo::rerun-if-changed={f}");
        let _ = writeln!(cat, "    ({f:?}, {}),", include(f));
    }
    cat.push(']');
    std::fs::write(out.join("embedded_catalog.rs"), cat).expect("OUT_DIR is writable");
    let packed_dir = out.join("packed");
    std::fs::create_dir_all(&packed_dir).expect("OUT_DIR is writable");
    let mut code = String::from("[\n");
    for (i, f) in catalog.iter().chain(&templates).enumerate() {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let tree = fast::parse(&text, source::FileId(0), 64, usize::MAX);
        let packed = match &tree {
            Some(tree) => {
                let bin = packed_dir.join(format!("{i}.bin"));
                std::fs::write(&bin, packed::encode(tree)).expect("OUT_DIR is writable");
                format!("Some(include_bytes!({:?}))", bin.to_string_lossy())
            }
            None => "None".to_owned(),
        };
        // The typed data (templates/ only; the catalog is read as trees) also as JSON,
        // which serde_json reads straight into its type.
        let json = match tree.filter(|_| f.starts_with("templates/")) {
            Some(tree) => {
                let mut j = String::new();
                if json(&tree, &mut j).is_some() {
                    let file = packed_dir.join(format!("{i}.json"));
                    std::fs::write(&file, j).expect("OUT_DIR is writable");
                    format!("Some(include_str!({:?}))", file.to_string_lossy())
                } else {
                    "None".to_owned()
                }
            }
            None => "None".to_owned(),
        };
        let _ = writeln!(
            code,
            "    File {{ path: {f:?}, text: {}, packed: {packed}, json: {json} }},",
            include(f)
        );
    }
    code.push(']');
    std::fs::write(out.join("embedded_data.rs"), code).expect("OUT_DIR is writable");
}

/// `n` as JSON, as yaml::embedded's `value` would convert it (None where that gives up:
/// a float JSON cannot write). Floats print as Rust's shortest round-trip form.
fn json(n: &node::Node, out: &mut String) -> Option<()> {
    use node::Kind;
    match &n.kind {
        Kind::Null => out.push_str("null"),
        Kind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Kind::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Kind::Float(f) if f.is_finite() => {
            let _ = write!(out, "{f:?}");
        }
        Kind::Float(_) => return None,
        Kind::Str(s) => json_str(s, out),
        Kind::Seq(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json(item, out)?;
            }
            out.push(']');
        }
        Kind::Map(entries) => {
            out.push('{');
            for (i, (k, v)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json_str(&k.name, out);
                out.push(':');
                json(v, out)?;
            }
            out.push('}');
        }
    }
    Some(())
}

fn json_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
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

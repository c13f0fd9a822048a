//! The spec's JSON Schema (schema/democ.schema.json, what editors validate against)
//! accepts what democ accepts: it is the one `democ schema` prints, and every example,
//! the fixtures that use WAN `loss:` and `middleboxes:`, and the format-gap examples
//! validate against it.

use std::path::Path;

fn schema() -> serde_json::Value {
    let text = std::fs::read_to_string("schema/democ.schema.json").expect("schema file");
    serde_json::from_str(&text).expect("the schema is JSON")
}

/// Every YAML file under `dir`, sorted.
fn yaml_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("folder")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            yaml_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "yaml") {
            out.push(p);
        }
    }
}

#[test]
fn the_schema_file_is_generated_from_the_types() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_democ"))
        .arg("schema")
        .output()
        .expect("democ runs");
    let file = std::fs::read_to_string("schema/democ.schema.json").expect("schema file");
    assert!(
        String::from_utf8_lossy(&out.stdout) == file,
        "schema/democ.schema.json is stale: run `democ schema > schema/democ.schema.json`"
    );
}

#[test]
fn every_example_and_wan_fixture_validates() {
    let v = jsonschema::validator_for(&schema()).expect("the schema compiles");
    let mut files = Vec::new();
    yaml_files(Path::new("examples"), &mut files);
    files.push("tests/fixtures/loss/show.yaml".into());
    files.push("tests/fixtures/middlebox/show.yaml".into());
    assert!(files.len() > 10, "{files:?}");
    let mut bad = Vec::new();
    for f in &files {
        // The loss fixture is a template: its tests fill in the streams and the algorithm.
        let text = std::fs::read_to_string(f)
            .expect("read")
            .replace("STREAMS", "1")
            .replace("congestion_control: CC", "congestion_control: cubic");
        let doc: serde_json::Value =
            serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        bad.extend(
            v.iter_errors(&doc)
                .map(|e| format!("{}: {e} at {}", f.display(), e.instance_path)),
        );
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn wan_loss_and_middleboxes_are_in_every_wan_kind() {
    let s = schema();
    for b in s["$defs"]["Wan"]["oneOf"].as_array().expect("oneOf") {
        for field in ["loss", "middleboxes"] {
            assert!(
                b["properties"].get(field).is_some(),
                "{} lacks `{field}`",
                b["title"]
            );
        }
    }
}

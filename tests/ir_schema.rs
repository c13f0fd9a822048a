//! The IR's JSON Schema: schema/ir.schema.json equals what the types generate, and the
//! IR of every example and fixture validates against it (the whole document and each
//! per-switch file of a build).

#[path = "fixtures/render/support.rs"]
mod support;

use support::{FIXTURE, democ, example, stderr};

fn schema() -> serde_json::Value {
    let text = std::fs::read_to_string("schema/ir.schema.json").expect("schema/ir.schema.json");
    serde_json::from_str(&text).expect("the schema is JSON")
}

#[test]
fn the_schema_file_is_generated_from_the_types() {
    let o = democ(&["ir", "--schema"]);
    assert_eq!(o.status.code(), Some(0));
    let generated = String::from_utf8(o.stdout).expect("utf-8");
    let file = std::fs::read_to_string("schema/ir.schema.json").expect("schema/ir.schema.json");
    assert!(
        generated == file,
        "schema/ir.schema.json is stale: run `democ ir --schema > schema/ir.schema.json`"
    );
}

fn validate(name: &str, schema: &serde_json::Value, doc: &serde_json::Value) {
    let v = jsonschema::validator_for(schema).expect("the schema compiles");
    let errors: Vec<String> = v
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    assert!(
        errors.is_empty(),
        "{name} does not match the IR schema:\n{}",
        errors.join("\n")
    );
}

#[test]
fn every_ir_validates() {
    let schema = schema();
    let mut switch = schema.clone();
    switch["$ref"] = "#/$defs/Switch".into();
    for key in [
        "properties",
        "required",
        "additionalProperties",
        "type",
        "title",
        "description",
    ] {
        switch.as_object_mut().map(|o| o.remove(key));
    }
    for spec in [
        FIXTURE.to_owned(),
        "tests/fixtures/render/injection.yaml".into(),
        example("sc16"),
        example("sc15"),
        example("sc25-400g"),
    ] {
        let o = democ(&["ir", &spec]);
        assert_eq!(o.status.code(), Some(0), "democ ir {spec}:\n{}", stderr(&o));
        let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("IR is JSON");
        validate(&spec, &schema, &doc);
        let switches = doc["switches"].as_array().expect("switches");
        assert!(!switches.is_empty(), "{spec} has switches");
        for sw in switches {
            validate(&format!("{spec} switch {}", sw["hostname"]), &switch, sw);
        }
    }
}

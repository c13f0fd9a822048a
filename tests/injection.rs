//! Descriptions are free text: a newline followed by a command must never become a CLI
//! line of its own, whatever the vendor; quotes cannot close a quoted description.

#[path = "fixtures/render/support.rs"]
mod support;

use support::{build, tree};

#[test]
fn a_newline_in_a_description_cannot_start_a_command() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build("tests/fixtures/render/injection.yaml", &out);
    let files = tree(&out);
    let configs: Vec<_> = files.iter().filter(|(p, _)| p.starts_with("switches/")).collect();
    assert_eq!(configs.len(), 5, "one config per OS flavour");
    for (path, bytes) in configs {
        let text = std::str::from_utf8(bytes).expect("configs are UTF-8");
        assert!(text.is_ascii(), "{path} is not plain ASCII");
        assert!(!text.contains('\r'), "{path} holds a carriage return");
        for line in text.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            assert!(words.first() != Some(&"reload"), "{path}: `{line}` runs a command");
            if line.contains("reload") {
                assert!(line.contains("description"), "{path}: `reload` outside a description: `{line}`");
            }
            if line.contains("description \"") {
                let quotes = line.matches('"').count();
                assert_eq!(quotes, 2, "{path}: a quote inside a quoted description: `{line}`");
            }
            assert!(!line.contains('?'), "{path}: `?` opens CLI help: `{line}`");
        }
        assert!(text.contains("x reload"), "{path} lost the description text");
    }
}

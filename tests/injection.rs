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
    let configs: Vec<_> = files
        .iter()
        .filter(|(p, _)| p.starts_with("switches/"))
        .collect();
    assert_eq!(
        configs.len(),
        6,
        "one config per OS flavour, and a model key with a newline"
    );
    for (path, bytes) in configs {
        let text = std::str::from_utf8(bytes).expect("configs are UTF-8");
        assert!(text.is_ascii(), "{path} is not plain ASCII");
        assert!(!text.contains('\r'), "{path} holds a carriage return");
        for line in text.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            assert!(
                words.first() != Some(&"reload"),
                "{path}: `{line}` runs a command"
            );
            let comment = line.starts_with('!') || line.starts_with('#');
            if line.contains("reload") && !comment {
                assert!(
                    line.contains("description"),
                    "{path}: `reload` outside a description: `{line}`"
                );
            }
            if line.contains("description \"") {
                let quotes = line.matches('"').count();
                assert_eq!(
                    quotes, 2,
                    "{path}: a quote inside a quoted description: `{line}`"
                );
            }
            assert!(!line.contains('?'), "{path}: `?` opens CLI help: `{line}`");
        }
        // sw-eos2 only carries a model key with a newline.
        if path != "switches/sw-eos2.cfg" {
            assert!(
                text.contains("x reload"),
                "{path} lost the description text"
            );
        }
    }
}

//! `democ build`: byte-identical trees across runs and working directories, atomic
//! replacement (a failing build leaves the previous output untouched), unchanged files
//! keep their mtime, template overrides and template errors.

#[path = "fixtures/render/support.rs"]
mod support;

use support::{FIXTURE, build, democ, democ_in, mtimes, stderr, tree};

#[test]
fn two_builds_are_byte_identical_across_working_directories() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    build(FIXTURE, &a);
    // The same show from its own folder, with a relative spec path.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/render");
    let o = democ_in(
        Some(&dir),
        &[
            "build",
            "show.yaml",
            "-o",
            b.to_str().expect("utf-8"),
            "--hosts",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (ta, tb) = (tree(&a), tree(&b));
    assert_eq!(ta.keys().collect::<Vec<_>>(), tb.keys().collect::<Vec<_>>());
    for (path, bytes) in &ta {
        assert!(tb[path] == *bytes, "{path} differs between the two builds");
        let text = String::from_utf8_lossy(bytes);
        assert!(
            !text.contains(env!("CARGO_MANIFEST_DIR")),
            "{path} holds an absolute path"
        );
        assert!(
            !text.contains(tmp.path().to_str().expect("utf-8")),
            "{path} holds the output path"
        );
    }
    // Rebuilding in place changes nothing, not even mtimes.
    let before = mtimes(&a);
    build(FIXTURE, &a);
    assert_eq!(before, mtimes(&a));
}

#[test]
fn the_manifest_hashes_every_file() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(FIXTURE, &out);
    let files = tree(&out);
    let m: serde_json::Value =
        serde_json::from_slice(&files["manifest.json"]).expect("manifest is JSON");
    assert_eq!(m["democ"], env!("CARGO_PKG_VERSION"));
    assert_eq!(m["show"], "mini");
    assert_eq!(m["sources_sha256"].as_str().map(str::len), Some(64));
    let listed = m["files"].as_array().expect("files");
    assert_eq!(
        listed.len() + 1,
        files.len(),
        "every file but the manifest is listed"
    );
    for e in listed {
        let path = e["path"].as_str().expect("path");
        let bytes = &files[path];
        let digest: String =
            sha2::Digest::finalize(<sha2::Sha256 as sha2::Digest>::new_with_prefix(bytes))
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
        assert_eq!(e["sha256"].as_str(), Some(digest.as_str()), "{path}");
    }
    assert!(
        files.contains_key("switches/ovs-1.sh"),
        "PicOS OVS mode is a script"
    );
    assert!(files.contains_key("ir/eos-1.json"));
}

#[test]
fn a_failing_build_leaves_the_previous_output_untouched() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(FIXTURE, &out);
    let (before, times) = (tree(&out), mtimes(&out));
    let outs = out.to_str().expect("utf-8");

    // A spec error (exit 1).
    let spec = std::fs::read_to_string(FIXTURE).expect("fixture");
    let dir = tmp.path().join("bad");
    std::fs::create_dir(&dir).expect("mkdir");
    std::fs::copy(
        "tests/fixtures/render/catalog.yaml",
        dir.join("catalog.yaml"),
    )
    .expect("copy");
    std::fs::write(
        dir.join("show.yaml"),
        spec.replace("model: t-arista-7060", "model: t-arista-7061"),
    )
    .expect("write");
    let o = democ(&[
        "build",
        dir.join("show.yaml").to_str().expect("utf-8"),
        "-o",
        outs,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("t-arista-7061"));

    // A template error (exit 2), reported with the template's name and line.
    let templates = tmp.path().join("templates");
    std::fs::create_dir(&templates).expect("mkdir");
    std::fs::write(
        templates.join("os10.j2"),
        "hostname {{ sw.hostname }}\n!\n{{ sw.no_such_field }}\n",
    )
    .expect("write");
    let o = democ(&[
        "build",
        FIXTURE,
        "-o",
        outs,
        "--templates",
        templates.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("template `dell/os10.j2` line 3"), "{err}");
    assert!(err.contains("overriding template"), "{err}");

    assert!(tree(&out) == before, "the output changed");
    assert_eq!(mtimes(&out), times);
    let leftovers: Vec<_> = std::fs::read_dir(tmp.path())
        .expect("ls")
        .filter_map(Result::ok)
        .map(|e| e.file_name())
        .collect();
    assert_eq!(
        leftovers.len(),
        3,
        "no staging folders left behind: {leftovers:?}"
    );
}

#[test]
fn an_override_changes_only_its_files() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(FIXTURE, &out);
    let (before, times) = (tree(&out), mtimes(&out));
    std::thread::sleep(std::time::Duration::from_millis(50));
    let templates = tmp.path().join("site");
    std::fs::create_dir_all(templates.join("arista")).expect("mkdir");
    let eos = std::fs::read_to_string("templates/arista/eos.j2").expect("eos.j2");
    std::fs::write(
        templates.join("arista/eos.j2"),
        eos.replace("lldp run", "lldp run\nlogging buffered 100000"),
    )
    .expect("write");
    let o = democ(&[
        "build",
        FIXTURE,
        "-o",
        out.to_str().expect("utf-8"),
        "--templates",
        templates.to_str().expect("utf-8"),
        // As the first build: the same files (the report lists them).
        "--hosts",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (after, times2) = (tree(&out), mtimes(&out));
    for (path, bytes) in &after {
        let changed = before[path] != *bytes;
        // The lab's cEOS config is made from the switch's.
        let expected = path == "switches/eos-1.cfg"
            || path == "lab/configs/eos-1.cfg"
            || path == "manifest.json";
        assert_eq!(changed, expected, "{path}");
        if !changed {
            assert_eq!(times[path], times2[path], "{path} was rewritten");
        }
    }
    assert!(
        String::from_utf8_lossy(&after["switches/eos-1.cfg"]).contains("logging buffered 100000")
    );
    assert!(String::from_utf8_lossy(&after["manifest.json"]).contains("arista/eos.j2"));
}

#[test]
fn refuses_to_replace_a_folder_it_did_not_write() {
    let tmp = tempfile::tempdir().expect("tempdir");
    std::fs::write(tmp.path().join("thesis.tex"), "precious").expect("write");
    let o = democ(&["build", FIXTURE, "-o", tmp.path().to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("has no democ manifest.json"),
        "{}",
        stderr(&o)
    );
    assert!(tmp.path().join("thesis.tex").exists());
}

/// What `twin test --measure` and `lab split` add to a build describes that build: a
/// rebuild replaces it with the rest (it refused to before, as if a stranger's files);
/// a file of anyone else's beside them is still refused.
#[test]
fn a_rebuild_replaces_the_twin_results_and_lab_split_it_made() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    let out_s = out.to_str().expect("utf-8");
    let build = || democ(&["build", FIXTURE, "-o", out_s]);
    assert_eq!(build().status.code(), Some(0));
    for (dir, file) in [
        ("twin/results", "f+a+b+a+T.iperf3.json"),
        ("lab/split", "a.clab.yml"),
    ] {
        std::fs::create_dir_all(out.join(dir)).expect("mkdir");
        std::fs::write(out.join(dir).join(file), "{}").expect("write");
    }
    std::fs::write(out.join("twin/measure.json"), "{}").expect("write");
    let o = build();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!out.join("twin").exists() && !out.join("lab/split").exists());

    std::fs::create_dir_all(out.join("twin")).expect("mkdir");
    std::fs::write(out.join("notes.txt"), "mine").expect("write");
    let o = build();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("notes.txt"), "{}", stderr(&o));
    assert!(out.join("notes.txt").exists());
}

#[test]
fn progress_lines_only_on_a_terminal() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let o = democ(&[
        "build",
        FIXTURE,
        "-o",
        tmp.path().join("out").to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(!stderr(&o).contains("democ: "), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
}

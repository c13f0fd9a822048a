//! docs/tutorial.md cannot go stale: every ```` ```sh tutorial ```` block in it runs, in
//! order, in one temporary folder, against the built binary. In a block, `$ COMMAND`
//! runs COMMAND with `sh -c` (`democ` is this build; `cd DIR` moves the rest of the
//! tutorial), and each line under it must be part of a line it printed (stdout or
//! stderr). A command exits 0 unless its line ends in `# exit N`. Blocks marked
//! `root` (the twin) run only where the twin can run, and are skipped with the reason
//! printed otherwise.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const TUTORIAL: &str = "docs/tutorial.md";

/// One `$` line and what it must print.
struct Step {
    command: String,
    exit: i32,
    expect: Vec<String>,
    root: bool,
}

/// The steps of every ```` ```sh tutorial ```` block, in order.
fn steps(md: &str) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::new();
    let mut block: Option<bool> = None;
    for line in md.lines() {
        if let Some(root) = block {
            if line.starts_with("```") {
                block = None;
            } else if let Some(cmd) = line.strip_prefix("$ ") {
                let (command, exit) = match cmd.rsplit_once("# exit ") {
                    Some((c, n)) => (c.trim_end(), n.trim().parse().expect("`# exit N`")),
                    None => (cmd, 0),
                };
                out.push(Step {
                    command: command.to_owned(),
                    exit,
                    expect: Vec::new(),
                    root,
                });
            } else if !line.trim().is_empty() {
                let step = out.last_mut().expect("output under a `$` line");
                step.expect.push(line.trim().to_owned());
            }
        } else if let Some(info) = line.strip_prefix("```sh tutorial") {
            block = Some(info.trim() == "root");
        }
    }
    out
}

/// Why the twin cannot run here, if it cannot: `democ twin up` on no folder says.
fn twin_unavailable(bin: &Path) -> Option<String> {
    let o = Command::new(bin)
        .args(["twin", "up", "/nonexistent-democ-build"])
        .output()
        .expect("democ runs");
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    (o.status.code() == Some(2) && err.contains("cannot run here")).then_some(err)
}

/// Takes down a twin the tutorial brought up when a later step fails: a failed test
/// leaves no namespaces or daemons behind.
struct TwinDown {
    bin: PathBuf,
    up: Option<(PathBuf, String)>,
}

impl Drop for TwinDown {
    fn drop(&mut self) {
        if let Some((dir, build)) = self.up.take() {
            let _ = Command::new(&self.bin)
                .args(["twin", "down", &build])
                .current_dir(dir)
                .status();
        }
    }
}

#[test]
fn every_tutorial_command_runs_and_prints_what_the_tutorial_says() {
    let md = std::fs::read_to_string(TUTORIAL).expect("docs/tutorial.md");
    let steps = steps(&md);
    assert!(steps.len() >= 10, "{} steps", steps.len());
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_democ"));
    for needed in [
        "init",
        "check",
        "plan",
        "build",
        "report",
        "twin up",
        "twin test",
        "twin down",
        "diff",
    ] {
        let word = format!("democ {needed}");
        assert!(
            steps.iter().any(|s| s.command.starts_with(&word)),
            "the tutorial runs no `{word}`"
        );
    }
    let path = format!(
        "{}:{}",
        bin.parent().expect("bin folder").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let twin = twin_unavailable(&bin);
    let tmp = tempfile::tempdir().expect("temp");
    let mut cwd = tmp.path().to_path_buf();
    let mut down = TwinDown {
        bin: bin.clone(),
        up: None,
    };
    for s in &steps {
        if s.root {
            if let Some(why) = &twin {
                println!("skipped `{}`: {}", s.command, why.trim());
                continue;
            }
        }
        if let Some(dir) = s.command.strip_prefix("cd ") {
            cwd = cwd.join(dir.trim());
            assert!(cwd.is_dir(), "`{}`: no such folder", s.command);
            continue;
        }
        if let Some(build) = s.command.strip_prefix("democ twin up ") {
            down.up = Some((cwd.clone(), build.trim().to_owned()));
        }
        let o = Command::new("sh")
            .arg("-c")
            .arg(&s.command)
            .current_dir(&cwd)
            .env("PATH", &path)
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .output()
            .expect("sh runs");
        let printed = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(
            o.status.code(),
            Some(s.exit),
            "`{}` exited {:?}, the tutorial says {}:\n{printed}",
            s.command,
            o.status.code(),
            s.exit
        );
        for want in &s.expect {
            assert!(
                printed.lines().any(|l| l.contains(want.as_str())),
                "`{}` did not print `{want}`; it printed:\n{printed}",
                s.command
            );
        }
        if s.command.starts_with("democ twin down ") {
            down.up = None;
        }
        println!("ran `{}`: exit {}", s.command, s.exit);
    }
}

#[test]
fn the_readme_starts_its_documentation_with_the_tutorial() {
    let readme = std::fs::read_to_string("README.md").expect("README.md");
    let docs = readme
        .split("## The documentation")
        .nth(1)
        .expect("a documentation section");
    let first = docs.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    assert!(first.contains("(docs/tutorial.md)"), "{first}");
}

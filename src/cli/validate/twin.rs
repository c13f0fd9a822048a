//! `twin` (with `--twin`): `twin up`, `twin test`, `twin down` on this machine, when
//! it can run here (crate::twin's own check: Linux, root, the tools).

use std::io::Write;
use std::path::Path;

use super::outcome::{Outcome, first_lines};
use crate::twin::report::Verdict;

const NAME: &str = "twin";

/// The twin's table as it is measured: to stderr, so a long run shows progress without
/// mixing into validate's report on stdout, and kept, for the failing rows.
struct Table(Vec<u8>);

impl Write for Table {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let _ = std::io::stderr().write_all(buf);
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

fn fail(m: &str) -> Outcome {
    Outcome::failed(NAME, first_lines(m))
}

pub(crate) fn check(build: &Path) -> Outcome {
    // The daemons run in their own folders: the twin takes absolute paths.
    let build = &std::path::absolute(build).unwrap_or_else(|_| build.to_owned());
    if !build.join("ir").join("hosts").is_dir() {
        return Outcome::skipped(NAME, "the build has no DTN IR (`democ build --hosts`)");
    }
    if let Some(why) = crate::twin::unavailable() {
        let fix = if rustix::process::geteuid().is_root() {
            "install what is missing (the line above), then run it again".to_owned()
        } else {
            format!("sudo democ validate {} --twin", build.display())
        };
        return Outcome::not_run(NAME, why, fix);
    }
    // Never test, then take down, a twin someone else brought up.
    match crate::twin::is_up(build, None) {
        Ok(true) => {
            return Outcome::not_run(
                NAME,
                "a twin of this build is already up (democ never takes down a twin it did not bring up)",
                format!(
                    "democ twin test {0} on it, or democ twin down {0} first",
                    build.display()
                ),
            );
        }
        Ok(false) => {}
        Err(e) => return fail(&e),
    }
    let progress = |stage: &str| eprintln!("twin: {}", crate::escape::lines(stage));
    if let Err((m, _)) = crate::twin::up(build, None, false, &progress) {
        // A failed `up` has removed what it made.
        return fail(&m);
    }
    let mut table = Table(Vec::new());
    let tested = crate::twin::test(build, None, &mut table);
    let down = crate::twin::down(build, None);
    match (tested, down) {
        (Ok((m, Verdict::Passed)), Ok(_)) => Outcome::passed(NAME, m),
        (Ok((m, Verdict::Overloaded)), Ok(_)) => Outcome::skipped(NAME, m),
        (Ok((m, Verdict::Failed)), _) => {
            let rows = String::from_utf8_lossy(&table.0);
            let failing: Vec<&str> = rows.lines().filter(|l| l.contains("FAIL")).collect();
            fail(&format!("{m}\n{}", failing.join("\n")))
        }
        (Err((m, _)), _) => fail(&m),
        (Ok(_), Err((m, _))) => fail(&format!("twin down: {m}")),
    }
}

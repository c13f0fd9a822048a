//! `avd`: the pyavd cross-check of the build's Arista EOS configs, by the
//! validators/avd package (`python -m democ_validators_avd BUILD_DIR`, exit 0 / 1 / 2).

use std::path::Path;

use super::outcome::Outcome;
use super::pymod;

const NAME: &str = "avd";
const MODULE: &str = "democ_validators_avd";

/// The switches that differ, with their lines: the report's header, the agreeing
/// switches and the closing notes (switches not EOS, democ-only lines) are not the why.
fn differences(report: &str) -> String {
    report
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("skipped, not EOS") && !l.starts_with("democ-only lines"))
        .filter(|l| !l.contains(": OK, "))
        .collect::<Vec<_>>()
        .join("\n")
}

pub(crate) fn check(py: &Path, build: &Path) -> Outcome {
    if !pymod::has_os(build, "eos") {
        return Outcome::skipped(NAME, "the build has no Arista EOS switch");
    }
    if let Some((why, fix)) = pymod::unavailable(py, MODULE, "avd") {
        return Outcome::not_run(NAME, why, fix);
    }
    // `--` so that a folder named like an option is still the folder.
    match pymod::run(py, MODULE, &["--".as_ref(), build.as_os_str()]) {
        Err(e) => Outcome::failed(NAME, e),
        Ok(r) if r.code == Some(0) => Outcome::passed(NAME, pymod::last_line(&r.stdout)),
        Ok(r) => pymod::failure(NAME, &r, &differences(&r.stdout)),
    }
}

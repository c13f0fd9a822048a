//! `nvue-schema`: every Cumulus Linux switch's NVUE file against NVIDIA's NVUE models
//! (PyPI `nvueschema`, made strict), by the validators/cumulus package (`python -m
//! democ_validators_cumulus BUILD_DIR`, exit 0 / 1 / 2).

use std::path::Path;

use super::outcome::Outcome;
use super::pymod;

const NAME: &str = "nvue-schema";
const MODULE: &str = "democ_validators_cumulus";

pub(crate) fn check(py: &Path, build: &Path) -> Outcome {
    if !pymod::has_os(build, "cumulus") {
        return Outcome::skipped(NAME, "the build has no Cumulus Linux switch");
    }
    if let Some((why, fix)) = pymod::unavailable(py, MODULE, "cumulus") {
        return Outcome::not_run(NAME, why, fix);
    }
    let args = ["--".as_ref(), build.as_os_str()];
    match pymod::run(py, MODULE, &args) {
        Err(e) => Outcome::failed(NAME, e),
        Ok(r) if r.code == Some(0) => Outcome::passed(NAME, pymod::last_line(&r.stdout)),
        Ok(r) => pymod::failure(NAME, &r, &pymod::invalid(&r.stdout)),
    }
}

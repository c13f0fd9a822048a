//! `sonic-yang`: every SONiC switch's config_db.json against SONiC's own YANG models
//! (libyang), by the validators/sonic package (`python -m democ_validators_sonic
//! BUILD_DIR --yang DIR`, exit 0 / 1 / 2). The models ship beside the project
//! (../shared/schemas/sonic-yang beside democ's checkout), found by cli::locate.

use std::path::Path;

use super::outcome::Outcome;
use super::pymod;

const NAME: &str = "sonic-yang";
const MODULE: &str = "democ_validators_sonic";

pub(crate) fn check(py: &Path, build: &Path) -> Outcome {
    if !pymod::has_os(build, "sonic") {
        return Outcome::skipped(NAME, "the build has no SONiC switch");
    }
    let Some((_, models)) = crate::cli::locate::sonic_yang() else {
        return Outcome::not_run(
            NAME,
            "no SONiC YANG models found (DEMOC_SONIC_YANG, democ's data folder, beside democ's checkout)",
            "DEMOC_SONIC_YANG=PATH/sonic-yang (sonic-buildimage src/sonic-yang-models: yang-models/ and yang-templates/)",
        );
    };
    if let Some((why, fix)) = pymod::unavailable(py, MODULE, "sonic") {
        return Outcome::not_run(NAME, why, fix);
    }
    let args = [
        "--yang".as_ref(),
        models.as_os_str(),
        "--".as_ref(),
        build.as_os_str(),
    ];
    match pymod::run(py, MODULE, &args) {
        Err(e) => Outcome::failed(NAME, e),
        Ok(r) if r.code == Some(0) => Outcome::passed(NAME, pymod::last_line(&r.stdout)),
        Ok(r) => pymod::failure(NAME, &r, &pymod::invalid(&r.stdout)),
    }
}

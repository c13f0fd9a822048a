//! `democ push BUILD_DIR [--device NAME] [--commit] ...`: takes a build's switch configs
//! to the switches through the NAPALM shim, the Python package `democ_push`
//! (validators/push), which does the work: a dry-run diff by default, commit-confirm,
//! post-commit check and rollback with `--commit`, one JSON report per device. democ
//! checks the folder is a build, finds the Python that has the package, and passes the
//! shim's exit code through (0 all ok, 1 a device failed, 2 usage or I/O).
//!
//! Credentials are never arguments (anyone on the machine can read a process's argv):
//! the shim reads them from its environment, which it inherits from democ, or a netrc.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use clap::Args;

use super::usage;

#[derive(Args, Debug)]
pub(crate) struct PushArgs {
    /// A `democ build` output folder.
    build: PathBuf,
    /// Only this switch (repeatable).
    #[arg(long, value_name = "NAME")]
    device: Vec<String>,
    /// Commit (with a confirm timer where the driver has one), check the device, confirm;
    /// roll back on any failure. Without it: a dry run that prints each device's diff.
    #[arg(long)]
    commit: bool,
    /// Devices at once (default 4).
    #[arg(long, value_name = "N")]
    parallel: Option<u32>,
    /// Where the `<device>.json` reports go (default BUILD_DIR/../push-report; never
    /// inside the build).
    #[arg(long, value_name = "DIR")]
    report_dir: Option<PathBuf>,
    /// The confirm timer: an unconfirmed commit reverts by itself after this long
    /// (default 300).
    #[arg(long, value_name = "SECONDS")]
    revert_in: Option<u32>,
    /// How long the post-commit check waits for LLDP neighbours (default 30).
    #[arg(long, value_name = "SECONDS")]
    lldp_wait: Option<f64>,
    /// A netrc file with `machine <management address> login ... password ...`
    /// (default ~/.netrc); or DEMOC_PUSH_USER / DEMOC_PUSH_PASSWORD in the environment.
    #[arg(long, value_name = "PATH")]
    netrc: Option<PathBuf>,
    /// Lines put before every config of that OS (eos, os10, ftos9, onyx, picos): the
    /// site's users and management API, which democ does not write and a replace must
    /// keep (repeatable).
    #[arg(long, value_name = "OS=FILE")]
    preamble: Vec<String>,
}

impl PushArgs {
    /// The shim's arguments: the same options, spelled as it spells them.
    fn shim_args(&self) -> Vec<OsString> {
        let mut a: Vec<OsString> = vec!["-m".into(), "democ_push".into()];
        for d in &self.device {
            a.push(format!("--device={d}").into());
        }
        for p in &self.preamble {
            a.push(format!("--preamble={p}").into());
        }
        if self.commit {
            a.push("--commit".into());
        }
        let numbers = [
            ("--parallel", self.parallel.map(|n| n.to_string())),
            ("--revert-in", self.revert_in.map(|n| n.to_string())),
            ("--lldp-wait", self.lldp_wait.map(|n| n.to_string())),
        ];
        for (flag, value) in numbers {
            if let Some(v) = value {
                a.push(format!("{flag}={v}").into());
            }
        }
        for (flag, path) in [("--report-dir", &self.report_dir), ("--netrc", &self.netrc)] {
            if let Some(p) = path {
                a.push(flag.into());
                a.push(p.clone().into());
            }
        }
        // `--` so that a folder named like an option is still the folder.
        a.push("--".into());
        a.push(self.build.clone().into());
        a
    }
}

fn installed(py: &Path) -> Result<(), String> {
    if super::python::has_module(py, "democ_push")? {
        return Ok(());
    }
    Err(format!(
        "the push shim (Python package democ_push) is not installed for {}: \
         `{} -m pip install -e validators/push` in democ's checkout (./test.sh does it), \
         or point DEMOC_PYTHON at a Python that has it",
        py.display(),
        py.display()
    ))
}

pub(crate) fn run(a: &PushArgs) -> i32 {
    let build = crate::build_dir::BuildDir::open(&a.build);
    if !build.is_ok_and(|b| b.has("manifest.json")) {
        return usage(&format!(
            "{}: no manifest.json; `democ push` takes a `democ build` output folder",
            a.build.display()
        ));
    }
    let py = super::python::python();
    if let Err(e) = installed(&py) {
        return usage(&e);
    }
    match Command::new(&py).args(a.shim_args()).status() {
        Ok(s) => s.code().unwrap_or_else(|| {
            eprintln!("error: the push shim stopped without an exit code ({s})");
            2
        }),
        Err(e) => usage(&format!("cannot run {} ({e})", py.display())),
    }
}

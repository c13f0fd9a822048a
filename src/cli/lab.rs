//! `democ lab up | test | down BUILD_DIR`.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::twin::{absolute, failed};
use super::usage;

#[derive(Subcommand, Debug)]
#[command(defer = true)]
pub(super) enum LabCmd {
    /// Deploy the build's lab (lab/<show>.clab.yml) from a private copy; wait for every
    /// node's script (root, Docker, containerlab).
    Up {
        #[command(flatten)]
        lab: LabArgs,
        /// Deploy only these nodes (comma-separated; containerlab's --node-filter).
        #[arg(long, value_name = "NODES")]
        node_filter: Option<String>,
    },
    /// Ping, path-MTU probe and iperf3 every flow inside the containers; check its
    /// cookie counters and routed hops; check control channels; write lab/report.json.
    Test(LabArgs),
    /// Destroy the lab; check that no container, network or namespace of it is left.
    Down(LabArgs),
}

#[derive(Args, Debug)]
pub(super) struct LabArgs {
    /// A `democ build --hosts` output folder.
    build: PathBuf,
}

fn check_host() -> Option<i32> {
    crate::lab::unavailable().map(|why| usage(&format!("the lab cannot be deployed here: {why}")))
}

pub(super) fn run(c: &LabCmd) -> i32 {
    let done = |r: Result<String, (String, i32)>| match r {
        Ok(m) => {
            crate::cli::stdout::put(&format!("{}\n", crate::escape::lines(&m)));
            0
        }
        Err((m, code)) => failed(&m, code),
    };
    if let Some(code) = check_host() {
        return code;
    }
    match c {
        LabCmd::Up { lab, node_filter } => done(crate::lab::up(
            &absolute(&lab.build),
            node_filter.as_deref(),
        )),
        LabCmd::Test(a) => match crate::lab::test(&absolute(&a.build), &mut std::io::stderr()) {
            Ok((m, verdict)) => {
                crate::cli::stdout::put(&format!("{}\n", crate::escape::lines(&m)));
                verdict.code()
            }
            Err((m, code)) => failed(&m, code),
        },
        LabCmd::Down(a) => done(crate::lab::down(&absolute(&a.build))),
    }
}

//! `democ twin up | test | down | script BUILD_DIR`.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::usage;

#[derive(Subcommand, Debug)]
pub(super) enum TwinCmd {
    /// Build the show from BUILD_DIR's IR in network namespaces (root; Linux).
    Up(TwinArgs),
    /// Ping, path-MTU probe and iperf3 every flow; check its path; check control channels.
    Test(TwinArgs),
    /// Remove exactly what `up` made.
    Down(TwinArgs),
    /// Print one switch's emulation (what `up` runs in its namespace) as a shell script.
    Script {
        #[command(flatten)]
        twin: TwinArgs,
        /// The switch's hostname.
        switch: String,
    },
    /// The test controller (`up` starts it in the controller's namespace).
    #[command(hide = true)]
    Controller {
        listen: String,
        #[arg(long)]
        pidfile: PathBuf,
    },
}

#[derive(Args, Debug)]
pub(super) struct TwinArgs {
    /// A `democ build --hosts` output folder.
    build: PathBuf,
    /// Folder for the daemons' run/db/log folders and the twin's record
    /// (default: BUILD_DIR/twin/state).
    #[arg(long)]
    state: Option<PathBuf>,
}

fn check_host() -> Option<i32> {
    crate::twin::unavailable().map(|why| usage(&format!("the twin cannot run here: {why}")))
}

pub(super) fn run(c: &TwinCmd) -> i32 {
    let done = |r: Result<String, (String, i32)>| match r {
        Ok(m) => {
            println!("{m}");
            0
        }
        Err((m, code)) => {
            eprintln!("error: {m}");
            code
        }
    };
    match c {
        TwinCmd::Up(a) => {
            check_host().unwrap_or_else(|| done(crate::twin::up(&a.build, a.state.as_deref())))
        }
        TwinCmd::Down(a) => done(crate::twin::down(&a.build, a.state.as_deref())),
        TwinCmd::Test(a) => {
            check_host().unwrap_or_else(|| match crate::twin::test(&a.build, a.state.as_deref()) {
                Ok((m, passed)) => {
                    println!("{m}");
                    i32::from(!passed)
                }
                Err((m, code)) => {
                    eprintln!("error: {m}");
                    code
                }
            })
        }
        TwinCmd::Script { twin, switch } => {
            match crate::twin::script(&twin.build, twin.state.as_deref(), switch) {
                Ok(s) => {
                    print!("{s}");
                    0
                }
                Err((m, code)) => {
                    eprintln!("error: {m}");
                    code
                }
            }
        }
        TwinCmd::Controller { listen, pidfile } => {
            match crate::twin::controller::run(listen, pidfile) {
                Ok(()) => 0,
                Err(e) => usage(&e),
            }
        }
    }
}

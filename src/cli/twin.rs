//! `democ twin up | test | down | script BUILD_DIR`.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use super::usage;

#[derive(Subcommand, Debug)]
#[command(defer = true)]
pub(super) enum TwinCmd {
    /// Build the show from BUILD_DIR's IR in network namespaces (root; Linux).
    Up {
        #[command(flatten)]
        twin: TwinArgs,
        /// Delay each WAN link by its latency (tc netem; the kernel needs sch_netem).
        #[arg(long)]
        delay: bool,
    },
    /// Ping, path-MTU probe and iperf3 every flow; check its path; check control channels.
    ///
    /// Exit status: 0 every row passed; 1 a row failed while the machine was not
    /// saturated (the design, or the twin); 3 no such row, but some failed while the
    /// machine's CPUs were saturated (reported "not tested: machine overloaded"); 2
    /// usage or I/O.
    ///
    /// With `--measure`: every link shaped to its capacity / `--scale`, every flow run
    /// at once, predicted against measured per flow and per link (twin/measure.json, and
    /// twin/results/ for `democ verify BUILD BUILD/twin/results`; see docs/twin.md). Exit status: 0 every scored flow and link within 15 % of the
    /// prediction; 1 one is not; 3 one is not and the machine was saturated; 2 usage.
    Test {
        #[command(flatten)]
        twin: TwinArgs,
        /// Measure rates against the plan instead of testing reachability.
        #[arg(long)]
        measure: bool,
        /// Divide every link's capacity (and every predicted rate) by N (with --measure).
        #[arg(long, value_name = "N", default_value_t = 1000, requires = "measure",
              value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
        scale: u32,
        /// Shape the cable at DEVICE:PORT to RATE (before scaling) instead of its speed:
        /// a sabotage the measurement must name (with --measure; repeatable).
        #[arg(long, value_name = "DEVICE:PORT=RATE", requires = "measure")]
        throttle: Vec<String>,
        /// Seconds each transfer is measured for, after 2 s of start (with --measure).
        #[arg(long, value_name = "S", default_value_t = 5, requires = "measure",
              value_parser = clap::value_parser!(u64).range(1..=600))]
        seconds: u64,
    },
    /// Remove exactly what `up` made.
    Down(TwinArgs),
    /// Print one switch's emulation (what `up` runs for it: its bridges in the twin's
    /// Open vSwitch, its routed side in its namespace) as a shell script.
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
    /// An in-band control channel's relay (`up` starts it in the switch's namespace).
    #[command(hide = true)]
    Relay {
        socket: PathBuf,
        to: String,
        #[arg(long)]
        pidfile: PathBuf,
    },
}

#[derive(Args, Debug)]
pub(super) struct TwinArgs {
    /// A `democ build --hosts` output folder.
    build: PathBuf,
    /// Folder for the daemons' run/db/log folders and the twin's record
    /// (default: /run/democ/twin/<build>, root's own, never inside the build).
    #[arg(long)]
    state: Option<PathBuf>,
}

fn check_host() -> Option<i32> {
    crate::twin::unavailable().map(|why| usage(&format!("the twin cannot run here: {why}")))
}

/// The folder as an absolute path: the OVS daemons run with their own working folder
/// and resolve a relative pid file against their run folder (`twin up out` once made
/// ovsdb-server create `out/.../run/out/.../ovsdb-server.pid`).
pub(super) fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_owned())
}

/// An error of a twin command: its text names paths and IR names from the build folder,
/// so control characters in it are shown, never sent to the terminal.
pub(super) fn failed(message: &str, code: i32) -> i32 {
    eprintln!("error: {}", crate::escape::lines(message));
    code
}

pub(super) fn run(c: &TwinCmd) -> i32 {
    let done = |r: Result<String, (String, i32)>| match r {
        Ok(m) => {
            crate::cli::stdout::put(&format!("{}\n", crate::escape::lines(&m)));
            0
        }
        Err((m, code)) => failed(&m, code),
    };
    match c {
        TwinCmd::Up { twin: a, delay } => check_host().unwrap_or_else(|| {
            done(crate::twin::up(
                &absolute(&a.build),
                a.state.as_deref().map(absolute).as_deref(),
                *delay,
                &|stage| eprintln!("twin: {}", crate::escape::lines(stage)),
            ))
        }),
        TwinCmd::Down(a) => done(crate::twin::down(
            &absolute(&a.build),
            a.state.as_deref().map(absolute).as_deref(),
        )),
        TwinCmd::Test {
            twin: a,
            measure,
            scale,
            throttle,
            seconds,
        } => check_host().unwrap_or_else(|| {
            let build = absolute(&a.build);
            let state = a.state.as_deref().map(absolute);
            let outcome = if *measure {
                let throttles = match throttle
                    .iter()
                    .map(|t| crate::twin::measure::Throttle::parse(t))
                    .collect::<Result<Vec<_>, _>>()
                {
                    Ok(t) => t,
                    Err(e) => return usage(&e),
                };
                let opts = crate::twin::measure::Options {
                    scale: f64::from(*scale),
                    throttles,
                    seconds: *seconds,
                };
                crate::twin::measure::measure(
                    &build,
                    state.as_deref(),
                    &opts,
                    &mut std::io::stdout(),
                )
            } else {
                crate::twin::test(&build, state.as_deref(), &mut std::io::stdout())
            };
            match outcome {
                Ok((m, verdict)) => {
                    crate::cli::stdout::put(&format!("{}\n", crate::escape::lines(&m)));
                    verdict.code()
                }
                Err((m, code)) => failed(&m, code),
            }
        }),
        TwinCmd::Script { twin, switch } => {
            match crate::twin::script(
                &absolute(&twin.build),
                twin.state.as_deref().map(absolute).as_deref(),
                switch,
            ) {
                Ok(s) => {
                    crate::cli::stdout::put(&s);
                    0
                }
                Err((m, code)) => failed(&m, code),
            }
        }
        TwinCmd::Controller { listen, pidfile } => {
            match crate::twin::controller::run(listen, pidfile) {
                Ok(()) => 0,
                Err(e) => usage(&e),
            }
        }
        TwinCmd::Relay {
            socket,
            to,
            pidfile,
        } => match crate::twin::relay::run(socket, to, pidfile) {
            Ok(()) => 0,
            Err(e) => usage(&e),
        },
    }
}

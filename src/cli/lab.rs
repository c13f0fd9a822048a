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
        /// Deploy the part of a split lab (`democ lab split`) placed on this lab host:
        /// run it on each host with its own name.
        #[arg(long, value_name = "HOST", conflicts_with_all = ["node_filter", "side_by_side"])]
        on: Option<String>,
        /// Deploy every part of a split lab on this machine, each in a network namespace
        /// of its own holding its host's address, joined over VXLAN as on real machines.
        #[arg(long, conflicts_with = "node_filter")]
        side_by_side: bool,
    },
    /// Ping, path-MTU probe and iperf3 every flow inside the containers; check its
    /// cookie counters and routed hops; check control channels; write lab/report.json.
    Test(LabArgs),
    /// Destroy the lab; check that no container, network or namespace of it is left.
    Down(LabArgs),
    /// Spread the lab over several machines: partition its nodes over the lab hosts
    /// (balanced by node count, cutting as few cables as it finds), write one containerlab
    /// topology per host under lab/split/ with the cut cables as `vxlan` links, and
    /// lab/split/partition.json (no root needed).
    Split {
        #[command(flatten)]
        lab: LabArgs,
        /// The lab hosts and their underlay addresses: `a=10.0.0.1,b=10.0.0.2`.
        #[arg(
            long,
            value_name = "NAME=ADDRESS,...",
            required_unless_present = "lab_hosts_file",
            conflicts_with = "lab_hosts_file"
        )]
        lab_hosts: Option<String>,
        /// A file naming the lab hosts, one `NAME,ADDRESS` a line (`#` comments).
        #[arg(long, value_name = "FILE")]
        lab_hosts_file: Option<PathBuf>,
        /// The tunnels' UDP port (containerlab's default; open it between the hosts).
        #[arg(long, value_name = "PORT", default_value_t = 14789)]
        vxlan_port: u16,
    },
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
    if let LabCmd::Split {
        lab,
        lab_hosts,
        lab_hosts_file,
        vxlan_port,
    } = c
    {
        return split(
            lab,
            lab_hosts.as_deref(),
            lab_hosts_file.as_deref(),
            *vxlan_port,
        );
    }
    // A host the split does not name is refused before the machine is looked at.
    if let LabCmd::Up {
        lab, on: Some(h), ..
    } = c
        && let Err(r) = crate::lab::check_on(&absolute(&lab.build), h)
    {
        return refused(r);
    }
    if let Some(code) = check_host() {
        return code;
    }
    match c {
        LabCmd::Up {
            lab,
            node_filter,
            on,
            side_by_side,
        } => {
            let place = match (on, side_by_side) {
                (Some(h), _) => Some(crate::lab::Place::On(h.clone())),
                (None, true) => Some(crate::lab::Place::SideBySide),
                (None, false) => None,
            };
            done(crate::lab::up(
                &absolute(&lab.build),
                node_filter.as_deref(),
                place.as_ref(),
            ))
        }
        LabCmd::Test(a) => match crate::lab::test(&absolute(&a.build), &mut std::io::stderr()) {
            Ok((m, verdict)) => {
                crate::cli::stdout::put(&format!("{}\n", crate::escape::lines(&m)));
                verdict.code()
            }
            Err((m, code)) => failed(&m, code),
        },
        LabCmd::Down(a) => done(crate::lab::down(&absolute(&a.build))),
        LabCmd::Split { .. } => unreachable!("handled above"),
    }
}

/// `lab split`: the summary on stdout, the underlay warning on stderr; refused hosts as
/// located diagnostics (exit 2).
fn split(lab: &LabArgs, line: Option<&str>, file: Option<&std::path::Path>, port: u16) -> i32 {
    let from = match (line, file) {
        (Some(l), _) => crate::lab::HostsFrom::Line(l),
        (None, Some(f)) => crate::lab::HostsFrom::File(f),
        (None, None) => return usage("name the lab hosts: --lab-hosts or --lab-hosts-file"),
    };
    match crate::lab::split(&lab.build, from, port) {
        Ok((summary, warning)) => {
            crate::cli::stdout::put(&crate::escape::lines(&summary));
            eprintln!("warning: {}", crate::escape::line(&warning));
            0
        }
        Err(r) => refused(r),
    }
}

/// A refused split or part: its diagnostics, exit 2.
fn refused(r: crate::lab::Refused) -> i32 {
    match r {
        crate::lab::Refused::Diags(sources, diags) => {
            eprint!(
                "{}",
                crate::diag::render::to_text(&sources, diags.items(), false)
            );
            2
        }
        crate::lab::Refused::Other(m) => failed(&m, 2),
    }
}

//! What a lab needs on the machine: Docker's engine answering, containerlab on PATH, and
//! the images the topology names; democ's own node image is built from the Dockerfile
//! compiled into democ (lab/containerlab/node) when it is missing or lacks a tool.

use std::path::{Path, PathBuf};

use crate::ir::lab::Topology;
use crate::twin::cmd::Cmd;

/// The node image's files, as the repository has them.
const DOCKERFILE: &str = include_str!("../../lab/containerlab/node/Dockerfile");
const ENTRYPOINT: &str = include_str!("../../lab/containerlab/node/entrypoint.sh");

/// democ's node image: its name starts so (templates/containerlab.yaml names the tag).
const NODE_IMAGE: &str = "democ-lab-node:";

/// What the node image must carry: the stand-ins' and hosts' scripts' tools, and the
/// test's (ping, iperf3, traceroute in the hosts; ovs-ofctl, ovs-vsctl and vtysh in the
/// stand-ins).
const NODE_TOOLS: &[&str] = &[
    "ovs-vsctl",
    "ovs-vswitchd",
    "ovsdb-server",
    "ovs-ofctl",
    "vtysh",
    "ip",
    "tc",
    "ethtool",
    "ping",
    "iperf3",
    "traceroute",
    "timeout",
    "bash",
];

/// A program on PATH.
fn which(tool: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(tool))
        .find(|p| p.is_file())
}

/// Why a lab cannot be deployed here, if it cannot.
pub(crate) fn unavailable() -> Option<String> {
    if !rustix::process::geteuid().is_root() {
        return Some("a lab needs root (containerlab deploys privileged containers and wires their namespaces)".into());
    }
    if which("docker").is_none() {
        return Some(
            "Docker is not installed: install Docker Engine (https://docs.docker.com/engine/install/, or your distribution's docker.io) and start it".into(),
        );
    }
    if which("containerlab").is_none() {
        return Some(
            "containerlab is not installed: bash -c \"$(curl -sL https://get.containerlab.dev)\" (https://containerlab.dev/install/)".into(),
        );
    }
    if let Err(e) = Cmd::new(&["docker", "info", "--format", "{{.ServerVersion}}"]).run() {
        return Some(format!(
            "Docker's engine does not answer (start it: `systemctl start docker`): {}",
            e.lines().last().unwrap_or_default()
        ));
    }
    None
}

/// The tools of `NODE_TOOLS` image `image` lacks.
fn missing_tools(image: &str) -> Result<Vec<String>, String> {
    let script = format!(
        "for t in {}; do command -v \"$t\" >/dev/null || echo \"$t\"; done",
        NODE_TOOLS.join(" ")
    );
    let out = Cmd::new(&[
        "docker",
        "run",
        "--rm",
        "--network",
        "none",
        "--entrypoint",
        "sh",
    ])
    .arg(image)
    .arg("-c")
    .arg(script)
    .run()?;
    Ok(out.split_whitespace().map(str::to_owned).collect())
}

/// Builds democ's node image `image` from the Dockerfile compiled into democ, in `work`.
fn build_node_image(image: &str, work: &Path) -> Result<(), String> {
    std::fs::create_dir_all(work).map_err(|e| format!("{}: {e}", work.display()))?;
    crate::write::file(&work.join("Dockerfile"), DOCKERFILE.as_bytes())?;
    let entry = work.join("entrypoint.sh");
    crate::write::file(&entry, ENTRYPOINT.as_bytes())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&entry, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| format!("{}: {e}", entry.display()))?;
    }
    // The host's network: the build's apt-get needs no Docker bridge or NAT rules.
    let r = Cmd::new(&["docker", "build", "--network", "host", "-t", image])
        .arg(work.display().to_string())
        .run();
    let _ = std::fs::remove_dir_all(work);
    r.map(|_| ())
}

/// Every image of the topology present; democ's node image built or rebuilt when it is
/// missing or lacks a tool. What was done, one line each.
pub(crate) fn images(topo: &Topology, work: &Path) -> Result<Vec<String>, String> {
    let mut wanted: Vec<&str> = topo
        .topology
        .nodes
        .values()
        .map(|n| n.image.as_str())
        .collect();
    wanted.sort_unstable();
    wanted.dedup();
    let mut done = Vec::new();
    let mut absent = Vec::new();
    for image in wanted {
        let present = Cmd::new(&["docker", "image", "inspect", "--format", "{{.Id}}", image])
            .try_run()
            .0;
        if !image.starts_with(NODE_IMAGE) {
            if !present {
                absent.push(image);
            }
            continue;
        }
        let why = if present {
            let lacks = missing_tools(image)?;
            if lacks.is_empty() {
                continue;
            }
            format!("it lacks {}", lacks.join(", "))
        } else {
            "it is not here".to_owned()
        };
        eprintln!("lab: building image {image} ({why}; a few minutes)");
        build_node_image(image, work)?;
        let lacks = missing_tools(image)?;
        if !lacks.is_empty() {
            return Err(format!(
                "image {image}, built from democ's Dockerfile, still lacks {}",
                lacks.join(", ")
            ));
        }
        done.push(format!("image {image} built ({why})"));
    }
    if !absent.is_empty() {
        return Err(format!(
            "the topology's images {} are not on this machine: load them first (lab/containerlab/README.md, \"Deploying it by hand\")",
            absent.join(", ")
        ));
    }
    Ok(done)
}

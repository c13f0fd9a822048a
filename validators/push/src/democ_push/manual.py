"""The steps a person takes where democ push does not commit by itself: printed and put
in the device's report, with the device's address and the build's file filled in.

They are what the vendor documents for loading a file, kept short; each says when it
merges rather than replaces (stale lines from an older config then stay).
"""

from __future__ import annotations

from .build import Device

NETMIKO_NO_COMMIT = (
    "netmiko is a CLI session, not a configuration API: there is no candidate on the "
    "switch, so lines sent would be merged into the running config (not replace it), "
    "with no confirm timer and no rollback"
)


def steps(device: Device, build_dir: str) -> list[str]:
    src = f"{build_dir}/{device.config_file}"
    addr = device.address or "<management address>"
    base = device.config_file.rsplit("/", 1)[-1]
    save = "save the running config first so you can go back: {}"
    if device.os == "picos" and base.endswith(".sh"):
        return [
            f"scp {src} admin@{addr}:/tmp/{base}",
            f"ssh admin@{addr} 'sudo bash /tmp/{base} --dry-run'   # prints every ovs-vsctl line",
            f"ssh admin@{addr} 'sudo bash /tmp/{base}'   # idempotent (--may-exist); PicOS must be in OVS mode",
        ]
    if device.os == "picos":
        return [
            f"ssh admin@{addr}, then `cli`",
            f"paste {src} (it starts with `configure` and ends with `commit`)",
        ]
    if device.os == "os10":
        return [
            save.format("`copy running-configuration home://before-democ.cfg`"),
            f"scp {src} admin@{addr}:{base}  (lands in the user's home, which OS10 calls home://)",
            f"on the switch: `copy home://{base} running-configuration` (a merge: remove lines the build no longer has by hand)",
            "`write memory` once the switch is checked",
        ]
    if device.os == "ftos9":
        return [
            save.format("`copy running-config flash://before-democ.cfg`"),
            f"on the switch: `copy scp://USER@<this host>/{src} running-config` (a merge)",
            "`write memory` once the switch is checked",
        ]
    if device.os == "onyx":
        return [
            save.format("`configuration write to before-democ`"),
            f"on the switch: `configuration text fetch scp://USER@<this host>/{src}` then `configuration text file {base} apply`",
            "`configuration write` once the switch is checked",
        ]
    if device.os == "sonic" and device.config_db_file:
        # SONiC configuration guide: `config load` merges a file into the running
        # CONFIG_DB, `config save` writes it to /etc/sonic/config_db.json, and `config
        # reload` restarts the services from that file (the bgp container then runs
        # /etc/sonic/frr/frr.conf as written: docker_routing_config_mode split-unified).
        db = f"{build_dir}/{device.config_db_file}"
        return [
            save.format("`sudo cp /etc/sonic/config_db.json /etc/sonic/config_db.before-democ.json` "
                        "and `sudo cp /etc/sonic/frr/frr.conf /etc/sonic/frr/frr.before-democ.conf`"),
            f"scp {db} admin@{addr}:/tmp/democ-config_db.json",
            f"scp {src} admin@{addr}:/tmp/democ-frr.conf",
            "on the switch: `sudo cp /tmp/democ-frr.conf /etc/sonic/frr/frr.conf`",
            "on the switch: `sudo config load /tmp/democ-config_db.json -y` (a merge into the "
            "running CONFIG_DB: remove rows the build no longer has by hand; democ's file "
            "holds no platform defaults, so it is never copied over /etc/sonic/config_db.json)",
            "on the switch: `sudo config save -y`, then `sudo config reload -y` (breakouts, lanes and "
            "the FRR mode take effect; traffic stops while the services restart)",
        ]
    if device.os == "cumulus" and device.nvue_file:
        # Cumulus Linux user guide "NVUE CLI": `nv config replace FILE` makes the file the
        # pending configuration (everything not in it is removed), `nv config diff` shows
        # it against the applied one, `nv config apply` applies it, `nv config save`
        # writes /etc/nvue.d/startup.yaml. NVUE writes /etc/frr/frr.conf itself.
        nvue = f"{build_dir}/{device.nvue_file}"
        return [
            save.format("`sudo cp /etc/nvue.d/startup.yaml /etc/nvue.d/startup.before-democ.yaml`"),
            f"scp {nvue} cumulus@{addr}:/tmp/democ-nvue.yaml",
            "on the switch: `nv config replace /tmp/democ-nvue.yaml` (a replace: the pending "
            "configuration becomes the file, settings not in it are removed)",
            "on the switch: `nv config diff` to read what changes, then `nv config apply`",
            "on the switch: `nv config save` once the switch is checked (writes /etc/nvue.d/startup.yaml)",
            f"do not copy {src}: it is democ's reading of the FRR configuration NVUE "
            "renders, what the twin runs, not a file for the switch",
        ]
    return [f"load {src} onto {device.name} by hand"]

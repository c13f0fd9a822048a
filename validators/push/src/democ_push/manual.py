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
    return [f"load {src} onto {device.name} by hand"]

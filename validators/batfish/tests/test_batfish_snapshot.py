"""The offline half: snapshot layout and the layer-1 topology, on real democ builds."""

from __future__ import annotations

import json
import re

import pytest

from democ_validators_batfish import SKIP_REASONS, batfish_interface_name, build_snapshot
from democ_validators_batfish.snapshot import load_switches

SC16 = "examples/sc16/show.yaml"
SC15 = "examples/sc15/show.yaml"
MINI = "tests/fixtures/render/show.yaml"


def _config_interfaces(os_: str, text: str) -> set[str]:
    names = re.findall(r"^interface (.+?)\s*$", text, flags=re.M)
    return {batfish_interface_name(os_, n) for n in names}


@pytest.mark.parametrize("spec", [SC16, SC15, MINI])
def test_snapshot_layout(democ_build, tmp_path, spec):
    build = democ_build(spec)
    snap = build_snapshot(build, tmp_path / "snap")
    switches = load_switches(build)
    parsed = {s.hostname: s.os for s in switches if s.os in ("eos", "ftos9")}
    assert snap.included == parsed and parsed
    assert sorted(p.name for p in (tmp_path / "snap").iterdir()) == ["batfish", "configs"]
    assert sorted(p.name for p in (tmp_path / "snap" / "configs").iterdir()) == sorted(
        f"{h}.cfg" for h in parsed
    )
    header = {"eos": "!RANCID-CONTENT-TYPE: arista\n", "ftos9": "!RANCID-CONTENT-TYPE: force10\n"}
    for s in switches:
        if s.hostname in parsed:
            text = (tmp_path / "snap" / "configs" / f"{s.hostname}.cfg").read_text()
            # democ's text unchanged, after the one line that selects Batfish's parser.
            assert text == header[s.os] + (build / s.ir["config_file"]).read_text()
        else:
            assert snap.skipped[s.hostname] == SKIP_REASONS[s.os]


@pytest.mark.parametrize("spec", [SC16, SC15, MINI])
def test_layer1_topology_shape(democ_build, tmp_path, spec):
    build = democ_build(spec)
    snap = build_snapshot(build, tmp_path / "snap")
    doc = json.loads((tmp_path / "snap" / "batfish" / "layer1_topology.json").read_text())
    assert list(doc) == ["edges"]
    edges = doc["edges"]
    assert edges, "every example cables at least two Batfish-parsed switches together"
    ifaces = {
        h: _config_interfaces(os_, (tmp_path / "snap" / "configs" / f"{h}.cfg").read_text())
        for h, os_ in snap.included.items()
    }
    seen = set()
    for e in edges:
        assert set(e) == {"node1", "node2"}
        ends = []
        for k in ("node1", "node2"):
            assert set(e[k]) == {"hostname", "interfaceName"}
            h, i = e[k]["hostname"], e[k]["interfaceName"]
            assert h in snap.included
            assert i in ifaces[h], f"{h} has no interface that Batfish names {i}"
            ends.append((h, i))
        assert ends[0][0] != ends[1][0]
        seen.add(tuple(ends))
    assert len(seen) == len(edges)  # no duplicates
    assert all((b, a) in seen for a, b in seen)  # written both ways
    # One L1 node per interface: a port has one cable.
    assert len({a for a, _ in seen}) == len(seen)


def test_sc16_cables(democ_build, tmp_path):
    snap = build_snapshot(democ_build(SC16), tmp_path / "snap")
    pairs = {(e["node1"]["hostname"], e["node1"]["interfaceName"], e["node2"]["hostname"]) for e in snap.edges}
    # The Caltech booth's terabit TCP LAG: 10 members, EOS to FTOS.
    lag = {p for p in pairs if p[0] == "cit-a-arista" and p[2] == "cit-b-z9100"}
    assert {p[1] for p in lag} == {f"Ethernet{n}/1" for n in range(21, 31)}
    # Cables to hosts and to OS10/PicOS/Onyx switches are left out, and counted.
    reasons = {why for *_, why in snap.dangling}
    assert "is a host, not a switch" in reasons
    assert {"is skipped (os10)", "is skipped (picos)", "is skipped (onyx)"} <= reasons


def test_rebuild_removes_stale_configs(democ_build, tmp_path):
    out = tmp_path / "snap"
    (out / "configs").mkdir(parents=True)
    (out / "configs" / "old-switch.cfg").write_text("hostname old\n")
    build_snapshot(democ_build(MINI), out)
    assert not (out / "configs" / "old-switch.cfg").exists()


def test_default_location_and_cli(democ_build, tmp_path):
    import shutil
    import subprocess
    import sys

    build = tmp_path / "b"
    shutil.copytree(democ_build(MINI), build)
    proc = subprocess.run(
        [sys.executable, "-m", "democ_validators_batfish", str(build)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    assert (build / "snapshot" / "configs" / "eos-1.cfg").is_file()
    assert "skipped os10-1: Batfish has no Dell OS10" in proc.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "democ_validators_batfish", str(tmp_path / "none")],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2


@pytest.mark.parametrize(
    "os_,name,bf",
    [
        ("eos", "Ethernet49/1", "Ethernet49/1"),
        ("eos", "Port-Channel10", "Port-Channel10"),
        ("ftos9", "hundredGigE 1/1", "HundredGigabitEthernet1/1"),
        ("ftos9", "fortyGigE 1/49", "FortyGigabitEthernet1/49"),
        ("ftos9", "twentyFiveGigE 1/31/2", "TwentyFiveGigE1/31/2"),
        ("ftos9", "TenGigabitEthernet 1/33", "TenGigabitEthernet1/33"),
        ("ftos9", "Port-channel 10", "Port-channel10"),
        ("ftos9", "ManagementEthernet 1/1", "ManagementEthernet1/1"),
    ],
)
def test_batfish_interface_names(os_, name, bf):
    assert batfish_interface_name(os_, name) == bf


def test_unknown_ftos_prefix_is_an_error():
    with pytest.raises(ValueError):
        batfish_interface_name("ftos9", "fooGigE 1/1")

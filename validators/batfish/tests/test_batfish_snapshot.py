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
    assert sorted(p.name for p in (tmp_path / "snap").iterdir()) == ["batfish", "configs", "hosts"]
    hosts = sorted(p.stem for p in (build / "ir" / "hosts").glob("*.json"))
    assert sorted(p.stem for p in (tmp_path / "snap" / "hosts").iterdir()) == hosts == sorted(snap.hosts)
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
            if h in snap.hosts:
                doc_h = json.loads((tmp_path / "snap" / "hosts" / f"{h}.json").read_text())
                assert i in doc_h["hostInterfaces"], f"DTN {h} has no interface {i}"
                ends.append((h, i))
                continue
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
    # DTNs are cabled to the switches Batfish parses: cit-tcp-1's port to cit-a-arista.
    assert ("cit-tcp-1", "p0", "cit-a-arista") in pairs
    assert ("cit-a-arista", "Ethernet1/1", "cit-tcp-1") in pairs
    # Cables to OS10/PicOS/Onyx switches are left out, and counted.
    reasons = {why for *_, why in snap.dangling}
    assert {"is skipped (os10)", "is skipped (picos)", "is skipped (onyx)"} <= reasons


def test_host_model_is_batfish_host_format(democ_build, tmp_path):
    """Each DTN as org.batfish.representation.host.HostConfiguration reads it: the
    hostname, one hostInterfaces entry per addressed port (key == name, a prefix with its
    length), static routes as HostStaticRoute (prefix, nextHopIp)."""
    build = democ_build(SC16)
    build_snapshot(build, tmp_path / "snap")
    ir = json.loads((build / "ir" / "hosts" / "cit-tcp-1.json").read_text())
    doc = json.loads((tmp_path / "snap" / "hosts" / "cit-tcp-1.json").read_text())
    assert doc["hostname"] == "cit-tcp-1"
    assert doc["hostInterfaces"] == {
        "p0": {"name": "p0", "prefix": ir["interfaces"][0]["address"]}
    }
    assert "/" in doc["hostInterfaces"]["p0"]["prefix"]
    assert doc.get("staticRoutes", []) == [
        {"prefix": r["prefix"], "nextHopIp": r["next_hop"]} for r in ir["routes"]
    ]


def test_without_hosts_the_snapshot_says_so(democ_build, tmp_path):
    """A build without --hosts has no ir/hosts: no hosts/ folder, and the summary says how
    to get one."""
    import shutil

    build = tmp_path / "b"
    shutil.copytree(democ_build(MINI), build)
    shutil.rmtree(build / "ir" / "hosts")
    snap = build_snapshot(build, tmp_path / "snap")
    assert not (tmp_path / "snap" / "hosts").exists() and snap.hosts == []
    assert "build with `democ build --hosts`" in snap.summary()


def test_sonic_switches_go_to_sonic_configs(democ_build, tmp_path):
    """sc25-400g's SONiC core goes to sonic_configs/<host>/ with the files democ ships;
    its cables reach the layer-1 topology; the Cumulus switch is skipped with why."""
    build = democ_build("examples/sc25-400g/show.yaml")
    snap = build_snapshot(build, tmp_path / "snap")
    assert snap.included.get("scinet-core") == "sonic"
    folder = tmp_path / "snap" / "sonic_configs" / "scinet-core"
    assert sorted(p.name for p in folder.iterdir()) == ["config_db.json", "frr.conf"]
    shipped = build / "switches" / "scinet-core.config_db.json"
    assert (folder / "config_db.json").read_bytes() == shipped.read_bytes()
    assert (folder / "frr.conf").read_bytes() == (build / "switches" / "scinet-core.frr.conf").read_bytes()
    assert not (tmp_path / "snap" / "configs" / "scinet-core.cfg").exists()
    assert snap.skipped["nv-sn4700"] == SKIP_REASONS["cumulus"]
    ends = {e["node1"]["hostname"] for e in snap.edges}
    assert "scinet-core" in ends, snap.edges
    assert "sonic_configs/scinet-core/" in snap.summary()

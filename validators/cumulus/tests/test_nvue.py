"""Every NVUE file democ writes validates against NVIDIA's NVUE models, and a corrupted
copy of one does not."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
import yaml

from democ_validators_cumulus.validate import validate_build, validate_text


def test_every_generated_nvue_file_is_valid(nvue_sc25, nvue_fixture, nvue_routed):
    results = validate_build(nvue_sc25) + validate_build(nvue_fixture) + validate_build(nvue_routed)
    assert {r.switch for r in results} == {"nv-sn4700", "cu-1", "sw-a"}
    for r in results:
        assert r.ok, f"{r.switch}: {r.error}"


def test_the_fixture_fills_every_branch_democ_writes(nvue_fixture):
    tree = yaml.safe_load((nvue_fixture / "switches/cu-1.nvue.yaml").read_text())[0]["set"]
    for branch in ("system", "interface", "bridge", "router", "vrf", "qos", "service"):
        assert tree.get(branch), branch
    kinds = {i["type"] for i in tree["interface"].values()}
    assert kinds >= {"swp", "bond", "eth"}, kinds
    assert tree["interface"]["swp5"]["link"]["breakout"] == {"4x": {}}
    assert tree["qos"]["roce"]["mode"] == "lossless"
    assert tree["service"]["ntp"]["mgmt"]["server"]
    assert tree["system"]["syslog"]["server"]
    snmp = tree["system"]["snmp-server"]
    assert snmp["state"] == "enabled" and snmp["readonly-community"] and snmp["trap-destination"]


def _corrupt(text: str, change) -> str:
    docs = yaml.safe_load(text)
    change(docs[0]["set"])
    return yaml.safe_dump(docs)


@pytest.mark.parametrize("change, why", [
    (lambda t: t["interface"]["swp1"]["link"].__setitem__("mtu", 9300), "mtu"),
    (lambda t: t["interface"]["swp1"]["link"].__setitem__("fec", "bogus"), "fec"),
    (lambda t: t["interface"]["swp1"]["link"].__setitem__("mtuu", 9000), "mtuu"),
    (lambda t: t["qos"]["roce"].__setitem__("mode", "lossles"), "mode"),
    (lambda t: t["router"]["bgp"].__setitem__("enable", True), "enable"),
    (lambda t: t.__setitem__("no-such-branch", {}), "no-such-branch"),
    (lambda t: t["interface"]["bond10"]["bond"]["member"].__setitem__("swp99", {}), "swp99"),
    (lambda t: t["interface"].__setitem__("Ethernet0", {"type": "swp"}), "Ethernet0"),
    (lambda t: t["system"]["snmp-server"].__setitem__("state", "on"), "state"),
    (lambda t: t["system"]["syslog"]["server"]["192.168.16.21"].__setitem__("port", 0), "port"),
    (lambda t: t["service"]["ntp"]["mgmt"]["server"]["192.168.16.20"].__setitem__("iburst", "yes"), "iburst"),
])
def test_a_corrupted_copy_fails(nvue_fixture, change, why):
    text = (nvue_fixture / "switches/cu-1.nvue.yaml").read_text()
    assert validate_text(text) is None
    error = validate_text(_corrupt(text, change))
    assert error is not None and why in error, error


def test_a_file_that_is_not_one_set_document_fails():
    assert "startup file" in validate_text("- unset: {}\n")
    assert "startup file" in validate_text("set: {}\n")


def test_the_command_fails_a_corrupted_build(nvue_sc25, tmp_path):
    copy = tmp_path / "build"
    shutil.copytree(nvue_sc25, copy)
    cmd = [sys.executable, "-m", "democ_validators_cumulus", str(copy)]
    ok = subprocess.run(cmd, capture_output=True, text=True)
    assert ok.returncode == 0 and "nv-sn4700: switches/nv-sn4700.nvue.yaml: valid" in ok.stdout, ok.stdout + ok.stderr
    path = copy / "switches/nv-sn4700.nvue.yaml"
    path.write_text(_corrupt(path.read_text(), lambda t: t["system"].__setitem__("hostname", "bad.name")))
    bad = subprocess.run(cmd, capture_output=True, text=True)
    assert bad.returncode == 1 and "invalid" in bad.stdout, bad.stdout + bad.stderr


@pytest.mark.parametrize("change, why", [
    (lambda t: t["system"]["gnmi-server"].__setitem__("port", 80), "port"),
    (lambda t: t["system"]["gnmi-server"].__setitem__("state", "on"), "state"),
    (lambda t: t["system"]["gnmi-server"].__setitem__("listen-address", {}), "listen-address"),
])
def test_the_gnmi_server_is_checked(nvue_sc25, change, why):
    """sc25-400g asks for gNMI: nv-sn4700 serves it on its management address."""
    text = (nvue_sc25 / "switches/nv-sn4700.nvue.yaml").read_text()
    server = yaml.safe_load(text)[0]["set"]["system"]["gnmi-server"]
    assert server == {"listening-address": {"192.168.25.7": {}}, "port": 9339, "state": "enabled"}, server
    error = validate_text(_corrupt(text, change))
    assert error is not None and why in error, error

"""Every config_db.json democ writes validates against SONiC's YANG models, and a
corrupted copy of one does not."""

from __future__ import annotations

import json
import shutil
import sys
import subprocess
from pathlib import Path

import pytest

from democ_validators_sonic.validate import validate_build, validate_text


def test_every_generated_config_db_is_valid(models, sc25, fixture):
    results = validate_build(sc25, models) + validate_build(fixture, models)
    assert {r.switch for r in results} == {"scinet-core", "sonic-1"}
    for r in results:
        assert r.ok, f"{r.switch}: {r.error}"


def test_the_fixture_fills_every_table_democ_writes(fixture):
    db = json.loads((fixture / "switches/sonic-1.config_db.json").read_text())
    for table in ("DEVICE_METADATA", "BREAKOUT_CFG", "PORT", "PORTCHANNEL", "PORTCHANNEL_MEMBER",
                  "VLAN", "VLAN_MEMBER", "INTERFACE", "MGMT_PORT", "MGMT_INTERFACE",
                  "MGMT_VRF_CONFIG", "LLDP_PORT", "DSCP_TO_TC_MAP", "PORT_QOS_MAP",
                  "WRED_PROFILE", "QUEUE", "NTP", "NTP_SERVER", "SYSLOG_SERVER",
                  "SNMP_COMMUNITY", "SNMP_AGENT_ADDRESS_CONFIG"):
        assert db.get(table), table


def _corrupt(text: str, change) -> str:
    db = json.loads(text)
    change(db)
    return json.dumps(db)


@pytest.mark.parametrize("change, why", [
    (lambda db: db["PORT"]["Ethernet0"].__setitem__("fec", "bogus"), "rs|fc|none|auto"),
    (lambda db: db["PORT"]["Ethernet0"].pop("lanes"), "lanes"),
    (lambda db: db["PORT"]["Ethernet0"].__setitem__("mtu", "9300"), "range"),
    (lambda db: db["VLAN_MEMBER"].__setitem__("Vlan1000|Ethernet999", {"tagging_mode": "tagged"}), "Ethernet999"),
    (lambda db: db["VLAN"]["Vlan1000"].__setitem__("vlanid", "1001"), "vlanid"),
    (lambda db: db["PORT_QOS_MAP"]["Ethernet0"].__setitem__("dscp_to_tc_map", "NO_SUCH_MAP"), "NO_SUCH_MAP"),
    (lambda db: db.__setitem__("NO_SUCH_TABLE", {}), "NO_SUCH_TABLE"),
    (lambda db: db["SYSLOG_SERVER"]["192.168.16.21"].__setitem__("vrf", "bogus"), "bogus"),
    (lambda db: db["SNMP_COMMUNITY"]["show-ro"].__setitem__("TYPE", "XX"), "XX"),
    (lambda db: db["NTP_SERVER"].__setitem__("not a host!", {}), "not a host!"),
])
def test_a_corrupted_copy_fails(models, fixture, change, why):
    text = (fixture / "switches/sonic-1.config_db.json").read_text()
    assert validate_text(models, text) is None
    error = validate_text(models, _corrupt(text, change))
    assert error is not None and why in error, error


def test_the_command_fails_a_corrupted_build(models, sc25, tmp_path):
    copy = tmp_path / "build"
    shutil.copytree(sc25, copy)
    cmd = [sys.executable, "-m", "democ_validators_sonic", str(copy)]
    ok = subprocess.run(cmd, capture_output=True, text=True)
    assert ok.returncode == 0 and "scinet-core: switches/scinet-core.config_db.json: valid" in ok.stdout, ok.stdout + ok.stderr
    path = copy / "switches/scinet-core.config_db.json"
    path.write_text(_corrupt(path.read_text(), lambda db: db["PORT"]["Ethernet0"].__setitem__("speed", "0")))
    bad = subprocess.run(cmd, capture_output=True, text=True)
    assert bad.returncode == 1 and "invalid" in bad.stdout, bad.stdout + bad.stderr

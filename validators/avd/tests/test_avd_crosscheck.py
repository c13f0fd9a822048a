"""democ's EOS configs against pyavd's rendering of the same IR, on real builds."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from democ_validators_avd import check_build, check_switch, crosscheck

SC16 = "examples/sc16/show.yaml"
SC15 = "examples/sc15/show.yaml"
# democ's render fixture: routed ports, BGP, an SVI, a LAG, breakout speed, PFC/ECN on EOS.
MINI = "tests/fixtures/render/show.yaml"


def _explain(report) -> str:
    return report.text()


def test_sc16_eos_switches_agree_with_pyavd(democ_build):
    report = check_build(democ_build(SC16))
    assert report.ok, _explain(report)
    assert [s.hostname for s in report.switches] == [
        "cit-a-arista",
        "crsi-arista",
        "sl-chi-sw",
        "ucsd-campus-sw",
    ]
    for s in report.switches:
        assert s.validation_errors == [] and s.deprecations == []
        assert s.ignored_avd == []  # pyavd renders nothing democ leaves out
        assert s.compared > 100
        # The two EOS switches of SC16 that run OpenFlow had the democ-only block
        # compared; the campus edges run none (an instance with no port is W0310).
        if s.hostname in ("cit-a-arista", "crsi-arista"):
            assert s.supplements_used.get("openflow", 0) >= 4
        else:
            assert s.supplements_used.get("openflow", 0) == 0


def test_sc15_has_no_eos_switch(democ_build):
    """SC15 is FTOS, PicOS and Onyx only: the cross-check runs and has nothing to compare."""
    report = check_build(democ_build(SC15))
    assert report.ok
    assert report.switches == []
    assert "ftos9" in report.skipped
    assert "no EOS switches" in report.text()


def test_render_fixture_routed_bgp_svi_lag_agree(democ_build):
    report = check_build(democ_build(MINI))
    assert report.ok, _explain(report)
    (eos,) = report.switches
    sc = eos.structured_config
    assert sc["router_bgp"]["as"] == "65002"
    assert sc["vlan_interfaces"][0]["name"] == "Vlan3016"
    assert sc["port_channel_interfaces"][0]["switchport"]["mode"] == "trunk"
    assert any(e.get("switchport") == {"enabled": False} for e in sc["ethernet_interfaces"])
    assert any(e.get("speed") == "forced 25gfull" for e in sc["ethernet_interfaces"])


def test_avd_unmanaged_list_is_explained():
    for section, line, reason in crosscheck.AVD_UNMANAGED:
        assert section and reason, "every ignored pyavd line needs its reason"


def _corrupt(src, dst, host, old, new, count=1):
    shutil.copytree(src, dst)
    cfg = dst / "switches" / f"{host}.cfg"
    text = cfg.read_text()
    assert old in text
    cfg.write_text(text.replace(old, new, count))
    return dst


def test_wrong_mtu_is_caught(democ_build, tmp_path):
    bad = _corrupt(democ_build(SC16), tmp_path / "b", "crsi-arista", "   mtu 9196\n", "   mtu 9000\n")
    report = check_build(bad)
    assert not report.ok
    s = next(s for s in report.switches if s.hostname == "crsi-arista")
    assert s.missing == [("interface Ethernet49/1", "mtu 9196")]
    assert s.extra == [("interface Ethernet49/1", "mtu 9000")]
    assert all(o.ok for o in report.switches if o.hostname != "crsi-arista")


def test_missing_openflow_bind_is_caught(democ_build, tmp_path):
    """democ-only lines are generated from the IR, so they are checked too."""
    bad = _corrupt(
        democ_build(SC16), tmp_path / "b", "crsi-arista", "   bind interface Ethernet54/1\n", ""
    )
    s = next(s for s in check_build(bad).switches if s.hostname == "crsi-arista")
    assert s.missing == [("openflow", "bind interface Ethernet54/1")]
    assert s.extra == []


def test_wrong_flowcontrol_send_is_caught(democ_build, tmp_path):
    bad = _corrupt(
        democ_build(SC16), tmp_path / "b", "sl-chi-sw", "flowcontrol send off", "flowcontrol send on"
    )
    s = next(s for s in check_build(bad).switches if s.hostname == "sl-chi-sw")
    assert s.missing == [("interface Ethernet1/1", "flowcontrol send off")]
    assert s.extra == [("interface Ethernet1/1", "flowcontrol send on")]


def test_stray_line_and_wrong_vlan_are_caught(democ_build, tmp_path):
    bad = _corrupt(
        democ_build(MINI),
        tmp_path / "b",
        "eos-1",
        "   switchport trunk allowed vlan 1000,1200\n",
        "   switchport trunk allowed vlan 1000-1001,1200\n   spanning-tree portfast\n",
    )
    (s,) = check_build(bad).switches
    sec = "interface Ethernet27/1"
    assert (sec, "switchport trunk allowed vlan 1000,1001,1200") in s.extra
    assert (sec, "spanning-tree portfast") in s.extra
    assert s.missing == [(sec, "switchport trunk allowed vlan 1000,1200")]


def test_reordering_and_whitespace_do_not_matter(democ_build, tmp_path):
    src = democ_build(SC16)
    dst = tmp_path / "b"
    shutil.copytree(src, dst)
    cfg = dst / "switches" / "cit-a-arista.cfg"
    blocks = cfg.read_text().split("!\n")
    head, body = blocks[:2], blocks[2:-1]
    cfg.write_text("!\n".join(head + body[::-1] + [blocks[-1]]).replace("   mtu 9192", "   mtu   9192 "))
    assert check_build(dst, only=["cit-a-arista"]).ok


def test_cli_exit_codes_and_json(democ_build, tmp_path):
    good = democ_build(SC16)
    run = lambda *a: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "democ_validators_avd", *map(str, a)], capture_output=True, text=True
    )
    ok = run(good, "--json", "--avd-out", tmp_path / "avd")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    doc = json.loads(ok.stdout)
    assert doc["ok"] and doc["pyavd"] == "6.4.0" and len(doc["switches"]) == 4
    assert (tmp_path / "avd" / "cit-a-arista.avd.cfg").read_text().startswith("!")
    bad = _corrupt(good, tmp_path / "b", "cit-a-arista", "   mtu 9192\n", "   mtu 1500\n")
    fail = run(bad)
    assert fail.returncode == 1
    assert "democ adds (unexpected): interface Port-Channel10 | mtu 1500" in fail.stdout
    assert run(tmp_path / "nowhere").returncode == 2


def test_ir_speed_keyword_must_match_speed(democ_build):
    build = democ_build(MINI)
    sw = json.loads((build / "ir" / "eos-1.json").read_text())
    port = next(i for i in sw["interfaces"] if i["cli"]["speed"] == "forced 25gfull")
    port["speed_mbps"] = 10_000
    r = check_switch(sw, (build / "switches" / "eos-1.cfg").read_text())
    assert not r.ok
    assert r.ir_findings == [
        f"interface {port['name']}: `speed forced 25gfull` sets 25000 Mbit/s but the IR says 10000"
    ]


@pytest.mark.parametrize(
    "fec,line",
    [
        ("rs", "error-correction encoding reed-solomon"),
        ("fc", "error-correction encoding fire-code"),
        ("none", "no error-correction encoding"),
    ],
)
def test_fec_modes_render_as_democ_writes_them(democ_build, fec, line):
    """No EOS example port sets FEC; check the IR's three modes against vendor.yaml's lines."""
    build = democ_build(MINI)
    sw = json.loads((build / "ir" / "eos-1.json").read_text())
    port = next(i for i in sw["interfaces"] if i["name"] == "Ethernet26/1")
    port["fec"] = fec
    text = (build / "switches" / "eos-1.cfg").read_text()
    text = text.replace("interface Ethernet26/1\n", f"interface Ethernet26/1\n   {line}\n")
    r = check_switch(sw, text)
    assert r.ok, (r.missing, r.extra)


def test_lldp_disabled_would_need_no_lldp_run(democ_build):
    """LLDP is on by default on EOS, so an IR with LLDP off needs `no lldp run`, as
    pyavd renders it (and as eos.j2 now prints it): a config without it differs."""
    build = democ_build(SC16)
    sw = json.loads((build / "ir" / "crsi-arista.json").read_text())
    sw["lldp"]["enabled"] = False
    text = (build / "switches" / "crsi-arista.cfg").read_text().replace("lldp run\n", "")
    r = check_switch(sw, text)
    assert r.missing == [("no lldp run", "")]


def test_undefined_and_inconsistent_vlans_are_ir_findings(democ_build):
    build = democ_build(MINI)
    sw = json.loads((build / "ir" / "eos-1.json").read_text())
    text = (build / "switches" / "eos-1.cfg").read_text()
    assert check_switch(sw, text).ir_findings == []
    trunk = next(i for i in sw["interfaces"] if i["name"] == "Ethernet27/1")
    trunk["trunk_vlans"] = [1000, 1200, 1300]
    sw["vlans"] = [v for v in sw["vlans"] if v["id"] != 1200]
    r = check_switch(sw, text)
    assert "interface Ethernet27/1: uses VLAN 1200, which the switch does not define" in r.ir_findings
    assert "interface Ethernet27/1: uses VLAN 1300, which the switch does not define" in r.ir_findings
    sw = json.loads((build / "ir" / "eos-1.json").read_text())
    sw["vlans"][0]["tagged"].append("Ethernet26/1")
    assert check_switch(sw, text).ir_findings == [
        "vlan 1000: lists Ethernet26/1 tagged, but the port does not trunk it"
    ]


def test_platform_decides_the_ecn_queue(democ_build, tmp_path):
    """The converter picks `tx_queues` (Sand: 7280R) or `uc_tx_queues` (Trident,
    Tomahawk) from the IR's catalog platform, not from democ's vendor data, so democ
    printing the Trident keyword on a Jericho switch is a difference (issue 9 section 7)."""
    build = democ_build(SC16)
    ir = json.loads((build / "ir" / "crsi-arista.json").read_text())
    assert ir["platform"] == "sand"
    bad = _corrupt(build, tmp_path / "b", "crsi-arista", "   tx-queue 3\n", "   uc-tx-queue 3\n")
    s = next(s for s in check_build(bad).switches if s.hostname == "crsi-arista")
    assert not s.ok
    assert any(line.startswith("tx-queue 3") for _, line in s.missing), s.missing
    assert any(line.startswith("uc-tx-queue 3") for _, line in s.extra), s.extra


# Two legacy EOS switches with `show.services` (NTP, syslog, SNMP v2c, sFlow) and an NTP
# server beyond the management gateway (reached by the management VRF's default route).
TRACED = "tests/fixtures/traced/show.yaml"


def test_services_agree_with_pyavd(democ_build):
    report = check_build(democ_build(TRACED))
    assert report.ok, _explain(report)
    sc = report.switches[0].structured_config
    assert {s["name"] for s in sc["ntp"]["servers"]} == {"192.168.20.5", "10.99.0.5"}
    assert sc["sflow"]["sample"] == 8192
    # `gnmi: true`: pyavd renders the same `management api gnmi` block in the MGMT VRF.
    assert sc["management_api_gnmi"] == {"transport": {"grpc": [{"name": "default", "vrf": "MGMT"}]}}
    # No OpenFlow: the management port is in the default management VRF, MGMT.
    assert {"prefix": "0.0.0.0/0", "next_hop": "192.168.20.1", "vrf": "MGMT"} in sc["static_routes"]


def test_services_in_the_management_vrf_agree_with_pyavd(democ_build, tmp_path):
    """With `show.management.vrf`, every service line and the management port's routes
    carry that VRF, as pyavd renders them."""
    # (Not imported from conftest: when ./test.sh runs every package's tests in one
    # pytest, `conftest` may be another package's.)
    root = Path(__file__).resolve().parents[3]
    democ = Path(os.environ.get("DEMOC") or root / "target" / "debug" / "democ")

    spec = tmp_path / "show.yaml"
    text = (root / TRACED).read_text()
    spec.write_text(text.replace("{ gateway: 192.168.20.1 }", "{ gateway: 192.168.20.1, vrf: OOB }"))
    out = tmp_path / "out"
    subprocess.run([str(democ), "build", str(spec), "-o", str(out)], check=True, capture_output=True)
    report = check_build(out)
    assert report.ok, _explain(report)
    cfg = (out / "switches" / "eos-a.cfg").read_text()
    assert "sflow vrf OOB destination 192.168.20.8 6343\n" in cfg
    assert "ntp server vrf OOB 10.99.0.5\n" in cfg


def test_a_missing_gnmi_line_is_caught(democ_build, tmp_path):
    bad = _corrupt(democ_build(TRACED), tmp_path / "g", "eos-a", "      vrf MGMT\n!\n", "!\n")
    s = next(s for s in check_build(bad).switches if s.hostname == "eos-a")
    assert not s.ok


def test_a_missing_service_line_is_caught(democ_build, tmp_path):
    bad = _corrupt(democ_build(TRACED), tmp_path / "b", "eos-a", "sflow run\n", "")
    s = next(s for s in check_build(bad).switches if s.hostname == "eos-a")
    assert s.missing == [("sflow run", "")]

"""The post-commit LLDP expectation comes from the build's cabling."""

from democ_push.build import load
from democ_push.checks import expected_neighbors, lldp_mismatches


def test_expected_neighbors_follow_the_cabling(sc16):
    switches = {d.name for d in load(sc16)}
    e = expected_neighbors(sc16, "crsi-arista", switches)
    # crsi-arista 1/54 <> scinet-core 1/6 (OTN, transparent to LLDP).
    assert e["Ethernet54/1"] == "scinet-core"
    assert set(e.values()) <= switches
    # A DTN-facing port is not expected to name the DTN.
    z = expected_neighbors(sc16, "cit-a-z9100-1", switches)
    assert all(not p.startswith("cit-rdma") for p in z.values())


def test_mismatch_lines_name_the_port_and_both_sides():
    expected = {"Ethernet1/1": "cit-a-arista", "hundredGigE 1/2": "sw-b"}
    seen = {"Ethernet1/1": [{"hostname": "CIT-A-ARISTA.example.org", "port": "Et41/1"}], "hundredGigE1/2": []}
    assert lldp_mismatches(expected, seen) == ["hundredGigE 1/2: cabling says sw-b, LLDP sees no neighbour"]

"""The question logic, with pybatfish's Session replaced by a fake that returns
pandas frames shaped as Batfish's answers are (column names from pybatfish's question
docs; Interface and FileLines cells are pybatfish's own datamodel classes).

No Batfish service runs here: these answers are made by the test from the IR (a
"Batfish that agrees"), then broken on purpose. They are not recordings of a live run.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from pybatfish.datamodel.flow import HeaderConstraints, Hop, Trace
from pybatfish.datamodel.primitives import FileLines, Interface

from democ_validators_batfish import questions
from democ_validators_batfish.expect import expectations
from democ_validators_batfish.snapshot import BATFISH_FORMAT, load_switches

MINI = "tests/fixtures/render/show.yaml"
SC16 = "examples/sc16/show.yaml"
TRACED = "tests/fixtures/traced/show.yaml"

COLUMNS = {
    "fileParseStatus": ["File_Name", "Status", "File_Format", "Nodes"],
    "parseWarning": ["Filename", "Line", "Text", "Parser_Context", "Comment"],
    "initIssues": ["Nodes", "Source_Lines", "Type", "Details", "Line_Text", "Parser_Context"],
    "undefinedReferences": ["File_Name", "Struct_Type", "Ref_Name", "Context", "Lines"],
    "interfaceProperties": ["Interface", "Active", "Description", "MTU", "Primary_Address"],
    "ipOwners": ["Node", "VRF", "Interface", "IP", "Mask", "Active"],
    "layer3Edges": ["Interface", "IPs", "Remote_Interface", "Remote_IPs"],
    "traceroute": ["Flow", "Traces", "TraceCount"],
}


def agreeing_answers(build: Path) -> dict[str, list[dict]]:
    """Rows a Batfish that parses everything and agrees with the IR would return."""
    exp = expectations(load_switches(build))
    t: dict[str, list[dict]] = {q: [] for q in COLUMNS}
    for f, os_ in exp.files.items():
        host = Path(f).stem
        t["fileParseStatus"].append(
            {"File_Name": f, "Status": "PASSED", "File_Format": BATFISH_FORMAT[os_], "Nodes": [host]}
        )
    for (h, i), mtu in exp.mtu.items():
        t["interfaceProperties"].append(
            {"Interface": Interface(h, i), "Active": True, "Description": None, "MTU": mtu,
             "Primary_Address": exp.addresses.get((h, i))}
        )
    for pair in exp.l3:
        a, b = sorted(pair)
        for x, y in ((a, b), (b, a)):
            t["layer3Edges"].append(
                {"Interface": Interface(*x), "IPs": [exp.addresses[x].split("/")[0]],
                 "Remote_Interface": Interface(*y), "Remote_IPs": [exp.addresses[y].split("/")[0]]}
            )
    return t


class FakeSession:
    """Stands in for pybatfish.client.session.Session."""

    def __init__(self, host: str, tables: dict[str, list[dict]]):
        self.host = host
        self.calls: list[tuple] = []
        self._tables = tables
        session = self

        class Q:
            def __getattr__(self, name):
                if name not in COLUMNS:
                    raise AttributeError(name)

                def question(**kwargs):
                    session.calls.append(("q", name, kwargs))
                    rows = session._tables.get(name, [])
                    if callable(rows):  # traceroute: the rows depend on the query
                        rows = rows(**kwargs)
                    frame = pd.DataFrame(rows, columns=COLUMNS[name])

                    class Answer:
                        def answer(self_inner):
                            return self_inner

                        def frame(self_inner):
                            return frame

                    return Answer()

                return question

        self.q = Q()

    def set_network(self, name):
        self.calls.append(("set_network", name))
        return name

    def init_snapshot(self, upload, name=None, overwrite=False, extra_args=None):
        assert (Path(upload) / "configs").is_dir() and (Path(upload) / "batfish" / "layer1_topology.json").is_file()
        self.calls.append(("init_snapshot", upload, name, overwrite))
        return name


def run_main(build, tables, *extra, capsys=None):
    made = []

    def factory(host):
        s = FakeSession(host, tables)
        made.append(s)
        return s

    rc = questions.main([str(build), "--batfish-host", "bf.example", *extra], session_factory=factory)
    return rc, made[0] if made else None


@pytest.fixture
def mini(democ_build, tmp_path):
    build = tmp_path / "b"
    shutil.copytree(democ_build(MINI), build)
    return build


def test_agreeing_batfish_passes(mini, capsys):
    rc, session = run_main(mini, agreeing_answers(mini))
    out = capsys.readouterr().out
    assert rc == 0, out
    assert session.host == "bf.example"
    assert session.calls[0] == ("set_network", "democ")
    assert session.calls[1] == ("init_snapshot", str(mini / "snapshot"), "mini", True)
    asked = [c[1] for c in session.calls if c[0] == "q"]
    assert asked == list(questions.QUESTIONS)
    kwargs = {c[1]: c[2] for c in session.calls if c[0] == "q"}
    assert kwargs["ipOwners"] == {"duplicatesOnly": True}
    assert "MTU" in kwargs["interfaceProperties"]["properties"]
    assert "files parsed cleanly: 3" in out
    assert "layer-3 adjacencies: 1 expected from the IR, 1 edges reported by Batfish" in out


def test_parse_failure_and_wrong_format_fail(mini, capsys):
    t = agreeing_answers(mini)
    rows = {r["File_Name"]: r for r in t["fileParseStatus"]}
    rows["configs/ftos-1.cfg"]["Status"] = "FAILED"
    rows["configs/eos-1.cfg"]["File_Format"] = "CISCO_IOS"
    rc, _ = run_main(mini, t)
    out = capsys.readouterr().out
    assert rc == 1
    # FTOS 9 goes through Batfish's Cisco-style grammar: best effort, reported, not gated.
    assert "FAILED parse (or wrong format): 1" in out
    assert "configs/eos-1.cfg: parsed as CISCO_IOS, expected ARISTA" in out
    assert "FTOS 9 parse problems (best effort, not gated): 1" in out
    assert "configs/ftos-1.cfg: FAILED (FORCE10)" in out


def test_ftos_parse_failure_alone_does_not_gate(mini, capsys):
    t = agreeing_answers(mini)
    rows = {r["File_Name"]: r for r in t["fileParseStatus"]}
    rows["configs/ftos-1.cfg"]["Status"] = "FAILED"
    rc, _ = run_main(mini, t)
    out = capsys.readouterr().out
    assert rc == 0
    assert "configs/ftos-1.cfg: FAILED (FORCE10)" in out


def test_missing_file_in_answer_fails(mini):
    t = agreeing_answers(mini)
    t["fileParseStatus"] = t["fileParseStatus"][1:]
    r = questions.analyze(questions_rows(t), expectations(load_switches(mini)))
    assert r.failed() and "not in Batfish's fileParseStatus answer" in r.parse_failures[0]


def questions_rows(tables):
    """Tables as analyze() sees them after ask(): frames turned into plain rows."""
    return {q: questions.frame_rows(pd.DataFrame(rows, columns=COLUMNS[q])) for q, rows in tables.items()}


def test_undefined_reference_fails(mini, capsys):
    t = agreeing_answers(mini)
    t["undefinedReferences"].append(
        {"File_Name": "configs/eos-1.cfg", "Struct_Type": "interface", "Ref_Name": "Port-Channel9",
         "Context": "interface channel-group", "Lines": FileLines("configs/eos-1.cfg", [42])}
    )
    t["undefinedReferences"].append(
        {"File_Name": "configs/ftos-1.cfg", "Struct_Type": "interface", "Ref_Name": "Port-channel 9",
         "Context": "interface channel-member", "Lines": FileLines("configs/ftos-1.cfg", [42])}
    )
    rc, _ = run_main(mini, t)
    out = capsys.readouterr().out
    assert rc == 1
    assert "configs/eos-1.cfg: interface 'Port-Channel9' in interface channel-group line(s) 42" in out
    # The FTOS one is reported as best effort, not among the gating references.
    assert "UNDEFINED references: 1" in out
    assert "configs/ftos-1.cfg: undefined interface 'Port-channel 9'" in out


def test_warnings_are_reported_not_fatal(mini, capsys):
    t = agreeing_answers(mini)
    t["fileParseStatus"][1]["Status"] = "PARTIALLY_UNRECOGNIZED"
    t["parseWarning"].append(
        {"Filename": "configs/ftos-1.cfg", "Line": 5, "Text": "openflow of-instance 2",
         "Parser_Context": "[s_openflow]", "Comment": "This syntax is unrecognized"}
    )
    t["initIssues"].append(
        {"Nodes": ["ftos-1"], "Source_Lines": None, "Type": "Parse warning",
         "Details": "This syntax is unrecognized", "Line_Text": "openflow of-instance 2", "Parser_Context": None}
    )
    rc, _ = run_main(mini, t)
    out = capsys.readouterr().out
    assert rc == 0
    assert "partially recognized files: 1" in out
    assert "configs/ftos-1.cfg:5: openflow of-instance 2 (This syntax is unrecognized)" in out
    assert "[ftos-1] Parse warning: This syntax is unrecognized `openflow of-instance 2`" in out


def test_mtu_duplicates_and_l3_findings_fail_only_when_strict(mini, capsys):
    t = agreeing_answers(mini)
    t["interfaceProperties"][0]["MTU"] = 1500
    dropped = t["interfaceProperties"].pop()
    t["layer3Edges"] = []
    t["ipOwners"].append(
        {"Node": "eos-1", "VRF": "default", "Interface": "Ethernet26/1", "IP": "10.255.0.8", "Mask": 31, "Active": True}
    )
    rc, _ = run_main(mini, t)
    out = capsys.readouterr().out
    assert rc == 0
    h, i = dropped["Interface"].hostname, dropped["Interface"].interface
    assert f"{h}[{i}]" in out  # reported as missing from Batfish's model
    assert "Batfish MTU 1500, IR" in out
    assert "10.255.0.8/31 on eos-1[Ethernet26/1]" in out
    assert "eos-1[Ethernet26/1] 10.255.0.8/31 <-> ftos-2[HundredGigabitEthernet1/32] 10.255.0.9/31" in out
    rc, _ = run_main(mini, t, "--strict")
    assert rc == 1


def test_saved_answers_replay_offline(mini, tmp_path, capsys):
    t = agreeing_answers(mini)
    t["interfaceProperties"][0]["MTU"] = 1500
    saved = tmp_path / "answers.json"
    rc, _ = run_main(mini, t, "--save-answers", str(saved), "--json")
    live = json.loads(capsys.readouterr().out)
    doc = json.loads(saved.read_text())
    assert set(doc) == set(questions.QUESTIONS)
    assert doc["interfaceProperties"][0]["Interface"].keys() == {"hostname", "interface"}
    rc2 = questions.main([str(mini), "--answers", str(saved), "--json"])
    assert (rc, json.loads(capsys.readouterr().out)) == (rc2, live)


def test_service_error_exits_2(mini, capsys):
    def broken(host):
        raise ConnectionError(f"cannot reach {host}:9996")

    rc = questions.main([str(mini), "--batfish-host", "nowhere"], session_factory=broken)
    assert rc == 2
    assert "ConnectionError" in capsys.readouterr().err


def test_sc16_expectations(democ_build):
    exp = expectations(load_switches(democ_build(SC16)))
    assert len(exp.files) == 11  # 5 EOS + 6 FTOS
    # The IP MTU EOS's `mtu` takes: the 9214-byte frame less header, tag and FCS.
    assert exp.mtu[("cit-a-arista", "Port-Channel10")] == 9192
    assert exp.mtu[("cit-b-z9100", "HundredGigabitEthernet1/1")] == 9216
    assert exp.l3 == set()  # SC16's routed links all end on OS10/PicOS/Onyx switches


# ---- one traceroute per flow pair and direction, read against the planned path ----------

PLANNED = {
    ("dtn-a", "10.20.0.2"): ["dtn-a", "eos-a", "eos-b", "dtn-b"],
    ("dtn-b", "10.20.0.1"): ["dtn-b", "eos-b", "eos-a", "dtn-a"],
}


def tracer(route=PLANNED, disposition="ACCEPTED"):
    """A Batfish that carries each traced flow along `route` (start, dst IP -> nodes)."""

    def rows(startLocation, headers):
        assert isinstance(headers, HeaderConstraints)
        start = startLocation.strip('"')
        nodes = route[(start, headers.dstIps)]
        trace = Trace(disposition, [Hop(n, []) for n in nodes])
        return [{"Flow": f"{headers.srcIps}->{headers.dstIps}", "Traces": [trace], "TraceCount": 1}]

    return rows


@pytest.fixture
def traced(democ_build, tmp_path):
    build = tmp_path / "t"
    shutil.copytree(democ_build(TRACED), build)
    return build


def test_each_flow_is_traced_both_ways_along_its_plan(traced, capsys):
    tables = agreeing_answers(traced)
    tables["traceroute"] = tracer()
    rc, session = run_main(traced, tables)
    out = capsys.readouterr().out
    assert rc == 0, out
    asked = [c[2] for c in session.calls if c[0] == "q" and c[1] == "traceroute"]
    assert [(a["startLocation"], a["headers"].srcIps, a["headers"].dstIps) for a in asked] == [
        ('"dtn-a"', "10.20.0.1", "10.20.0.2"),
        ('"dtn-b"', "10.20.0.2", "10.20.0.1"),
    ]
    assert "flows traced along their planned path: 2" in out


def test_a_flow_batfish_drops_fails(traced, capsys):
    tables = agreeing_answers(traced)
    tables["traceroute"] = tracer(disposition="NO_ROUTE")
    rc, _ = run_main(traced, tables)
    out = capsys.readouterr().out
    assert rc == 1
    assert "FLOWS Batfish does not carry as planned: 2" in out
    assert "a-to-b dtn-a -> dtn-b: NO_ROUTE after dtn-a > eos-a > eos-b > dtn-b" in out


def test_a_flow_off_its_planned_path_fails(traced, capsys):
    detour = dict(PLANNED)
    detour[("dtn-a", "10.20.0.2")] = ["dtn-a", "eos-a", "dtn-b"]
    tables = agreeing_answers(traced)
    tables["traceroute"] = tracer(detour)
    rc, _ = run_main(traced, tables)
    out = capsys.readouterr().out
    assert rc == 1
    assert (
        "a-to-b dtn-a -> dtn-b: accepted via dtn-a > eos-a > dtn-b, planned dtn-a > eos-a > eos-b > dtn-b"
        in out
    )
    assert "flows traced along their planned path: 1" in out


def test_flows_batfish_cannot_model_are_skipped_with_the_reason(democ_build, tmp_path, capsys):
    build = tmp_path / "s"
    shutil.copytree(democ_build(SC16), build)
    rc, session = run_main(build, agreeing_answers(build))
    out = capsys.readouterr().out
    assert not [c for c in session.calls if c[0] == "q" and c[1] == "traceroute"]
    assert "cit-ab-tcp-1t cit-tcp-1 -> cit-b-dtn-1: `cit-a-arista` forwards it by OpenFlow rules" in out
    assert "cit-sl-rdma-1t cit-rdma-1 -> sl-dtn-1: `sl-inventec-1` (picos) is not in the snapshot" in out

"""Ask a Batfish service about a democ build, and read the answers against the IR.

    python -m democ_validators_batfish.questions BUILD_DIR --batfish-host HOST
        [--snapshot-dir DIR] [--network democ] [--snapshot-name NAME]
        [--save-answers FILE] [--json] [--strict]
    python -m democ_validators_batfish.questions BUILD_DIR --answers FILE   (replay, offline)

Builds the snapshot (snapshot.py), uploads it with pybatfish and asks fileParseStatus,
parseWarning, initIssues, undefinedReferences, interfaceProperties (MTU), ipOwners
(duplicates only) and layer3Edges, then one traceroute per declared flow pair and
direction that Batfish can model (expect.traces), each read against democ's planned
path. Exit 1 on a file Batfish failed to parse (or parsed with the wrong format), on an
undefined reference, or on a flow that is not accepted at its destination along its
planned path; with --strict also on MTU
mismatches, duplicate IPs, interfaces missing from Batfish's model and expected layer-3
adjacencies Batfish did not find. Exit 2 on usage, I/O or service errors.

No Batfish service runs in democ's CI: this path needs one the user runs (see README).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .expect import Expectations, Trace, expectations, traces
from .snapshot import BATFISH_FORMAT, build_snapshot, load_hosts, load_switches

QUESTIONS = (
    "fileParseStatus",
    "parseWarning",
    "initIssues",
    "undefinedReferences",
    "interfaceProperties",
    "ipOwners",
    "layer3Edges",
)

# Arguments given to each question (pybatfish keyword arguments).
QUESTION_ARGS: dict[str, dict[str, Any]] = {
    "interfaceProperties": {"properties": "MTU|Active|Description|Primary_Address"},
    "ipOwners": {"duplicatesOnly": True},
}

Answers = dict[str, list[dict[str, Any]]]


def plain(value: Any) -> Any:
    """A pybatfish answer cell as JSON data (Interface -> {hostname, interface}, ...)."""
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        return None if math.isnan(value) else value
    if hasattr(value, "hostname") and hasattr(value, "interface"):
        return {"hostname": value.hostname, "interface": value.interface}
    if hasattr(value, "disposition") and hasattr(value, "hops"):  # a traceroute Trace
        return {"disposition": str(value.disposition), "hops": [str(h.node) for h in value.hops]}
    if hasattr(value, "filename") and hasattr(value, "lines"):
        return {"filename": value.filename, "lines": list(value.lines)}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if hasattr(value, "item"):  # numpy scalar
        return plain(value.item())
    return str(value)


def frame_rows(frame: Any) -> list[dict[str, Any]]:
    return [{str(k): plain(v) for k, v in row.items()} for row in frame.to_dict(orient="records")]


def ask(
    session: Any,
    snapshot_dir: str | Path,
    network: str,
    snapshot_name: str,
    asked: list[Trace] | None = None,
) -> Answers:
    """Upload the snapshot and ask every question; `session` is a pybatfish Session.
    Traceroute rows are kept under "traceroute", each with the flow key it answers."""
    session.set_network(network)
    session.init_snapshot(str(snapshot_dir), name=snapshot_name, overwrite=True)
    answers: Answers = {}
    for q in QUESTIONS:
        question = getattr(session.q, q)(**QUESTION_ARGS.get(q, {}))
        answers[q] = frame_rows(question.answer().frame())
    if asked:
        from pybatfish.datamodel.flow import HeaderConstraints

        rows = []
        for t in asked:
            question = session.q.traceroute(
                startLocation=f'"{t.src}"',
                headers=HeaderConstraints(srcIps=t.src_ip, dstIps=t.dst_ip),
            )
            for row in frame_rows(question.answer().frame()):
                rows.append({"Query": t.key, **row})
        answers["traceroute"] = rows
    return answers


def _iface(cell: Any) -> tuple[str, str] | None:
    if isinstance(cell, dict) and "hostname" in cell:
        return (cell["hostname"].lower(), cell["interface"].lower())
    if isinstance(cell, str) and "[" in cell and cell.endswith("]"):  # "host[iface]"
        host, iface = cell[:-1].split("[", 1)
        return (host.lower(), iface.lower())
    return None


@dataclass
class Report:
    files_ok: list[str] = field(default_factory=list)
    parse_failures: list[str] = field(default_factory=list)
    # FTOS 9 goes through Batfish's Cisco-style force10 grammar, which lacks democ's
    # OpenFlow, DCB and hybrid-port lines: its parse problems are reported, not gated.
    best_effort: list[str] = field(default_factory=list)
    partially_parsed: list[str] = field(default_factory=list)
    parse_warnings: list[str] = field(default_factory=list)
    init_issues: list[str] = field(default_factory=list)
    undefined_references: list[str] = field(default_factory=list)
    mtu_checked: int = 0
    mtu_mismatches: list[str] = field(default_factory=list)
    missing_in_model: list[str] = field(default_factory=list)
    duplicate_ips: list[str] = field(default_factory=list)
    l3_expected: int = 0
    l3_found: int = 0
    l3_missing: list[str] = field(default_factory=list)
    traces_ok: list[str] = field(default_factory=list)
    traces_failed: list[str] = field(default_factory=list)
    traces_skipped: list[str] = field(default_factory=list)

    def failed(self, strict: bool = False) -> bool:
        if self.parse_failures or self.undefined_references or self.traces_failed:
            return True
        return strict and bool(
            self.mtu_mismatches or self.missing_in_model or self.duplicate_ips or self.l3_missing
        )

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)

    def text(self) -> str:
        out = []

        def section(title: str, items: list[str], limit: int = 50) -> None:
            out.append(f"{title}: {len(items)}")
            for it in items[:limit]:
                out.append(f"  {it}")
            if len(items) > limit:
                out.append(f"  ... and {len(items) - limit} more")

        out.append(f"files parsed cleanly: {len(self.files_ok)}")
        section("FAILED parse (or wrong format)", self.parse_failures)
        section("FTOS 9 parse problems (best effort, not gated)", self.best_effort)
        section("partially recognized files", self.partially_parsed)
        section("parse warnings", self.parse_warnings)
        section("init issues", self.init_issues)
        section("UNDEFINED references", self.undefined_references)
        out.append(f"MTU checked on {self.mtu_checked} interfaces")
        section("MTU differs from the IR", self.mtu_mismatches)
        section("IR interfaces missing from Batfish's model", self.missing_in_model)
        section("duplicate IP owners", self.duplicate_ips)
        out.append(
            f"layer-3 adjacencies: {self.l3_expected} expected from the IR, "
            f"{self.l3_found} edges reported by Batfish"
        )
        section("expected adjacencies Batfish did not find", self.l3_missing)
        out.append(f"flows traced along their planned path: {len(self.traces_ok)}")
        section("FLOWS Batfish does not carry as planned", self.traces_failed)
        section("flows not traced (Batfish cannot model a hop)", self.traces_skipped)
        return "\n".join(out)


# OSes whose Batfish grammar is not their own: parse status reported, never gating.
BEST_EFFORT = {"ftos9"}


def check_traces(answers: Answers, asked: list[Trace], r: Report) -> None:
    """Every asked flow must be accepted at its destination, on every trace Batfish
    finds (ECMP gives several), along exactly the planned nodes."""
    by_key: dict[str, list[dict[str, Any]]] = {}
    for row in answers.get("traceroute", []):
        by_key.setdefault(row.get("Query", ""), []).append(row)
    for t in asked:
        want = [n.lower() for n in t.nodes]
        found = [tr for row in by_key.get(t.key, []) for tr in (row.get("Traces") or [])]
        if not found:
            r.traces_failed.append(f"{t.key}: Batfish found no trace")
            continue
        bad = []
        for tr in found:
            hops = [str(h).lower() for h in tr.get("hops", [])] if isinstance(tr, dict) else []
            disp = tr.get("disposition") if isinstance(tr, dict) else str(tr)
            if disp != "ACCEPTED":
                bad.append(f"{disp} after {' > '.join(hops) or 'no hop'}")
            elif hops != want:
                bad.append(f"accepted via {' > '.join(hops)}, planned {' > '.join(want)}")
        if bad:
            r.traces_failed.append(f"{t.key}: " + "; ".join(sorted(set(bad))))
        else:
            r.traces_ok.append(t.key)


def analyze(
    answers: Answers,
    exp: Expectations,
    asked: list[Trace] | None = None,
    skipped: list[str] | None = None,
) -> Report:
    r = Report()
    check_traces(answers, asked or [], r)
    r.traces_skipped = list(skipped or [])

    seen_files = set()
    for row in answers.get("fileParseStatus", []):
        name = row.get("File_Name", "")
        seen_files.add(name)
        status = row.get("Status")
        fmt = row.get("File_Format")
        os_ = exp.files.get(name)
        want = BATFISH_FORMAT.get(os_) if os_ else None
        if os_ in BEST_EFFORT and status not in ("PASSED", "PARTIALLY_UNRECOGNIZED"):
            r.best_effort.append(f"{name}: {status} ({fmt})")
        elif status not in ("PASSED", "PARTIALLY_UNRECOGNIZED"):
            r.parse_failures.append(f"{name}: {status} ({fmt})")
        elif want and fmt != want:
            r.parse_failures.append(f"{name}: parsed as {fmt}, expected {want}")
        elif status == "PARTIALLY_UNRECOGNIZED":
            r.partially_parsed.append(f"{name} ({fmt})")
        else:
            r.files_ok.append(name)
    for name in sorted(set(exp.files) - seen_files):
        r.parse_failures.append(f"{name}: not in Batfish's fileParseStatus answer")

    for row in answers.get("parseWarning", []):
        fname = row.get("Filename") or row.get("File_Name")
        comment = f" ({row['Comment']})" if row.get("Comment") else ""
        r.parse_warnings.append(f"{fname}:{row.get('Line')}: {row.get('Text')}{comment}")

    for row in answers.get("initIssues", []):
        nodes = ",".join(row.get("Nodes") or [])
        text = f" `{row['Line_Text']}`" if row.get("Line_Text") else ""
        r.init_issues.append(f"[{nodes}] {row.get('Type')}: {row.get('Details')}{text}")

    for row in answers.get("undefinedReferences", []):
        fname = row.get("File_Name") or row.get("Filename")
        if exp.files.get(fname) in BEST_EFFORT:
            r.best_effort.append(f"{fname}: undefined {row.get('Struct_Type') or row.get('Ref_Type')} {row.get('Ref_Name')!r}")
            continue
        lines = row.get("Lines")
        where = ""
        if isinstance(lines, dict):
            where = f" line(s) {','.join(str(x) for x in lines.get('lines', []))}"
        r.undefined_references.append(
            f"{fname}: {row.get('Struct_Type') or row.get('Ref_Type')} "
            f"{row.get('Ref_Name')!r} in {row.get('Context')}{where}"
        )

    model_mtu: dict[tuple[str, str], Any] = {}
    for row in answers.get("interfaceProperties", []):
        key = _iface(row.get("Interface"))
        if key:
            model_mtu[key] = row.get("MTU")
    for (host, iface), want in sorted(exp.mtu.items()):
        key = (host.lower(), iface.lower())
        if key not in model_mtu:
            r.missing_in_model.append(f"{host}[{iface}]")
            continue
        r.mtu_checked += 1
        if model_mtu[key] != want:
            r.mtu_mismatches.append(f"{host}[{iface}]: Batfish MTU {model_mtu[key]}, IR {want}")

    for row in answers.get("ipOwners", []):
        r.duplicate_ips.append(
            f"{row.get('IP')}/{row.get('Mask')} on {row.get('Node')}[{row.get('Interface')}]"
            f" vrf {row.get('VRF')} active={row.get('Active')}"
        )

    found: set[frozenset[tuple[str, str]]] = set()
    for row in answers.get("layer3Edges", []):
        a, b = _iface(row.get("Interface")), _iface(row.get("Remote_Interface"))
        if a and b:
            found.add(frozenset((a, b)))
    r.l3_found = len(found)
    r.l3_expected = len(exp.l3)
    for pair in sorted(exp.l3, key=sorted):
        low = frozenset((h.lower(), i.lower()) for h, i in pair)
        if low not in found:
            a, b = sorted(pair)
            r.l3_missing.append(
                f"{a[0]}[{a[1]}] {exp.addresses[a]} <-> {b[0]}[{b[1]}] {exp.addresses[b]}"
            )
    return r


def main(argv: list[str] | None = None, session_factory: Any = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m democ_validators_batfish.questions",
        description="Upload a democ build's Batfish snapshot and check Batfish's answers against the IR.",
    )
    ap.add_argument("build_dir")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--batfish-host", help="host of a running Batfish service")
    src.add_argument("--answers", metavar="FILE", help="analyse answers saved by --save-answers (no service)")
    ap.add_argument("--snapshot-dir", help="where to write the snapshot (default BUILD_DIR/snapshot)")
    ap.add_argument("--network", default="democ")
    ap.add_argument("--snapshot-name", help="default: the show name from manifest.json")
    ap.add_argument("--save-answers", metavar="FILE", help="write the raw answers as JSON")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--strict", action="store_true", help="also fail on MTU, duplicate-IP and L3 findings")
    args = ap.parse_args(argv)

    build = Path(args.build_dir)
    try:
        switches = load_switches(build)
        exp = expectations(switches)
        flows_file = build / "ir" / "flows" / "flows.json"
        flows = json.loads(flows_file.read_text()) if flows_file.exists() else []
        asked, skipped = traces(flows, switches, {h.name for h in load_hosts(build)})
        if args.answers:
            answers = json.loads(Path(args.answers).read_text())
        else:
            snap = build_snapshot(build, args.snapshot_dir)
            print(snap.summary(), file=sys.stderr)
            name = args.snapshot_name
            if not name:
                manifest = build / "manifest.json"
                name = json.loads(manifest.read_text())["show"] if manifest.exists() else build.name
            if session_factory is None:
                from pybatfish.client.session import Session

                session_factory = Session
            session = session_factory(host=args.batfish_host)
            answers = ask(session, snap.snapshot_dir, args.network, name, asked)
            if args.save_answers:
                Path(args.save_answers).write_text(json.dumps(answers, indent=1) + "\n")
    except Exception as e:  # I/O, IR shape, or the service: report, exit 2
        print(f"error: {type(e).__name__}: {e}", file=sys.stderr)
        return 2

    report = analyze(answers, exp, asked, skipped)
    print(json.dumps(report.to_json(), indent=2) if args.json else report.text())
    return 1 if report.failed(args.strict) else 0


if __name__ == "__main__":
    sys.exit(main())

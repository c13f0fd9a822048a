"""lab/<show>.clab.yml, as `democ build` writes it, validates against containerlab's own
JSON Schema (../shared/schemas/clab.schema.json beside the project; skipped without it)
when read by PyYAML, as containerlab's Python tooling would read it. DEMOC names the
binary (test.sh points it at target/debug/democ)."""

import json
import os
import pathlib
import subprocess

import jsonschema
import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCHEMA = ROOT.parent / "shared" / "schemas" / "clab.schema.json"
DEMOC = pathlib.Path(os.environ.get("DEMOC", ROOT / "target" / "debug" / "democ"))
SHOWS = ["sc16", "sc15", "sc25-400g"]


def schema():
    if not SCHEMA.is_file():
        pytest.skip(f"{SCHEMA} is not there (it ships beside the project, not in it)")
    # Python's `re` has no `\p{..}` classes (the schema's zone-id suffix of addresses):
    # letters and digits are `[^\W_]` in a Unicode `re` class.
    text = SCHEMA.read_text().replace(r"[\\p{N}\\p{L}]", r"[^\\W_]")
    return json.loads(text)


def build(show, out):
    if not DEMOC.is_file():
        pytest.skip(f"no democ binary at {DEMOC}: run `cargo build` or set DEMOC")
    spec = ROOT / "examples" / show / "show.yaml"
    run = subprocess.run(
        [str(DEMOC), "build", str(spec), "-o", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    return yaml.safe_load((out / "lab" / f"{show}.clab.yml").read_text())


@pytest.mark.parametrize("show", SHOWS)
def test_topology_matches_containerlab_schema(show, tmp_path):
    s = schema()
    doc = build(show, tmp_path / "out")
    jsonschema.validate(doc, s, cls=jsonschema.Draft7Validator)
    nodes = doc["topology"]["nodes"]
    ends = [e for link in doc["topology"]["links"] for e in link["endpoints"]]
    assert all(e.split(":", 1)[0] in nodes for e in ends)
    assert len(ends) == len(set(ends)), "an interface is cabled twice"


def test_schema_rejects_an_unknown_kind(tmp_path):
    s = schema()
    doc = build("sc16", tmp_path / "out")
    doc["topology"]["nodes"]["scinet-core"]["kind"] = "arista_eos"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, s, cls=jsonschema.Draft7Validator)

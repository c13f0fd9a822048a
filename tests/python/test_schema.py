"""schema/democ.schema.json validates every example spec (the same schema editors use
through the yaml-language-server modeline)."""

import json
import pathlib

import jsonschema
import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schema" / "democ.schema.json").read_text())
EXAMPLES = sorted((ROOT / "examples").rglob("*.yaml"))


def test_there_are_examples():
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_example_matches_schema(path):
    doc = yaml.safe_load(path.read_text())
    jsonschema.validate(doc, SCHEMA, cls=jsonschema.Draft202012Validator)


@pytest.mark.parametrize("path", EXAMPLES[:1], ids=lambda p: str(p.relative_to(ROOT)))
def test_schema_rejects_unknown_fields(path):
    doc = yaml.safe_load(path.read_text())
    doc["not_a_section"] = 1
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, SCHEMA, cls=jsonschema.Draft202012Validator)

"""What an editor completes from schema/democ.schema.json (issue 12 §6), checked the way a
JSON Schema completion engine works: walk the schema to the cursor's place ($ref,
anyOf/oneOf, map values, list items, `kind`-discriminated branches) and gather the
values (enum, const, examples) or keys (properties) offered there. tests/python/
test_yaml_language_server.py asks the real yaml-language-server the same questions
where it is installed."""

import json
import pathlib

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schema" / "democ.schema.json").read_text())


def catalog_names(file, section):
    return set(yaml.safe_load((ROOT / "catalog" / file).read_text())[section])


def resolve(node):
    """The schemas that apply at `node`: $refs followed, anyOf/oneOf branches spread."""
    if "$ref" in node:
        name = node["$ref"].removeprefix("#/$defs/")
        merged = {k: v for k, v in node.items() if k != "$ref"}
        return resolve(SCHEMA["$defs"][name]) + ([merged] if merged else [])
    out = [node]
    for key in ("anyOf", "oneOf"):
        for b in node.get(key, []):
            out.extend(resolve(b))
    return out


def at(path, doc=None):
    """The schemas at `path` (keys; `*` for any map key or list item). `doc` is the
    mapping being edited at the end of the path, to pick `oneOf` branches by `const`."""
    nodes = resolve(SCHEMA)
    for step in path:
        nxt = []
        for n in nodes:
            if step == "*":
                for key in ("additionalProperties", "items"):
                    if isinstance(n.get(key), dict):
                        nxt.extend(resolve(n[key]))
            elif step in n.get("properties", {}):
                nxt.extend(resolve(n["properties"][step]))
        nodes = nxt
    if doc:
        def fits(n):
            props = n.get("properties", {})
            return all("const" not in props.get(k, {}) or props[k]["const"] == v for k, v in doc.items())
        nodes = [n for n in nodes if fits(n)]
    return nodes


def values(path):
    out = set()
    for n in at(path):
        out.update(v for v in n.get("enum", []) if isinstance(v, str))
        if "const" in n:
            out.add(n["const"])
        out.update(v for v in n.get("examples", []) if isinstance(v, str))
    return out


def keys(path, doc=None):
    out = set()
    for n in at(path, doc):
        out.update(n.get("properties", {}))
    return out


def test_model_completes_every_catalog_switch():
    offered = values(["switches", "*", "model"])
    assert catalog_names("switches.yaml", "switches") <= offered
    assert {"arista-7060dx5-64s", "dell-z9432f-on", "nvidia-sn5600", "edgecore-as9716-32d"} <= offered


def test_optic_completes_every_catalog_optic():
    expected = catalog_names("optics.yaml", "optics")
    assert expected <= values(["links", "*", "optic"])
    assert expected <= values(["links", "*", "optic_b"])
    assert expected <= values(["wan", "*", "optic"])
    assert {"400gbase-dr4", "400zr", "800g-dr8"} <= values(["links", "*", "optic"])


def test_host_parts_complete_from_the_catalog():
    assert catalog_names("chassis.yaml", "chassis") <= values(["hosts", "*", "chassis"])
    assert catalog_names("cpus.yaml", "cpus") <= values(["hosts", "*", "cpu"])
    assert catalog_names("nics.yaml", "nics") <= values(["hosts", "*", "nics", "*", "model"])
    assert catalog_names("drives.yaml", "drives") <= values(["hosts", "*", "nvme", "*", "model"])


def test_wan_fields_follow_the_kind():
    otn = keys(["wan", "*"], {"kind": "otn"})
    dark = keys(["wan", "*"], {"kind": "dark-fiber"})
    circuit = keys(["wan", "*"], {"kind": "circuit"})
    # An OTN link's `optic:` is the switch ports' (the client runs' default): offered;
    # the fiber plant belongs to the client runs (`client_a`, `client_b`), not the WAN.
    assert {"client", "optic", "client_a", "client_b"} <= otn
    assert not {"splices", "fiber", "capacity"} & otn
    assert {"optic", "splices", "connectors", "fiber", "length_km"} <= dark and "client" not in dark
    assert {"capacity", "provisioning"} <= circuit and "optic" not in circuit
    assert values(["wan", "*", "kind"]) == {"dark-fiber", "otn", "circuit"}


def test_no_null_is_offered():
    assert "null" not in json.dumps(SCHEMA)
    assert None not in values(["links", "*", "media"])

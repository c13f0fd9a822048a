"""A config_db.json (tables of rows keyed `a|b`, every value a string) as the RFC 7951
JSON data tree SONiC's YANG models describe, the way SONiC's sonic-yang-mgmt translates
it before libyang validates it: a row key split into the list's key leaves, a value
typed by its leaf (numbers, booleans, leaf-lists), a table of fixed rows
(DEVICE_METADATA's `localhost`) as containers, a map row (DSCP_TO_TC_MAP's `"46": "3"`)
as the entries of the list's inner list.
"""

from __future__ import annotations

import libyang

from .models import Models, Table

_INTS = {
    libyang.Type.INT8, libyang.Type.INT16, libyang.Type.INT32,
    libyang.Type.UINT8, libyang.Type.UINT16, libyang.Type.UINT32,
}


class ConvertError(ValueError):
    """A table or row the models have no place for."""


def _typed(leaf: libyang.SLeaf, value):
    t = leaf.type()
    base = t.base()
    if isinstance(value, str):
        if base in _INTS and value.lstrip("-").isdigit():
            return int(value)
        if base == libyang.Type.BOOL and value in ("true", "false"):
            return value == "true"
        if base == libyang.Type.UNION and value.lstrip("-").isdigit():
            if any(m.base() in _INTS for m in t.union_types()):
                return int(value)
    return value


def _leaves(node) -> dict[str, libyang.SNode]:
    return {c.name(): c for c in node.children()}


def _fields(node, row: dict, where: str) -> dict:
    out = {}
    children = _leaves(node)
    inner = [c for c in children.values() if isinstance(c, libyang.SList)]
    for name, value in row.items():
        child = children.get(name)
        if isinstance(child, libyang.SLeaf):
            out[name] = _typed(child, value)
        elif isinstance(child, libyang.SLeafList):
            items = value if isinstance(value, list) else str(value).split(",")
            out[name] = [_typed(child, v) for v in items]
        elif len(inner) == 1:
            # A map row: each field one entry of the inner list (key leaf, value leaf).
            lst = inner[0]
            keys = [k.name() for k in lst.keys()]
            vals = [c for c in lst.children() if isinstance(c, libyang.SLeaf) and c.name() not in keys]
            if len(keys) != 1 or len(vals) != 1:
                raise ConvertError(f"{where}: field `{name}` is not in the model")
            out.setdefault(lst.name(), []).append({keys[0]: name, vals[0].name(): _typed(vals[0], value)})
        else:
            raise ConvertError(f"{where}: field `{name}` is not in the model")
    return out


def _table(t: Table, name: str, rows: dict) -> dict:
    out: dict = {}
    for key, row in rows.items():
        where = f"{name}|{key}"
        if not isinstance(row, dict):
            raise ConvertError(f"{where}: a row is an object")
        if key in t.rows:
            out[key] = _fields(t.rows[key], row, where)
            continue
        parts = key.split("|")
        lst = t.lists.get(len(parts))
        if lst is None:
            raise ConvertError(f"{where}: the model keys {name} by {sorted(t.lists) or 'fixed rows'} parts")
        entry = {k.name(): _typed(k, v) for k, v in zip(lst.keys(), parts)}
        entry.update(_fields(lst, row, where))
        out.setdefault(lst.name(), []).append(entry)
    return out


def to_yang(models: Models, config_db: dict) -> dict:
    """The data tree of `config_db`, as RFC 7951 JSON."""
    tree: dict = {}
    for name, rows in config_db.items():
        t = models.tables.get(name)
        if t is None:
            raise ConvertError(f"table {name}: no SONiC YANG model defines it")
        if not isinstance(rows, dict):
            raise ConvertError(f"table {name}: not an object of rows")
        top = tree.setdefault(f"{t.module}:{t.container.name()}", {})
        top[name] = _table(t, name, rows)
    return tree

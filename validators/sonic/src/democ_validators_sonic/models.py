"""SONiC's YANG models loaded into one libyang context, and where each config_db table
lives in them.

The models are sonic-buildimage's src/sonic-yang-models (../shared/schemas/sonic-yang
beside democ's checkout, with its PROVENANCE): yang-models/*.yang as they are, and
yang-templates/*.yang.j2 rendered first, as SONiC's build does (`yang_model_type` other
than "cvl": the models sonic-cfggen and `config load` validate with).
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
import libyang

# Beside democ's checkout: <repo>/../shared/schemas/sonic-yang.
DEFAULT = Path(__file__).resolve().parents[4] / ".." / "shared" / "schemas" / "sonic-yang"


@dataclass
class Table:
    """A config_db table: its module and its lists (by number of key leaves) or, for
    tables of fixed rows (DEVICE_METADATA's `localhost`), its containers by name."""

    module: str
    container: libyang.SContainer
    lists: dict[int, libyang.SList] = field(default_factory=dict)
    rows: dict[str, libyang.SContainer] = field(default_factory=dict)


class Models:
    """Every SONiC model, compiled, and the tables they define."""

    def __init__(self, root: Path | None = None):
        root = Path(root or DEFAULT).resolve()
        models = root / "yang-models"
        if not models.is_dir():
            raise FileNotFoundError(f"no SONiC YANG models at {models}")
        self._tmp = tempfile.TemporaryDirectory(prefix="democ-sonic-yang-")
        rendered = Path(self._tmp.name)
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(root / "yang-templates")))
        for t in sorted((root / "yang-templates").glob("*.yang.j2")):
            text = env.get_template(t.name).render(yang_model_type="py")
            (rendered / t.name.removesuffix(".j2")).write_text(text)
        self.ctx = libyang.Context(f"{models}:{rendered}")
        names = sorted({p.name.removesuffix(".yang") for d in (models, rendered) for p in d.glob("*.yang")})
        for name in names:
            self.ctx.load_module(name)
        self.tables: dict[str, Table] = {}
        for mod in self.ctx:
            for top in mod.children():
                if not isinstance(top, libyang.SContainer):
                    continue
                for c in top.children():
                    if isinstance(c, libyang.SContainer):
                        self.tables.setdefault(c.name(), self._table(mod.name(), top, c))

    @staticmethod
    def _table(module: str, top: libyang.SContainer, c: libyang.SContainer) -> Table:
        t = Table(module, top)
        for child in c.children():
            if isinstance(child, libyang.SList):
                t.lists.setdefault(len(list(child.keys())), child)
            elif isinstance(child, libyang.SContainer):
                t.rows[child.name()] = child
        return t

    def close(self) -> None:
        self.ctx.destroy()
        self._tmp.cleanup()

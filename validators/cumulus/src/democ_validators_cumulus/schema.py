"""NVIDIA's NVUE object model of one Cumulus Linux release (PyPI `nvueschema`), made
strict: the generated Pydantic models ignore keys they do not know, so a misspelt key
would pass; here every model forbids them."""

from __future__ import annotations

import importlib
import inspect
from functools import cache

from pydantic import BaseModel

# The release democ writes for (templates/cumulus/vendor.yaml).
RELEASE = "5.14"


@cache
def model(release: str = RELEASE) -> type[BaseModel]:
    """The root model (`NvueConfig`) of `release`, every model of it strict."""
    mod = importlib.import_module("nvueschema.models.v" + release.replace(".", "_"))
    # The module defines each model before the ones that hold it: rebuilt in that
    # order, a parent's schema takes its children's strict ones.
    classes = [c for c in vars(mod).values()
               if inspect.isclass(c) and issubclass(c, BaseModel) and c.__module__ == mod.__name__]
    for c in classes:
        c.model_config["extra"] = "forbid"
        c.model_rebuild(force=True)
    return mod.NvueConfig


@cache
def interface_name(release: str = RELEASE) -> str:
    """NVUE's pattern for interface names (`swp1s0`, `bond10`, `vlan1000`, `eth0`, `lo`)."""
    mod = importlib.import_module("nvueschema.models.v" + release.replace(".", "_"))
    for meta in mod.InterfaceName.__metadata__:
        pattern = getattr(meta, "pattern", None)
        if pattern is None:
            pattern = next((getattr(m, "pattern", None) for m in getattr(meta, "metadata", [])
                            if getattr(m, "pattern", None)), None)
        if pattern:
            return pattern
    raise LookupError("nvueschema's InterfaceName carries no pattern")

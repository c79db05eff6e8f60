"""warledger: the command-line interface and a small public API.

    from warledger import GameService, load_script, run_script

The names are imported when first used, so `warledger --help` (which imports
this package) does not load the game service (docs/performance.md, cold start).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from replay.service import GameService
    from warledger.script import load_script, run_script

__all__ = ["GameService", "load_script", "run_script"]

_HOMES = {"GameService": "replay.service", "load_script": "warledger.script",
          "run_script": "warledger.script"}


def __getattr__(name: str) -> Any:
    """The public names, imported on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'warledger' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)

"""Canonical JSON: the one byte form every hash, view file and `--json` output uses.

Its own module, importing orjson only, so a command printing figures as JSON
(`warledger stats --json`) does not load the game's models (docs/performance.md, cold start).
"""

from __future__ import annotations

from typing import Any

import orjson


def canonical_json(data: Any) -> bytes:
    """Sorted-key JSON bytes: identical for identical data, on every backend."""
    return orjson.dumps(data, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2)

"""Infinity N4 test scenes: a 48" table, players red (active first) and blue.

Imported by the tests as `n4_scene` (a unique module name).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

Scene = Callable[..., dict[str, Any]]
Steps = Sequence[dict[str, Any]]


def trooper(trooper_id: str, owner: str, x: float, y: float, facing: float = 90.0,
            **fields: Any) -> dict[str, Any]:
    """A trooper entry of a script (1" base, MOV 4-4, LI unless given)."""
    return {"id": trooper_id, "owner": owner, "x": x, "y": y, "facing": facing,
            "mov": [4, 4], "base": 1, "type": "LI", **fields}


def wall(wall_id: str, x0: float, y0: float, x1: float, y1: float,
         kind: str = "blocking") -> dict[str, Any]:
    """A rectangular terrain piece."""
    return {"id": wall_id, "kind": kind,
            "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}


def script(units: Sequence[dict[str, Any]], steps: Steps, *, terrain: Sequence[
        dict[str, Any]] = (), variant: str | None = None,
        options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A script in the orders phase of red's first turn, then `steps`."""
    return {
        "ruleset": "infinity-n4",
        "variant": variant,
        "board": {"width": 48, "height": 48},
        "terrain": list(terrain),
        "players": ["red", "blue"],
        "units": list(units),
        "options": options or {},
        "steps": [{"by": "red", "do": "next_phase"}, *steps],
    }


def last(result: dict[str, Any]) -> dict[str, Any]:
    """The outcome of the scene's last step."""
    return dict(result["steps"][-1])


def cautious(trooper_id: str, *points: tuple[float, float], by: str = "red") -> dict[str, Any]:
    """A `cautious_move` step."""
    return {"by": by, "do": "cautious_move", "trooper": trooper_id,
            "path": [list(p) for p in points]}


def move(trooper_id: str, *points: tuple[float, float], by: str = "red") -> dict[str, Any]:
    """A `move` step."""
    return {"by": by, "do": "move", "trooper": trooper_id, "path": [list(p) for p in points]}


def aro(trooper_id: str, skill: str = "shoot", by: str = "blue") -> dict[str, Any]:
    """An `aro` step."""
    return {"by": by, "do": "aro", "trooper": trooper_id, "skill": skill}


def pass_(trooper_id: str, by: str = "blue") -> dict[str, Any]:
    """A `pass` step."""
    return {"by": by, "do": "pass", "trooper": trooper_id}

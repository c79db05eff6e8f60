"""Scenes for the T9A Ambush tests: a script builder and the usual units.

Source of the layout: the Ambush figure (AMB-29…34), on a 72" × 48" board with
an impassable rock near the bottom edge.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

Step = dict[str, Any]
#: The `t9a` fixture: run units and steps from the start of Deployment; the CONTRACT result.
Scene = Callable[..., dict[str, Any]]
#: The `play` fixture: run a script dict; the CONTRACT result.
Play = Callable[[dict[str, Any]], dict[str, Any]]

ROCK = {"id": "rock", "kind": "impassable",
        "polygon": [[11, 0.8], [13, 0.8], [13, 2.3], [11, 2.3]]}


def unit(uid: str, owner: str = "red", **fields: Any) -> dict[str, Any]:
    """A 4 × 2 unit of 1" bases (8 models)."""
    return {"id": uid, "owner": owner, "files": 4, "ranks": 2, "base": [1, 1], **fields}


def ambusher(uid: str = "red-scouts", owner: str = "red", ambush: str = "Board Edge",
             **fields: Any) -> dict[str, Any]:
    """A unit with Ambush (X), waiting to deploy."""
    return unit(uid, owner, **{"status": "reserve", "rules": {"ambush": ambush}, **fields})


def character(uid: str = "red-hero", owner: str = "red", ambush: str | None = "Board Edge",
              **fields: Any) -> dict[str, Any]:
    """An Attachable Model (a single-model character), waiting to deploy."""
    rules: list[Any] = ["attachable", *([{"ambush": ambush}] if ambush else [])]
    return {"id": uid, "owner": owner, "status": "reserve", "files": 1, "ranks": 1,
            "base": [1, 1], "rules": rules, **fields}


def to_movement(turn: int, groups: int = 1) -> list[Step]:
    """From Deployment to red's Movement Phase of Game Turn `turn`; in the red Player
    Turns on the way (from 2) red's `groups` Ambush rolls all fail (1s)."""
    steps: list[Step] = [{"by": "red", "do": "next_phase"}]
    for game_turn in range(1, turn):
        if game_turn >= 2:
            steps.append({"by": "red", "do": "next_phase"})
            steps.append({"by": "red", "do": "roll_ambush", "dice": [1] * groups}
                         if game_turn < 5 else {"by": "red", "do": "roll_ambush"})
        steps += [{"by": "red", "do": "end_turn"}, {"by": "blue", "do": "end_turn"}]
    steps.append({"by": "red", "do": "next_phase"})
    return steps


def arrive(uid: str = "red-scouts", point: Sequence[float] = (36, 0), x: float = 36,
           y: float = 2.5, facing: float = 90, **more: Any) -> Step:
    """Red places a unit from Ambush (default: the legal figure placement)."""
    return {"by": "red", "do": "arrive", "unit": uid, "point": list(point), "x": x, "y": y,
            "facing": facing, **more}


def script(units: Sequence[dict[str, Any]], steps: Sequence[Step],
           terrain: Sequence[dict[str, Any]] = (ROCK,), seed: int = 0) -> dict[str, Any]:
    """A T9A script dict for red and blue."""
    return {"ruleset": "t9a", "seed": seed, "board": {"width": 72, "height": 48},
            "terrain": list(terrain), "players": ["red", "blue"], "units": list(units),
            "steps": list(steps)}


def last(result: dict[str, Any]) -> dict[str, Any]:
    """The outcome of the last step."""
    return dict(result["steps"][-1])

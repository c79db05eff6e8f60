"""Builders for Mage Knight test games: figures, cavalry units, scripts.

The standard picture: red's cavalry unit m1 (mount) + r1 (rider) stands at
(10, 10) facing +y; its mount's base is 1.25" wide and 2.5" deep, so its front
edge is at y = 11.25. Every dial has four clicks of speed 8, attack 9,
defense 16, damage 2 unless a test says otherwise; 2d6 + 9 hits defense 16 on 7+.
"""

from __future__ import annotations

from typing import Any

Script = dict[str, Any]
Result = dict[str, Any]


def click(speed: int = 8, attack: int = 9, defense: int = 16, damage: int = 2) -> dict[str, int]:
    """One click of a dial."""
    return {"speed": speed, "attack": attack, "defense": defense, "damage": damage}


def warrior(fid: str, owner: str = "red", x: float = 20, y: float = 20, **extra: Any) -> Script:
    """A warrior on a 1" round base."""
    return {"id": fid, "owner": owner, "x": x, "y": y, "facing": 90, "faction": "atlantis", **extra}


def rider(fid: str = "r1", owner: str = "red", **extra: Any) -> Script:
    """A warrior that can ride Battle Horses, with a rider attack bonus of 1."""
    return warrior(fid, owner, **{"rides": ["battle_horse"], "rider_bonus": 1, **extra})


def mount(
    fid: str = "m1",
    rider_id: str | None = "r1",
    owner: str = "red",
    x: float = 10,
    y: float = 10,
    **extra: Any,
) -> Script:
    """A Battle Horse (Independent unless told) carrying `rider_id`."""
    data = {
        "id": fid,
        "owner": owner,
        "kind": "mount",
        "x": x,
        "y": y,
        "facing": 90,
        "mount_type": "battle_horse",
        "intelligence": "pentagon",
        "faction": "orcs",
        "rider": rider_id,
        **extra,
    }
    return data


def cavalry(
    mount_id: str = "m1",
    rider_id: str = "r1",
    owner: str = "red",
    x: float = 10,
    y: float = 10,
    rider_extra: dict[str, Any] | None = None,
    **mount_extra: Any,
) -> list[Script]:
    """A cavalry unit: the mount and its rider."""
    return [
        mount(mount_id, rider_id, owner, x, y, **mount_extra),
        rider(rider_id, owner, **(rider_extra or {})),
    ]


def script(
    units: list[Script],
    steps: list[Script],
    *,
    terrain: list[Script] | None = None,
    options: dict[str, Any] | None = None,
) -> Script:
    """A mageknight-2 script on a 36" × 36" board, red first."""
    return {
        "ruleset": "mageknight-2",
        "seed": 3,
        "board": {"width": 36, "height": 36},
        "players": ["red", "blue"],
        "terrain": terrain or [],
        "options": options or {},
        "units": units,
        "steps": steps,
    }


def strip(x0: float, y0: float, x1: float, y1: float, name: str) -> Script:
    """A rectangle of impassable terrain from (x0, y0) to (x1, y1)."""
    return {"id": name, "kind": "impassable",
            "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}


TO_ACTION = {"by": "red", "do": "next_phase"}
"""Red's first step: from its command phase to its action phase."""


def step(result: Result, index: int = -1) -> Result:
    """One step of a result (the last by default)."""
    return dict(result["steps"][index])


def refused(result: Result, rule: str, index: int = -1) -> bool:
    """Was the step refused, citing `rule`, with a message and no events?"""
    got = step(result, index)
    return (
        not got["accepted"] and got["rule"] == rule and bool(got["message"]) and not got["events"]
    )


def message(result: Result, index: int = -1) -> str:
    """The message of one step."""
    return str(step(result, index)["message"])


def events(result: Result, index: int = -1) -> list[str]:
    """The event types of one step."""
    return list(step(result, index)["events"])

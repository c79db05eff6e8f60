"""Helpers for the 40k tests: a small army on a 48" board, run as a script."""

from __future__ import annotations

from typing import Any

#: red: an infantry squad with grenades, a vehicle, a character; blue: infantry
#: with smoke, a unit in reserves. Units are 10" apart unless a test moves them.
UNITS: list[dict[str, Any]] = [
    {"id": "r1", "owner": "red", "x": 10, "y": 10, "models": 10,
     "keywords": ["infantry", "grenades"]},
    {"id": "r2", "owner": "red", "x": 20, "y": 10, "models": 1, "wounds": 10,
     "toughness": 9, "move": 10, "keywords": ["vehicle"]},
    {"id": "r3", "owner": "red", "x": 30, "y": 10, "models": 1, "wounds": 5,
     "keywords": ["infantry", "character"]},
    {"id": "b1", "owner": "blue", "x": 10, "y": 20, "models": 10,
     "keywords": ["infantry", "smoke"]},
    {"id": "b2", "owner": "blue", "status": "reserve", "models": 5,
     "keywords": ["infantry"]},
    {"id": "b3", "owner": "blue", "x": 30, "y": 30, "models": 5, "keywords": ["infantry"]},
]

def script(steps: list[dict[str, Any]], *, cp: int = 3, units: list[dict[str, Any]] | None = None,
           catalogs: list[Any] | None = None, seed: int = 1,
           terrain: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A w40k-10 script with the standard army."""
    options: dict[str, Any] = {"cp": cp}
    if catalogs is not None:
        options["catalogs"] = catalogs
    return {
        "ruleset": "w40k-10",
        "seed": seed,
        "board": {"width": 48, "height": 48},
        "terrain": terrain or [],
        "players": ["red", "blue"],
        "units": units if units is not None else UNITS,
        "options": options,
        "steps": steps,
    }


def step(result: dict[str, Any], index: int) -> dict[str, Any]:
    """One step of a result."""
    return dict(result["steps"][index])


def refused(result: dict[str, Any], index: int) -> str | None:
    """The rule that refused step `index` (None if it was accepted)."""
    s = step(result, index)
    return None if s["accepted"] else str(s["rule"])


def units(**changes: dict[str, Any]) -> list[dict[str, Any]]:
    """The standard army with some units' fields changed (`units(b1={"y": 17})`)."""
    return [{**u, **changes.get(str(u["id"]), {})} for u in UNITS]


NEXT = {"by": "red", "do": "next_phase"}
PASS_BLUE = {"by": "blue", "do": "pass_stratagem"}
#: red's r1 shoots at blue's b1: the window for Go to Ground and Smokescreen opens.
SHOOT_B1 = {"by": "red", "do": "shoot", "unit": "r1", "target": "b1"}
GROUND_B1 = {"by": "blue", "do": "use_stratagem", "stratagem": "go-to-ground",
             "targets": ["b1"]}
#: From red's Command phase to red's Shooting phase (blue passes Rapid Ingress).
TO_RED_SHOOTING: list[dict[str, Any]] = [NEXT, NEXT, PASS_BLUE]
#: From red's Command phase to red's Charge phase.
TO_RED_CHARGE: list[dict[str, Any]] = [*TO_RED_SHOOTING, NEXT]
#: From red's Command phase to red's Fight phase.
TO_RED_FIGHT: list[dict[str, Any]] = [*TO_RED_SHOOTING, NEXT, NEXT]


def codex(*entries: dict[str, Any]) -> dict[str, Any]:
    """An inline codex catalog with these stratagems."""
    return {"source": "Codex: Test", "stratagems": list(entries)}


def proactive(sid: str, phase: str = "shooting", side: str = "friendly",
              **restrictions: Any) -> dict[str, Any]:
    """A 1CP codex stratagem used in your `phase`, targeting one unit; effect recorded."""
    entry: dict[str, Any] = {
        "id": sid, "name": sid.replace("-", " ").title(), "category": "battle_tactic", "cp": 1,
        "when": {"phases": [phase], "turn": "yours"},
        "target": {"side": side},
        "effect": {"kind": "record", "text": "recorded"},
    }
    if restrictions:
        entry["restrictions"] = restrictions
    return entry

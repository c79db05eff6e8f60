"""Probes for hidden ids: every command a player may send, naming a unit hidden from
them, in games of every rule set (principle 5, INTERPRETATIONS CORE-OWNER).

Each rule set has one small game, twice: in game A, blue holds a unit `spy` in
Hidden Deployment; in game B the same unit has another id (`spy-b`), place and
facing, so for red `spy` names no unit at all. Red plays the same steps in both
(positions: red's turn and next phase, blue's turn, an undo request each way, a
reaction window red answers where the rule set has one, the game over). Then red
sends, in each position, every command type of the rule set's command registry
with `spy` in each of its text fields in turn (its other fields filled in from the
command's JSON Schema). Whatever red is answered in game A must be byte-identical
to the answer in game B: for red, a hidden unit and no unit are the same thing.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from domain.commands import Command
from domain.ruleset import find_ruleset

PROBER, OWNER = "red", "blue"
SPY = "spy"
#: What fills a required text field that is not probed: red's own unit.
OWN = "r1"

HIDDEN = {"id": SPY, "owner": OWNER, "conditions": ["hidden_deployment"]}


def games_of_engine_version_1(monkeypatch: Any) -> None:
    """Start games as the engine's rules version 1 did: from version 2 a hidden
    condition needs its rule set's rules (CORE-HIDDEN-RULES), so outside Infinity a
    hidden unit exists only in games stored before it, which must keep its secret
    as well."""
    import domain.rules_version

    monkeypatch.setattr(domain.rules_version, "ENGINE_CHANGES", ())

#: One set-up per rule set: red's `r1`, blue's `b1` (visible) and blue's hidden `spy`.
SETUPS: dict[str, dict[str, Any]] = {
    "infinity-n4": {
        "board": {"width": 48, "height": 48},
        "units": [
            {"id": OWN, "owner": PROBER, "x": 10, "y": 10, "facing": 90},
            {"id": "b1", "owner": OWNER, "x": 10, "y": 30, "facing": 270},
            {**HIDDEN, "x": 40, "y": 44, "facing": 270},
        ],
    },
    "t9a": {
        "board": {"width": 72, "height": 48},
        "units": [
            {"id": OWN, "owner": PROBER, "x": 20, "y": 6, "facing": 90},
            {"id": "b1", "owner": OWNER, "x": 30, "y": 42, "facing": 270},
            {**HIDDEN, "x": 60, "y": 40, "facing": 270},
        ],
    },
    "w40k-10": {
        "board": {"width": 48, "height": 48}, "options": {"cp": 4},
        "units": [
            {"id": OWN, "owner": PROBER, "x": 10, "y": 10, "facing": 90, "models": 5,
             "keywords": ["infantry"]},
            {"id": "b1", "owner": OWNER, "x": 10, "y": 20, "facing": 270},
            {**HIDDEN, "x": 40, "y": 40, "facing": 270},
        ],
    },
    "mageknight-2": {
        "board": {"width": 48, "height": 48},
        "units": [
            {"id": OWN, "owner": PROBER, "x": 10, "y": 10, "facing": 90},
            {"id": "b1", "owner": OWNER, "x": 10, "y": 20, "facing": 270},
            {**HIDDEN, "x": 40, "y": 40, "facing": 270},
        ],
    },
}

R, B = PROBER, OWNER
UNDO_BY_RED = [{"by": R, "do": "next_phase"}, {"by": R, "do": "request_undo", "steps": 1}]
BLUES_TURN = [{"by": R, "do": "end_turn"}]
UNDO_BY_BLUE = [*BLUES_TURN, {"by": B, "do": "next_phase"},
                {"by": B, "do": "request_undo", "steps": 1}]
#: Positions every rule set has, as red's and blue's steps from the set-up.
POSITIONS: dict[str, list[dict[str, Any]]] = {
    "red's turn": [],
    "red's next phase": [{"by": R, "do": "next_phase"}],
    "blue's turn": BLUES_TURN,
    "red's undo request": UNDO_BY_RED,
    "blue's undo request": UNDO_BY_BLUE,
    "game over": [{"by": R, "do": "end_game"}],
}
#: Positions of one rule set: a reaction window red answers, a phase of red's turn
#: deeper in.
MORE: dict[str, dict[str, list[dict[str, Any]]]] = {
    "infinity-n4": {"red's ARO window": [
        *BLUES_TURN, {"by": B, "do": "next_phase"},
        {"by": B, "do": "move", "trooper": "b1", "path": [[12, 28]]}]},
    "w40k-10": {
        "red's shooting phase": [{"by": R, "do": "next_phase"}, {"by": R, "do": "next_phase"}],
        "red's stratagem window": [
            *BLUES_TURN, {"by": B, "do": "next_phase"}, {"by": B, "do": "next_phase"},
            {"by": B, "do": "shoot", "unit": "b1", "target": OWN}]},
    "t9a": {"red's movement phase": [{"by": R, "do": "next_phase"},
                                     {"by": R, "do": "next_phase"}]},
}


def setup(ruleset: str, *, hidden_id: str = SPY) -> dict[str, Any]:
    """Game A's set-up (`hidden_id` = `spy`), or game B's (another id, place, facing)."""
    data = copy.deepcopy(SETUPS[ruleset])
    for unit in data["units"]:
        if unit["id"] == SPY and hidden_id != SPY:
            unit.update(id=hidden_id, x=unit["x"] - 3.5, y=unit["y"] - 1.25,
                        facing=(unit["facing"] + 90) % 360)
    return {"ruleset": ruleset, "seed": 5, "players": [PROBER, OWNER], **data}


def positions(ruleset: str) -> dict[str, list[dict[str, Any]]]:
    """Every position red is probed in, for this rule set. A rule set that starts in
    a pre-game phase (T9A's deployment) leaves it before blue's turn can come."""
    lead = [{"by": R, "do": "next_phase"}] if find_ruleset(ruleset).machine.before else []
    found = {**POSITIONS, **MORE.get(ruleset, {})}
    if find_ruleset(ruleset).reveals_at_game_end:
        # The end opens every unit to everyone (CORE-PRIVATE-AT-END): none is hidden.
        del found["game over"]
    return {name: steps if steps[:1] != BLUES_TURN else [*lead, *steps]
            for name, steps in found.items()}


@dataclass(frozen=True)
class Probe:
    """One command red sends: its type, the field holding `spy`, the step's data."""

    command: str
    field: str
    data: dict[str, Any]

    @property
    def name(self) -> str:
        return f"{self.command}.{self.field}"


def probes(ruleset: str) -> Iterator[Probe]:
    """Every command type of the rule set's registry (`Ruleset.command_types`), once
    per field that takes text, with `spy` there and the rest filled in."""
    for name, command_type in find_ruleset(ruleset).command_types.items():
        schema = command_type.model_json_schema()
        for field, spec in schema["properties"].items():
            if field in ("do", "by") or not takes_text(spec):
                continue
            data = filled(command_type, schema)
            data[field] = [SPY] if is_list(spec) else SPY
            yield Probe(name, field, data)


def filled(command_type: type[Command], schema: dict[str, Any]) -> dict[str, Any]:
    """The command's required fields, each with a plain value of its type."""
    name = command_type.model_fields["do"].default
    data: dict[str, Any] = {"by": PROBER, "do": name}
    for field in schema.get("required", []):
        if field != "by":
            data[field] = example(schema["properties"][field])
    return data


def example(spec: dict[str, Any]) -> Any:
    """A plain value a JSON Schema property accepts (text: red's own unit)."""
    if "anyOf" in spec:
        return example(next(s for s in spec["anyOf"] if s.get("type") != "null"))
    if "enum" in spec:
        return spec["enum"][0]
    kind = spec.get("type")
    if kind == "array":
        if "prefixItems" in spec:
            return [example(item) for item in spec["prefixItems"]]
        return [example(spec["items"])]
    values = {"string": OWN, "number": 1.0, "integer": max(1, spec.get("minimum", 1)),
              "boolean": True}
    return values[str(kind)]


def takes_text(spec: dict[str, Any]) -> bool:
    """Does a JSON Schema property take free text, or a list of texts?"""
    options = spec.get("anyOf", [spec])
    return any(
        (s.get("type") == "string" and "enum" not in s)
        or (s.get("type") == "array" and s.get("items", {}).get("type") == "string")
        for s in options)


def is_list(spec: dict[str, Any]) -> bool:
    return any(s.get("type") == "array" for s in spec.get("anyOf", [spec]))


def comparable(ruleset: str, answer: str) -> str:
    """An answer as compared: a probe that ends a game whose end opens its Private
    Information (CORE-PRIVATE-AT-END) is answered with the hash of a view that now shows
    every unit, by design; that hash is masked, and only that."""
    if find_ruleset(ruleset).reveals_at_game_end and "GameEnded" in answer:
        return re.sub(r'"view_hash": ?"[0-9a-f]{64}"', '"view_hash": "<opened>"', answer)
    return answer


RULE_SETS = sorted(SETUPS)

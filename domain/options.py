"""What a seat may do now: every command it may issue, each with its parameter domain,
asked of the same gate that decides (principle 8; CONTRACT "Options").

A rule set proposes *candidates* (`Wiring.offers`): the commands whose values its
data lists (a unit and the order it may take, a stratagem and a target, a skill).
The core adds its own (phases, turns, the game's end, undo, redo, consent). Each
candidate is then decided by `domain.gate.settle` on the gate's own copy of the
state, with dice that are never rolled: an option is a candidate the gate accepts
(or accepts up to its first die). Nothing here knows a rule, so an option cannot
disagree with a decision.

A geometric value (a path, a point, an arrival) cannot be listed. Its candidate
carries a `Geometric`: a probe value that lets the gate check everything else, the
constraint (the longest path, the edge, the footprint rule), a region (GeoJSON)
where one is cheap, and the rules still to check on the concrete value. The
candidate is offered if the gate accepts the probe, or refuses it only by one of
those rules.

Hidden information: candidates name only units the seat may know of (the gate
refuses the others as unknown ids, so they never become options), and the gate
decides a seat's command on what that seat may know (CORE-OWNER, principle 5).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from domain.commands import JUDGE
from domain.dice import DiceSource, Draw
from domain.errors import InputError, RuleViolation
from domain.gate import settle
from domain.history import History
from domain.state import GameState, known_to

#: The longest `request_undo` the options offer (`steps`: 1 to this many).
MAX_UNDO_OFFERED = 20


@dataclass(frozen=True)
class Geometric:
    """A geometric parameter of a candidate: its fields, a probe value for the gate,
    the constraint a value must meet, a region where cheap, and the checks that
    remain to be made on a concrete value."""

    #: The command's fields the value fills (e.g. ("x", "y"), ("path",)).
    fields: tuple[str, ...]
    #: What the value is: "point" (x and y), "path" (a list of points), "facing".
    shape: str
    #: Field values that let the gate check all but the geometry (e.g. stay put).
    probe: Mapping[str, Any]
    #: The constraint, as data (e.g. {"from": [x, y], "max_length": 6.0}).
    constraint: Mapping[str, Any]
    #: The rules a concrete value may still be refused by (clause IDs, CORE-*).
    remaining: tuple[str, ...]
    #: Where a value may lie (a GeoJSON geometry), when it is cheap to compute.
    region: Mapping[str, Any] | None = None
    #: How a point of the region becomes the fields' values (default: by `shape`, a
    #: point's x and y, or a path of that one point).
    value_of: Callable[[float, float], dict[str, Any]] | None = None

    def value_at(self, x: float, y: float) -> dict[str, Any]:
        """The fields' values for the point (x, y) of the region."""
        if self.value_of is not None:
            return self.value_of(x, y)
        if self.shape == "path":
            return {self.fields[0]: [[x, y]]}
        return dict(zip(self.fields, (x, y), strict=True))

    def as_data(self) -> dict[str, Any]:
        """As JSON: fields, shape, constraint, region, remaining checks."""
        return {"fields": list(self.fields), "shape": self.shape,
                "constraint": dict(self.constraint), "region": self.region,
                "remaining": list(self.remaining)}


@dataclass(frozen=True)
class Candidate:
    """A command a seat might issue: its fixed values, and its geometric one if any.

    `free`: optional fields that take any value of their type (a reason, a text).
    `details`: what the rule set says of it (a stratagem's cost, the CP left)."""

    command: Mapping[str, Any]
    geometric: Geometric | None = None
    free: tuple[str, ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Option:
    """An offered command: the candidate the gate accepted for this seat, now."""

    command: Mapping[str, Any]
    geometric: Geometric | None = None
    free: tuple[str, ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)
    #: The command as the gate read it (defaults filled in), less its loose fields.
    fixed: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def do(self) -> str:
        return str(self.command["do"])

    @property
    def loose(self) -> frozenset[str]:
        """The fields any value of whose domain may fill: geometric and free ones."""
        return frozenset((*self.free, *(self.geometric.fields if self.geometric else ())))

    def as_data(self) -> dict[str, Any]:
        """As JSON (CONTRACT "Options")."""
        data: dict[str, Any] = {"do": self.do, "command": dict(self.command)}
        if self.geometric is not None:
            data["geometry"] = self.geometric.as_data()
        if self.free:
            data["free"] = list(self.free)
        if self.details:
            data["details"] = dict(self.details)
        return data

    def matches(self, record: Mapping[str, Any]) -> bool:
        """Whether a command, as the gate reads it (`Command.record`), is this option
        with some value of its domain: the same fixed values, any loose ones."""
        return same_values(without(record, self.loose), self.fixed)


def without(record: Mapping[str, Any], loose: frozenset[str]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in loose}


def same_values(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Equal as JSON (tuples and lists alike)."""
    return bool(as_json(a) == as_json(b))


def as_json(value: Any) -> Any:
    """Tuples as lists, recursively (a step's data read from JSON has lists)."""
    if isinstance(value, Mapping):
        return {k: as_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [as_json(v) for v in value]
    return value


@dataclass(frozen=True)
class Options:
    """Everything a seat may do now, and where play stands as the seat's own view
    shows it (no step number: a player's view counts no step hidden from them)."""

    seat: str
    phase: str
    active_player: str | None
    window: str | None
    options: tuple[Option, ...]
    #: Reads a step's data as the gate does (the rule set's `parse_command`).
    parse: Callable[[dict[str, Any]], Any] | None = field(default=None, compare=False,
                                                          repr=False)

    def of_kind(self, do: str) -> list[Option]:
        return [o for o in self.options if o.do == do]

    def offers(self, command: Mapping[str, Any]) -> bool:
        """Whether `command` (a step's data) is one of the options, read as the gate
        reads it (defaults filled in)."""
        assert self.parse is not None
        record = self.parse(dict(command)).record()
        return any(o.matches(record) for o in self.options)

    def as_data(self) -> dict[str, Any]:
        """As JSON (CONTRACT "Options")."""
        return {"seat": self.seat, "phase": self.phase,
                "active_player": self.active_player, "window": self.window,
                "options": [o.as_data() for o in self.options]}


#: A rule set's candidates for a seat (`Wiring.offers`).
Offers = Callable[[GameState, str], Iterable[Candidate]]


class _Unrolled(DiceSource):
    """Dice for trying a candidate: none are rolled. The first die ends the trial
    as accepted (every check before it passed), so no option depends on a die
    not yet cast, and no trial can tell a player what the next die would be."""

    def draw(self, count: int, sides: int) -> list[Draw]:
        raise _Rolls


class _Rolls(Exception):
    """The candidate passed every check before its first die."""


class Trial:
    """Decides candidates for one seat in one position, writing nothing."""

    def __init__(self, ruleset: Any, state: GameState, history: History | None) -> None:
        self.ruleset = ruleset
        self.state = state
        self.history = history

    def verdict(self, data: Mapping[str, Any]) -> tuple[str | None, dict[str, Any]]:
        """None if the gate accepts `data` now (up to its first die), else the rule
        (a clause ID, CORE-* or INPUT) that refuses it; and the command as read."""
        record: dict[str, Any] = {}
        try:
            command = self.ruleset.parse_command(dict(data))
            record = command.record()
            settle(self.ruleset, self.state, command,
                   _Unrolled(0, self.state.dice_index), self.history)
        except RuleViolation as refusal:
            return refusal.rule, record
        except InputError:
            return "INPUT", record
        except _Rolls:
            return None, record
        return None, record

    def offered(self, candidate: Candidate) -> Option | None:
        """The option, if the gate accepts the candidate (its probe, for a geometric
        one: refused only by a rule left to check on the concrete value)."""
        geometric = candidate.geometric
        data = {**candidate.command, **(geometric.probe if geometric else {})}
        rule, record = self.verdict(data)
        if not record or (rule is not None and (
                geometric is None or rule not in geometric.remaining)):
            return None
        option = Option(candidate.command, geometric, candidate.free, candidate.details)
        return replace(option, fixed=without(record, option.loose))


def options(ruleset: Any, state: GameState, seat: str,
            history: History | None = None) -> Options:
    """Every command `seat` may issue now, through the gate (see the module's doc).
    `seat` is a player or the judge; anyone else may do nothing."""
    trial = Trial(ruleset, state, history)
    offered: list[Option] = []
    if seat in state.players or seat == JUDGE:
        seen: set[str] = set()
        for candidate in (*core_candidates(state, seat), *rule_set_candidates(
                ruleset, state, seat)):
            key = repr(sorted(as_json(candidate.command).items()))
            if key in seen:
                continue
            seen.add(key)
            option = trial.offered(candidate)
            if option is not None:
                offered.append(option)
        offered = undo_depths(trial, offered)
    window = state.reaction_window
    return Options(seat=seat, phase=state.phase,
                   active_player=state.active_player,
                   window=window.kind if window is not None else None,
                   options=tuple(offered), parse=ruleset.parse_command)


def rule_set_candidates(ruleset: Any, state: GameState, seat: str) -> Iterable[Candidate]:
    """The rule set's own candidates (its wiring's `offers`), for a player only."""
    wiring = getattr(ruleset, "wiring", None)
    offers: Offers | None = getattr(wiring, "offers", None)
    if offers is None or seat == JUDGE:
        return ()
    return offers(state, seat)


def core_candidates(state: GameState, seat: str) -> list[Candidate]:
    """The core's commands: phases, turns, the game's end, contested moves."""
    by = {"by": seat}
    found = [
        Candidate({"do": "next_phase", **by}),
        Candidate({"do": "end_turn", **by}, free=("result",)),
        Candidate({"do": "end_game", **by}, free=("reason", "result")),
        Candidate({"do": "request_undo", **by, "steps": 1}),
        Candidate({"do": "request_redo", **by}),
        Candidate({"do": "consent", **by, "accept": True}),
        Candidate({"do": "consent", **by, "accept": False}),
    ]
    if seat == JUDGE:
        found.append(Candidate({"do": "ruling", **by, "text": "a ruling"},
                               free=("text", "clause", "on_step")))
    return found


def undo_depths(trial: Trial, offered: list[Option]) -> list[Option]:
    """`request_undo` once per number of steps the gate accepts (1, 2, ... in order,
    up to the first it refuses, at most `MAX_UNDO_OFFERED`)."""
    result: list[Option] = []
    for option in offered:
        result.append(option)
        if option.do != "request_undo":
            continue
        for steps in range(2, MAX_UNDO_OFFERED + 1):
            deeper = trial.offered(Candidate({**option.command, "steps": steps}))
            if deeper is None:
                break
            result.append(deeper)
    return result


def known_units(state: GameState, seat: str) -> list[Any]:
    """The units `seat` may know of, in id order (a rule set's candidates name no
    other: principle 5)."""
    return [u for _, u in sorted(state.units.items())
            if known_to(u.owner, u.conditions, seat)]


def own_units(state: GameState, seat: str) -> list[Any]:
    """The seat's own units, in id order."""
    return [u for _, u in sorted(state.units.items()) if u.owner == seat]

"""What every rule set provides, and the registry that finds one by name.

A rule set is declared as data plus small hooks (python-chess variants,
OpenSpiel games): its state and unit types, its command types, its turn
machine, its handlers (one per command type) and its start-of-phase,
end-of-phase and end-of-game hooks. The shared decision gate is in
`domain.gate`; turn flow in `domain.turns`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError

from domain.apply import Applier
from domain.commands import CORE_COMMANDS, META_COMMANDS, Command
from domain.datafile import JSON_TYPES, is_plain, read_as, shape_problem
from domain.decision import Decision
from domain.errors import InputError, ScriptError
from domain.geometry import is_wholly_on_board, polygon_problem
from domain.limits import first_out_of_range, out_of_range_message
from domain.machine import TurnMachine
from domain.player_ids import players_problem, units_problem
from domain.rules_version import HIDDEN_NEEDS_RULES, RulesChange, at_least
from domain.state import GameState
from events.base import HIDDEN_CONDITIONS, Fact
from events.core import Board, GameStarted, TerrainPiece, UnitFielded
from events.results import GameMetadata
from events.rule_sets import rule_sets

Handler = Callable[[Decision, Any], None]


@dataclass(frozen=True)
class Wiring:
    """A rule set's wiring table: everything that plugs it into the core, named in
    one place (`domain/<package>/rules.py`), with no registration on import."""

    #: The function deciding each command type (besides the core ones).
    handlers: Mapping[type[Command], Handler]
    #: The function applying each of its fact types (`domain.apply.ApplierTable`).
    appliers: Mapping[type[Fact], Applier]
    #: Its fact types (`events/<package>.py`; legacy classes included).
    facts: tuple[type[Fact], ...]
    #: `module:function` drawing its board overlays (projections import the domain,
    #: never the other way, so the table names it; `projections.overlays`).
    overlays: str | None = None
    #: Its rules versions after the first, oldest first: each names the clauses whose
    #: verdicts it changes (`domain.rules_version`; a decide function gates the
    #: changed rule with `at_least`).
    rules_changes: tuple[RulesChange, ...] = ()
    #: The oldest of its versions whose rules the code still holds: a step decided
    #: under an older one cannot be decided again (`verify` says so).
    oldest_rules_version: int = 1
    #: The viewer's timeline marker of each of its fact types that marks one (a
    #: stratagem used, a casualty): `projections.viewer.markers_of`.
    markers: Mapping[type[Fact], str] = field(default_factory=dict)
    #: The terrain kinds a moving base may not enter (the viewer marks where a path
    #: first meets one: `projections.overlays`).
    movement_blockers: frozenset[str] = frozenset({"impassable", "blocking"})
    #: Its candidates for what a seat may do now (`domain.options.Offers`): the
    #: commands its data lists, each decided by the gate before it is offered.
    offers: Callable[[GameState, str], Iterable[Any]] | None = None


def facts_of(module: ModuleType) -> tuple[type[Fact], ...]:
    """The fact classes a facts module defines (its current and legacy ones)."""
    return tuple(
        value for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, Fact)
        and value.__module__ == module.__name__ and "type" in value.model_fields
        and isinstance(value.model_fields["type"].default, str)
    )


class Setup(BaseModel):
    """A new game's set-up, as a script or API call gives it."""

    model_config = ConfigDict(allow_inf_nan=False)

    ruleset: str
    variant: str | None = None
    seed: int = 0
    board: Board
    terrain: tuple[TerrainPiece, ...] = ()
    players: tuple[str, ...]
    units: tuple[dict[str, Any], ...] = ()
    options: dict[str, Any] = {}
    metadata: GameMetadata | None = None


class Ruleset:
    """Base of every rule set. Subclasses fill in the class attributes."""

    name: ClassVar[str]
    title: ClassVar[str]
    state_type: ClassVar[type[GameState]]
    machine: ClassVar[TurnMachine]
    #: Commands besides the core ones (`next_phase`, `end_turn`, `end_game`).
    commands: ClassVar[tuple[type[Command], ...]] = ()
    #: The last round; ending its last player turn ends the game.
    last_round: ClassVar[int]
    #: Options a script may set, with their defaults.
    default_options: ClassVar[dict[str, Any]] = {}
    #: The model that checks option values (None: names are checked, values not).
    options_model: ClassVar[type[BaseModel] | None] = None
    #: Variants of the rules a script may name (lower case), e.g. Infinity's `codeone`.
    variants: ClassVar[frozenset[str]] = frozenset()
    #: Options whose list entries may name data files (YAML/JSON). The script
    #: reader inlines them, read relative to the script, so rules never do I/O.
    file_options: ClassVar[tuple[str, ...]] = ()
    #: Whether what players keep secret opens to everyone once the game is over
    #: (from the end on, every view of every player shows every unit).
    reveals_at_game_end: ClassVar[bool] = False
    #: The hidden conditions (`events.base.HIDDEN_CONDITIONS`) the rule set has rules
    #: for: how a unit hides, acts and is revealed. Any other is refused at set-up
    #: (CORE-HIDDEN-RULES).
    hiding_rules: ClassVar[frozenset[str]] = frozenset()
    #: The rule set's rules version from which an end that opened its secrets is final:
    #: no step of the game is undone any more (CORE-PRIVATE-AT-END). None: never.
    secrets_final_from: ClassVar[int | None] = None
    #: The most points a player's result may score, and what the points are
    #: (docs/results.md; CORE-RESULT-POINTS).
    result_points_max: ClassVar[int] = 10_000
    result_points_name: ClassVar[str] = "points"

    #: The wiring table (None: a rule set that registers its handlers itself).
    wiring: ClassVar[Wiring | None] = None

    def __init__(self) -> None:
        self.handlers: dict[type[Command], Handler] = dict(
            self.wiring.handlers if self.wiring is not None else {})
        self.command_types: dict[str, type[Command]] = {
            c.model_fields["do"].default: c
            for c in (*CORE_COMMANDS, *META_COMMANDS, *self.commands)
        }

    @property
    def rules_changes(self) -> tuple[RulesChange, ...]:
        """Its rules versions after the first (its wiring table's)."""
        return self.wiring.rules_changes if self.wiring is not None else ()

    @property
    def oldest_rules_version(self) -> int:
        """The oldest of its versions whose rules the code still holds."""
        return self.wiring.oldest_rules_version if self.wiring is not None else 1

    # -- set-up -------------------------------------------------------------
    def start_phase(self) -> tuple[int, str]:
        """The round and phase the game starts in (a pre-game phase is round 0)."""
        if self.machine.before:
            return 0, self.machine.before[0]
        return 1, self.machine.phases[0]

    def initial_state(self, started: GameStarted) -> GameState:
        """The state a `GameStarted` fact creates (before any unit is fielded)."""
        from domain.apply import new_player_states

        round_, phase = self.start_phase()
        options = {**self.default_options, **started.options}
        return self.state_type(
            ruleset=started.ruleset,
            variant=started.variant,
            board=started.board,
            terrain=list(started.terrain),
            players=list(started.players),
            options=options,
            player_state=new_player_states(list(started.players), int(options.get("cp", 0))),
            round=round_,
            active_player=started.players[0],
            phase=phase,
            seed_commitment=started.seed_commitment,
            rules_version=dict(started.rules) if started.rules is not None else None,
        )

    def setup_facts(self, setup: Setup) -> list[Fact]:
        """The facts that field the script's units (after `GameStarted`).

        Each unit is validated by the rule set's unit model; a bad unit makes
        the whole script malformed (`ScriptError`).
        """
        facts: list[Fact] = []
        seen: dict[str, None] = {}  # the ids so far, in script order
        model = self.state_type.unit_model
        for index, raw in enumerate(setup.units):
            kept = sorted(set(raw) & model.kept_by_play) if isinstance(raw, dict) else []
            if kept:
                raise ScriptError(f"units[{index}]: {', '.join(kept)} is kept by the game as "
                                  "it is played; a script cannot set it")
            try:
                unit = read_as(model, raw)
            except ValidationError as error:
                raise ScriptError(f"units[{index}]: {first_error(error)}") from None
            except ValueError as error:
                raise ScriptError(f"units[{index}]: {error}") from None
            if unit.id in seen:
                raise ScriptError(f"units[{index}]: duplicate unit id {unit.id!r}")
            if unit.owner not in setup.players:
                raise ScriptError(f"units[{index}]: owner {unit.owner!r} is not a player")
            seen[unit.id] = None
            facts.append(UnitFielded(unit=unit.model_dump(mode="json")))
        problem = units_problem(list(seen))
        if problem is not None:
            raise ScriptError(f"units: {problem}")
        return facts

    def check_setup(self, state: GameState) -> None:
        """Set-up rules every game keeps, checked once its units are fielded.

        Every unit on the table has a position and lies wholly on the board
        (RULINGS "Board edges", CORE-BOARD-EDGE), and is hidden only as the rule
        set has rules for (CORE-HIDDEN-RULES). Rule sets add their own (formations,
        overlapping bases) and call this. Raises `ScriptError`.
        """
        for unit in state.units.values():
            self.check_hiding(state, unit.id, getattr(unit, "conditions", ()))
            if unit.status != "on_table":
                continue
            if unit.x is None or unit.y is None:
                raise ScriptError(f"units: {unit.id} is on the table but has no x and y")
            shape = unit.footprint()
            if shape is not None and not is_wholly_on_board(
                shape, state.board.width, state.board.height
            ):
                raise ScriptError(
                    f"units: CORE-BOARD-EDGE: {unit.id} at ({unit.x:g}, {unit.y:g}) is not "
                    f"wholly on the {state.board.width:g}\" x {state.board.height:g}\" board"
                )

    def check_hiding(self, state: GameState, unit_id: str, conditions: Sequence[str]) -> None:
        """CORE-HIDDEN-RULES (engine rules version 2): a unit hidden from its opponent
        (`hidden_deployment`) in a rule set with no rules for hiding could never act
        in the open nor be revealed, and its opponent's record would skip every step
        about it (their step numbers would count what they may not know)."""
        if not at_least(state, engine=HIDDEN_NEEDS_RULES):
            return
        for condition in sorted(HIDDEN_CONDITIONS.intersection(conditions) - self.hiding_rules):
            raise ScriptError(f"units: CORE-HIDDEN-RULES: {unit_id} is given {condition}, "
                              f"which {self.name} has no rules for")

    def validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Reject unknown options and bad values (`options_model`); fill in defaults."""
        unknown = sorted(set(options) - set(self.default_options))
        if unknown:
            raise ScriptError(f"unknown option(s) for {self.name}: {', '.join(unknown)}")
        merged = {**self.default_options, **options}
        if self.options_model is None:
            return merged
        try:
            return self.options_model.model_validate(merged).model_dump(mode="json")
        except ValidationError as error:
            raise ScriptError(f"options.{first_error(error)}") from None

    def validate_variant(self, variant: str | None) -> str | None:
        """The variant as stored (lower case), or a `ScriptError` naming the known ones."""
        if variant is None:
            return None
        name = variant.strip().lower()
        if name not in self.variants:
            known = ", ".join(sorted(self.variants)) or "none"
            raise ScriptError(f"variant {variant!r} is not a variant of {self.name} "
                              f"(known: {known})")
        return name

    def validate_table(self, setup: Setup) -> None:
        """No number of the set-up is beyond what a game holds (`domain.limits`), no
        text longer than `domain.datafile.MAX_TEXT` (the API's set-ups are read by no
        file reader), and every terrain outline is a simple polygon with an area."""
        table = {
            "board": setup.board.model_dump(), "terrain": [t.model_dump() for t in setup.terrain],
            "units": list(setup.units), "options": setup.options,
        }
        found = first_out_of_range(table, "setup")
        if found:
            raise ScriptError(out_of_range_message(found))
        players = players_problem(setup.players)
        if players is not None:
            raise ScriptError(f"players: {players}")
        shape = shape_problem({**table, "players": list(setup.players)},
                              kinds=(*JSON_TYPES, tuple))
        if shape:
            raise ScriptError(f"setup: {shape}")
        ids: set[str] = set()
        for index, piece in enumerate(setup.terrain):
            problem = polygon_problem(piece.polygon)
            if problem:
                raise ScriptError(f"terrain[{index}] ({piece.id}): {problem}")
            if piece.id in ids:
                raise ScriptError(f"terrain[{index}]: the id {piece.id!r} is used twice "
                                  "(rulings name terrain by its id)")
            ids.add(piece.id)

    # -- commands -----------------------------------------------------------
    def parse_command(self, data: dict[str, Any]) -> Command:
        """Build a command from a step's data, or raise an INPUT error."""
        name = data.get("do")
        command_type = self.command_types.get(str(name))
        if command_type is None:
            known = ", ".join(sorted(self.command_types))
            raise InputError(f"unknown command {name!r} for {self.name}; known: {known}")
        plain = is_plain(data, tuples=True)  # then no number is out of range either
        found = None if plain else first_out_of_range(data, str(name))
        if found:
            raise InputError(out_of_range_message(found))
        try:
            return read_as(command_type, data, plain=plain)
        except ValidationError as error:
            raise InputError(f"bad {name} step: {first_error(error)}") from None
        except ValueError as error:
            raise InputError(f"bad {name} step: {error}") from None

    def handle(self, command_type: type[Command]) -> Callable[[Handler], Handler]:
        """Decorator: register the handler deciding one command type."""

        def register(func: Handler) -> Handler:
            self.handlers[command_type] = func
            return func

        return register

    # -- hooks (rule sets override what they need) ----------------------------
    def on_phase_start(self, d: Decision) -> None:
        """Automatic effects at the start of the phase now in `d.state`."""

    def on_phase_end(self, d: Decision) -> None:
        """Automatic effects as the phase in `d.state` ends."""

    def on_turn_end(self, d: Decision) -> None:
        """Automatic effects as the active player's turn ends (after its phase ends)."""

    def on_game_end(self, d: Decision) -> None:
        """End-of-game rules, before `GameEnded` is emitted."""

    def view_extra(self, state: GameState, as_player: str | None) -> dict[str, Any]:
        """Extra top-level fields for the state view (for `as_player`, or all)."""
        return {}

    def result_points(self, state: GameState) -> dict[str, int] | None:
        """The points the rules themselves score for a result (None: the players
        give them). A proposed result without points gets these; with points, they
        must be these (CORE-RESULT-POINTS)."""
        return None


#: Parts of a pydantic error location that name the validator, not the data.
_VALIDATOR_PART = re.compile(r"\[|^[a-z]+(?:-[a-z]+)+$")


def first_error(error: ValidationError) -> str:
    """One readable line from a pydantic error: where in the data, and what is wrong
    (without the validation library's own words for its validators and classes)."""
    first = error.errors()[0]
    where = ".".join(
        str(p) for p in first["loc"] if not _VALIDATOR_PART.search(str(p))) or "value"
    message = re.sub(r" or instance of \w+", "", first["msg"].removeprefix("Value error, "))
    return f"{where}: {message}"


RULESETS: dict[str, Ruleset] = {}
ALIASES: dict[str, str] = {}


def register(ruleset: Ruleset, *aliases: str) -> Ruleset:
    """Add a rule set to the registry under its name and aliases, and its appliers
    to the dispatch table (a fact type two rule sets apply differently is an error)."""
    from domain.apply import APPLIERS, CORE_APPLIERS

    appliers = dict(ruleset.wiring.appliers) if ruleset.wiring is not None else {}
    for fact_type, func in appliers.items():
        other = APPLIERS.get(fact_type)
        if other is not None and other is not func:
            raise TypeError(f"{fact_type.__name__} is applied by two rule sets")
    APPLIERS.update(CORE_APPLIERS)
    APPLIERS.update(appliers)
    RULESETS[ruleset.name] = ruleset
    for alias in aliases:
        ALIASES[alias] = ruleset.name
    return ruleset


def private_opened(ruleset: Ruleset, state: GameState) -> bool:
    """CORE-PRIVATE-AT-END: the game is over and its rule set opens to everyone what
    players kept private (Infinity's Private Information). From then on nothing is
    hidden from anyone: every view, export line, audit entry, stream event and
    answer judged on such a state shows every unit (what was hidden before the end
    stays out of a player's record, numbered and hashed for them as it was)."""
    return state.finished and ruleset.reveals_at_game_end


def find_ruleset(name: str) -> Ruleset:
    """The rule set for a script's `ruleset` value (e.g. `t9a`).

    Only the rule set named (by its name or package in `events.rule_sets`) is loaded
    first, so a command on one game does not load every rule set (docs/performance.md, cold start);
    any other name loads them all before it is looked up again."""
    if ALIASES.get(name, name) not in RULESETS:
        load_rulesets((name,))
    if ALIASES.get(name, name) not in RULESETS:
        load_rulesets()
    key = ALIASES.get(name, name)
    if key not in RULESETS:
        known = ", ".join(sorted(RULESETS))
        raise ScriptError(f"unknown ruleset {name!r}; known: {known}")
    return RULESETS[key]


def load_rulesets(names: Sequence[str] | None = None) -> None:
    """Register the rule sets of `events.rule_sets` (all, or those named): each
    rules module's `RULES`, with its aliases. Rule sets made elsewhere (tests,
    benchmarks) are registered by calling `register`."""
    import importlib

    for entry in rule_sets():
        if entry.name in RULESETS or (names is not None and entry.name not in names
                                      and entry.package not in names):
            continue
        ruleset = importlib.import_module(entry.rules_module).RULES
        register(ruleset, *entry.aliases)

"""Analytic projections: one SQL row per fact that analysts count.

The fold reads each stored event ONCE, as the JSON body it was stored as
(upcast, not re-validated: the log is hash-chained and `verify` validates
every fact), and turns it into rows of plain SQL tables (`TABLES`). What a
fact means often depends on where the game stood (the round and phase, the
player whose step it is, who owns a unit): that is kept per game in a small
*context* (`GameContext`), stored in the `games` row itself, so a projection
can stop after any batch and go on later, and a rebuild from scratch writes
exactly the rows an incremental catch-up writes.

A batch becomes rows in two phases: every insert first, then the updates in
log order (undone flags, late answers to a window). An update only touches
rows that existed when its event was recorded, and step numbers only grow,
so the two phases give the same tables as applying events one by one.

An event of a type the fold does not know stops the projection with
`UnknownFactError`; nothing of that batch is written.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import orjson

from domain.errors import ScriptError
from domain.ruleset import find_ruleset
from events.base import stored_as_current_since, upcast
from events.registry import every_fact_type

JsonDict = dict[str, Any]

#: Columns every per-step table ends with: flipped by undo (1) and redo (0).
UNDONE = "undone"


@dataclass(frozen=True)
class Table:
    """An analytic table: its name, columns (name, SQL type) and primary key."""

    name: str
    columns: tuple[tuple[str, str], ...]
    key: tuple[str, ...]
    #: Has an `undone` column that undo and redo flip, keyed by (game_id, step).
    per_step: bool = True
    #: The rule set whose facts alone make its rows (None: every rule set's).
    ruleset: str | None = None

    def create_sql(self) -> str:
        cols = ", ".join(f"{name} {kind}" for name, kind in self.columns)
        key = ", ".join(self.key)
        return f"create table if not exists {self.name} ({cols}, primary key ({key}))"

    def index_sql(self) -> str | None:
        if not self.per_step:
            return None
        return f"create index if not exists {self.name}_step on {self.name} (game_id, step)"

    def insert_sql(self) -> str:
        marks = ", ".join("?" for _ in self.columns)
        return f"insert into {self.name} ({', '.join(c for c, _ in self.columns)}) values ({marks})"

    @property
    def column_names(self) -> list[str]:
        return [name for name, _ in self.columns]


T, N, R = "text", "integer", "double precision"
WHERE = (("game_id", T), ("event_no", N), ("step", N))


def per_step(name: str, *columns: tuple[str, str], key: tuple[str, ...] = (),
             ruleset: str | None = None) -> Table:
    return Table(name, (*WHERE, *columns, (UNDONE, N)), ("game_id", "event_no", *key),
                 ruleset=ruleset)


GAMES = Table("games", (
    ("game_id", T), ("ruleset", T), ("variant", T), ("started", T), ("players", T),
    ("meta_event", T), ("meta_round", T), ("meta_table", T), ("mission", T),
    ("deployed_first", T), ("first_player", T), ("rounds", N), ("finished", N),
    ("end_reason", T), ("result", T), ("result_event", N), ("winner", T), ("draw", N),
    ("points", T),
    ("steps", N), ("undos", N), ("redos", N), ("rulings", N), ("events", N), ("ctx", T),
), ("game_id",), per_step=False)
PLAYERS = Table("players", (
    ("game_id", T), ("player", T), ("name", T), ("faction", T), ("seat", N),
    ("went_first", N), ("outcome", T), ("points", N),
), ("game_id", "player"), per_step=False)
STEPS = per_step("steps", ("round", N), ("phase", T), ("active_player", T), ("player", T),
                 ("command", T), ("args", T))
DICE = per_step("dice", ("die", N), ("round", N), ("phase", T), ("player", T), ("purpose", T),
                ("sides", N), ("value", N), ("source", T), ("subject", T), key=("die",))
CITATIONS = per_step("citations", ("round", N), ("player", T), ("rule", T), ("message", T))
CONTESTS = Table("contests", (
    ("game_id", T), ("event_no", N), ("step", N), ("rule", T), ("kind", T),
), ("game_id", "event_no", "step", "rule"), per_step=False)
AMBUSH = per_step("t9a_ambush", ("player", T), ("unit", T), ("game_turn", N), ("roll", N),
                  ("point_x", R), ("point_y", R), ("models", N), ("members", T),
                  ("scoring", T), ruleset="t9a")
AMBUSH_ROLLS = per_step("t9a_ambush_rolls", ("player", T), ("unit", T), ("game_turn", N),
                        ("roll", N), ("arrives", N), ruleset="t9a")
ARO = per_step("n4_aro", ("round", N), ("player", T), ("trooper", T), ("skill", T),
               ("generated", N), ("rule", T), ("reason", T), ("eligible", T), ("declared", T),
               ruleset="infinity-n4")
MK_ACTIONS = per_step("mk_actions", ("round", N), ("player", T), ("figure", T), ("action", T),
                      ruleset="mageknight-2")
MK_ATTACKS = per_step("mk_attacks", ("round", N), ("player", T), ("attacker", T),
                      ("attacker_owner", T), ("target", T), ("target_owner", T), ("kind", T),
                      ("roll", N), ("hit", N), ("damage", N), ruleset="mageknight-2")
MK_DISMOUNTS = per_step("mk_dismounts", ("round", N), ("player", T), ("rider", T), ("mount", T),
                        ("owner", T), ("cause", T), ruleset="mageknight-2")
STRATAGEMS = per_step("w40k_stratagems", ("round", N), ("turn", T), ("phase", T), ("player", T),
                      ("stratagem", T), ("name", T), ("cost", N), ("base_cost", N),
                      ("targets", T), ("trigger", T), ruleset="w40k-10")
CP = per_step("w40k_cp", ("round", N), ("phase", T), ("player", T), ("kind", T), ("amount", N),
              ("lost", N), ("source", T), ("balance", N), ruleset="w40k-10")

TABLES: tuple[Table, ...] = (GAMES, PLAYERS, STEPS, DICE, CITATIONS, CONTESTS, AMBUSH,
                             AMBUSH_ROLLS, ARO, MK_ACTIONS, MK_ATTACKS, MK_DISMOUNTS,
                             STRATAGEMS, CP)
TABLE_NAMES = tuple(t.name for t in TABLES)
#: The rule sets with tables of their own.
OWN_TABLES = frozenset(t.ruleset for t in TABLES if t.ruleset is not None)


def flipped_tables(ruleset: str) -> tuple[Table, ...]:
    """The per-step tables that can hold rows of a game of `ruleset`: the shared
    ones and its own (every one, for a rule set without tables of its own)."""
    return tuple(t for t in TABLES if t.per_step and (
        t.ruleset is None or t.ruleset == ruleset or ruleset not in OWN_TABLES))


def schema_statements(indexes: bool = True) -> list[str]:
    """Every `create table` and (unless told not to) `create index` of the analytic
    tables."""
    statements = [t.create_sql() for t in TABLES]
    return statements + index_statements() if indexes else statements


def index_statements() -> list[str]:
    """The secondary indexes (a rebuild into a new file creates them at its end)."""
    statements = [s for t in TABLES if (s := t.index_sql()) is not None]
    # `stats` picks confirmed results and filters games without reading each games
    # row's context (`ctx`, most of the row's bytes).
    statements.append("create index if not exists games_result on games "
                      "(result, game_id, ruleset, result_event, meta_event, started)")
    return statements


#: Each fact type's stored versions that read as its current version, oldest and
#: newest (the fold upcasts only facts stored before them).
AS_STORED: dict[str | None, tuple[int, int]] = {}


def current_versions() -> None:
    AS_STORED.update({name: (stored_as_current_since(cls), cls.class_version)
                      for name, cls in every_fact_type().items()})


class UnknownFactError(Exception):
    """The log holds a fact type the analytic projections do not know."""


def dumps(value: Any) -> str:
    """Sorted-key JSON text (identical for identical data)."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


@dataclass
class GameContext:
    """What the fold needs to know about one game between its events (small,
    bounded by the number of units, never by the game's length)."""

    game_id: str
    version: int = 0
    ruleset: str = ""
    variant: str | None = None
    started: str = ""
    players: list[str] = field(default_factory=list)
    meta: JsonDict = field(default_factory=dict)
    round: int = 0
    active: str | None = None
    phase: str | None = None
    by: str | None = None
    first_player: str | None = None
    rounds: int = 0
    finished: bool = False
    end_reason: str | None = None
    result: str | None = None
    result_event: int | None = None
    winner: str | None = None
    draw: bool = False
    points: dict[str, int] = field(default_factory=dict)
    steps: int = 0
    undos: int = 0
    redos: int = 0
    rulings: int = 0
    owners: dict[str, str] = field(default_factory=dict)
    ambush_rolls: dict[str, int | None] = field(default_factory=dict)
    arrivals: dict[str, int] = field(default_factory=dict)
    window: str | None = None
    aro: JsonDict | None = None
    #: The result facts that may still count, in log order: {step (of play it
    #: belongs to), at (its own step), answer (given by `consent`), event_no, status,
    #: winner, draw, points, undone}. The game's result is the last one not undone,
    #: so an undo by consent retracts a result and a redo brings back its proposal.
    results: list[JsonDict] = field(default_factory=list)

    def to_json(self) -> str:
        return dumps(self.__dict__)

    @classmethod
    def from_json(cls, text: str) -> GameContext:
        return cls(**orjson.loads(text))

    def game_row(self) -> tuple[Any, ...]:
        meta = self.meta
        return (
            self.game_id, self.ruleset, self.variant, self.started, dumps(self.players),
            meta.get("event"), meta.get("round"), meta.get("table"), meta.get("mission"),
            meta.get("deployed_first"), self.first_player, self.rounds, int(self.finished),
            self.end_reason, self.result, self.result_event, self.winner, int(self.draw),
            dumps(self.points),
            self.steps, self.undos, self.redos, self.rulings, self.version, self.to_json(),
        )

    def player_rows(self) -> list[tuple[Any, ...]]:
        infos = self.meta.get("players") or {}
        rows = []
        for seat, player in enumerate(self.players):
            info = infos.get(player) or {}
            rows.append((
                self.game_id, player, info.get("name"), info.get("faction"), seat,
                None if self.first_player is None else int(player == self.first_player),
                self.outcome(player), self.points.get(player),
            ))
        return rows

    def outcome(self, player: str) -> str | None:
        """win / loss / draw once a result is confirmed; None before."""
        if self.result != "confirmed":
            return None
        if self.draw:
            return "draw"
        return "win" if self.winner == player else "loss"


class Ev:
    """Where an event stands: its game, its number in the game's log, its step
    (a slotted class: one is made per event, and a frozen dataclass costs more)."""

    __slots__ = ("event_no", "game", "step")

    def __init__(self, game: GameContext, event_no: int, step: int) -> None:
        self.game = game
        self.event_no = event_no
        self.step = step


@dataclass
class Batch:
    """The rows a batch of events becomes: inserts per table, then updates in order."""

    inserts: dict[str, list[tuple[Any, ...]]] = field(default_factory=dict)
    updates: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)
    touched: dict[str, GameContext] = field(default_factory=dict)
    events: int = 0
    position: int = 0

    def add(self, table: Table, *row: Any) -> None:
        self.inserts.setdefault(table.name, []).append(row)

    def update(self, sql: str, *params: Any) -> None:
        self.updates.append((sql, params))


Handler = Callable[[Ev, JsonDict, Batch], None]
HANDLERS: dict[str, Handler] = {}
#: Facts that change nothing an analytic table counts (positions, bookkeeping).
NO_ROWS = frozenset({
    "SeedSealed", "T9AUnitDeployed", "AmbushDeclared", "AmbushJoinChosen", "AmbushRollsMade",
    "AmbushArrivalPostponed", "T9AMovesReset", "T9AUnitMoved", "T9ARemovedAsCasualty",
    "OrdersGenerated", "OrdersLost", "OrderSpent", "OrderStageReached", "TrooperMoved",
    "OrderCompleted", "TokensRemoved", "PlayerTurnEnded", "FigureMoved", "FacingChanged",
    "FigureDamaged", "FigureHealed", "DialReset", "FigureEliminated", "FigureRemovedFromGame",
    "RiderMounted", "RiderLost", "PushingChoiceMade", "ItemDropped", "ItemPickedUp",
    "FigureCaptured", "AbilityUsed", "FormationDeclared", "DarkAllianceUsed", "PoisonUsed",
    "ItemEquipped", "CostModifierGranted", "ConditionsGiven", "EffectRecorded",
    "StratagemEffectsEnded", "RollReplaced", "MortalWoundsRolled", "UnitArrived",
    "BattleShockTestsDue", "BattleShockRecovered", "BattleShockTested", "UnitMoved",
    "ShootingTargetSelected", "ChargeDeclared", "ChargeRollHeld", "ChargeRolled",
    "ChargeMoveEnded", "UnitFought",
    # The explicit facts of v2 logs: what appliers used to decide (undo depth, redo
    # stack, one-use modifiers, cancelled tests, carried riders and members, moves
    # counted): bookkeeping that no table counts.
    "CostModifiersUsed", "BattleShockTestsCancelled",
    "RiderCarried", "RiderTokensRemoved", "T9AMembersMoved", "T9AMoveCounted",
    # The rules versions play continues under (docs/rules-versions.md).
    "RulesVersionChanged",
})


def handles(*types: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        for name in types:
            HANDLERS[name] = handler
        return handler
    return register


def known_fact_types() -> frozenset[str]:
    """Every fact type the fold accepts."""
    return frozenset(HANDLERS) | NO_ROWS


@functools.cache
def facts_without_rows(ruleset: str) -> frozenset[str]:
    """The facts of a rule set with no analytic tables of its own (one an installed
    distribution adds: docs/extending.md): they count in no table, as `NO_ROWS` do,
    while its games, steps, dice and citations count as every game's. Empty for a
    rule set whose facts this module counts, so a new fact of it still stops the fold."""
    if ruleset in OWN_TABLES:
        return frozenset()
    try:
        wiring = find_ruleset(ruleset).wiring
    except ScriptError:
        return frozenset()
    if wiring is None:
        return frozenset()
    return frozenset(str(f.model_fields["type"].default) for f in wiring.facts)


# -- the game and its steps ---------------------------------------------------------------
@functools.cache
def start_of(ruleset: str) -> tuple[int, str | None]:
    """The round and phase a game of `ruleset` starts in (the rule set's own
    `start_phase`; round 0 and no phase for a rule set this process does not know)."""
    try:
        return find_ruleset(ruleset).start_phase()
    except ScriptError:
        return 0, None


@handles("GameStarted")
def _started(ev: Ev, fact: JsonDict, out: Batch) -> None:
    """The set-up's facts happen where the game starts: its first phase, the first
    player's (a 40k game's first Command phase CP come with the set-up)."""
    g = ev.game
    g.ruleset, g.variant, g.players = fact["ruleset"], fact.get("variant"), list(fact["players"])
    g.round, g.phase = start_of(g.ruleset)
    g.active = g.players[0] if g.players else None
    g.rounds = g.round
    if g.round >= 1:
        g.first_player = g.active


@handles("GameMetadataRecorded")
def _metadata(ev: Ev, fact: JsonDict, out: Batch) -> None:
    """Game metadata (docs/results.md): event, round, table, mission, who deployed
    first, names and factions."""
    ev.game.meta = {k: v for k, v in fact.items() if k != "type"}


@handles("UnitFielded")
def _fielded(ev: Ev, fact: JsonDict, out: Batch) -> None:
    unit = fact["unit"]
    ev.game.owners[str(unit.get("id"))] = str(unit.get("owner"))


@handles("AllegianceChanged")
def _allegiance(ev: Ev, fact: JsonDict, out: Batch) -> None:
    if fact.get("controller") is not None:
        ev.game.owners[fact["figure"]] = fact["controller"]


@handles("PhaseStarted")
def _phase(ev: Ev, fact: JsonDict, out: Batch) -> None:
    g = ev.game
    g.round, g.active, g.phase = fact["round"], fact["active_player"], fact["phase"]
    g.rounds = max(g.rounds, g.round)
    if g.first_player is None and g.round >= 1:
        g.first_player = g.active


@handles("StepTaken")
def _step(ev: Ev, fact: JsonDict, out: Batch) -> None:
    g = ev.game
    g.by = fact["by"]
    g.steps += 1
    command = fact["command"]
    args = {k: v for k, v in command.items() if k not in ("by", "do")}
    out.add(STEPS, g.game_id, ev.event_no, ev.step, g.round, g.phase, g.active, g.by,
            command.get("do"), dumps(args), 0)


@handles("GameEnded")
def _ended(ev: Ev, fact: JsonDict, out: Batch) -> None:
    ev.game.finished, ev.game.end_reason = True, fact["reason"]


@handles("ResultProposed")
def _result_proposed(ev: Ev, fact: JsonDict, out: Batch) -> None:
    _set_result(ev, "proposed", fact)


@handles("ResultConfirmed")
def _result_confirmed(ev: Ev, fact: JsonDict, out: Batch) -> None:
    """A result takes effect only when it is confirmed (docs/results.md)."""
    _set_result(ev, "confirmed", fact)


@handles("ResultRefused")
def _result_refused(ev: Ev, fact: JsonDict, out: Batch) -> None:
    g = ev.game
    _set_result(ev, "refused", {})
    out.add(CONTESTS, g.game_id, ev.event_no, ev.step, "", "result_refused")


def _set_result(ev: Ev, status: str, fact: JsonDict) -> None:
    """A result fact, kept with the step of play it belongs to: a proposal (and a
    judge's own confirmation) with its own step; an answer given by `consent`, which
    is no step of play, with the proposal's step, as an `answer` that an undo of that
    step undoes and a redo does not bring back (the proposal waits again)."""
    g = ev.game
    proposals = [r for r in g.results if r["status"] == "proposed" and not r["undone"]]
    step = ev.step if status == "proposed" or not proposals else proposals[-1]["step"]
    g.results.append({
        "step": step, "event_no": ev.event_no, "status": status, "answer": step != ev.step,
        "at": ev.step,
        "winner": fact.get("winner"), "draw": bool(fact.get("draw")),
        "points": {str(k): int(v) for k, v in (fact.get("points") or {}).items()},
        "undone": False,
    })
    _current_result(g)


def _current_result(g: GameContext) -> None:
    """The game's result: its last result fact that is not undone (none: no result)."""
    standing = [r for r in g.results if not r["undone"]]
    last = standing[-1] if standing else None
    if last is None:
        g.result, g.result_event, g.winner, g.draw, g.points = None, None, None, False, {}
        return
    g.result, g.result_event = last["status"], last["event_no"]
    g.winner, g.draw, g.points = last["winner"], last["draw"], dict(last["points"])


def _flip_results(out: Batch, g: GameContext, steps: list[int], undone: bool) -> None:
    """CORE-UNDO-CONSENT: an undo retracts the results its steps recorded (proposed,
    confirmed or refused: a refusal undone is no longer a contested result); a redo
    brings back what the redone steps themselves recorded, not the answers."""
    chosen = set(steps)
    flipped = [r for r in g.results if r["step"] in chosen and r["undone"] != undone]
    for record in flipped:
        record["undone"] = undone
        if record["status"] != "refused":
            continue
        if undone:
            out.update(f"delete from {CONTESTS.name} where game_id = ? and event_no = ? "
                       "and kind = 'result_refused'", g.game_id, record["event_no"])
        else:
            out.update(f"insert into {CONTESTS.name} (game_id, event_no, step, rule, kind) "
                       "values (?, ?, ?, '', 'result_refused')",
                       g.game_id, record["event_no"], record["step"])
    if undone:  # answers never come back; the steps that gave them count no more
        answered = sorted({r["at"] for r in flipped if r.get("answer") and "at" in r})
        if answered:
            _flip(out, g, answered, 1)
            g.steps -= len(answered)
        g.results = [r for r in g.results if not (r["undone"] and r.get("answer"))]
    if flipped:
        _current_result(g)


@handles("RedoStackCleared")
def _redo_cleared(ev: Ev, fact: JsonDict, out: Batch) -> None:
    """CORE-REDO-NOTHING: undone results can no longer come back."""
    ev.game.results = [r for r in ev.game.results if not r["undone"]]


@handles("StepsSettled")
def _settled(ev: Ev, fact: JsonDict, out: Batch) -> None:
    """CORE-UNDO-DEPTH: of the results of settled steps, only the last can still be the
    game's (the context stays bounded by the undo depth)."""
    g, settled = ev.game, set(fact["steps"])
    superseded = [r for r in g.results if r["step"] in settled and not r["undone"]][:-1]
    g.results = [r for r in g.results if not any(r is old for old in superseded)]


@handles("ClauseApplied")
def _cited(ev: Ev, fact: JsonDict, out: Batch) -> None:
    g = ev.game
    out.add(CITATIONS, g.game_id, ev.event_no, ev.step, g.round, g.by, fact["rule"],
            fact["message"], 0)
    aro = g.aro
    if (aro is not None and aro["skill"] == "cautious_move" and aro["step"] == ev.step
            and aro.get("rule") is None):
        aro["rule"] = fact["rule"]
        out.update(f"update {ARO.name} set rule = ?, reason = ? where game_id = ? and event_no = ?",
                   fact["rule"], fact["message"], g.game_id, aro["event_no"])


#: Rolls made by the owner of the unit they are rolled for, whichever step makes
#: them: a 40k charge held for Fire Overwatch is rolled in the step that closes the
#: defender's window, but it is the charger's roll (CORE-CHARGE, w40k rules
#: version 2). Every other roll is the rolling step's player's (a Grenade's dice
#: are rolled for the enemy unit by the player who used it).
ROLLED_BY_THE_SUBJECTS_OWNER = frozenset({"charge"})


@handles("DiceRolled")
def _dice(ev: Ev, fact: JsonDict, out: Batch) -> None:
    """A row per die, under the player who rolled it."""
    g = ev.game
    roller = g.owners.get(str(fact.get("subject")), g.by) \
        if fact["purpose"] in ROLLED_BY_THE_SUBJECTS_OWNER else g.by
    for die, value in enumerate(fact["values"]):
        out.add(DICE, g.game_id, ev.event_no, ev.step, die, g.round, g.phase, roller,
                fact["purpose"], fact.get("sides", 6), value, fact["source"],
                fact.get("subject"), 0)


# -- contested moves: undo, redo, rulings --------------------------------------------------
def _flip(out: Batch, g: GameContext, steps: list[int], undone: int) -> None:
    marks = ", ".join("?" for _ in steps)
    for table in flipped_tables(g.ruleset):
        out.update(f"update {table.name} set {UNDONE} = ? "
                   f"where game_id = ? and step in ({marks})", undone, g.game_id, *steps)


def _contest(out: Batch, ev: Ev, steps: list[int], kind: str) -> None:
    """A row per clause the contested steps cited (none when they cited nothing)."""
    marks = ", ".join("?" for _ in steps)
    out.update(
        f"insert into {CONTESTS.name} (game_id, event_no, step, rule, kind) "
        f"select distinct game_id, cast(? as integer), step, rule, cast(? as text) "
        f"from {CITATIONS.name} where game_id = ? and step in ({marks})",
        ev.event_no, kind, ev.game.game_id, *steps,
    )


def _restore(g: GameContext, restored: JsonDict) -> None:
    """Where the game stands after an undo or redo: the state it records."""
    g.round = restored.get("round", g.round)
    g.active = restored.get("active_player", g.active)
    g.phase = restored.get("phase", g.phase)
    g.rounds = g.round  # the rounds the game reached (undone rounds not among them)
    if g.round < 1:
        g.first_player = None
    g.finished = bool(restored.get("finished", g.finished))
    g.end_reason = restored.get("end_reason", g.end_reason)
    window = restored.get("reaction_window")
    g.window = window.get("kind") if isinstance(window, dict) else None
    for unit_id, unit in (restored.get("units") or {}).items():
        if isinstance(unit, dict) and unit.get("owner") is not None:
            g.owners[unit_id] = unit["owner"]


@handles("StepsUndone")
def _undone(ev: Ev, fact: JsonDict, out: Batch) -> None:
    """CORE-UNDO-CONSENT: the undone steps count no more (their rows stay, flagged `undone`)."""
    g, steps = ev.game, list(fact["steps"])
    g.undos += 1
    g.steps -= len(steps)
    _flip(out, g, steps, 1)
    _flip_results(out, g, steps, True)
    _flip_answers(out, g, steps, True)
    _contest(out, ev, steps, "undo")
    _restore(g, fact["restored"])


@handles("StepsRedone")
def _redone(ev: Ev, fact: JsonDict, out: Batch) -> None:
    g, steps = ev.game, list(fact["steps"])
    g.redos += 1
    g.steps += len(steps)
    _flip(out, g, steps, 0)
    _flip_results(out, g, steps, False)
    _flip_answers(out, g, steps, False)
    _contest(out, ev, steps, "redo")
    _restore(g, fact["restored"])


@handles("RequestRefused")
def _refused(ev: Ev, fact: JsonDict, out: Batch) -> None:
    _contest(out, ev, list(fact["steps"]), f"{fact['action']}_refused")


@handles("RulingRecorded")
def _ruling(ev: Ev, fact: JsonDict, out: Batch) -> None:
    g = ev.game
    g.rulings += 1
    out.add(CONTESTS, g.game_id, ev.event_no, fact.get("on_step") if fact.get("on_step") is not None
            else ev.step, fact.get("clause") or "", "ruling")


# -- reaction windows (Infinity AROs) -------------------------------------------------------
@handles("ReactionWindowOpened")
def _window_opened(ev: Ev, fact: JsonDict, out: Batch) -> None:
    g = ev.game
    g.window = fact["kind"]
    if fact["kind"] == "aro" and g.aro is not None:
        out.update(f"update {ARO.name} set generated = 1, eligible = ? "
                   "where game_id = ? and event_no = ?",
                   dumps(list(fact["eligible"])), g.game_id, g.aro["event_no"])


@handles("ReactionDeclared")
def _declared(ev: Ev, fact: JsonDict, out: Batch) -> None:
    g = ev.game
    if g.window == "aro" and g.aro is not None:
        g.aro["declared"][fact["by"]] = fact["answer"]
        g.aro.setdefault("answers", []).append(
            {"by": fact["by"], "answer": fact["answer"], "step": ev.step, "undone": False})
        _write_declared(out, g, g.aro)


def _write_declared(out: Batch, g: GameContext, aro: JsonDict) -> None:
    out.update(f"update {ARO.name} set declared = ? where game_id = ? and event_no = ?",
               dumps(aro["declared"]), g.game_id, aro["event_no"])


def _flip_answers(out: Batch, g: GameContext, steps: list[int], undone: bool) -> None:
    """CORE-UNDO-CONSENT: AROs declared in undone steps leave their skill's row (a
    redo brings them back); the skill's own step may stand."""
    aro, chosen = g.aro, set(steps)
    answers = [] if aro is None else aro.get("answers", [])
    flipped = [a for a in answers if a["step"] in chosen and a["undone"] != undone]
    if aro is None or not flipped:
        return
    for answer in flipped:
        answer["undone"] = undone
    aro["declared"] = {a["by"]: a["answer"] for a in answers if not a["undone"]}
    _write_declared(out, g, aro)


@handles("ReactionWindowClosed")
def _window_closed(ev: Ev, fact: JsonDict, out: Batch) -> None:
    ev.game.window = None


@handles("OrderSkillDeclared")
def _skill(ev: Ev, fact: JsonDict, out: Batch) -> None:
    """N4 CAU-10 / CAU-13: one row per skill declared; whether its ARO window opened,
    the clause that decided it, who was eligible and what each declared."""
    g = ev.game
    g.aro = {"event_no": ev.event_no, "step": ev.step, "skill": fact["skill"], "declared": {},
             "rule": None}
    out.add(ARO, g.game_id, ev.event_no, ev.step, g.round, g.by, fact["trooper"], fact["skill"],
            0, None, None, "[]", "{}", 0)


# -- The 9th Age: Ambush ---------------------------------------------------------------------
@handles("AmbushRollResolved")
def _ambush_roll(ev: Ev, fact: JsonDict, out: Batch) -> None:
    g = ev.game
    g.ambush_rolls[fact["unit"]] = fact.get("roll")
    out.add(AMBUSH_ROLLS, g.game_id, ev.event_no, ev.step, g.owners.get(fact["unit"]),
            fact["unit"], fact["game_turn"], fact.get("roll"), int(fact["arrives"]), 0)


@handles("UnitArrivedFromAmbush")
def _arrived(ev: Ev, fact: JsonDict, out: Batch) -> None:
    """AMB-09 / AMB-18: the arrival, with the roll that brought it and its Scoring."""
    g = ev.game
    unit, members = fact["unit"], list(fact.get("members") or [])
    g.arrivals[unit] = ev.event_no
    x, y = fact["point"]
    out.add(AMBUSH, g.game_id, ev.event_no, ev.step, fact["player"], unit, fact["game_turn"],
            g.ambush_rolls.get(unit), x, y, 1 + len(members), dumps(members), "kept", 0)


@handles("ScoringLost")
def _scoring_lost(ev: Ev, fact: JsonDict, out: Batch) -> None:
    """AMB-27: arriving in Game Turn 6 loses Scoring."""
    g = ev.game
    arrival = g.arrivals.get(fact["unit"])
    if arrival is not None:
        out.update(f"update {AMBUSH.name} set scoring = 'lost' where game_id = ? and event_no = ?",
                   g.game_id, arrival)


# -- Mage Knight ---------------------------------------------------------------------------
@handles("ActionAssigned")
def _action(ev: Ev, fact: JsonDict, out: Batch) -> None:
    g = ev.game
    out.add(MK_ACTIONS, g.game_id, ev.event_no, ev.step, g.round, g.by, fact["figure"],
            fact["action"], 0)


@handles("AttackResolved")
def _attack(ev: Ev, fact: JsonDict, out: Batch) -> None:
    g = ev.game
    out.add(MK_ATTACKS, g.game_id, ev.event_no, ev.step, g.round, g.by, fact["attacker"],
            g.owners.get(fact["attacker"]), fact["target"], g.owners.get(fact["target"]),
            fact["kind"], fact["roll"], int(fact["hit"]), fact["damage"], 0)


@handles("RiderDismounted")
def _dismounted(ev: Ev, fact: JsonDict, out: Batch) -> None:
    g = ev.game
    out.add(MK_DISMOUNTS, g.game_id, ev.event_no, ev.step, g.round, g.by, fact["rider"],
            fact["mount"], g.owners.get(fact["rider"]), fact["cause"], 0)


# -- Warhammer 40,000 ----------------------------------------------------------------------
@handles("StratagemUsed")
def _stratagem(ev: Ev, fact: JsonDict, out: Batch) -> None:
    g = ev.game
    out.add(STRATAGEMS, g.game_id, ev.event_no, ev.step, fact["round"], fact["turn"],
            fact["phase"], fact["player"], fact["stratagem"], fact["name"], fact["cost"],
            fact["base_cost"], dumps(list(fact["targets"])), fact.get("trigger"), 0)


@handles("CommandPointsGained")
def _cp_gained(ev: Ev, fact: JsonDict, out: Batch) -> None:
    g = ev.game
    out.add(CP, g.game_id, ev.event_no, ev.step, g.round, g.phase, fact["player"], "gained",
            fact["amount"], fact.get("lost", 0), fact["source"], fact["balance"], 0)


@handles("CommandPointsSpent")
def _cp_spent(ev: Ev, fact: JsonDict, out: Batch) -> None:
    g = ev.game
    out.add(CP, g.game_id, ev.event_no, ev.step, g.round, g.phase, fact["player"], "spent",
            fact["amount"], 0, fact["source"], fact["balance"], 0)


# -- the fold --------------------------------------------------------------------------------
ContextLoader = Callable[[str], "GameContext | None"]


class Fold:
    """Folds stored events into analytic rows, keeping game contexts in a bounded LRU
    (a context that falls out is read back from its `games` row when needed)."""

    def __init__(self, load: ContextLoader, capacity: int = 4096) -> None:
        self.load = load
        self.capacity = capacity
        self.contexts: OrderedDict[str, GameContext] = OrderedDict()

    def context(self, game_id: str) -> GameContext:
        found = self.contexts.get(game_id)
        if found is not None:
            self.contexts.move_to_end(game_id)
            return found
        context = self.load(game_id) or GameContext(game_id)
        self.contexts[game_id] = context
        if len(self.contexts) > self.capacity:
            self.contexts.popitem(last=False)
        return context

    def forget(self) -> None:
        """Drop every cached context (after a batch that was not written)."""
        self.contexts.clear()

    def fold(self, rows: Iterable[tuple[int, str, int, bytes]],
             touched: dict[str, GameContext] | None = None,
             game_id_of: Callable[[str], str] | None = None) -> Batch:
        """Rows are (notification id, game id, event number, stored body). `touched`:
        the contexts of games whose rows are not written yet (the batch adds to it,
        and its contexts come before the cache's). `game_id_of`: the game id of a
        row's id as stored, when the rows hold that (it is asked once per run of a
        game's events)."""
        if len(AS_STORED) != len(every_fact_type()):
            current_versions()
        out = Batch() if touched is None else Batch(touched=touched)
        handlers, touched = HANDLERS, out.touched
        game, game_id, row_game_now = GameContext(""), "", ""
        for notification_id, row_game, version, state in rows:
            if row_game != row_game_now:  # (a game's events mostly come one after another)
                game_id = row_game if game_id_of is None else game_id_of(row_game)
                game = touched.get(game_id) or self.context(game_id)
                touched[game_id], row_game_now = game, row_game
            if version != game.version + 1:
                raise UnknownFactError(
                    f"event {version} of game {game_id} follows event {game.version}: "
                    "the analytic tables are not of this log (drop them and run "
                    "`warledger views --rebuild`)"
                )
            body = orjson.loads(state)
            fact = body["fact"]
            oldest, newest = AS_STORED.get(fact.get("type"), (0, -1))
            if oldest <= fact.get("class_version", 1) <= newest:
                fact.pop("class_version", None)  # the usual case: read as stored
            else:
                fact = upcast(fact)
            kind = fact.get("type")
            handler = handlers.get(kind)
            if handler is None and kind not in NO_ROWS and kind not in facts_without_rows(
                    game.ruleset):
                raise UnknownFactError(
                    f"the analytic projections do not know fact type {kind!r} (event "
                    f"{version} of game {game_id}, notification {notification_id}); nothing "
                    "of this batch was written: teach replay/analytics.py the new fact"
                )
            game.version = version
            if version == 1:
                game.started = str(body.get("timestamp", ""))
            if handler is not None:
                handler(Ev(game, version, int(body.get("step", 0))), fact, out)
            out.position = notification_id
            out.events += 1
        return out

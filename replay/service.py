"""GameService: the eventsourcing Application that runs warledger games.

A command travels: validated `Command` → load the game (cache, or snapshot
plus events) → `domain.gate.decide` → `Game.record` → `save` with optimistic
concurrency. A refused command writes nothing.

When another writer got there first (a version conflict), the command is
decided once more on fresh state, and that second decision is kept only if
it means what the first meant (`retry_keeps_meaning`): the same facts, apart
from the step's number. `next_phase` twice, or a die rolled at another index,
is a conflict (`GameConflictError`), never a second move. A caller that names
the event it decided on (`expect_event`, HTTP's If-Match) gets no retry at
all: if the game is not at that event, the command is refused as a conflict
naming the current head, and nothing is written.

Every refusal goes through `GameService.refuse`, whatever the front door (a script
run, `warledger step`, the API, HTTP): it writes nothing to the game and is kept as
an attempt beside it (`replay.attempts`), with its seat, time, command, verdict and
the log step it came after.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import lru_cache
from threading import RLock
from typing import Any, ClassVar, cast
from uuid import UUID, uuid4

from eventsourcing.application import Application, ProcessingEvent
from eventsourcing.persistence import (
    ApplicationRecorder,
    EventStore,
    Mapper,
    PersistenceError,
    RecordConflictError,
    Transcoder,
)

from domain.commands import Command
from domain.datafile import JSON_TYPES, is_plain, shape_problem
from domain.dice import DiceSource, physical_dice_problem
from domain.errors import RuleViolation
from domain.game import Game, project_game
from domain.gate import settle
from domain.history import History, LogHistory
from domain.options import Options, options
from domain.ruleset import Setup
from domain.state import GameState
from events.base import Fact
from events.core import ClauseApplied, StepTaken
from events.envelope import GameEvent
from projections.state_view import state_hash
from replay.attempts import Attempt, AttemptLog, kept_command, seat_of
from replay.event_store import GameEventStore, sqlite_datastore
from replay.keyed import (
    HEADS_KWARG,
    SignedHead,
    SignedHeads,
    TamperedGameError,
    authentic_events,
    check_head,
    check_row,
    head_mac,
    sign_snapshot,
)
from replay.mapper import OrjsonTranscoder, PydanticMapper
from replay.past_states import PastStates
from replay.signed_games import SignedGamesRecord
from replay.snapshots import Warn, trusted_game
from replay.sqlite_files import is_cold_start_race, prepare_store
from replay.storage import APPLICATION, schema_setup_lock, storage_env

Clock = Callable[[], datetime]
#: How often a service tries to set up its store when other clients set it up too.
SETUP_ATTEMPTS = 5


class LazyHistory:
    """A `History` that reads the log only when a decision first asks, and then only
    its tail: newest first, back to the first event of the oldest step asked about
    (undo reaches back `UNDO_DEPTH` steps at most), so an undo costs the same at
    event 1,000 as at event 50,000."""

    #: Events read per query, newest first: the first query reads `FIRST_PAGE` (an undo
    #: of the latest step needs a few events, and decoding 256 was a third of a
    #: consent), each next one twice as many, up to `PAGE`.
    FIRST_PAGE = 32
    PAGE = 256

    def __init__(self, service: GameService, game_id: UUID, head_hash: str | None = None) -> None:
        self.service = service
        self.game_id = game_id
        #: With a server key: the signed head the newest event must have (every event
        #: read is checked against its hash and its link to the one after it).
        self.head_hash = head_hash
        self._tail: list[GameEvent] = []  # newest first
        self._size = self.FIRST_PAGE
        self._whole = False
        self._log: LogHistory | None = None

    def _history(self, step: int) -> LogHistory:
        """The history of the tail that holds every event of `step`."""
        while not self._whole and (not self._tail or self._tail[-1].step >= step):
            older = self._tail[-1].originator_version - 1 if self._tail else None
            page = self._page(older)
            self._whole = len(page) < self._size
            self._size = min(self._size * 2, self.PAGE)
            self._tail += page
            self._log = None
        if self._log is None:
            self._log = LogHistory(
                self._tail[::-1],
                lambda version: self.service.state_after(self.game_id, version),
            )
        return self._log

    def _page(self, older: int | None) -> list[GameEvent]:
        """The next page of events (`_size` of them), newest first, ending at event `older`."""
        if self.head_hash is None:
            return cast("list[GameEvent]", list(self.service.events.get(
                self.game_id, lte=older, desc=True, limit=self._size)))
        rows = self.service.recorder.select_events(self.game_id, lte=older, desc=True,
                                                   limit=self._size)
        expected = self._tail[-1].prev_hash if self._tail else self.head_hash
        for row in rows:
            expected = expected_link(self.game_id, row, expected)
        return [cast("GameEvent", self.service.mapper.to_domain_event(r)) for r in rows]

    def state_before(self, step: int) -> GameState:
        return self._history(step).state_before(step)

    def state_after(self, step: int) -> GameState:
        return self._history(step).state_after(step)

    def facts_of(self, step: int) -> list[Fact]:
        return self._history(step).facts_of(step)


def expected_link(game_id: UUID, row: Any, expected: str) -> str:
    """A raw row read newest first: it must hash to `expected` (the link the event after
    it holds); returns the hash the event before it must have."""
    stored_hash, prev_hash = check_row(game_id, row)
    if stored_hash != expected:
        raise TamperedGameError(f"event {row.originator_version} of game {game_id} is not "
                                "the one the event after it links to")
    return prev_hash


class ConcurrentWriteError(Exception):
    """Another writer changed the game twice while this command was decided."""


@dataclass(frozen=True)
class Head:
    """Where a game stands, in the numbering of the one who asks: for the judge (or
    anyone not a player) the log's event number and head hash; for a player their
    own event count and the hash of their own view (docs/script-format.md), since
    the log's would depend on facts hidden from them."""

    number: int
    hash: str
    player: str | None = None

    def words(self) -> str:
        if self.player is None:
            return f"the game is at event {self.number} (head {self.hash})"
        return f"{self.player} has seen {self.number} events of the game (view hash {self.hash})"


class GameConflictError(ConcurrentWriteError):
    """The game is not where the command was decided, and deciding it again could
    change what it means; nothing was written. Carries the current head in the
    issuer's numbering (`version`, `head_hash`; `Head`), to decide on anew."""

    def __init__(self, reason: str, head: Head) -> None:
        super().__init__(f"conflict: {reason}; {head.words()}; nothing was written")
        self.head = head
        self.version = head.number
        self.head_hash = head.hash


#: Commands whose meaning is relative to the state they are decided on: turn flow
#: ("the phase after this one"), answers to whatever window or request is open, and
#: "my latest steps". One refused on a stale copy is never decided again blindly on
#: fresh state: the service cannot know which phase, window or step the caller saw.
RELATIVE_COMMANDS = frozenset({
    "next_phase", "end_turn",                       # every rule set's turn flow
    "consent", "request_undo", "request_redo",      # the open request, the latest steps
    "pass", "aro", "idle", "pass_stratagem",        # the open window or order
})


class GameNotFoundError(LookupError):
    """No game with that id is stored."""


@dataclass(frozen=True)
class Outcome:
    """What happened to one command."""

    accepted: bool
    events: list[str] = field(default_factory=list)
    rule: str | None = None
    message: str | None = None
    version: int = 0
    head_hash: str = ""
    retried: bool = False
    #: In the log's steps: the step an accepted command became, or the step a refused
    #: one came after (0: the set-up). Not part of `as_step` (CONTRACT section 3).
    step: int = 0

    def as_step(self, index: int) -> dict[str, Any]:
        """The step object of `warledger run --json` (CONTRACT section 3)."""
        return {
            "index": index,
            "accepted": self.accepted,
            "events": self.events,
            "rule": self.rule,
            "message": self.message,
        }


def step_citation(facts: Sequence[Fact]) -> tuple[str | None, str | None]:
    """The rule an accepted step cites (CONTRACT section 3): its last citation's
    clause, with every message citing that clause (one per unit it decided for)."""
    cited = [f for f in facts if isinstance(f, ClauseApplied)]
    if not cited:
        return None, None
    rule = cited[-1].rule
    return rule, "; ".join(f.message for f in cited if f.rule == rule)


def is_setup_race(error: PersistenceError) -> bool:
    """Is this what PostgreSQL, or SQLite (`replay.sqlite_files`), says when two clients
    create the same schema at once?"""
    text = str(error)
    return "concurrently" in text or "pg_type_typname_nsp_index" in text or (
        "already exists" in text) or is_cold_start_race(error)


def set_up_tables(set_up: Callable[[], None]) -> None:
    """Create a store's tables (`set_up`), again if another client creating the same
    tables at once made it fail (`is_setup_race`): the next try finds what it made.
    On PostgreSQL the schema lock should keep clients apart; another program setting
    up the same tables without it may still collide in the catalogue."""
    for attempt in range(SETUP_ATTEMPTS):
        try:
            set_up()
            return
        except PersistenceError as error:
            if not is_setup_race(error) or attempt == SETUP_ATTEMPTS - 1:
                raise
            time.sleep(0.05 * (attempt + 1))


def accepted(facts: Sequence[Fact], game: Game) -> Outcome:
    """The outcome of an accepted command, saved as `game`'s latest events."""
    rule, message = step_citation(facts)
    return Outcome(True, events=[f.type for f in facts], rule=rule, message=message,
                   version=game.version, head_hash=game.head_hash, step=game.state.step)


def retry_keeps_meaning(first: Sequence[Fact] | None, again: Sequence[Fact], do: str) -> bool:
    """May a command decided again after a conflict be recorded?

    - First decided and accepted on older state: only if it records the same
      facts again, apart from its step number (`StepTaken.step`). A unit moved
      to the same spot is the same move; `next_phase` on a phase the other
      writer already left, or dice drawn at another index, is not.
    - First refused on a stale copy (it had no facts): the decision on fresh
      state is the first real one, except for `RELATIVE_COMMANDS` (turn flow,
      answers to what is open, "my latest steps"), whose meaning depends on the
      state the caller saw.
    """
    if first is None:
        return do not in RELATIVE_COMMANDS
    return [meaning(f) for f in first] == [meaning(f) for f in again]


def meaning(fact: Fact) -> dict[str, Any]:
    """A fact as a retry compares it: all of it but a step's number."""
    data = fact.model_dump(mode="json")
    if isinstance(fact, StepTaken):
        data.pop("step", None)
    return data


def input_problem(
    command: object, dice: object, expect_event: object = None
) -> str | None:
    """Why a command, its dice or its expected event from outside cannot be decided
    (the `INPUT` message), or None: a command is a `Command` or a mapping of text
    keys holding data a game can hold (`domain.datafile.shape_problem`: no text
    over its length limit, nothing nested too deep); dice are whole numbers."""
    if isinstance(command, Command):
        record = command.record()
        problem = None if is_plain(record) else shape_problem(record)
    elif isinstance(command, dict):
        problem = None if is_plain(command, tuples=True) else shape_problem(
            command, kinds=(*JSON_TYPES, tuple))
    else:
        problem = f"a command must be a mapping, not {type(command).__name__}"
    if problem is None:
        problem = physical_dice_problem(dice)
    if problem is None and expect_event is not None and (
        type(expect_event) is not int or expect_event < 0
    ):
        problem = f"the expected event must be a whole number of 0 or more, not {expect_event!r}"
    return problem


def snapshot_due(game: Game, first_version: int, interval: int) -> bool:
    """Is a snapshot due after a save of events `first_version`..`game.version`?
    When it crossed a multiple of `interval`, and whenever it leaves the game with
    a confirmed result: the game is then closed (nothing but a ruling, or an undo
    by consent of the step that ended it, may follow), and is read whole (the
    views, `stats`, the viewer, time travel to its end) far more often than it is
    written, so its latest snapshot stands at its last event and it is read with
    no events after it."""
    crossed = game.version // interval > (first_version - 1) // interval
    return crossed or game.state.result is not None


class GameService(Application[UUID]):
    """Starts games, decides commands, and reads games back at any version."""

    name = APPLICATION
    snapshot_interval: ClassVar[int] = 200
    #: A snapshot standing at most this many events from the start is also compared
    #: with the game its events build before it is used (`replay.snapshots`).
    snapshot_recheck_events: ClassVar[int] = 400

    def __init__(self, db: str | None = None, *, clock: Clock | None = None,
                 env: dict[str, str] | None = None, key: bytes | None = None,
                 signed_games: SignedGamesRecord | None = None,
                 keep_attempts: bool = True) -> None:
        settings = {**storage_env(db), "IS_SNAPSHOTTING_ENABLED": "y", **(env or {})}
        #: The server key (`WARLEDGER_KEY`, `replay.keyed`): with it, heads and snapshots
        #: are signed, and only what they authenticate is decided on.
        self.key = key
        self.heads: SignedHeads | None = None
        #: With the key, the key's record of the games it signed, outside the database
        #: (`replay.signed_games`; by default where `WARLEDGER_SIGNED_GAMES` says).
        self.signed_games = signed_games if signed_games is not None or key is None \
            else SignedGamesRecord.for_key(key)
        if settings.get("PERSISTENCE_MODULE", "").endswith("sqlite"):
            prepare_store(settings.get("SQLITE_DBNAME", ""))
        with schema_setup_lock(settings):  # PostgreSQL: one client sets up at a time
            set_up_tables(lambda: super(GameService, self).__init__(env=settings))
            if key is not None:
                self.heads = SignedHeads(self.recorder)
                set_up_tables(self.heads.install)
            #: The refused attempts of this store's games (`replay.attempts`); a
            #: simulation keeps none (`keep_attempts=False`).
            self.attempt_log = AttemptLog(self.recorder, settings.get("SQLITE_DBNAME"))
            set_up_tables(self.attempt_log.install)
        self.keep_attempts = keep_attempts
        self.clock: Clock = clock or (lambda: datetime.now(UTC))
        self._cache: dict[UUID, Game] = {}
        #: Told why a stored snapshot was not used (the CLI prints a warning line).
        self.warn: Warn | None = None
        #: Commands are decided one at a time per service, so threads may share one.
        self._lock = RLock()
        #: The states this service's commands were decided on (undo and redo read them).
        self._past = PastStates()

    # -- wiring (eventsourcing factory methods) --------------------------------
    def construct_recorder(self) -> ApplicationRecorder:
        """The library's recorder, reading each game id once per batch of rows: the
        SQLite recorder parses the id of every row it reads (`UUID(text)`), which
        was a tenth of a full replay; the parse is kept for the ids seen lately."""
        recorder = super().construct_recorder()
        convert = getattr(recorder, "convert_originator_id", None)
        if convert is not None:
            setattr(recorder, "convert_originator_id", lru_cache(maxsize=256)(convert))  # noqa: B010
        return recorder

    def construct_transcoder(self) -> Transcoder:
        """orjson, for plain JSON bodies built by the mapper."""
        return OrjsonTranscoder()

    def construct_mapper(self) -> Mapper[UUID]:
        """The pydantic mapper that keeps upcasting working."""
        return PydanticMapper(transcoder=self.construct_transcoder())

    def construct_event_store(self) -> EventStore[UUID]:
        """The library's event store, reading a game's rows directly on SQLite."""
        return GameEventStore(mapper=self.mapper, recorder=self.recorder)

    # -- commands ----------------------------------------------------------------
    def start(self, setup: Setup, game_id: UUID | None = None) -> UUID:
        """Start a game from its set-up; return its id."""
        game = Game.start(game_id or uuid4(), setup, self.clock())
        with self._lock:
            self._save(game)
        return game.id

    def handle(
        self, game_id: UUID, command: Command | dict[str, Any],
        dice: Sequence[int] | None = None, expect_event: int | None = None,
    ) -> Outcome:
        """Decide and record one command; a refused command is an `Outcome`, not an error.

        `command` is a `Command` or a step's mapping; `dice` a list of physical die
        results. Anything malformed in either is refused with `INPUT`, as the CLI
        refuses it. `expect_event`: the event number the caller decided on (a
        receipt's `event`, HTTP's If-Match); if the game is elsewhere, or another
        writer gets there first, `GameConflictError` names the current head and
        nothing is written. Without it, a conflict is decided again only as far
        as `retry_keeps_meaning` allows.

        Anything else that goes wrong (a storage failure, a bug) is raised,
        after the working game has been thrown away, so nothing half-done is
        ever decided on.
        """
        problem = input_problem(command, dice, expect_event)
        if problem is not None:
            return self.refuse(game_id, command, Outcome(False, rule="INPUT", message=problem),
                               dice)
        with self._lock:
            # The time a command arrived, read before deciding: a timestamp read after
            # would carry how long the decision took (a retry's too), which can depend
            # on what players may not know. A refusal is kept with it too.
            received = self.clock()
            outcome = self._handle(game_id, command, None if dice is None else list(dice),
                                   expect_event, received)
            if outcome.accepted:
                return outcome
            return self.refuse(game_id, command, outcome, dice, received, after=outcome.step)

    def refuse(self, game_id: UUID, command: object, outcome: Outcome,
               dice: object = None, received: datetime | None = None, *,
               after: int | None = None) -> Outcome:
        """A refused command's outcome, once it is kept as an attempt (`replay.attempts`):
        nothing is written to the game; the attempt says who issued it, when, the
        command, the verdict, and the log step it came after (the outcome's `step`).
        A game that does not exist keeps nothing; a simulation keeps nothing. `after`:
        the step of the state it was decided on (else the game's latest)."""
        if after is None:
            try:
                after = self.load(game_id).state.step
            except GameNotFoundError:
                return outcome
        if self.keep_attempts:
            at = (received or self.clock()).isoformat()
            self.attempt_log.keep(game_id, seat_of(command), at, after,
                                  kept_command(command, dice), outcome.rule, outcome.message)
        return replace(outcome, step=after)

    def options(self, game_id: UUID, seat: str) -> Options:
        """What `seat` (a player or the judge) may do now in the game, each command
        with its parameter domain, asked of the gate that decides (`domain.options`).
        With a server key, only once the game stands at its latest signed head."""
        game = self.decision_copy(game_id)
        return options(game.ruleset, game.state, seat, self.history(game.id, game.head_hash))

    def attempts(self, game_id: UUID, seat: str | None = None) -> list[Attempt]:
        """A game's refused attempts: all of them (the judge's), or one seat's own.

        A player's are placed among the steps they may see: one made after a step
        hidden from them comes after the last step they saw, so that no label counts a
        step they may not know of (as their audit numbers none)."""
        kept = self.attempt_log.attempts(game_id, seat)
        if not kept or seat is None or seat not in self.load(game_id).state.players:
            return kept
        from replay.export import seen_by  # reads the log: only for a player's attempts

        seen = sorted({event.step for event in seen_by(self.stored_events(game_id), seat)})
        return [replace(a, after_step=max((s for s in seen if s <= a.after_step), default=0))
                for a in kept]

    def _handle(
        self, game_id: UUID, command: Command | dict[str, Any], dice: list[int] | None,
        expect_event: int | None, received: datetime,
    ) -> Outcome:
        by = command.by if isinstance(command, Command) else str(command.get("by"))
        game = self.decision_copy(game_id)
        if expect_event is not None:
            game = self._at_expected_event(game, expect_event, by)
        decided_at, decided_on = game.version, game.state
        try:
            parsed, facts = self._decide(game, command, dice, received)
        except RuleViolation as refusal:
            # `settle` decided on its own copy: the cached game is as it was.
            if not self._has_events_after(game_id, decided_at):
                return Outcome(False, rule=refusal.rule, message=refusal.message,
                               step=game.state.step)
            first: list[Fact] | None = None  # refused on old news: decide again
            do = command.do if isinstance(command, Command) else str(command.get("do"))
        else:
            try:
                self._save(game)
            except RecordConflictError:
                first, do = facts, parsed.do
            else:
                self._past.keep(game_id, decided_at, decided_on)
                return accepted(facts, game)
        if expect_event is not None:
            head = self.head_seen_by(self.load(game_id), by)
            if head.number != expect_event:
                raise GameConflictError(f"the game changed after {expect_event} events", head)
            # A player's view did not change (what came was hidden from them): saying
            # so would tell them; the command is decided again as without an expectation.
        return self._retry(game_id, command, dice, received, first, do, by)

    def head_seen_by(self, game: Game, by: str) -> Head:
        """Where `game` stands for the issuer `by` (`Head`)."""
        if by not in game.state.players:
            return Head(game.version, game.head_hash)
        from replay.export import numbered_for  # reads the log: only for conflicts

        seen = numbered_for(self.stored_events(game.id), by)
        return Head(len(seen), state_hash(game.state, by), by)

    def _at_expected_event(self, game: Game, expect_event: int, by: str) -> Game:
        """The game to decide on when its issuer decided after `expect_event` events
        (in their numbering, `Head`): the copy, caught up with the store; a conflict
        if the game is not there."""
        game = self.load(game.id)  # the copy may be behind: catch up once
        head = self.head_seen_by(game, by)
        if head.number != expect_event:
            raise GameConflictError(f"the command was decided after {expect_event} events",
                                    head)
        return game

    def _retry(
        self, game_id: UUID, command: Command | dict[str, Any], dice: list[int] | None,
        received: datetime, first: list[Fact] | None, do: str, by: str,
    ) -> Outcome:
        """Decide once more on fresh state, keeping the decision only if it means
        what the first one meant (`retry_keeps_meaning`)."""
        self._cache.pop(game_id, None)
        game = self.decision_copy(game_id)
        decided_at, decided_on = game.version, game.state
        try:
            _, facts = self._decide(game, command, dice, received)
        except RuleViolation as refusal:
            return Outcome(False, rule=refusal.rule, message=refusal.message, retried=True,
                           step=game.state.step)
        if not retry_keeps_meaning(first, facts, do):
            self._cache.pop(game_id, None)
            raise GameConflictError(
                f"another writer changed the game while {do!r} was decided, and on the new "
                "state it would record other facts", self.head_seen_by(self.load(game_id), by))
        try:
            self._save(game)
        except RecordConflictError:
            raise ConcurrentWriteError(
                "another writer keeps changing this game; nothing was written, try again"
            ) from None
        self._past.keep(game_id, decided_at, decided_on)
        return replace(accepted(facts, game), retried=True)

    def _decide(
        self, game: Game, command: Command | dict[str, Any], dice: list[int] | None,
        received: datetime,
    ) -> tuple[Command, list[Fact]]:
        """Decide a command on `game` and record its facts there, stamped with the
        time the command was `received` (not yet saved)."""
        try:
            parsed = (
                command if isinstance(command, Command)
                else game.ruleset.parse_command(command)
            )
            state = game.state
            source = DiceSource(
                seed=state.seed if state.seed is not None else 0,
                next_index=state.dice_index,
                physical=dice,
                reusable=state.reusable_dice,
            )
            decided = settle(game.ruleset, state, parsed, source,
                             self.history(game.id, game.head_hash))
            facts = decided.facts
            game.state = decided.state
            game.record(facts, received, step=game.state.step)
        except RuleViolation:
            # The gate decided on its own copy: the cached game is as it was.
            raise
        except BaseException:
            self._cache.pop(game.id, None)
            raise
        return parsed, facts

    def _has_events_after(self, game_id: UUID, version: int) -> bool:
        """Has another writer stored events of this game after `version`?"""
        return bool(self.recorder.select_events(game_id, gt=version, limit=1))

    def _save(self, game: Game) -> None:
        events = game.pending
        first_version = events[0].originator_version if events else game.version
        try:
            self._store(game)
        except Exception:
            self._cache.pop(game.id, None)
            raise
        self._cache[game.id] = game
        self._snapshot_if_due(game, first_version)

    def _store(self, game: Game) -> None:
        """`Application.save(game)`, less its runtime-protocol dispatch.

        The library's save asks `isinstance` of two runtime-checkable protocols
        to learn what it was given (~30 µs per command on Python 3.11, a tenth of
        a whole command); here it is always our game. Snapshots are ours too
        (`_snapshot_if_due`), so the library's interval snapshots are skipped.
        """
        processing: ProcessingEvent[UUID] = ProcessingEvent()
        processing.events.extend(game.collect_events())
        processing.aggregates[game.id] = game
        if self.key is not None:  # signed in the transaction that stores the events
            assert self.signed_games is not None
            self.signed_games.list(game.id, game.version)  # first, outside the database
            processing.saved_kwargs[HEADS_KWARG] = [
                (game.id, game.version, head_mac(self.key, game.id, game.version, game.head_hash))]
        recordings = self._record(processing)
        if self.signed_games is not None:  # after the transaction: never ahead of it
            self.signed_games.saw_head(game.id, game.version)
        self._notify(recordings)
        self.notify(processing.events)  # the library's deprecated hook, kept as save does

    def _snapshot_if_due(self, game: Game, first_version: int) -> None:
        """Snapshot from memory when the save crossed a multiple of the interval, or
        left the game finished (`snapshot_due`)."""
        if self.snapshots is not None and snapshot_due(game, first_version,
                                                       self.snapshot_interval):
            snapshot = game.snapshot(self.clock())
            if self.key is not None:
                snapshot = sign_snapshot(snapshot, self.key)
            self.snapshots.put([snapshot])

    # -- queries -------------------------------------------------------------------
    def working_copy(self, game_id: UUID) -> Game:
        """The game to decide on: the cached one as it is (no read of the store).

        If another writer has moved the game on, saving conflicts on the
        version, and `handle` decides again on fresh state: optimistic
        concurrency, without a read before every write.
        """
        cached = self._cache.get(game_id)
        return cached if cached is not None else self.load(game_id)

    def decision_copy(self, game_id: UUID) -> Game:
        """The working copy, and with a server key only if it stands at the game's
        latest signed head (`TamperedGameError` if not: nothing is decided).

        A head is signed in the transaction that stores its events, so a copy behind
        the latest signed head was moved on by another writer: it catches up first.
        Heads are read after the game, so a head older than the game read means events
        no keyed writer stored."""
        return self.signed(self.working_copy(game_id))

    def signed(self, game: Game) -> Game:
        """`game` (caught up if another writer moved it on), once it stands at its
        latest signed head; as it is without a key (`decision_copy`)."""
        if self.key is None or self.heads is None:
            return game
        game_id = game.id
        signed = self.heads.latest(game_id)
        for _ in range(SETUP_ATTEMPTS):
            if signed is not None and signed.version == game.version:
                break
            game = self.load(game_id)
            signed = self.heads.latest(game_id)
            if signed is None or signed.version <= game.version:
                break
        self._check_signed(game_id, game.version, game.head_hash, signed)
        return game

    def _check_signed(self, game_id: UUID, version: int, head_hash: str,
                      signed: SignedHead | None) -> None:
        """`check_head` with the key, and the key's record of the games it signed."""
        assert self.key is not None
        listed = None
        if signed is None and self.signed_games is not None:
            listed = self.signed_games.listed(game_id)
        check_head(self.key, game_id, version, head_hash, signed, listed)

    def load(self, game_id: UUID) -> Game:
        """The game at its latest version: the cached game, caught up with the store.

        Callers read it; only `handle` changes it (a service shared by threads may
        change it under a reader: read it before the next command, or copy it).
        """
        with self._lock:
            cached = self._cache.get(game_id)
            if cached is not None:
                fresh = cast("Iterable[GameEvent]", self.events.get(game_id, gt=cached.version)) \
                    if self.key is None else authentic_events(
                        self.events, game_id, cached.version, None, cached.head_hash)
                project_game(cached, fresh)
                return cached
            game = self.game_at(game_id)
            self._cache[game_id] = game
            return game

    def game_at(self, game_id: UUID, version: int | None = None) -> Game:
        """The game as it was after event `version` (time travel), through a snapshot
        only if it checks out against the chain (`replay.snapshots`)."""
        game = trusted_game(
            self.snapshots, self.events, game_id, version,
            # A snapshot whose MAC holds was written by a keyed server: no rebuild to
            # compare it with is needed (replay.keyed).
            recheck_events=self.snapshot_recheck_events if self.key is None else 0,
            warn=self.warn, key=self.key,
        )
        if game is None:
            raise GameNotFoundError(f"no game {game_id} in this store")
        return game

    def state_after(self, game_id: UUID, version: int) -> GameState:
        """The game's state after event `version`, for undo and redo: a state this
        service decided a command on, if it kept it (`replay.past_states`), else
        from the log (`game_at`)."""
        kept = self._past.state_after(game_id, version)
        return kept if kept is not None else self.game_at(game_id, version).state

    def history(self, game_id: UUID, head_hash: str | None = None) -> History:
        """The game's past, read lazily (only undo and redo ask for it); with a server
        key, checked back from `head_hash` (the signed head decided on)."""
        return LazyHistory(self, game_id, head_hash if self.key is not None else None)

    def stored_events(self, game_id: UUID) -> list[GameEvent]:
        """Every stored event of a game, in order. With a server key, only what a keyed
        server wrote: each event checked against its hash and its link, and the last one
        standing at the game's latest signed head (`TamperedGameError` otherwise), so an
        audit, export, replay or viewer never shows a history a database writer made."""
        if self.key is None or self.heads is None:
            return list(self.events.get(game_id))  # type: ignore[arg-type]
        return self.events_after(game_id, 0, None)

    def events_after(self, game_id: UUID, version: int,
                     head_hash: str | None) -> list[GameEvent]:
        """The game's events after event `version`, whose hash is `head_hash` (what a
        reader that follows the log last saw: a live stream). With a server key, held to
        `stored_events`' test from there on, not from the start: each event checked
        against its hash and its link to the one before, and the last one standing at
        the latest signed head (`TamperedGameError` otherwise), so nothing a database
        writer appended is ever read past it."""
        if self.key is None or self.heads is None:
            return [e for e in self.events.get(game_id, gt=version) if isinstance(e, GameEvent)]
        events = authentic_events(self.events, game_id, version, None, head_hash)
        signed = self.heads.latest(game_id)
        for _ in range(SETUP_ATTEMPTS):  # another writer moved it on between the reads
            end = version + len(events)
            if not events or signed is None or signed.version <= end:
                break
            events += authentic_events(self.events, game_id, end, None, events[-1].hash)
            signed = self.heads.latest(game_id)
        if events:
            self._check_signed(game_id, version + len(events), events[-1].hash, signed)
        return events

    def game_ids(self) -> list[UUID]:
        """Ids of every game in the store, in the order they were started."""
        ids: list[UUID] = []
        start = 1
        while True:
            batch = self.recorder.select_notifications(start, 500, inclusive_of_start=True)
            if not batch:
                return ids
            for notification in batch:
                if notification.originator_version == 1:
                    ids.append(UUID(str(notification.originator_id)))
            start = batch[-1].id + 1

    def find_game(self, text: str) -> UUID:
        """A game id from its full form, a unique prefix, or 'last' (the game started
        last). On SQLite one query on the events' (game id, version) index answers, in
        a few index lookups per game at most however long the games are (
        item 3); only an ambiguous prefix reads its games' first events to count them.
        Elsewhere, the store's games are listed."""
        datastore = sqlite_datastore(self.recorder)
        if datastore is None:
            return pick_game(self.game_ids(), text)
        table = self.recorder.events_table_name  # type: ignore[attr-defined]
        low = text.replace("-", "").lower()
        if text != "last" and not re.fullmatch(r"[0-9a-f]{0,32}", low):
            raise GameNotFoundError(f"no game {text!r} in this database")
        with datastore.transaction(commit=False) as cursor:
            if text == "last":
                cursor.execute(LAST_STARTED.format(table=table))
                return pick_game([UUID(str(row[0])) for row in cursor.fetchall()], text)
            cursor.execute(FIRST_TWO_IN_RANGE.format(table=table), (low, low + "g", low + "g"))
            found = [UUID(str(game)) for game in cursor.fetchone() if game is not None]
            if len(found) == 2:  # ambiguous: the error names how many games match
                cursor.execute(f"SELECT originator_id FROM {table} WHERE originator_id >= ? "
                               "AND originator_id < ? AND originator_version = 1 ORDER BY rowid",
                               (low, low + "g"))
                found = [UUID(str(row[0])) for row in cursor.fetchall()]
        return pick_game(found, text)


#: The game ids (stored as 32 hex digits) in a range of the (game id, version) index:
#: the first two, each one index lookup (enough to tell none, one or several).
FIRST_TWO_IN_RANGE = (
    "WITH first(id) AS (SELECT MIN(originator_id) FROM {table} "
    "WHERE originator_id >= ? AND originator_id < ?) "
    "SELECT id, (SELECT MIN(originator_id) FROM {table} WHERE originator_id > first.id "
    "AND originator_id < ?) FROM first"
)

#: Every game's id in the order they were started: the index walked from one game id
#: to the next (one lookup each), each game's first event's row giving the order
#: (`warledger games`, `replay.game_list`).
GAMES_WALK = (
    "WITH RECURSIVE games(id) AS (SELECT MIN(originator_id) FROM {table} "
    "UNION ALL SELECT (SELECT MIN(originator_id) FROM {table} WHERE originator_id > games.id) "
    "FROM games WHERE games.id IS NOT NULL) "
)
SQLITE_GAMES = (
    GAMES_WALK + "SELECT e.originator_id FROM games JOIN {table} AS e "
    "ON e.originator_id = games.id AND e.originator_version = 1 ORDER BY e.rowid"
)
#: The game started last: the newest of them.
LAST_STARTED = SQLITE_GAMES + " DESC LIMIT 1"


#: An empty GAME argument names no game, even in a store of one.
NO_GAME_NAMED = "no game named: give a game id, a unique prefix of one, or 'last'"


def pick_game(ids: Sequence[UUID], text: str) -> UUID:
    """The one game `text` names among `ids` (in the order they were started): 'last'
    is the latest; otherwise the full id or a unique prefix."""
    if not text:
        raise GameNotFoundError(NO_GAME_NAMED)
    if text == "last":
        if not ids:
            raise GameNotFoundError("the database holds no games")
        return ids[-1]
    matches = [i for i in ids if str(i) == text or str(i).startswith(text)]
    if len(matches) != 1:
        raise GameNotFoundError(
            f"no game {text!r} in this database" if not matches
            else f"{text!r} matches {len(matches)} games; give more of the id"
        )
    return matches[0]

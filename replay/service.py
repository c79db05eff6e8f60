"""GameService: the eventsourcing Application that runs warledger games.

A command travels: validated `Command` → load the game (cache, or snapshot
plus events) → `domain.gate.decide` → `Game.record` → `save` with optimistic
concurrency. A version conflict (another writer got there first) means the
decision is made once more on fresh state; a second conflict is reported.
A refused command writes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import lru_cache
from threading import RLock
from typing import Any, ClassVar, cast
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError, Application, ProcessingEvent
from eventsourcing.persistence import (
    ApplicationRecorder,
    Mapper,
    PersistenceError,
    RecordConflictError,
    Transcoder,
)

from domain.commands import Command
from domain.dice import DiceSource
from domain.errors import RuleViolation
from domain.game import Game, SnapshotMismatchError, project_events_only, project_game
from domain.gate import settle
from domain.history import History, LogHistory
from domain.ruleset import Setup
from domain.state import GameState
from events.base import Fact
from events.core import ClauseApplied
from events.envelope import GameEvent
from replay.mapper import OrjsonTranscoder, PydanticMapper
from replay.storage import storage_env

Clock = Callable[[], datetime]
#: How often a service tries to set up its store when other clients set it up too.
SETUP_ATTEMPTS = 5


class LazyHistory:
    """A `History` that reads the log only when a decision first asks."""

    def __init__(self, service: GameService, game_id: UUID) -> None:
        self.service = service
        self.game_id = game_id
        self._log: LogHistory | None = None

    def _history(self) -> LogHistory:
        if self._log is None:
            self._log = LogHistory(
                self.service.stored_events(self.game_id),
                lambda version: self.service.game_at(self.game_id, version).state,
            )
        return self._log

    def state_before(self, step: int) -> GameState:
        return self._history().state_before(step)

    def state_after(self, step: int) -> GameState:
        return self._history().state_after(step)

    def facts_of(self, step: int) -> list[Fact]:
        return self._history().facts_of(step)


class StaleGameError(RecordConflictError):
    """A command was refused on a cached game that another writer had moved on."""


class ConcurrentWriteError(Exception):
    """Another writer changed the game twice while this command was decided."""


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


class GameService(Application[UUID]):
    """Starts games, decides commands, and reads games back at any version."""

    name = "warledger"
    snapshot_interval: ClassVar[int] = 200

    def __init__(self, db: str | None = None, *, clock: Clock | None = None,
                 env: dict[str, str] | None = None) -> None:
        settings = {**storage_env(db), "IS_SNAPSHOTTING_ENABLED": "y", **(env or {})}
        for attempt in range(SETUP_ATTEMPTS):
            try:
                super().__init__(env=settings)
                break
            except PersistenceError as error:
                # PostgreSQL: clients starting together all create the schema and its
                # functions; all but one may see "tuple concurrently updated".
                if "concurrently" not in str(error) or attempt == SETUP_ATTEMPTS - 1:
                    raise
                time.sleep(0.05 * (attempt + 1))
        self.clock: Clock = clock or (lambda: datetime.now(UTC))
        self._cache: dict[UUID, Game] = {}
        #: Commands are decided one at a time per service, so threads may share one.
        self._lock = RLock()

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

    # -- commands ----------------------------------------------------------------
    def start(self, setup: Setup, game_id: UUID | None = None) -> UUID:
        """Start a game from its set-up; return its id."""
        game = Game.start(game_id or uuid4(), setup, self.clock())
        with self._lock:
            self._save(game)
        return game.id

    def handle(
        self, game_id: UUID, command: Command | dict[str, Any],
        dice: Sequence[int] | None = None,
    ) -> Outcome:
        """Decide and record one command; a refused command is an `Outcome`, not an error.

        Anything else that goes wrong (a storage failure, a bug) is raised,
        after the working game has been thrown away, so nothing half-done is
        ever decided on.
        """
        with self._lock:
            return self._handle(game_id, command, dice)

    def _handle(
        self, game_id: UUID, command: Command | dict[str, Any], dice: Sequence[int] | None
    ) -> Outcome:
        try:
            return self._decide_and_save(game_id, command, dice)
        except RuleViolation as refusal:
            return Outcome(False, rule=refusal.rule, message=refusal.message)
        except RecordConflictError:
            self._cache.pop(game_id, None)
            try:
                outcome = self._decide_and_save(game_id, command, dice)
            except RuleViolation as refusal:
                return Outcome(False, rule=refusal.rule, message=refusal.message, retried=True)
            except RecordConflictError:
                raise ConcurrentWriteError(
                    "another writer keeps changing this game; nothing was written, try again"
                ) from None
            return replace(outcome, retried=True)

    def _decide_and_save(
        self, game_id: UUID, command: Command | dict[str, Any], dice: Sequence[int] | None
    ) -> Outcome:
        game = self.working_copy(game_id)
        decided_at = game.version
        # The time a command arrived, read before deciding: a timestamp read after would
        # carry how long the decision took, which can depend on what players may not know.
        received = self.clock()
        try:
            parsed = (
                command if isinstance(command, Command)
                else game.ruleset.parse_command(command)
            )
            state = game.state
            source = DiceSource(
                seed=state.seed if state.seed is not None else 0,
                next_index=state.dice_index,
                physical=list(dice) if dice is not None else None,
                reusable=state.reusable_dice,
            )
            decided = settle(game.ruleset, state, parsed, source, self.history(game_id))
            facts = decided.facts
            game.state = decided.state
            game.record(facts, received, step=game.state.step)
            self._save(game)
        except RuleViolation:
            # The gate decided on its own copy: the cached game is as it was.
            if self._has_events_after(game_id, decided_at):
                raise StaleGameError(game_id) from None  # refused on old news: decide again
            raise
        except BaseException:
            self._cache.pop(game_id, None)
            raise
        rule, message = step_citation(facts)
        return Outcome(
            True,
            events=[f.type for f in facts],
            rule=rule,
            message=message,
            version=game.version,
            head_hash=game.head_hash,
        )

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
        recordings = self._record(processing)
        self._notify(recordings)
        self.notify(processing.events)  # the library's deprecated hook, kept as save does

    def _snapshot_if_due(self, game: Game, first_version: int) -> None:
        """Snapshot from memory when the save crossed a multiple of the interval."""
        interval = self.snapshot_interval
        crossed = game.version // interval > (first_version - 1) // interval
        if self.snapshots is not None and crossed:
            self.snapshots.put([game.snapshot(self.clock())])

    # -- queries -------------------------------------------------------------------
    def working_copy(self, game_id: UUID) -> Game:
        """The game to decide on: the cached one as it is (no read of the store).

        If another writer has moved the game on, saving conflicts on the
        version, and `handle` decides again on fresh state: optimistic
        concurrency, without a read before every write.
        """
        cached = self._cache.get(game_id)
        return cached if cached is not None else self.load(game_id)

    def load(self, game_id: UUID) -> Game:
        """The game at its latest version: the cached game, caught up with the store.

        Callers read it; only `handle` changes it (a service shared by threads may
        change it under a reader: read it before the next command, or copy it).
        """
        with self._lock:
            cached = self._cache.get(game_id)
            if cached is not None:
                fresh = cast("Iterable[GameEvent]", self.events.get(game_id, gt=cached.version))
                project_game(cached, fresh)
                return cached
            game = self.game_at(game_id)
            self._cache[game_id] = game
            return game

    def game_at(self, game_id: UUID, version: int | None = None) -> Game:
        """The game as it was after event `version` (time travel), using snapshots."""
        try:
            try:
                game = self.repository.get(game_id, version=version, projector_func=project_game)
            except SnapshotMismatchError:
                events = cast("Iterable[GameEvent]", self.events.get(game_id, lte=version))
                replayed = project_events_only(None, events)
                if replayed is None:
                    raise AggregateNotFoundError(game_id) from None
                game = replayed
        except AggregateNotFoundError:
            raise GameNotFoundError(f"no game {game_id} in this store") from None
        return game

    def history(self, game_id: UUID) -> History:
        """The game's past, read lazily (only undo and redo ask for it)."""
        return LazyHistory(self, game_id)

    def stored_events(self, game_id: UUID) -> list[GameEvent]:
        """Every stored event of a game, in order."""
        return list(self.events.get(game_id))  # type: ignore[arg-type]

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

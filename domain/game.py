"""The Game aggregate: a game's state, its version, and the head of its hash chain.

`Game.start` and `Game.record` wrap decided facts in `GameEvent`s (numbered,
hash-chained, time-stamped by the caller) and keep them pending until the
application saves them. `Game.replay` folds stored events back into a game;
applying is assignment only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from uuid import UUID

from domain import rules_version
from domain.apply import apply
from domain.dice import seed_commitment
from domain.results import metadata_facts
from domain.ruleset import Ruleset, Setup, find_ruleset
from domain.state import GameState
from events.base import Fact
from events.core import GameStarted, SeedSealed
from events.envelope import GENESIS_HASH, GameEvent, GameSnapshot, chain_hash, step_hasher


class Game:
    """One game: its id, version, state and hash-chain head."""

    def __init__(
        self, game_id: UUID, ruleset: Ruleset, state: GameState, version: int, head_hash: str
    ) -> None:
        self.id = game_id
        self.ruleset = ruleset
        self.state = state
        self.version = version
        self.head_hash = head_hash
        self.pending: list[GameEvent] = []

    # -- creating and recording ----------------------------------------------
    @classmethod
    def start(cls, game_id: UUID, setup: Setup, timestamp: datetime) -> Game:
        """A new game: `GameStarted`, the sealed seed, then the fielded units."""
        ruleset = find_ruleset(setup.ruleset)
        ruleset.validate_table(setup)
        started = GameStarted(
            ruleset=ruleset.name,
            variant=ruleset.validate_variant(setup.variant),
            board=setup.board,
            terrain=setup.terrain,
            players=setup.players,
            seed_commitment=seed_commitment(setup.seed),
            options=ruleset.validate_options(setup.options),
            rules=rules_version.current(ruleset),
        )
        game = cls(game_id, ruleset, ruleset.initial_state(started), 0, GENESIS_HASH)
        game.record([started], timestamp, step=0)
        rest: list[Fact] = [
            SeedSealed(seed=setup.seed),
            *metadata_facts(setup.metadata, setup.players),
            *ruleset.setup_facts(setup),
        ]
        for fact in rest:
            apply(game.state, fact)
        ruleset.check_setup(game.state)
        game.record(rest, timestamp, step=0)
        return game

    def record(self, facts: Sequence[Fact], timestamp: datetime, *, step: int) -> None:
        """Wrap already-applied facts as the next events of this game."""
        event_hash = step_hasher(self.id, timestamp.isoformat(), step)
        for fact in facts:
            self.version += 1
            payload = fact.payload()
            digest = event_hash(self.version, self.head_hash, payload)
            self.pending.append(
                GameEvent(
                    originator_id=self.id,
                    originator_version=self.version,
                    timestamp=timestamp,
                    step=step,
                    prev_hash=self.head_hash,
                    hash=digest,
                    fact=fact,
                    stored_fact=payload,
                )
            )
            self.head_hash = digest

    def collect_events(self) -> list[GameEvent]:
        """Hand the pending events to the application (eventsourcing protocol)."""
        events, self.pending = self.pending, []
        return events

    # -- replaying ------------------------------------------------------------
    def apply_event(self, event: GameEvent) -> None:
        """Apply one stored event (assignment only)."""
        apply(self.state, event.fact)
        self.version = event.originator_version
        self.head_hash = event.hash

    @classmethod
    def from_first_event(cls, event: GameEvent) -> Game:
        """The game a stored `GameStarted` event creates."""
        started = event.fact
        assert isinstance(started, GameStarted)
        ruleset = find_ruleset(started.ruleset)
        return cls(
            event.originator_id,
            ruleset,
            ruleset.initial_state(started),
            event.originator_version,
            event.hash,
        )

    @classmethod
    def from_snapshot(cls, snapshot: GameSnapshot) -> Game:
        """The game a stored snapshot restores, unchecked (`replay.snapshots` checks
        a snapshot's seal before the service uses it; `verify` compares it in full)."""
        ruleset = find_ruleset(snapshot.ruleset)
        data = dict(snapshot.state)
        head_hash = str(data.pop("__head_hash__"))
        data.pop("__version__", None)
        data.pop("__state_hash__", None)
        data.pop("__mac__", None)  # a keyed server's MAC of the seal (replay.keyed)
        state = ruleset.state_type.model_validate(data)
        return cls(snapshot.originator_id, ruleset, state, snapshot.originator_version, head_hash)

    def snapshot(self, timestamp: datetime) -> GameSnapshot:
        """A snapshot of this game at its current version, sealed with the event number
        and head hash it stands at and the hash of its state (`replay.snapshots`)."""
        data = self.state.model_dump(mode="json")
        state_hash = chain_hash(data)
        data["__version__"] = self.version
        data["__head_hash__"] = self.head_hash
        data["__state_hash__"] = state_hash
        return GameSnapshot(
            originator_id=self.id,
            originator_version=self.version,
            timestamp=timestamp,
            ruleset=self.ruleset.name,
            state=data,
        )


class SnapshotMismatchError(Exception):
    """A stored snapshot does not link to the event that follows it."""


def project_game(game: Game | None, events: Iterable[GameEvent | GameSnapshot]) -> Game | None:
    """Fold stored events (and at most one leading snapshot) into a game.

    The first event after a snapshot must link to the snapshot's head hash;
    if not, the snapshot is not of this log (`SnapshotMismatchError`), and the
    caller replays without it. `verify` checks snapshots in full.
    """
    from_snapshot = False
    for event in events:
        if isinstance(event, GameSnapshot):
            game, from_snapshot = Game.from_snapshot(event), True
        elif game is None:
            game = Game.from_first_event(event)
        else:
            if from_snapshot and event.prev_hash != game.head_hash:
                raise SnapshotMismatchError(
                    f"the snapshot at event {game.version} does not link to event "
                    f"{event.originator_version}"
                )
            from_snapshot = False
            game.apply_event(event)
    return game


def project_events_only(
    game: Game | None, events: Iterable[GameEvent | GameSnapshot]
) -> Game | None:
    """Fold stored events, ignoring any snapshot."""
    return project_game(game, (e for e in events if isinstance(e, GameEvent)))

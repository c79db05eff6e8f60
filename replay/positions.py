"""Where in a game a command looks (`--at`, `--step`), and the numbers a reader is shown.

The full log (a judge's reading) numbers its events 1, 2, … as stored. A player
(`--as`) is shown only the events they may see (`replay.export.seen_by`),
numbered 1, 2, … among themselves, exactly as their export and audit number
them: `--at n` names their n-th event, so no number, count or range they are
shown counts a fact hidden from them. Steps (`--step N`) are public: every
step is seen by every player (a step about a hidden unit shows as `(hidden)`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import cast
from uuid import UUID

from domain.game import Game
from events.core import StepTaken
from events.envelope import GameEvent
from replay.export import numbered_for
from replay.service import GameService


class PositionError(ValueError):
    """An `--at` or `--step` outside the game."""


@dataclass(frozen=True)
class Position:
    """The game after the chosen event, and how the reader numbers it."""

    game: Game  #: the full game (state) after the chosen event
    event: int  #: the chosen event, in the reader's numbering
    last: int  #: the reader's last event number
    step: int  #: the step the chosen event belongs to
    #: reads the reader's events up to the chosen one, renumbered (only when asked)
    read_events: Callable[[], list[GameEvent]]

    @property
    def events(self) -> list[GameEvent]:
        """The reader's events up to the chosen one, renumbered."""
        return self.read_events()

    def last_command(self) -> dict[str, object] | None:
        """The command of the last step the reader may see, at or before this event."""
        taken = [e.fact for e in self.events if isinstance(e.fact, StepTaken)]
        return dict(taken[-1].command) if taken else None


def find_position(
    service: GameService, game_id: UUID, *, at: int | None = None, step: int | None = None,
    player: str | None = None,
) -> Position:
    """The position `--at` (the reader's event number) or `--step` (a log step) names;
    the latest without either."""
    if player is None and step is None:
        return judge_position(service, game_id, at)
    events = service.stored_events(game_id)
    pairs = [(e.originator_version, e) for e in events] if player is None \
        else numbered_for(events, player)
    if at is not None and step is not None:
        raise PositionError("give --at or --step, not both")
    if at is not None:
        if not 1 <= at <= len(pairs):
            whose = "the last event you may see" if player else "the game's last event"
            raise PositionError(f"--at must be between 1 and {len(pairs)} ({whose})")
        version = pairs[at - 1][0]
    elif step is not None:
        last_step = events[-1].step
        if not 0 <= step <= last_step:
            raise PositionError(f"--step must be between 0 and {last_step} (the game's last step)")
        version = max(e.originator_version for e in events if e.step <= step)
    else:
        version = events[-1].originator_version
    shown = [event for number, event in pairs if number <= version]
    game = service.load(game_id) if version == events[-1].originator_version \
        else service.game_at(game_id, version=version)
    return Position(game, len(shown), len(pairs), events[version - 1].step, lambda: shown)


def judge_position(service: GameService, game_id: UUID, at: int | None) -> Position:
    """The full log's position after event `at` (the latest without), read through a
    checked snapshot and the event named, not the whole log: the full log numbers its
    events as stored, so event `at` is the game's version `at`."""
    read_game_start(service, game_id)
    latest = stored_event(service, game_id)
    last = latest.originator_version
    current = service.signed(service.load(game_id))  # with a key: at its signed head
    if at is not None and not 1 <= at <= last:
        raise PositionError(f"--at must be between 1 and {last} (the game's last event)")
    if at is None or at == last:
        return Position(current, last, last, latest.step,
                        lambda: service.stored_events(game_id))
    chosen = stored_event(service, game_id, at)
    return Position(service.game_at(game_id, version=at), at, last, chosen.step,
                    lambda: service.stored_events(game_id)[:at])


def read_game_start(service: GameService, game_id: UUID) -> None:
    """Read the game's first event, whose `GameStarted` names its rule set, so that
    reading its last event (or any) next decodes it with that rule set's facts alone,
    not every rule set's (`events.registry.load_fact`)."""
    for _ in service.events.get(game_id, lte=1):
        pass


def stored_event(service: GameService, game_id: UUID, version: int | None = None) -> GameEvent:
    """One stored event of a game: event `version`, or the last one."""
    found = service.events.get(game_id, desc=True, limit=1) if version is None \
        else service.events.get(game_id, gt=version - 1, lte=version)
    return cast("GameEvent", next(iter(found)))

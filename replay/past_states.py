"""The states a service's own commands were decided on, kept for undo and redo.

An accepted undo records the state before the first undone step (`StepsUndone`,
CORE-UNDO-OWN), and a redo the state after the last redone one. Both are states
the service held in memory a moment ago: each command is decided on the game as
it stood (its state at event `v`), and once its events are stored that state
object is dropped from the game (`settle` decides on a working copy that shares
nothing mutable with it) and nothing changes it again. Keeping it answers
"the state after event v" without time travel (a snapshot plus the events after
it, and a rebuild check of early snapshots), which was most of a consent's cost.

It is a cache of a function of the log, never a second source of truth:

- a state is kept only after the events decided on it were stored at the next
  versions, so the log holds exactly the events it was folded from;
- history is never rewritten (principle 4), so the state at a version never
  changes; undo and redo are new events, at new versions;
- anything not kept (another server's commands, older steps, a restarted server)
  is asked of the log as before, and the fact recorded is the same either way
  (tests/replay/test_past_states.py).

Bounded: `PER_GAME` versions of each of the `GAMES` games decided on last.
"""

from __future__ import annotations

from threading import Lock
from uuid import UUID

from domain.bounded import Bounded
from domain.state import GameState


class PastStates:
    """(game, version) → the state after that event, for the latest commands."""

    #: Versions kept per game: the states before the latest commands, so an undo of
    #: the latest step or few (asked for and answered: two more commands) never reads
    #: the log.
    PER_GAME = 6
    #: Games kept (the least recently decided go first). A kept state is 10–25 KiB in
    #: the example games (a structural copy shares frozen parts): a few MB in all.
    GAMES = 128

    def __init__(self, per_game: int = PER_GAME, games: int = GAMES) -> None:
        self.per_game = per_game
        self.games = games
        self._states: Bounded[UUID, Bounded[int, GameState]] = Bounded(games)
        self._lock = Lock()

    def keep(self, game_id: UUID, version: int, state: GameState) -> None:
        """`state` is the game after event `version`, and the events after it are
        stored: nobody may change `state` any more (the caller drops it)."""
        with self._lock:
            kept = self._states.recent(game_id)
            if kept is None:
                kept = self._states.keep(game_id, Bounded(self.per_game))
            kept.keep(version, state)

    def state_after(self, game_id: UUID, version: int) -> GameState | None:
        """The kept state after event `version`, or None (ask the log)."""
        with self._lock:
            kept = self._states.get(game_id)
            return None if kept is None else kept.get(version)

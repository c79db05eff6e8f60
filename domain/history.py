"""Read access to a game's past, for decisions that need it (undo and redo).

A decision stays free of I/O: the caller passes a `History` in, as it passes
dice. `LogHistory` answers from the game's event log and a way to rebuild the
state at any version (time travel in the service; a plain fold in `verify`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from domain.state import GameState
from events.base import Fact
from events.envelope import GameEvent


class History(Protocol):
    """What a decision may ask about the game's past."""

    def state_before(self, step: int) -> GameState:
        """The state just before `step` was taken."""
        ...

    def state_after(self, step: int) -> GameState:
        """The state just after `step` was taken."""
        ...

    def facts_of(self, step: int) -> list[Fact]:
        """The facts `step` recorded, in order."""
        ...


class LogHistory:
    """A `History` over a list of stored events."""

    def __init__(self, events: Sequence[GameEvent], state_at: Callable[[int], GameState]):
        self._state_at = state_at
        self._first: dict[int, int] = {}
        self._last: dict[int, int] = {}
        self._facts: dict[int, list[Fact]] = {}
        for event in events:
            self._first.setdefault(event.step, event.originator_version)
            self._last[event.step] = event.originator_version
            self._facts.setdefault(event.step, []).append(event.fact)

    def state_before(self, step: int) -> GameState:
        return self._state_at(self._first[step] - 1)

    def state_after(self, step: int) -> GameState:
        return self._state_at(self._last[step])

    def facts_of(self, step: int) -> list[Fact]:
        return list(self._facts.get(step, []))


class NoHistory:
    """For callers that never decide undo or redo (benchmarks, quick tools)."""

    def state_before(self, step: int) -> GameState:
        raise LookupError("no history available")

    state_after = state_before

    def facts_of(self, step: int) -> list[Fact]:
        raise LookupError("no history available")

"""Exports of a game's log as JSON lines: in full, or as one player may see it.

A player's export leaves out every fact that player may not know: the sealed
seed, and facts about units hidden from them at that point (e.g. Infinity's
Hidden Deployment). Hashes are left out of player exports, since a hash of a
hidden low-entropy value (a position) could be brute-forced, and so are the
log's event numbers, whose gaps would count the hidden facts: a player's lines
are numbered `n` = 1, 2, … among themselves.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from domain.game import Game
from domain.state import GameState
from events.envelope import GameEvent
from projections.state_view import can_see, private_opened


def hidden_from(state: GameState, player: str) -> frozenset[str]:
    """Ids of the units `player` may not know about now (none once the game's end has
    opened its Private Information, CORE-PRIVATE-AT-END)."""
    if private_opened(state):
        return frozenset()
    return frozenset(
        unit_id for unit_id, unit in state.units.items()
        if not can_see(unit.owner, unit.conditions, player)
    )


def seen_by(events: Sequence[GameEvent], player: str) -> Iterator[GameEvent]:
    """The events `player` may see, each with its fact as they may see it.

    Hashes are blanked (see the module note). Whether a fact is visible is
    judged on the state just after it, so a fact that hides a unit hides itself.
    """
    seer = Seer(player)
    for event in events:
        seen = seer.see(event)
        if seen is not None:
            yield seen


class Seer:
    """Follows a game event by event, as one player may see it (`seen_by`, one event at
    a time: a live stream keeps one and feeds it each new event)."""

    def __init__(self, player: str) -> None:
        self.player = player
        self.game: Game | None = None
        #: How many events the player has seen: the `n` of the last one.
        self.count = 0

    def see(self, event: GameEvent) -> GameEvent | None:
        """The next event as the player may see it (numbered as in the log), or None."""
        if self.game is None:
            self.game = Game.from_first_event(event)
        else:
            self.game.apply_event(event)
        seen = event.fact.redacted_for(self.player, hidden_from(self.game.state, self.player))
        if seen is None:
            return None
        self.count += 1
        return replace(event, fact=seen, prev_hash="", hash="", stored_fact=None)


def numbered_for(events: Sequence[GameEvent], player: str) -> list[tuple[int, GameEvent]]:
    """The events `player` may see, each as (its number in the log, the event as they
    see it, renumbered 1, 2, … among their own): counts and numbers a player is shown
    never count the facts hidden from them."""
    return [
        (event.originator_version, replace(event, originator_version=number))
        for number, event in enumerate(seen_by(events, player), start=1)
    ]


def export_lines(
    events: Sequence[GameEvent], as_player: str | None = None
) -> Iterator[dict[str, Any]]:
    """One JSON-ready dict per event (per visible event, with `as_player`)."""
    if as_player is not None:
        for _, event in numbered_for(events, as_player):
            yield player_line(event)
        return
    for event in events:
        yield full_line(event)


def player_line(event: GameEvent) -> dict[str, Any]:
    """A player's export line of an event they see (numbered `n` among theirs)."""
    return {"n": event.originator_version, "step": event.step,
            "timestamp": event.timestamp.isoformat(), "fact": event.fact.payload()}


def full_line(event: GameEvent) -> dict[str, Any]:
    """The full export line of an event: its log number and hashes."""
    return {"version": event.originator_version, "step": event.step,
            "timestamp": event.timestamp.isoformat(), "prev_hash": event.prev_hash,
            "hash": event.hash, "fact": event.fact.payload()}

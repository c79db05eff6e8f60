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
from projections.state_view import can_see


def hidden_from(state: GameState, player: str) -> frozenset[str]:
    """Ids of the units `player` may not know about now."""
    return frozenset(
        unit_id for unit_id, unit in state.units.items()
        if not can_see(unit.owner, unit.conditions, player)
    )


def seen_by(events: Sequence[GameEvent], player: str) -> Iterator[GameEvent]:
    """The events `player` may see, each with its fact as they may see it.

    Hashes are blanked (see the module note). Whether a fact is visible is
    judged on the state just after it, so a fact that hides a unit hides itself.
    """
    game: Game | None = None
    for event in events:
        if game is None:
            game = Game.from_first_event(event)
        else:
            game.apply_event(event)
        seen = event.fact.redacted_for(player, hidden_from(game.state, player))
        if seen is not None:
            yield replace(event, fact=seen, prev_hash="", hash="", stored_fact=None)


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
            yield {"n": event.originator_version, "step": event.step,
                   "timestamp": event.timestamp.isoformat(), "fact": event.fact.payload()}
        return
    for event in events:
        yield {"version": event.originator_version, "step": event.step,
               "timestamp": event.timestamp.isoformat(), "prev_hash": event.prev_hash,
               "hash": event.hash, "fact": event.fact.payload()}

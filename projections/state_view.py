"""The state view of CONTRACT section 4, for everyone or for one player.

A view for a player leaves out what that player may not know: an opponent's
unit in a hidden condition (for example Infinity's Hidden Deployment) is not
shown at all, and any field a rule set marks secret is dropped. Once the game's end
has opened its Private Information (`private_opened`), nothing is left out.
"""

from __future__ import annotations

import hashlib
from typing import Any

from domain.results import result_view
from domain.ruleset import find_ruleset
from domain.ruleset import private_opened as opened_by
from domain.state import GameState, known_to
from projections.canonical import canonical_json as canonical_json  # its old home


def state_view(state: GameState, as_player: str | None = None) -> dict[str, Any]:
    """The CONTRACT state view; with `as_player`, only what that player may know."""
    ruleset = find_ruleset(state.ruleset)
    opened = as_player is None or private_opened(state)
    units = {
        unit_id: unit.view()
        for unit_id, unit in sorted(state.units.items())
        if opened or can_see(unit.owner, unit.conditions, as_player)
    }
    window = state.reaction_window
    view: dict[str, Any] = {
        "ruleset": state.ruleset,
        "variant": state.variant,
        "round": state.round,
        "active_player": state.active_player,
        "phase": state.phase,
        "players": {p: s.model_dump(mode="json") for p, s in state.player_state.items()},
        "units": units,
        "reaction_window": window.model_dump(mode="json") if window else None,
        "finished": state.finished,
    }
    view.update(ruleset.view_extra(state, as_player))
    view.update(result_view(state))
    return view


def private_opened(state: GameState) -> bool:
    """CORE-PRIVATE-AT-END, for this state's rule set (`domain.ruleset.private_opened`)."""
    return opened_by(find_ruleset(state.ruleset), state)


def can_see(owner: str, conditions: list[str], as_player: str | None) -> bool:
    """May `as_player` (None: the full view) see a unit with these conditions?"""
    return known_to(owner, conditions, as_player)


def view_hash(view: dict[str, Any]) -> str:
    """SHA-256 of a state view's canonical JSON."""
    return hashlib.sha256(canonical_json(view)).hexdigest()


def state_hash(state: GameState, as_player: str | None = None) -> str:
    """SHA-256 of the state view's canonical JSON: the full view, or with `as_player`
    that player's view (so the hash they are shown depends on nothing hidden from them)."""
    return view_hash(state_view(state, as_player))


def seen_state(state: GameState, as_player: str | None) -> GameState:
    """The state as `as_player` may know it (for pictures): a copy without the units
    hidden from them; the state itself with None (the full view)."""
    if as_player is None or private_opened(state):
        return state
    seen = state.model_copy(deep=True)
    seen.units = {
        unit_id: unit for unit_id, unit in seen.units.items()
        if can_see(unit.owner, unit.conditions, as_player)
    }
    return seen

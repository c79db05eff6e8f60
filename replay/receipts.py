"""What a command's issuer is told of it: the step result and its receipt, the same
for `warledger step` and the HTTP API (`POST /games/{id}/commands`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from uuid import UUID

if TYPE_CHECKING:
    from replay.service import GameService, Outcome


def step_result(
    service: GameService, game_id: UUID, outcome: Outcome, by: str,
    seen: Sequence[tuple[int, Any]] | None = None,
) -> dict[str, Any]:
    """What `step` tells the one who issued it. A judge (or anyone not a player of the
    game) gets the log's receipt: event number and head hash. A player gets only what
    they may know: the facts of the step they may see, their own event count `n` (as
    their export numbers it) and the hash of their own state view; the log's head hash
    and numbers would depend on facts hidden from them. `seen`: the player's numbered
    events (`replay.export.numbered_for`), when the caller keeps them up to date."""
    result = outcome.as_step(0)
    del result["index"]
    if not outcome.accepted:
        return result
    state = service.load(game_id).state
    if by not in state.players:
        result["receipt"] = {"event": outcome.version, "head_hash": outcome.head_hash}
        return result
    from projections.state_view import state_hash
    from replay.export import numbered_for
    from replay.service import step_citation

    before = outcome.version - len(outcome.events)
    if seen is None:
        seen = numbered_for(service.stored_events(game_id), by)
    facts = [event.fact for number, event in seen if number > before]
    result["events"] = [fact.type for fact in facts]
    result["rule"], result["message"] = step_citation(facts)
    result["receipt"] = {"n": len(seen), "view_hash": state_hash(state, by)}
    return result

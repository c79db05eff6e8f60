"""The CONTRACT state view, and what a player's view leaves out."""

from __future__ import annotations

from domain.ruleset import Setup
from projections.state_view import canonical_json, state_hash, state_view
from replay.service import GameService

SETUP = Setup(
    ruleset="infinity-n4", board={"width": 48, "height": 48}, players=("pano", "nomads"),
    units=(
        {"id": "fusilier", "owner": "pano", "x": 10, "y": 10, "facing": 90},
        {"id": "hidden", "owner": "nomads", "x": 30, "y": 30, "facing": 270,
         "conditions": ["hidden_deployment"]},
    ),
)


def test_the_view_has_every_contract_field() -> None:
    service = GameService(":memory:")
    state = service.load(service.start(SETUP)).state

    view = state_view(state)

    assert {"ruleset", "round", "active_player", "phase", "players", "units",
            "reaction_window", "finished"} <= set(view)
    assert view["players"]["pano"] == {"cp": 0} | view["players"]["pano"]
    assert {"owner", "status", "x", "y", "facing", "conditions"} <= set(view["units"]["hidden"])


def test_a_hidden_unit_shows_in_its_owners_view_only() -> None:
    service = GameService(":memory:")
    state = service.load(service.start(SETUP)).state

    assert "hidden" in state_view(state, "nomads")["units"]
    assert "hidden" not in state_view(state, "pano")["units"]
    assert "hidden" in state_view(state)["units"]


def test_the_state_hash_is_of_the_canonical_json() -> None:
    service = GameService(":memory:")
    state = service.load(service.start(SETUP)).state

    assert canonical_json({"b": 1, "a": 2}) == canonical_json({"a": 2, "b": 1})
    assert state_hash(state) == state_hash(state.model_copy(deep=True))

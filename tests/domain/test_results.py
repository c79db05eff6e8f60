"""Results by consent and game metadata (docs/results.md).

CORE-RESULT-EARLY, CORE-RESULT-SELF, CORE-RESULT-ANSWER, CORE-RESULT-POINTS and
CORE-RESULT-FINAL; the result window works like undo's, on every backend.
"""

from __future__ import annotations

import re
from typing import Any
from uuid import UUID

import pytest

from domain.errors import ScriptError
from domain.ruleset import Setup
from events.results import GameMetadata
from projections.state_view import state_view
from replay.audit import audit_entries, fold_entries, render
from replay.export import seen_by
from replay.service import GameService
from replay.verify import verify_game
from tests.replay.test_secrets import HIDDEN_SETUP, check_player_exports

METADATA = GameMetadata.model_validate({
    "event": "Club Open", "round": "2", "table": "7", "mission": "Take and Hold",
    "deployed_first": "blue",
    "players": {"red": {"name": "Ann", "faction": "Highborn Elves"},
                "blue": {"name": "Bo", "faction": "Orcs and Goblins"}},
})
T9A = Setup(ruleset="t9a", board={"width": 72, "height": 48}, players=("red", "blue"), seed=7,
            units=({"id": "red-spears", "owner": "red", "x": 20, "y": 6, "facing": 90},
                   {"id": "blue-knights", "owner": "blue", "x": 30, "y": 42, "facing": 270}),
            metadata=METADATA)
WIN = {"winner": "red", "draw": False, "points": {"red": 15, "blue": 5}}


def step(service: GameService, game_id: UUID, by: str, do: str, **arguments: Any) -> Any:
    return service.handle(game_id, {"by": by, "do": do, **arguments})


def accepted(service: GameService, game_id: UUID, by: str, do: str, **arguments: Any) -> Any:
    outcome = step(service, game_id, by, do, **arguments)
    assert outcome.accepted, outcome
    return outcome


def view(service: GameService, game_id: UUID, as_player: str | None = None) -> dict[str, Any]:
    return state_view(service.load(game_id).state, as_player)


def proposed(service: GameService, setup: Setup = T9A, result: dict[str, Any] = WIN,
             by: str = "red") -> UUID:
    game_id = service.start(setup)
    outcome = accepted(service, game_id, by, "end_game", reason="time", result=result)
    assert outcome.events == ["StepTaken", "GameEnded", "ResultProposed", "ReactionWindowOpened"]
    return game_id


def test_a_proposed_result_opens_a_result_window_and_has_no_effect_yet(
    backend_service: GameService,
) -> None:
    game_id = proposed(backend_service)

    state = view(backend_service, game_id)
    assert state["finished"] and "result" not in state
    assert state["reaction_window"]["kind"] == "result"
    assert state["reaction_window"]["eligible"] == ["blue", "judge"]
    assert state["reaction_window"]["context"]["points"] == {"red": 15, "blue": 5}


def test_a_confirmed_result_takes_effect_and_verifies(backend_service: GameService) -> None:
    game_id = proposed(backend_service)

    outcome = accepted(backend_service, game_id, "blue", "consent", accept=True)

    assert outcome.events == ["StepTaken", "ReactionDeclared", "ReactionWindowClosed",
                              "ResultConfirmed"]
    state = view(backend_service, game_id)
    assert state["result"] == {"winner": "red", "draw": False, "points": {"red": 15, "blue": 5},
                               "confirmed_by": "blue"}
    assert state["reaction_window"] is None
    assert verify_game(backend_service, game_id).ok


def test_a_refused_result_is_kept_in_the_log_and_audit_with_no_effect(
    backend_service: GameService,
) -> None:
    game_id = proposed(backend_service)

    outcome = accepted(backend_service, game_id, "blue", "consent", accept=False)

    assert outcome.events[-1] == "ResultRefused"
    state = view(backend_service, game_id)
    assert "result" not in state and state["reaction_window"] is None and state["finished"]
    events = backend_service.stored_events(game_id)
    text = render(audit_entries(events))
    assert "RESULT proposed by red: red wins (red 15, blue 5)" in text
    assert "RESULT refused by blue (no effect)" in text
    assert "RESULT refused by blue" in render(fold_entries(audit_entries(events)))
    assert verify_game(backend_service, game_id).ok


def test_after_a_refusal_another_result_may_be_proposed_and_confirmed(
    service: GameService,
) -> None:
    """CORE-RESULT-FINAL: a refusal leaves the game over without a result."""
    game_id = proposed(service)
    accepted(service, game_id, "blue", "consent", accept=False)

    draw = {"winner": None, "draw": True, "points": {"red": 10, "blue": 10}}
    again = accepted(service, game_id, "blue", "end_game", result=draw)
    accepted(service, game_id, "red", "consent", accept=True)

    assert again.events == ["StepTaken", "ResultProposed", "ReactionWindowOpened"]
    assert view(service, game_id)["result"]["draw"] is True
    final = step(service, game_id, "red", "end_game", result=WIN)
    assert (final.accepted, final.rule) == (False, "CORE-RESULT-FINAL")
    assert verify_game(service, game_id).ok


def test_a_player_cannot_confirm_their_own_result(backend_service: GameService) -> None:
    """CORE-RESULT-SELF (as CORE-UNDO-SELF for undo)."""
    game_id = proposed(backend_service)

    outcome = step(backend_service, game_id, "red", "consent", accept=True)

    assert (outcome.accepted, outcome.rule) == (False, "CORE-RESULT-SELF")
    assert "result" not in view(backend_service, game_id)


def test_the_judge_may_confirm_and_a_judges_result_stands_at_once(service: GameService) -> None:
    game_id = proposed(service)
    accepted(service, game_id, "judge", "consent", accept=True)
    assert view(service, game_id)["result"]["confirmed_by"] == "judge"

    other = service.start(T9A)
    outcome = accepted(service, other, "judge", "end_game", reason="ruling", result=WIN)

    assert outcome.events == ["StepTaken", "GameEnded", "ResultProposed", "ResultConfirmed"]
    assert view(service, other)["result"]["winner"] == "red"


def test_play_waits_for_the_result_window(service: GameService) -> None:
    """CORE-WINDOW-OPEN, CORE-RESULT-FINAL: the window must be answered first."""
    game_id = proposed(service)

    again = step(service, game_id, "blue", "end_game", result=WIN)

    assert (again.accepted, again.rule) == (False, "CORE-WINDOW-OPEN")


def test_with_three_players_every_opponent_confirms(service: GameService) -> None:
    """CORE-RESULT-ANSWER: each opponent once; the last acceptance confirms."""
    setup = T9A.model_copy(update={"players": ("red", "blue", "green"), "metadata": None})
    game_id = proposed(service, setup, {"winner": "green", "points": {"green": 20}})

    first = accepted(service, game_id, "blue", "consent", accept=True)
    twice = step(service, game_id, "blue", "consent", accept=True)
    accepted(service, game_id, "green", "consent", accept=True)

    assert first.events == ["StepTaken", "ReactionDeclared"]
    assert (twice.accepted, twice.rule) == (False, "CORE-RESULT-ANSWER")
    assert view(service, game_id)["result"]["confirmed_by"] == "green"


@pytest.mark.parametrize(("result", "rule", "words"), [
    ({"winner": "green"}, "INPUT", "'green' is not a player"),
    ({"winner": "red", "points": {"green": 3}}, "INPUT", "gives points to 'green'"),
    ({"points": {"red": 3}}, "INPUT", "a winner or is a draw"),
    ({"winner": "red", "draw": True}, "INPUT", "not both"),
    ({"winner": "red", "points": {"red": 21}}, "CORE-RESULT-POINTS", "0 to 20"),
    ({"winner": "red", "points": {"red": -1}}, "CORE-RESULT-POINTS", "out of bounds"),
    ({"winner": "red", "points": {"red": "ten"}}, "INPUT", "points.red"),
])
def test_a_malformed_result_is_refused_with_a_clear_message(
    service: GameService, result: dict[str, Any], rule: str, words: str,
) -> None:
    game_id = service.start(T9A)

    outcome = step(service, game_id, "red", "end_game", result=result)

    assert (outcome.accepted, outcome.rule) == (False, rule)
    assert words in str(outcome.message)
    assert not view(service, game_id)["finished"]


def test_the_turn_that_ends_the_game_may_carry_its_result(service: GameService) -> None:
    """CORE-RESULT-EARLY, CORE-TURNS: the natural end of a T9A game (Game Turn 6)."""
    game_id = service.start(T9A)
    accepted(service, game_id, "red", "next_phase")
    early = step(service, game_id, "red", "end_turn", result=WIN)
    assert (early.accepted, early.rule) == (False, "CORE-RESULT-EARLY")
    for _ in range(5):
        accepted(service, game_id, "red", "end_turn")
        accepted(service, game_id, "blue", "end_turn")
    accepted(service, game_id, "red", "end_turn")

    last = accepted(service, game_id, "blue", "end_turn", result=WIN)
    accepted(service, game_id, "red", "consent", accept=True)

    assert last.events[-3:] == ["GameEnded", "ResultProposed", "ReactionWindowOpened"]
    assert view(service, game_id)["result"]["confirmed_by"] == "red"
    assert verify_game(service, game_id).ok


def test_a_mage_knight_result_scores_the_eliminated_figures(service: GameService) -> None:
    """CORE-RESULT-POINTS, CORE-MK-SCORE: points left out are filled in; others refused."""
    setup = Setup(ruleset="mageknight-2", board={"width": 36, "height": 36},
                  players=("red", "blue"),
                  units=({"id": "r1", "owner": "red", "x": 10, "y": 10, "points": 40},
                         {"id": "b1", "owner": "blue", "x": 11.125, "y": 10, "facing": 180,
                          "points": 30}))
    game_id = service.start(setup)
    wrong = step(service, game_id, "red", "end_game", result={"draw": True, "points": {"red": 5}})
    assert (wrong.accepted, wrong.rule) == (False, "CORE-RESULT-POINTS")

    accepted(service, game_id, "red", "end_game", result={"draw": True})
    accepted(service, game_id, "blue", "consent", accept=True)

    assert view(service, game_id)["result"]["points"] == {"red": 0, "blue": 0}


def test_metadata_is_recorded_at_set_up_and_shown_to_everyone(service: GameService) -> None:
    game_id = service.start(T9A)

    types = [e.fact.type for e in service.stored_events(game_id)]
    assert types[:3] == ["GameStarted", "SeedSealed", "GameMetadataRecorded"]
    for as_player in (None, "red", "blue"):
        metadata = view(service, game_id, as_player)["metadata"]
        assert metadata["players"]["blue"] == {"name": "Bo", "faction": "Orcs and Goblins"}
        assert metadata["deployed_first"] == "blue" and metadata["table"] == "7"


@pytest.mark.parametrize(("metadata", "words"), [
    ({"players": {"green": {"name": "Cy"}}}, "metadata.players: 'green' is not a player"),
    ({"deployed_first": "green"}, "metadata.deployed_first: 'green' is not a player"),
])
def test_metadata_naming_an_unknown_player_is_malformed(
    service: GameService, metadata: dict[str, Any], words: str,
) -> None:
    setup = T9A.model_copy(update={"metadata": GameMetadata.model_validate(metadata)})

    with pytest.raises(ScriptError, match=re.escape(words)):
        service.start(setup)


def test_a_script_carries_metadata_and_a_bad_one_is_malformed(play: Any) -> None:
    script = {"ruleset": "t9a", "board": {"width": 72, "height": 48}, "players": ["red", "blue"],
              "metadata": {"event": "GT", "players": {"red": {"faction": "Dwarves"}}},
              "steps": [{"by": "red", "do": "end_game", "result": WIN},
                        {"by": "blue", "do": "consent", "accept": True}]}

    result = play(script)

    assert result["state"]["metadata"]["players"]["red"] == {"name": None, "faction": "Dwarves"}
    assert result["state"]["result"]["winner"] == "red"
    with pytest.raises(ScriptError, match=re.escape("metadata.players.red.colour")):
        play({**script, "metadata": {"players": {"red": {"colour": "red"}}}})


def test_a_game_without_metadata_or_result_keeps_its_old_view_and_record(
    service: GameService,
) -> None:
    """Principle 7: older games' views, state hashes and commands are unchanged."""
    game_id = service.start(T9A.model_copy(update={"metadata": None}))

    accepted(service, game_id, "red", "end_game")

    state = view(service, game_id)
    assert "metadata" not in state and "result" not in state
    taken = service.stored_events(game_id)[-2].fact
    assert taken.type == "StepTaken" and "result" not in taken.command  # type: ignore[attr-defined]
    over = step(service, game_id, "red", "end_game")
    assert (over.accepted, over.rule) == (False, "CORE-GAME-OVER")


def test_undoing_the_end_of_the_game_undoes_its_result(service: GameService) -> None:
    game_id = proposed(service)
    accepted(service, game_id, "blue", "consent", accept=True)

    accepted(service, game_id, "red", "request_undo")
    accepted(service, game_id, "blue", "consent", accept=True)

    state = view(service, game_id)
    assert not state["finished"] and "result" not in state and state["reaction_window"] is None
    assert state["metadata"]["event"] == "Club Open"  # an undo keeps the metadata
    assert verify_game(service, game_id).ok


def test_results_and_metadata_keep_hidden_information_hidden(
    backend_service: GameService,
) -> None:
    """Results are public. Infinity's Private Information opens at the end
    (CORE-PRIVATE-AT-END): the ended game's view shows the Hidden Deployment trooper
    to its opponent, while what they could not see before the end stays out of their
    export and audit (`check_player_exports`)."""
    setup = HIDDEN_SETUP.model_copy(update={"metadata": GameMetadata.model_validate(
        {"players": {"pano": {"faction": "PanOceania"}, "nomads": {"faction": "Nomads"}}})})
    game_id = backend_service.start(setup)
    accepted(backend_service, game_id, "pano", "end_game",
             result={"winner": "nomads", "points": {"pano": 2, "nomads": 7}})
    accepted(backend_service, game_id, "nomads", "consent", accept=True)

    pano = view(backend_service, game_id, "pano")
    assert pano["result"]["winner"] == "nomads" and pano["metadata"]["players"]["pano"]
    assert pano["units"]["sniper-hd"]["owner"] == "nomads"  # opened at the end
    before_end = [e for e in seen_by(backend_service.stored_events(game_id), "pano")
                  if e.step == 0]
    assert not any("sniper-hd" in str(e.fact) for e in before_end)
    text = render(audit_entries(seen_by(backend_service.stored_events(game_id), "pano")))
    assert "RESULT confirmed by nomads: nomads wins (pano 2, nomads 7)" in text
    check_player_exports(backend_service, game_id)


def test_after_the_end_a_revealed_unit_is_named_as_any_other(service: GameService) -> None:
    """CORE-PRIVATE-AT-END: once the end has shown pano the Hidden Deployment trooper,
    a command naming it is answered as one naming a unit pano always saw (the game
    is over), not as an id no unit has; before the end it was "no unit"."""
    game_id = service.start(HIDDEN_SETUP)
    move = {"by": "pano", "do": "move", "path": [[11, 11]]}
    before = step(service, game_id, **{**move, "trooper": "sniper-hd"})
    assert before.rule == "INPUT" and "no unit 'sniper-hd'" in before.message
    accepted(service, game_id, "pano", "end_game",
             result={"winner": "nomads", "points": {"pano": 2, "nomads": 7}})

    revealed = step(service, game_id, **{**move, "trooper": "sniper-hd"})
    seen_all_along = step(service, game_id, **{**move, "trooper": "fusilier"})

    assert revealed.rule == seen_all_along.rule == "CORE-GAME-OVER"

"""`GameService.handle` takes commands, dice and an expected event from outside: each
fails as cleanly as the CLI (an `INPUT` refusal, or a conflict naming the head), and
a refusal writes nothing."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.commands import NextPhase
from domain.ruleset import Setup, find_ruleset
from replay.service import GameConflictError, GameService, Outcome

SETUPS = {
    "t9a": Setup(ruleset="t9a", board={"width": 72, "height": 48}, players=("red", "blue"),
                 units=({"id": "r1", "owner": "red", "x": 20, "y": 6, "facing": 90},
                        {"id": "b1", "owner": "blue", "x": 30, "y": 42, "facing": 270})),
    "infinity-n4": Setup(ruleset="infinity-n4", board={"width": 48, "height": 48},
                         players=("red", "blue"),
                         units=({"id": "r1", "owner": "red", "x": 10, "y": 10},
                                {"id": "b1", "owner": "blue", "x": 30, "y": 40})),
    "mageknight-2": Setup(ruleset="mageknight-2", board={"width": 48, "height": 48},
                          players=("red", "blue"),
                          units=({"id": "r1", "owner": "red", "x": 10, "y": 10},
                                 {"id": "b1", "owner": "blue", "x": 30, "y": 40})),
    "w40k-10": Setup(ruleset="w40k-10", board={"width": 44, "height": 60},
                     players=("red", "blue"),
                     units=({"id": "r1", "owner": "red", "x": 10, "y": 10},
                            {"id": "b1", "owner": "blue", "x": 30, "y": 40})),
}


@pytest.fixture
def game() -> tuple[GameService, UUID]:
    service = GameService(":memory:")
    return service, service.start(SETUPS["w40k-10"])


@pytest.mark.parametrize("command, dice, message", [
    ({"by": "red", "do": "next_phase"}, "12", "dice must be a list of whole numbers"),
    ({"by": "red", "do": "next_phase"}, [True], "dice must be a list of whole numbers"),
    ({"by": "red", "do": "next_phase"}, [3.0], "dice must be a list of whole numbers"),
    ({"by": "red", "do": "next_phase"}, [1] * 1001, "a step supplies at most 1,000 dice"),
    ("next_phase", None, "a command must be a mapping, not str"),
    ([("by", "red"), ("do", "next_phase")], None, "a command must be a mapping, not list"),
    (None, None, "a command must be a mapping, not NoneType"),
    ({"by": "red", "do": "next_phase", 7: 1}, None, "the key 7 is not text"),
    ({"by": "red", "do": "ruling", "text": {1, 2}}, None, "a value of type set is not data"),
    ({"by": "red" * 4000, "do": "next_phase"}, None, "is longer than the 10,000 a game holds"),
    ({"by": "red\udc00", "do": "next_phase"}, None, "lone UTF-16 surrogate (U+DC00)"),
])
def test_malformed_input_from_the_api_is_an_input_refusal(
    game: tuple[GameService, UUID], command: Any, dice: Any, message: str
) -> None:
    service, game_id = game
    before = service.stored_events(game_id)

    outcome = service.handle(game_id, command, dice)

    assert (outcome.accepted, outcome.rule) == (False, "INPUT")
    assert outcome.message is not None and message in outcome.message
    assert service.stored_events(game_id) == before


def test_true_is_not_recorded_as_a_die_roll_of_1(game: tuple[GameService, UUID]) -> None:
    service, game_id = game
    service.handle(game_id, {"by": "red", "do": "next_phase"})  # to the Movement phase
    service.handle(game_id, {"by": "red", "do": "next_phase"})  # Shooting
    service.handle(game_id, {"by": "red", "do": "next_phase"})  # Charge

    outcome = service.handle(game_id, {"by": "red", "do": "declare_charge", "unit": "r1",
                                       "targets": ["b1"]}, [True, True])

    assert (outcome.accepted, outcome.rule) == (False, "INPUT")


def test_a_command_model_is_checked_like_a_mapping(game: tuple[GameService, UUID]) -> None:
    service, game_id = game

    outcome = service.handle(game_id, NextPhase(by="r" * 10_001))

    assert (outcome.accepted, outcome.rule) == (False, "INPUT")


def test_a_stale_expected_event_is_a_conflict_naming_the_head_and_writes_nothing(
    game: tuple[GameService, UUID]
) -> None:
    """The judge counts the log's events and is shown its head hash."""
    service, game_id = game
    head = service.load(game_id)
    before = service.stored_events(game_id)
    ruling = {"by": "judge", "do": "ruling", "text": "fine"}

    with pytest.raises(GameConflictError) as conflict:
        service.handle(game_id, ruling, expect_event=head.version - 1)

    assert (conflict.value.version, conflict.value.head_hash) == (head.version, head.head_hash)
    assert service.stored_events(game_id) == before
    assert service.handle(game_id, ruling, expect_event=head.version).accepted


def test_a_player_expects_their_own_event_count_and_is_shown_their_own_view() -> None:
    """A player counts only the events they may see (a hidden trooper's are not
    theirs), and a conflict shows them their own count and view hash, never the
    log's (which would depend on the hidden trooper)."""
    from projections.state_view import state_hash
    from replay.export import numbered_for

    setup = SETUPS["infinity-n4"].model_copy(update={"units": (
        {"id": "r1", "owner": "red", "x": 10, "y": 10},
        {"id": "b1", "owner": "blue", "x": 30, "y": 40, "conditions": ["hidden_deployment"]})})
    service = GameService(":memory:")
    game_id = service.start(setup)
    events = service.stored_events(game_id)
    seen = len(numbered_for(events, "red"))
    assert seen < len(events)  # the hidden trooper's fielding is not red's

    with pytest.raises(GameConflictError) as conflict:
        service.handle(game_id, {"by": "red", "do": "next_phase"}, expect_event=len(events))

    view = state_hash(service.load(game_id).state, "red")
    assert (conflict.value.version, conflict.value.head_hash) == (seen, view)
    assert service.stored_events(game_id) == events
    assert service.handle(game_id, {"by": "red", "do": "next_phase"}, expect_event=seen).accepted


@pytest.mark.parametrize("expect", [True, "7", 2.0, -1])
def test_an_expected_event_that_is_no_event_number_is_input(
    game: tuple[GameService, UUID], expect: Any
) -> None:
    service, game_id = game

    outcome = service.handle(game_id, {"by": "red", "do": "next_phase"}, expect_event=expect)

    assert (outcome.accepted, outcome.rule) == (False, "INPUT")


# -- anything at all ------------------------------------------------------------------
LEAVES = (st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
          | st.sampled_from(["red", "blue", "judge", "r1", "b1", "next_phase"]))
JSONISH = st.recursive(
    LEAVES | st.binary(max_size=4) | st.tuples(LEAVES, LEAVES),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.text(max_size=6) | st.integers(), inner, max_size=4),
    max_leaves=12)


def commands_of(ruleset: str) -> st.SearchStrategy[Any]:
    """Anything, or a command of the rule set with anything for its arguments."""
    names = sorted(find_ruleset(ruleset).command_types)
    arguments = st.dictionaries(
        st.sampled_from(["unit", "units", "x", "y", "target", "targets", "steps", "accept",
                         "text", "stratagem", "path", "facing", "to", "reason", "on_step"]),
        JSONISH, max_size=3)
    command = st.builds(lambda do, by, rest: {"do": do, "by": by, **rest},
                        st.sampled_from(names), st.sampled_from(["red", "blue", "judge", ""]),
                        arguments)
    return command | JSONISH


@pytest.mark.parametrize("ruleset", sorted(SETUPS))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_anything_given_to_handle_is_an_outcome_and_a_refusal_writes_nothing(
    ruleset: str, data: st.DataObject
) -> None:
    service = GameService(":memory:")
    game_id = service.start(SETUPS[ruleset])
    for _ in range(3):
        command = data.draw(commands_of(ruleset), label="command")
        dice = data.draw(st.none() | st.lists(st.integers(0, 7), max_size=3) | JSONISH,
                         label="dice")
        expect = data.draw(st.none() | st.just(service.load(game_id).version) | JSONISH,
                           label="expect_event")
        before = service.stored_events(game_id)
        try:
            outcome = service.handle(game_id, command, dice, expect)
        except GameConflictError:
            assert service.stored_events(game_id) == before
            continue
        assert isinstance(outcome, Outcome)
        if not outcome.accepted:
            assert outcome.rule and outcome.message
            assert service.stored_events(game_id) == before
        else:
            assert len(service.stored_events(game_id)) == outcome.version > len(before)


def test_a_set_up_text_longer_than_the_limit_is_malformed() -> None:
    from domain.errors import ScriptError

    setup = SETUPS["t9a"].model_copy(update={"units": ({"id": "x" * 10_001, "owner": "red"},)})

    with pytest.raises(ScriptError, match=r"^setup: a text of 10,001 characters"):
        GameService(":memory:").start(setup)

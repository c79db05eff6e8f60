"""The decision gate's INPUT and CORE answers, for any rule set (here the dice game).

Each refusal writes nothing: the game's version is unchanged after it.
"""

from __future__ import annotations

from uuid import UUID

import pytest

from domain.commands import Command
from domain.ruleset import Setup
from domain.w40k.commands import ModifyStratagemCost
from replay.service import GameService, Outcome
from tests.accepting import accept
from tests.dice_game import DICE  # noqa: F401  (registers the test-dice rule set)
from tests.hidden_probes import games_of_engine_version_1

SETUP = Setup(ruleset="test-dice", board={"width": 10, "height": 10}, players=("red", "blue"),
              seed=5)


@pytest.fixture
def game(service: GameService) -> UUID:
    return service.start(SETUP)


def refused(service: GameService, game_id: UUID, command: dict[str, object] | Command,
            dice: list[int] | None = None) -> Outcome:
    before = service.load(game_id).version
    outcome = service.handle(game_id, command, dice)
    assert not outcome.accepted, outcome
    assert service.load(game_id).version == before  # a refusal writes nothing
    return outcome


def test_input_a_command_by_someone_not_in_the_game(service: GameService, game: UUID) -> None:
    outcome = refused(service, game, {"do": "roll", "by": "green"})

    assert (outcome.rule, outcome.message) == ("INPUT", "'green' is not a player in this game")


@pytest.mark.parametrize(("amount", "words"), [
    (2**70, "cannot be recorded"), (10**7, "is out of range"),
])
def test_input_a_command_object_holding_a_value_no_game_can_hold(
    service: GameService, amount: int, words: str,
) -> None:
    """A `Command` handed to the service directly skips parsing; the gate still checks it."""
    game_id = service.start(Setup(ruleset="w40k-10", board={"width": 48, "height": 48},
                                  players=("red", "blue"), seed=1, options={"cp": 3}))
    command = ModifyStratagemCost(by="red", amount=amount, source="a forged rule")

    outcome = refused(service, game_id, command)

    assert outcome.rule == "INPUT" and words in str(outcome.message), outcome


def test_input_dice_given_with_a_step_that_rolls_fewer(service: GameService, game: UUID) -> None:
    outcome = refused(service, game, {"do": "roll", "by": "red"}, dice=[3, 4])

    assert (outcome.rule, outcome.message) == (
        "INPUT", "the step supplied 1 die more than it rolled")


def test_core_game_over_only_contested_moves_after_the_end(
    service: GameService, game: UUID,
) -> None:
    accept(service, game, {"do": "end_game", "by": "judge"})

    outcome = refused(service, game, {"do": "roll", "by": "red"})
    asked = service.handle(game, {"do": "request_undo", "by": "red"})

    assert (outcome.rule, outcome.message) == (
        "CORE-GAME-OVER", "the game is over; no more commands")
    assert asked.rule != "CORE-GAME-OVER"


def test_an_accepted_step_starts_with_its_step_taken(service: GameService, game: UUID) -> None:
    outcome = accept(service, game, {"do": "roll", "by": "red"}, [4])

    assert outcome.events == ["StepTaken", "DiceRolled", "ClauseApplied"]
    assert outcome.message == "rolled 4"


def blue_unit_in_red_turn(service: GameService) -> UUID:
    """A 40k game with one blue unit, b1, after red's first next_phase (accepted)."""
    game_id = service.start(Setup(
        ruleset="w40k-10", board={"width": 48, "height": 48}, players=("red", "blue"), seed=1,
        options={"cp": 3}, units=({"id": "b1", "owner": "blue", "x": 10, "y": 20},)))
    accept(service, game_id, {"do": "next_phase", "by": "red"})
    return game_id


def test_core_owner_a_player_cannot_order_the_opponents_unit(service: GameService) -> None:
    game_id = blue_unit_in_red_turn(service)

    outcome = refused(service, game_id, {"do": "move", "by": "red", "unit": "b1", "x": 10,
                                         "y": 22})

    assert (outcome.rule, outcome.message) == (
        "CORE-OWNER", "b1 belongs to blue; red cannot order it")


def test_a_preview_leaves_the_state_it_is_shown_as_it_was(
    service: GameService, game: UUID,
) -> None:
    from domain.gate import preview

    state = service.load(game).state
    before = state.model_dump(mode="json")

    verdict = preview(state_ruleset(service, game), state, {"do": "next_phase", "by": "red"})

    assert verdict == (None, "would be accepted")
    assert state.model_dump(mode="json") == before


def state_ruleset(service: GameService, game_id: UUID):  # type: ignore[no-untyped-def]
    return service.load(game_id).ruleset


def test_input_is_checked_before_core_a_unit_that_does_not_exist(
    service: GameService,
) -> None:
    """Gate 1 before gate 2: blue names a unit no game holds out of turn;
    INPUT answers, not CORE-NOT-YOUR-TURN."""
    game_id = blue_unit_in_red_turn(service)

    outcome = refused(service, game_id, {"do": "move", "by": "blue", "unit": "ghost", "x": 10,
                                         "y": 22})

    assert outcome.rule == "INPUT" and "ghost" in str(outcome.message), outcome


def test_input_is_checked_before_core_a_die_showing_zero(
    service: GameService, game: UUID,
) -> None:
    """A physical die showing 0 is malformed whoever gives it and whenever: blue
    rolls out of turn with it, and INPUT answers before CORE-NOT-YOUR-TURN."""
    outcome = refused(service, game, {"do": "roll", "by": "blue"}, dice=[0])

    assert (outcome.rule, outcome.message) == ("INPUT", "a die cannot show 0")


def test_core_phase_a_command_the_machine_allows_but_no_rule_decides(
    service: GameService, game: UUID,
) -> None:
    """CORE-PHASE: the test dice game's machine allows `roll` in `play`; a rule set
    built without its handler refuses it, and the caller's state is unchanged."""
    from domain.dice import DiceSource
    from domain.errors import RuleViolation
    from domain.gate import decide
    from tests.dice_game import DiceGame, Roll

    unruled = DiceGame()  # an instance of its own: no handler is registered on it
    state = service.load(game).state
    before = state.model_dump(mode="json")

    with pytest.raises(RuleViolation) as refusal:
        decide(unruled, state, Roll(by="red"), DiceSource(5, state.dice_index))

    assert (refusal.value.rule, refusal.value.message) == (
        "CORE-PHASE", "'roll' has no rules yet in test-dice")
    assert state.model_dump(mode="json") == before


def test_input_a_unit_hidden_from_the_player_is_no_unit_before_any_core_rule(
    service: GameService, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Gate 1 resolves every unit a command names as its player may know it (CORE-OWNER):
    red, out of turn, naming blue's hidden unit as the unit to move or as a target, is
    told what an id no unit has is told; the judge, who knows every unit, is told
    CORE-JUDGE; blue, its owner, is answered by the rules, not INPUT."""
    games_of_engine_version_1(monkeypatch)  # a 40k game stored before CORE-HIDDEN-RULES
    game_id = service.start(Setup(
        ruleset="w40k-10", board={"width": 48, "height": 48}, players=("red", "blue"), seed=1,
        units=({"id": "r1", "owner": "red", "x": 10, "y": 10},
               {"id": "spy", "owner": "blue", "x": 30, "y": 30,
                "conditions": ["hidden_deployment"]})))
    accept(service, game_id, {"do": "end_turn", "by": "red"})  # blue's turn
    probes = [{"do": "move", "by": "red", "unit": "spy", "x": 1, "y": 1},
              {"do": "shoot", "by": "red", "unit": "r1", "target": "spy"}]

    for probe in probes:
        hidden = refused(service, game_id, probe)
        absent = refused(service, game_id, {**probe, **{k: "ghost" for k, v in probe.items()
                                                        if v == "spy"}})
        assert (hidden.rule, hidden.message) == ("INPUT", "there is no unit 'spy' in this game")
        assert absent.message == "there is no unit 'ghost' in this game"
    judge = refused(service, game_id, {"do": "move", "by": "judge", "unit": "spy", "x": 1,
                                       "y": 1})
    assert judge.rule == "CORE-JUDGE"
    owner = refused(service, game_id, {"do": "test_battle_shock", "by": "blue", "unit": "spy"})
    assert owner.rule != "INPUT"

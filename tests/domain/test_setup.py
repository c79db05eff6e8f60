"""Set-up rules every game keeps (CORE-BOARD-EDGE), and the rule sets' own."""

from __future__ import annotations

from typing import Any

import pytest

from domain.commands import JUDGE
from domain.errors import RuleViolation, ScriptError
from domain.gate import check_allowed_now
from domain.ruleset import Setup, find_ruleset
from replay.service import GameService
from tests.conftest import Play

BOARD = {"width": 48, "height": 48}


def script(ruleset: str, *units: dict[str, Any], steps: list[Any] | None = None) -> dict[str, Any]:
    return {"ruleset": ruleset, "board": BOARD, "players": ["red", "blue"],
            "units": list(units), "steps": steps or []}


@pytest.mark.parametrize("ruleset", ["t9a", "infinity-n4", "mageknight-2", "w40k-10"])
def test_core_board_edge_a_unit_fielded_off_the_board_makes_the_script_malformed(
    ruleset: str, play: Play
) -> None:
    with pytest.raises(ScriptError, match=r"CORE-BOARD-EDGE: u .* not wholly on the 48"):
        play(script(ruleset, {"id": "u", "owner": "red", "x": 47.8, "y": 10, "facing": 90}))


@pytest.mark.parametrize("ruleset", ["t9a", "infinity-n4", "mageknight-2", "w40k-10"])
def test_a_unit_on_the_table_without_a_facing_faces_zero_degrees(
    ruleset: str, play: Play
) -> None:
    result = play(script(ruleset, {"id": "u", "owner": "red", "x": 20, "y": 20}))

    assert result["state"]["units"]["u"]["facing"] == 0.0


def test_a_unit_on_the_table_needs_a_position(play: Play) -> None:
    with pytest.raises(ScriptError, match="u is on the table but has no x and y"):
        play(script("w40k-10", {"id": "u", "owner": "red"}))


def test_core_formation_a_t9a_unit_fielded_in_an_illegal_formation_is_malformed(
    play: Play,
) -> None:
    unit = {"id": "u", "owner": "red", "x": 20, "y": 20, "facing": 90,
            "files": 5, "ranks": 3, "models": 9}

    with pytest.raises(ScriptError, match="CORE-FORMATION"):
        play(script("t9a", unit))


def test_core_general_movement_infinity_bases_may_not_be_fielded_on_each_other(
    play: Play,
) -> None:
    a = {"id": "a", "owner": "red", "x": 10, "y": 10, "facing": 90}
    b = {"id": "b", "owner": "blue", "x": 10.2, "y": 10, "facing": 90}

    with pytest.raises(ScriptError, match="CORE-GENERAL-MOVEMENT: a's base would end on b's base"):
        play(script("infinity-n4", a, b))


def test_core_judge_a_judge_cannot_take_a_turn(play: Play) -> None:
    result = play(script("w40k-10", steps=[{"by": "judge", "do": "next_phase"}]))

    step = result["steps"][0]
    assert (step["accepted"], step["rule"]) == (False, "CORE-JUDGE")
    assert result["state"]["phase"] == "command"


@pytest.mark.parametrize("ruleset", ["t9a", "infinity-n4", "mageknight-2", "w40k-10"])
def test_core_judge_a_judge_issues_only_end_game_rulings_and_consent(
    ruleset: str, service: GameService
) -> None:
    """Every command of every rule set, issued by the judge, is refused with CORE-JUDGE
    before any rule reads it, except the three a judge may issue."""
    rules = find_ruleset(ruleset)
    game_id = service.start(Setup(ruleset=ruleset, board=BOARD, players=("red", "blue")))
    state = service.load(game_id).state
    judged = {}
    for name, command_type in rules.command_types.items():
        command = command_type.model_construct(do=name, by=JUDGE)
        try:
            check_allowed_now(rules, state, command)
            judged[name] = "allowed"
        except RuleViolation as refusal:
            judged[name] = refusal.rule

    assert {n for n, verdict in judged.items() if verdict != "CORE-JUDGE"} == {
        "end_game", "ruling", "consent"}


def test_a_judge_step_in_a_script_is_refused_not_a_crash(play: Play) -> None:
    result = play(script("w40k-10", steps=[{"by": "judge", "do": "gain_cp", "source": "F"}]))

    assert (result["steps"][0]["accepted"], result["steps"][0]["rule"]) == (False, "CORE-JUDGE")


def test_dice_must_be_whole_numbers_not_booleans(play: Play) -> None:
    result = play(script("w40k-10", steps=[{"by": "red", "do": "end_turn", "dice": [True]}]))

    assert (result["steps"][0]["accepted"], result["steps"][0]["rule"]) == (False, "INPUT")


@pytest.mark.parametrize("ruleset", ["t9a", "infinity-n4", "mageknight-2", "w40k-10"])
def test_facings_are_kept_as_0_to_360_degrees(ruleset: str, play: Play) -> None:
    result = play(script(ruleset, {"id": "u", "owner": "red", "x": 20, "y": 20, "facing": 450},
                         {"id": "v", "owner": "red", "x": 30, "y": 30, "facing": -90}))

    assert result["state"]["units"]["u"]["facing"] == 90.0
    assert result["state"]["units"]["v"]["facing"] == 270.0


def test_a_command_facing_is_kept_as_0_to_360_degrees(play: Play) -> None:
    to_movement = [{"by": "red", "do": "next_phase"}] * 2  # deployment, charge, movement
    reform = {"by": "red", "do": "reform", "unit": "u", "facing": -270}
    unit = {"id": "u", "owner": "red", "x": 20, "y": 20, "facing": 0, "files": 2, "ranks": 2,
            "base": [1, 1]}

    result = play(script("t9a", unit, steps=[*to_movement, reform]))

    assert result["steps"][-1]["accepted"], result["steps"][-1]
    assert result["state"]["units"]["u"]["facing"] == 90.0


def test_a_length_beyond_any_table_is_input_not_a_crash(play: Play) -> None:
    steps = [{"by": "red", "do": "next_phase"},
             {"by": "red", "do": "move", "trooper": "u", "path": [[1.0e308, 10]]}]
    result = play(script("infinity-n4", {"id": "u", "owner": "red", "x": 10, "y": 10},
                         steps=steps))

    refused = result["steps"][-1]
    assert (refused["accepted"], refused["rule"]) == (False, "INPUT")
    assert refused["message"] == ("move.path[0][0] = 1e+308 is out of range: numbers in a "
                                  "game go up to ±1,000,000")


def test_a_set_up_length_beyond_any_table_makes_the_script_malformed(play: Play) -> None:
    with pytest.raises(ScriptError, match=r"setup.units\[0\].y = 1e\+300 is out of range"):
        play(script("w40k-10", {"id": "u", "owner": "red", "x": 10, "y": 1e300}))


@pytest.mark.parametrize("options,message", [
    ({"zone_of_control": "far"}, "options.zone_of_control: Input should be a valid number"),
    ({"zone_of_control": -1}, "options.zone_of_control: Input should be greater than 0"),
    ({"zone_of_control": True}, "options.zone_of_control: Input should be a valid number"),
])
def test_infinity_option_values_are_checked_before_the_game_starts(
    play: Play, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(ScriptError, match=message):
        play({**script("infinity-n4"), "options": options})


@pytest.mark.parametrize("options", [{"actions_per_turn": "3"}, {"actions_per_turn": 0},
                                     {"dark_alliance_once_per": "team"},
                                     {"items": [{"id": "i", "x": "left"}]}])
def test_mage_knight_option_values_are_checked_before_the_game_starts(
    play: Play, options: dict[str, Any]
) -> None:
    with pytest.raises(ScriptError, match=r"^script: options\."):
        play({**script("mageknight-2"), "options": options})


def test_cau_02_a_variant_is_read_in_any_case(play: Play) -> None:
    steps = [{"by": "red", "do": "next_phase"},
             {"by": "red", "do": "cautious_move", "trooper": "u", "path": [[11, 10]]}]
    result = play({**script("infinity-n4", {"id": "u", "owner": "red", "x": 10, "y": 10},
                            steps=steps), "variant": "CodeOne"})

    assert result["state"]["variant"] == "codeone"
    assert (result["steps"][-1]["accepted"], result["steps"][-1]["rule"]) == (False, "CAU-02")


@pytest.mark.parametrize("ruleset,variant", [("infinity-n4", "bogus"), ("t9a", "codeone")])
def test_an_unknown_variant_makes_the_script_malformed(
    play: Play, ruleset: str, variant: str
) -> None:
    with pytest.raises(ScriptError, match=f"variant '{variant}' is not a variant of {ruleset}"):
        play({**script(ruleset), "variant": variant})


def test_a_count_beyond_any_game_is_input_not_an_overflow(play: Play) -> None:
    """A cost modifier of -2**63 would overflow the CP sums and their storage."""
    huge = {"by": "red", "do": "modify_stratagem_cost", "amount": -(2**63), "source": "x"}

    result = play(script("w40k-10", steps=[huge]))

    refused = result["steps"][0]
    assert (refused["accepted"], refused["rule"]) == (False, "INPUT")
    assert refused["message"].startswith(
        "modify_stratagem_cost.amount = -9223372036854775808 is out of range")


@pytest.mark.parametrize("kind", ["blocking", "impassable"])
def test_core_general_movement_an_infinity_trooper_is_not_fielded_in_terrain(
    play: Play, kind: str
) -> None:
    wall = {"id": "w", "kind": kind, "polygon": [[8, 8], [12, 8], [12, 12], [8, 12]]}
    touching = {"id": "t", "owner": "red", "x": 7.5, "y": 10}

    with pytest.raises(ScriptError, match=f"CORE-GENERAL-MOVEMENT: u's base would cross {kind}"):
        play({**script("infinity-n4", {"id": "u", "owner": "red", "x": 10, "y": 10}),
              "terrain": [wall]})
    assert play({**script("infinity-n4", touching), "terrain": [wall]})["state"]["units"]["t"]


@pytest.mark.parametrize("wounds_left,message", [
    (-5, "wounds_left cannot be negative"),
    (99, "wounds_left 99 is more than its 2 models of 2 wounds have"),
    (0, "wounds_left 0 leaves 0 models of 2 wounds .*; a unit with none left is removed"),
    (2, "wounds_left 2 leaves 1 model of 2 wounds"),
])
def test_a_40k_unit_is_fielded_with_wounds_its_models_can_have(
    play: Play, wounds_left: int, message: str
) -> None:
    unit = {"id": "u", "owner": "red", "x": 10, "y": 10, "models": 2, "wounds": 2,
            "wounds_left": wounds_left}

    with pytest.raises(ScriptError, match=message):
        play(script("w40k-10", unit))


@pytest.mark.parametrize("ruleset", ["t9a", "w40k-10", "mageknight-2"])
def test_core_hidden_rules_a_hidden_unit_needs_its_rule_sets_rules_for_hiding(
        ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """CORE-HIDDEN-RULES (engine rules version 2): outside Infinity nothing says how a
    hidden unit acts or is revealed, so the set-up is refused; a game stored before
    keeps its hidden unit."""
    from domain.rules_version import ENGINE
    from tests.hidden_probes import games_of_engine_version_1

    setup = Setup(ruleset=ruleset, board={"width": 48, "height": 48}, players=("red", "blue"),
                  units=({"id": "r1", "owner": "red", "x": 10, "y": 10},
                         {"id": "spy", "owner": "blue", "x": 30, "y": 30,
                          "conditions": ["hidden_deployment"]}))
    service = GameService(":memory:")

    with pytest.raises(ScriptError, match=f"CORE-HIDDEN-RULES: spy is given hidden_deployment, "
                       f"which {ruleset} has no rules for"):
        service.start(setup)

    games_of_engine_version_1(monkeypatch)
    game_id = service.start(setup)
    state = service.load(game_id).state
    assert state.rules_version is not None and state.rules_version[ENGINE] == 1
    assert "spy" in state.units


def test_core_hidden_rules_infinity_hides_by_its_own_rules() -> None:
    from tests.replay.test_secrets import HIDDEN_SETUP

    service = GameService(":memory:")
    game_id = service.start(HIDDEN_SETUP)
    assert "hidden_deployment" in service.load(game_id).state.units["sniper-hd"].conditions

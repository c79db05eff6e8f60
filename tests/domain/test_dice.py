"""Dice are provably fair, physical dice must fit the step, and replay never rolls."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from types import SimpleNamespace
from typing import Any
from uuid import UUID

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain import dice as dice_module
from domain.dice import DiceSource, digital_die, physical_dice_problem, seed_commitment
from domain.errors import InputError
from domain.ruleset import Setup
from replay.service import GameService
from tests.accepting import accept
from tests.dice_game import DICE  # noqa: F401  (registers the test-dice rule set)

DICE_GAME = Setup(ruleset="test-dice", board={"width": 10, "height": 10},
                  players=("red", "blue"), seed=99)


def test_a_digital_die_is_the_same_for_the_same_seed_and_index() -> None:
    assert [digital_die(42, i) for i in range(20)] == [digital_die(42, i) for i in range(20)]


def test_different_seeds_give_different_streams() -> None:
    assert [digital_die(1, i) for i in range(30)] != [digital_die(2, i) for i in range(30)]


@given(seed=st.integers(min_value=0, max_value=2**64), index=st.integers(0, 10**6),
       sides=st.sampled_from([2, 3, 6, 10, 12, 20, 100]))
def test_a_digital_die_always_shows_a_face(seed: int, index: int, sides: int) -> None:
    assert 1 <= digital_die(seed, index, sides) <= sides


def test_d6_faces_are_uniform_by_chi_square() -> None:
    counts = Counter(digital_die(2026, i) for i in range(6000))

    chi_square = sum((counts[face] - 1000) ** 2 / 1000 for face in range(1, 7))

    # 5 degrees of freedom: the 99.9th percentile is 20.5.
    assert chi_square < 20.5, counts


def test_the_commitment_hides_the_seed_behind_sha256() -> None:
    assert seed_commitment(7) == seed_commitment(7) != seed_commitment(8)
    assert len(seed_commitment(7)) == 64 and seed_commitment(7) != "7"


def test_digital_draws_advance_the_index() -> None:
    source = DiceSource(seed=5, next_index=10)

    [(values, kind, first)] = source.draw(3, 6)

    assert (kind, first, source.next_index) == ("digital", 10, 13)
    assert values == tuple(digital_die(5, 10 + i) for i in range(3))


def test_physical_dice_are_used_in_order_and_must_all_be_used() -> None:
    source = DiceSource(seed=5, next_index=0, physical=[6, 1, 4])

    assert source.draw(2, 6) == [((6, 1), "physical", None)]
    with pytest.raises(InputError, match="supplied 1 die more than it rolled"):
        source.check_all_used()


def test_too_few_physical_dice_is_an_input_error() -> None:
    with pytest.raises(InputError, match="too few dice"):
        DiceSource(seed=0, next_index=0, physical=[3]).draw(2, 6)


def test_a_physical_die_must_show_a_face() -> None:
    with pytest.raises(InputError, match="cannot show 7"):
        DiceSource(seed=0, next_index=0, physical=[7]).draw(1, 6)


@pytest.mark.parametrize("value", [0, -1])
def test_a_physical_die_showing_0_or_less_is_refused(value: int) -> None:
    with pytest.raises(InputError, match=f"a d6 cannot show {value}"):
        DiceSource(seed=0, next_index=0, physical=[3, value]).draw(2, 6)


@pytest.mark.parametrize("value", [1, 6])
def test_a_physical_die_may_show_each_end_face(value: int) -> None:
    assert DiceSource(seed=0, next_index=0, physical=[value]).draw(1, 6) == [
        ((value,), "physical", None)]


def test_reused_dice_come_before_new_digital_ones() -> None:
    source = DiceSource(seed=0, next_index=4, reusable=[2, 5])

    assert source.draw(2, 6) == [((2, 5), "reused", None)]
    assert source.draw(1, 6)[0][1:] == ("digital", 4)


def test_a_roll_larger_than_the_queue_takes_the_queue_then_fresh_dice() -> None:
    source = DiceSource(seed=0, next_index=4, reusable=[3])

    parts = source.draw(2, 6)

    assert parts[0] == ((3,), "reused", None)
    assert parts[1][1:] == ("digital", 4) and len(parts[1][0]) == 1
    assert not source.reusable


def test_dice_words_are_singular_or_plural() -> None:
    """CORE-DICE messages: "1 die", "2 dice", "no die"."""
    from domain.dice import dice

    assert (dice(0), dice(1), dice(2)) == ("no die", "1 die", "2 dice")
    source = DiceSource(seed=0, next_index=0, physical=[6, 2, 3])
    with pytest.raises(InputError, match="supplied 3 dice more than it rolled"):
        source.check_all_used()


def test_a_roll_takes_only_as_many_queued_dice_as_it_rolls() -> None:
    source = DiceSource(seed=0, next_index=0, reusable=[2, 5, 3])

    assert source.draw(2, 6) == [((2, 5), "reused", None)]
    assert list(source.reusable) == [3]


@pytest.mark.parametrize("face", [1, 6])
def test_a_queued_die_showing_an_end_face_is_reused(face: int) -> None:
    source = DiceSource(seed=0, next_index=0, reusable=[face])

    assert source.draw(1, 6) == [((face,), "reused", None)]


@pytest.mark.parametrize("queued", [[0], [7], [9, 2]])
def test_a_queued_die_that_does_not_fit_this_roll_stays_queued(queued: list[int]) -> None:
    source = DiceSource(seed=0, next_index=0, reusable=queued)

    parts = source.draw(1, 6)

    assert parts == [((digital_die(0, 0),), "digital", 0)]
    assert list(source.reusable) == queued


def test_queued_dice_are_served_from_the_front_until_one_does_not_fit() -> None:
    source = DiceSource(seed=0, next_index=0, reusable=[2, 9])

    parts = source.draw(2, 6)

    assert parts == [((2,), "reused", None), ((digital_die(0, 0),), "digital", 0)]
    assert list(source.reusable) == [9]


def test_dice_may_not_be_supplied_while_undone_dice_are_queued() -> None:
    source = DiceSource(seed=0, next_index=0, physical=[6], reusable=[1])

    with pytest.raises(InputError, match="1 die of undone steps is queued"):
        source.draw(1, 6)


def test_a_step_with_dice_it_does_not_roll_is_refused_with_input(play) -> None:  # type: ignore[no-untyped-def]
    result = play({
        "ruleset": "t9a", "board": {"width": 48, "height": 48}, "players": ["a", "b"],
        "steps": [{"by": "a", "do": "next_phase", "dice": [3, 4]}],
    })

    step = result["steps"][0]
    assert (step["accepted"], step["rule"]) == (False, "INPUT")
    assert result["state"]["phase"] == "deployment"


def test_a_die_whose_whole_block_is_biased_is_drawn_from_the_next_block(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rejection sampling goes on in HMAC(seed, "die:INDEX:1") when every byte of
    block 0 is at or above the limit (a chance below 2**-32 for any die, so no real
    seed reaches it: the block is forced here)."""
    real = hmac.new

    def forced(key: bytes, message: bytes, digestmod: Any) -> Any:
        if message == b"die:7:0":
            return SimpleNamespace(digest=lambda: bytes([255] * 32))
        return real(key, message, digestmod)

    monkeypatch.setattr(dice_module, "hmac", SimpleNamespace(new=forced))
    block = hmac.new(b"42", b"die:7:1", hashlib.sha256).digest()

    assert digital_die(42, 7) == next(b for b in block if b < 252) % 6 + 1


@pytest.mark.parametrize("given_dice", [None, [], [1], (6, 2), [1] * 1000])
def test_none_or_up_to_1000_whole_numbers_are_physical_dice(given_dice: object) -> None:
    assert physical_dice_problem(given_dice) is None


@pytest.mark.parametrize("given_dice", ["12", 3, {"a": 1}, [True], [3.0], [1, "2"]])
def test_anything_but_a_list_of_whole_numbers_is_no_physical_dice(given_dice: object) -> None:
    assert physical_dice_problem(given_dice) == "dice must be a list of whole numbers"


def test_1001_physical_dice_are_more_than_a_step_supplies() -> None:
    assert physical_dice_problem([1] * 1001) == "a step supplies at most 1,000 dice, not 1,001"


def test_exactly_1000_physical_dice_reach_the_rules_and_1001_do_not(
    service: GameService,
) -> None:
    """A roll of 1 die given 1,000: the rules take the first and refuse the 999 left
    (INPUT); given 1,001, the step is refused before any rule is asked. Neither
    writes anything."""
    game_id = service.start(DICE_GAME)
    before = service.stored_events(game_id)

    thousand = service.handle(game_id, {"do": "roll", "by": "red"}, [4] * 1000)
    more = service.handle(game_id, {"do": "roll", "by": "red"}, [4] * 1001)

    assert (thousand.rule, thousand.message) == (
        "INPUT", "the step supplied 999 dice more than it rolled")
    assert (more.rule, more.message) == (
        "INPUT", "a step supplies at most 1,000 dice, not 1,001")
    assert service.stored_events(game_id) == before


def test_a_script_step_may_give_1000_dice_and_no_more(play) -> None:  # type: ignore[no-untyped-def]
    steps = [{"by": "red", "do": "roll", "dice": [2] * count} for count in (1000, 1001)]
    result = play({"ruleset": "test-dice", "board": {"width": 10, "height": 10},
                   "players": ["red", "blue"], "steps": steps})

    assert [(s["accepted"], s["rule"]) for s in result["steps"]] == [
        (False, "INPUT"), (False, "INPUT")]
    assert "999 dice more than it rolled" in result["steps"][0]["message"]
    assert "at most 1,000 dice, not 1,001" in result["steps"][1]["message"]


def test_digital_dice_fit_any_step() -> None:
    DiceSource(seed=0, next_index=0).check_fit()
    DiceSource(seed=0, next_index=0, reusable=[3]).check_fit()


@pytest.mark.parametrize("physical", [[1], [1, 6, 300], []])
def test_physical_dice_showing_1_or_more_fit_before_the_rules_are_asked(
    physical: list[int],
) -> None:
    """The faces a die may show are known only when it is rolled (d6 or d20): before
    the rules, a die must show 1 or more."""
    DiceSource(seed=0, next_index=0, physical=physical).check_fit()


@pytest.mark.parametrize("value", [0, -1])
def test_a_physical_die_below_1_does_not_fit_whatever_is_rolled(value: int) -> None:
    source = DiceSource(seed=0, next_index=0, physical=[2, value])

    with pytest.raises(InputError, match=f"^INPUT: a die cannot show {value}$"):
        source.check_fit()


@pytest.mark.parametrize("queued, words", [([5], "1 die of undone steps is queued"),
                                           ([5, 2], "2 dice of undone steps are queued")])
def test_physical_dice_do_not_fit_while_undone_dice_are_queued(
    queued: list[int], words: str,
) -> None:
    source = DiceSource(seed=0, next_index=0, physical=[6], reusable=queued)

    with pytest.raises(InputError, match=f"^INPUT: {words} and used first; this step may not "
                                         "supply dice of its own$"):
        source.check_fit()


def undone_roll(service: GameService) -> tuple[UUID, int]:
    """A game whose one roll (a physical 3) was undone by consent: the 3 is queued."""
    game_id = service.start(DICE_GAME)
    accept(service, game_id, {"do": "roll", "by": "red"}, [3])
    accept(service, game_id, {"do": "request_undo", "by": "red"})
    accept(service, game_id, {"do": "consent", "by": "blue", "accept": True})
    assert service.load(game_id).state.reusable_dice == [3]
    return game_id, len(service.stored_events(game_id))


@pytest.mark.parametrize("physical", [[6], [3], []])
def test_physical_and_reused_dice_together_are_refused_and_write_nothing(
    service: GameService, physical: list[int],
) -> None:
    """No fishing (CORE dice principle): with an undone 3 queued, a roll that gives
    dice of its own, even the same 3 or none at all, is refused with INPUT; the
    queue and the log are as they were, and the next roll is the 3 again."""
    game_id, events = undone_roll(service)

    refused = service.handle(game_id, {"do": "roll", "by": "red"}, physical)

    assert (refused.accepted, refused.rule) == (False, "INPUT")
    assert refused.message is not None and "1 die of undone steps is queued" in refused.message
    assert len(service.stored_events(game_id)) == events
    assert service.load(game_id).state.reusable_dice == [3]
    again = service.handle(game_id, {"do": "roll", "by": "red"})
    assert (again.accepted, again.message) == (True, "rolled 3")

"""Dice are provably fair, physical dice must fit the step, and replay never rolls."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.dice import DiceSource, digital_die, seed_commitment
from domain.errors import InputError


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

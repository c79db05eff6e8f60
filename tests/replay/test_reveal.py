"""Recorded rolls can be re-derived from the revealed seed; a forged roll cannot."""

from __future__ import annotations

from dataclasses import replace

from replay.reveal import reveal_lines
from replay.service import GameService
from tests.accepting import accept
from tests.dice_game import DICE  # noqa: F401  (registers the test-dice rule set)
from tests.replay.test_undo import SETUP


def test_every_digital_roll_follows_from_the_revealed_seed(service: GameService) -> None:
    game_id = service.start(SETUP)
    for _ in range(5):
        accept(service, game_id, {"do": "roll", "by": "red"})
    accept(service, game_id, {"do": "roll", "by": "red"}, [6])

    ok, lines = reveal_lines(service.stored_events(game_id))

    assert ok
    assert lines[0] == "seed: 99"
    assert sum("derived from the seed" in line for line in lines) == 5
    assert sum("(physical dice)" in line for line in lines) == 1


def test_a_forged_roll_does_not_follow_from_the_seed(service: GameService) -> None:
    game_id = service.start(SETUP)
    accept(service, game_id, {"do": "roll", "by": "red"})
    events = service.stored_events(game_id)
    roll = events[-2]
    forged_value = 1 if roll.fact.values[0] != 1 else 2  # type: ignore[attr-defined]
    forged_fact = roll.fact.model_copy(update={"values": (forged_value,)})
    forged = replace(roll, fact=forged_fact)

    ok, lines = reveal_lines([*events[:-2], forged, events[-1]])

    assert not ok and "MISMATCH" in "\n".join(lines)


def _roll_then_undo_then_roll(service: GameService) -> list:  # type: ignore[type-arg]
    game_id = service.start(SETUP)
    accept(service, game_id, {"do": "roll", "by": "red"})
    accept(service, game_id, {"do": "request_undo", "by": "red"})
    accept(service, game_id, {"do": "consent", "by": "blue", "accept": True})
    accept(service, game_id, {"do": "roll", "by": "red"})
    return service.stored_events(game_id)


def test_core_undo_dice_reused_dice_are_shown_to_be_the_undone_ones(
    service: GameService,
) -> None:
    ok, lines = reveal_lines(_roll_then_undo_then_roll(service))

    assert ok
    assert sum("(reused dice: the undone ones, in order)" in line for line in lines) == 1


def test_core_undo_dice_a_reused_die_that_is_not_the_undone_one_is_caught(
    service: GameService,
) -> None:
    """A forged reused die (a 6 where the undone die was not a 6) fails reveal."""
    events = _roll_then_undo_then_roll(service)
    index = next(i for i, e in enumerate(events)
                 if getattr(e.fact, "source", None) == "reused")
    undone = events[index].fact.values[0]  # type: ignore[attr-defined]
    forged = replace(events[index], fact=events[index].fact.model_copy(
        update={"values": (1 if undone != 1 else 2,)}))

    ok, lines = reveal_lines([*events[:index], forged, *events[index + 1:]])

    assert not ok and f"the undone dice queued were [{undone}]" in "\n".join(lines)


def test_core_dice_a_digital_roll_that_skips_dice_is_caught(service: GameService) -> None:
    """Taking die #5 when #1 is next would let a player pick good dice (CORE-DICE)."""
    game_id = service.start(SETUP)
    accept(service, game_id, {"do": "roll", "by": "red"})
    accept(service, game_id, {"do": "roll", "by": "red"})
    events = service.stored_events(game_id)
    index = [i for i, e in enumerate(events) if getattr(e.fact, "source", None) == "digital"][1]
    skipped = replace(events[index], fact=events[index].fact.model_copy(
        update={"first_index": 5}))

    ok, lines = reveal_lines([*events[:index], skipped, *events[index + 1:]])

    assert not ok and "SKIPS: the next die was #1" in "\n".join(lines)

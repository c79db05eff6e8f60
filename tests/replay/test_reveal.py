"""Recorded rolls can be re-derived from the revealed seed; a forged roll cannot."""

from __future__ import annotations

from dataclasses import replace

from replay.reveal import reveal_lines
from replay.service import GameService
from tests.dice_game import DICE  # noqa: F401  (registers the test-dice rule set)
from tests.replay.test_undo import SETUP


def test_every_digital_roll_follows_from_the_revealed_seed(service: GameService) -> None:
    game_id = service.start(SETUP)
    for _ in range(5):
        service.handle(game_id, {"do": "roll", "by": "red"})
    service.handle(game_id, {"do": "roll", "by": "red"}, [6])

    ok, lines = reveal_lines(service.stored_events(game_id))

    assert ok
    assert lines[0] == "seed: 99"
    assert sum("derived from the seed" in line for line in lines) == 5
    assert sum("(physical dice)" in line for line in lines) == 1


def test_a_forged_roll_does_not_follow_from_the_seed(service: GameService) -> None:
    game_id = service.start(SETUP)
    service.handle(game_id, {"do": "roll", "by": "red"})
    events = service.stored_events(game_id)
    roll = events[-2]
    forged_value = 1 if roll.fact.values[0] != 1 else 2  # type: ignore[attr-defined]
    forged_fact = roll.fact.model_copy(update={"values": (forged_value,)})
    forged = replace(roll, fact=forged_fact)

    ok, lines = reveal_lines([*events[:-2], forged, events[-1]])

    assert not ok and "MISMATCH" in "\n".join(lines)

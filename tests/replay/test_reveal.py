"""Recorded rolls can be re-derived from the revealed seed; a forged roll cannot."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from uuid import UUID

import pytest

from replay.reveal import mid_game_warning, reveal_lines
from replay.service import GameService
from tests.accepting import accept
from tests.dice_game import DICE  # noqa: F401  (registers the test-dice rule set)
from tests.replay.test_undo import SETUP
from warledger.cli import main
from warledger.script import load_script, run_script


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


# -- revealing before the result is confirmed (CORE-DICE) ------------------------------------
def test_reveal_refuses_a_game_in_progress_and_warns_until_the_result_is_confirmed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The seed foresees every digital die still to come: `reveal` of a game in progress
    needs `--in-progress` (exit 2 without it, the seed not printed) and warns; a game
    ended with no confirmed result is revealed with a warning; a confirmed one without."""
    db = str(tmp_path / "w.db")
    service = GameService(db)
    script = load_script("examples/w40k-turns.yaml")
    script.steps = script.steps[:2]
    game_id = UUID(run_script(service, script)["game_id"])

    assert main(["reveal", db, str(game_id)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "seed:" not in captured.err
    assert captured.err == (
        f"warledger: not revealing the seed of game {game_id}: this game is still in "
        f"progress (round 1, command phase): its seed foresees every digital die still to "
        "come (CORE-DICE); whoever reads it can predict the rest of the game's rolls; "
        "`reveal --in-progress` shows it anyway\n")
    assert main(["reveal", db, str(game_id), "--in-progress"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("seed: ")
    assert captured.err.startswith("warledger: warning: this game is still in progress")

    accept(service, game_id, {"by": "red", "do": "end_game"})
    assert main(["reveal", db, str(game_id)]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("seed: ")
    assert captured.err == ("warledger: warning: this game's result is not confirmed: an "
                            "undo by consent may resume it, and its seed foresees every "
                            "digital die still to come (CORE-DICE)\n")

    claim = {"winner": "red", "draw": False, "points": {"red": 15, "blue": 5}}
    accept(service, game_id, {"by": "red", "do": "end_game", "result": claim})
    assert mid_game_warning(service.load(game_id).state) is not None  # proposed only
    accept(service, game_id, {"by": "blue", "do": "consent", "accept": True})
    service.close()
    assert main(["reveal", db, str(game_id)]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("seed: ") and captured.err == ""

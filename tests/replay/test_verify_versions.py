"""`verify` and the rules versions of each step (CONTRACT "Rules versions"): a step
this code no longer holds the versions of is applied as recorded, so the steps after
it are re-decided on the right state; without a list to note it in, it fails the
log; and a version change may not drop a version the game was decided under."""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

import pytest

from events.core import RulesVersionChanged
from replay.service import GameService
from replay.verify import VerifyFailure, redecide_all, verify_game
from tests.dice_game import DiceGame
from tests.replay.test_keyed import rewrite_events
from tests.replay.test_rules_versions import NEWER, ROLL, play


@pytest.fixture
def two_versions(monkeypatch: pytest.MonkeyPatch) -> tuple[GameService, UUID]:
    """A dice game with two digital rolls decided under test-dice 1, then a third
    under test-dice 2; this code now holds version 2 only."""
    service = GameService(":memory:")
    game_id = play(service, ROLL, ROLL)
    monkeypatch.setattr(DiceGame, "rules_changes", NEWER)
    assert service.handle(game_id, ROLL).accepted
    monkeypatch.setattr(DiceGame, "oldest_rules_version", 2)
    return service, game_id


def test_steps_not_re_decided_are_applied_so_the_next_is_re_decided_on_their_dice(
    two_versions: tuple[GameService, UUID],
) -> None:
    """The third roll's digital die is die 2 of the seed: only a game that applied the
    first two rolls (their dice index) re-decides it to the die the log holds."""
    verdict = verify_game(*two_versions)

    assert verdict.ok, verdict.line()
    assert [line.split(" (")[0] for line in verdict.not_redecided] == ["step 1", "step 2"]
    assert verdict.steps == 3


def test_without_a_list_for_them_a_step_not_re_decided_fails_the_log(
    two_versions: tuple[GameService, UUID],
) -> None:
    service, game_id = two_versions
    events = service.stored_events(game_id)
    first_step = next(e.originator_version for e in events if e.fact.type == "StepTaken")

    with pytest.raises(VerifyFailure) as failure:
        redecide_all(events)

    assert failure.value.version == first_step
    assert failure.value.reason.startswith("NOT RE-DECIDED: test-dice rules version 1 is no "
                                           "longer held")


def test_a_version_change_that_drops_a_version_goes_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A forged `RulesVersionChanged` (chain recomputed) that leaves the engine's version
    out: a version left out is below every version the game was decided under."""
    db = str(tmp_path / "g.db")
    service = GameService(db)
    game_id = play(service, ROLL)
    monkeypatch.setattr(DiceGame, "rules_changes", NEWER)
    assert service.handle(game_id, ROLL).accepted
    service.close()

    def drop_engine(version: int, fact: dict[str, object]) -> None:
        if fact["type"] == "RulesVersionChanged":
            fact["versions"] = {"test-dice": 2}

    rewrite_events(db, game_id, drop_engine)
    changed = [e.originator_version for e in GameService(db).stored_events(game_id)
               if isinstance(e.fact, RulesVersionChanged)]

    verdict = verify_game(GameService(db), game_id)

    assert (verdict.ok, verdict.bad_version) == (False, changed[0])
    assert verdict.reason == ("the rules versions go back from engine 2, test-dice 1 to "
                              "test-dice 2")

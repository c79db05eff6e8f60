"""Rules versions: each game is stamped with the versions it is decided under; play
continues under newer ones with `RulesVersionChanged`; `verify` re-decides each step
under the versions that decided it, and says NOT RE-DECIDED (exit 4) where this code
no longer holds them; `revalidate` reports what today's rules would change, writing
nothing (CONTRACT "Rules versions")."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain import rules_version
from domain.decision import Decision
from domain.errors import RuleViolation
from domain.rules_version import RulesChange, at_least
from domain.ruleset import Setup
from events.core import ClauseApplied, GameStarted, RulesVersionChanged
from replay.revalidate import revalidate
from replay.service import GameService
from replay.verify import verify_game
from tests.dice_game import DICE, DiceGame, Roll
from warledger.cli import main

SETUP = Setup(ruleset="test-dice", board={"width": 10, "height": 10},
              players=("red", "blue"), seed=7)
NEWER = (RulesChange(2, ("TEST-2",), "a roll of 6 is cited differently"),)


def play(service: GameService, *steps: dict[str, Any]) -> UUID:
    game_id = service.start(SETUP)
    for step in steps:
        assert service.handle(game_id, step).accepted, step
    return game_id


def facts(service: GameService, game_id: UUID) -> list[Any]:
    return [event.fact for event in service.stored_events(game_id)]  # type: ignore[attr-defined]


ROLL = {"do": "roll", "by": "red"}


def test_a_new_game_is_stamped_with_the_engine_and_rule_set_versions() -> None:
    service = GameService(":memory:")
    game_id = play(service)
    started = facts(service, game_id)[0]
    assert isinstance(started, GameStarted)
    assert started.rules == {"engine": 2, "test-dice": 1}
    assert service.load(game_id).state.rules_version == {"engine": 2, "test-dice": 1}
    assert started.payload()["rules"] == {"engine": 2, "test-dice": 1}


def test_a_start_stored_before_stamping_serialises_as_it_was_stored() -> None:
    started = GameStarted(ruleset="t9a", board={"width": 1, "height": 1}, players=("a",),
                          seed_commitment="x")
    assert "rules" not in started.payload()
    assert rules_version.decided_under(DICE.initial_state(started)) == {"engine": 1, "t9a": 1}


def test_play_continues_under_a_newer_version_from_a_step_with_no_window_open(
        monkeypatch: pytest.MonkeyPatch) -> None:
    service = GameService(":memory:")
    game_id = play(service, ROLL, {"do": "request_undo", "by": "red"})
    monkeypatch.setattr(DiceGame, "rules_changes", NEWER)
    service.handle(game_id, {"do": "consent", "by": "blue", "accept": False})
    assert not any(isinstance(f, RulesVersionChanged) for f in facts(service, game_id))
    service.handle(game_id, ROLL)

    changed = [f for f in facts(service, game_id) if isinstance(f, RulesVersionChanged)]
    assert changed == [RulesVersionChanged(was={"engine": 2, "test-dice": 1},
                                           versions={"engine": 2, "test-dice": 2})]
    assert at_least(service.load(game_id).state, **{"test-dice": 2})
    assert verify_game(service, game_id).ok


def test_at_least_reads_the_stamp_and_an_unstamped_game_is_version_one() -> None:
    state = DICE.initial_state(GameStarted(ruleset="test-dice", board={"width": 1, "height": 1},
                                           players=("a",), seed_commitment="x"))
    assert at_least(state, engine=1, **{"test-dice": 1})
    assert not at_least(state, **{"test-dice": 2})
    assert not at_least(state, w40k=1)  # another rule set's key


def cite_six_differently(d: Decision, command: Roll) -> None:
    """A changed rule, gated on the game's version (as a rule set's handler is)."""
    (value,) = d.roll(command.purpose)
    rule = "TEST-2" if at_least(d.state, **{"test-dice": 2}) else "TEST"
    if rule == "TEST-2" and value == 6:
        raise RuleViolation("TEST-2", "a 6 is refused under version 2")
    d.emit(ClauseApplied(rule=rule, message=f"rolled {value}"))


@pytest.fixture
def gated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(DICE.handlers, Roll, cite_six_differently)


def test_verify_re_decides_each_step_under_the_version_that_decided_it(
        gated: None, monkeypatch: pytest.MonkeyPatch) -> None:
    service = GameService(":memory:")
    game_id = play(service, ROLL, ROLL)  # decided under version 1
    monkeypatch.setattr(DiceGame, "rules_changes", NEWER)
    assert service.handle(game_id, ROLL, dice=[3]).accepted  # under version 2
    cited = [f.rule for f in facts(service, game_id) if isinstance(f, ClauseApplied)]

    verdict = verify_game(service, game_id)

    assert cited == ["TEST", "TEST", "TEST-2"]
    assert verdict.ok and verdict.not_redecided == ()


def test_verify_says_not_re_decided_where_the_code_no_longer_holds_a_version(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    db = str(tmp_path / "g.db")
    service = GameService(db)
    game_id = play(service, ROLL, ROLL)
    service.close()
    monkeypatch.setattr(DiceGame, "rules_changes", NEWER)
    monkeypatch.setattr(DiceGame, "oldest_rules_version", 2)

    code = main(["verify", db, str(game_id)])

    out = capsys.readouterr().out
    assert code == 4
    assert out.startswith("NOT RE-DECIDED: step 1 (event ")
    assert "decided under engine 2, test-dice 1: test-dice rules version 1 is no longer held" \
        in out and "step 2" in out


def test_verify_fails_a_log_whose_rules_version_goes_back(monkeypatch: pytest.MonkeyPatch) -> None:
    service = GameService(":memory:")
    monkeypatch.setattr(DiceGame, "rules_changes", NEWER)
    game_id = play(service)  # stamped test-dice 2
    monkeypatch.setattr(DiceGame, "rules_changes", ())
    service.handle(game_id, ROLL)  # the code went back to version 1: a downgrade
    monkeypatch.setattr(DiceGame, "rules_changes", NEWER)

    verdict = verify_game(service, game_id)

    assert not verdict.ok and "rules versions go back" in verdict.reason


def test_revalidate_reports_each_changed_verdict_and_writes_nothing(
        tmp_path: Path, gated: None, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "g.db")
    service = GameService(db)
    game_id = play(service, *[ROLL] * 12)  # some rolls are 6s, under version 1
    sixes = [s for s in range(1, 13) if facts_at(service, game_id, s) == "rolled 6"]
    service.close()
    before = stored_rows(db)
    monkeypatch.setattr(DiceGame, "rules_changes", NEWER)

    found = revalidate(GameService(db))
    code = main(["revalidate", db])

    changes = {c.step: c for c in found.changes}
    assert sixes and sorted(changes) == list(range(1, 13))
    six = changes[sixes[0]]
    assert (six.clause, six.old, six.new) == (
        "TEST-2", "accepted: StepTaken, DiceRolled, ClauseApplied",
        "refused: TEST-2: a 6 is refused under version 2")
    other = changes[next(s for s in range(1, 13) if s not in sixes)]
    assert other.clause == "TEST-2" and other.old.endswith("(fact 3 differs)")
    assert code == 1 and "CHANGED " in capsys.readouterr().out
    assert stored_rows(db) == before  # nothing written


def test_a_listed_change_is_expected(tmp_path: Path, gated: None,
                                     monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "g.db")
    service = GameService(db)
    play(service, ROLL)
    service.close()
    monkeypatch.setattr(DiceGame, "rules_changes", NEWER)
    main(["revalidate", db, "--yaml"])
    listing = capsys.readouterr().out.split("changes:", 1)
    changes = tmp_path / "changes.yaml"
    changes.write_text("changes:" + listing[1].replace("reason: ''", "reason: cited anew"))

    assert main(["revalidate", db, "--changes", str(changes)]) == 0
    assert "listed  " in capsys.readouterr().out
    changes.write_text("changes:" + listing[1])  # an entry without its reason
    assert main(["revalidate", db, "--changes", str(changes)]) == 2


def facts_at(service: GameService, game_id: UUID, step: int) -> str:
    return next(e.fact.message for e in service.stored_events(game_id)  # type: ignore[attr-defined]
                if e.step == step and isinstance(e.fact, ClauseApplied))


def stored_rows(db: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as conn:
        return list(conn.execute("SELECT * FROM stored_events ORDER BY originator_version"))


def test_revalidate_reports_a_set_up_today_s_rules_refuse(monkeypatch: pytest.MonkeyPatch) -> None:
    """A T9A game set up under version 1 with `ambush: Forest` (AMB-11, version 2)."""
    from domain.t9a.rules import T9A

    service = GameService(":memory:")
    monkeypatch.setattr(T9A, "rules_changes", ())
    service.start(Setup(ruleset="t9a", board={"width": 72, "height": 48},
                        players=("red", "blue"), units=(
                            {"id": "scouts", "owner": "red", "status": "reserve", "files": 4,
                             "ranks": 2, "base": [1, 1], "rules": {"ambush": "Forest"}},)))
    monkeypatch.undo()

    (change,) = revalidate(service).changes

    assert (change.step, change.clause, change.old) == (0, "AMB-11", "accepted: UnitFielded")
    assert change.new.startswith("refused: units: AMB-11: scouts has Ambush (forest)")

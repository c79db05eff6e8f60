"""A newcomer's first hour: refusals exit 1, the demo's hints
run as printed, replay is readable, audit numbers its events, fold keeps refusals,
and `run --svg-dir` draws an undo consent."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
import yaml

from tests.cli_helpers import run_cli, stored_game

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"




@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    return stored_game(tmp_path, capsys)


@pytest.mark.parametrize("step", ['{"by": "blue", "do": "end_turn"}',
                                  '{"by": "red", "do": "no_such_command"}'])
def test_a_refused_step_exits_1(db: str, step: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "step", db, "last", step)

    assert code == 1 and orjson.loads(out)["accepted"] is False


def test_an_accepted_step_exits_0_with_a_receipt(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(capsys, "step", db, "last", '{"by": "judge", "do": "ruling", '
                           '"text": "fine"}')
    receipt = orjson.loads(out)["receipt"]

    assert code == 0 and receipt["event"] == 14 and len(receipt["head_hash"]) == 64


def test_a_players_receipt_counts_and_hashes_only_their_own_view(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(capsys, "step", db, "last", '{"by": "red", "do": "next_phase"}')
    receipt = orjson.loads(out)["receipt"]
    _, export, _ = run_cli(capsys, "export", db, "last", "--as", "red")
    _, replay, _ = run_cli(capsys, "replay", db, "last", "--as", "red")

    _, then, _ = run_cli(capsys, "replay", db, "last", "--as", "red", "--at", str(receipt["n"]))

    assert code == 0 and set(receipt) == {"n", "view_hash"}
    assert receipt["n"] == len(export.splitlines())  # the sealed seed is not counted
    assert receipt["view_hash"] in replay and receipt["view_hash"] in then.splitlines()[0]


def demo_hints(out: str) -> list[str]:
    return [line.strip() for line in out.splitlines()[out.splitlines().index(
        next(line for line in out.splitlines() if line.endswith("Try:"))) + 1:]]


def test_the_demo_hints_run_exactly_as_printed_and_a_second_demo_starts_fresh(
    tmp_path: Path,
) -> None:
    examples = tmp_path / "examples"
    examples.mkdir()
    (examples / "t9a-turns.yaml").write_text((EXAMPLES / "t9a-turns.yaml").read_text())
    program = Path(sys.executable).parent / "warledger"
    demo = [str(program), "demo", "--examples", str(examples)]

    subprocess.run(demo, cwd=tmp_path, check=True, capture_output=True)
    again = subprocess.run(demo, cwd=tmp_path, check=True, capture_output=True, text=True)
    hints = demo_hints(again.stdout)
    ran = [subprocess.run(hint, shell=True, cwd=tmp_path, capture_output=True, text=True)
           for hint in hints]

    assert "1 games played into warledger.db. Try:" in again.stdout
    assert len(hints) == 4 and all(r.returncode == 0 for r in ran), [r.stderr for r in ran]
    assert len(ran[0].stdout.splitlines()) == 1  # one game, not two
    assert shlex.split(hints[0])[0] == os.path.relpath(program, tmp_path)


def test_a_demo_into_a_database_it_did_not_create_counts_honestly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "mine.db")
    run_cli(capsys, "run", str(EXAMPLES / "t9a-turns.yaml"), "--db", db)
    examples = tmp_path / "examples"
    examples.mkdir()
    (examples / "t9a-turns.yaml").write_text((EXAMPLES / "t9a-turns.yaml").read_text())

    code, out, _ = run_cli(capsys, "demo", "--db", db, "--examples", str(examples))

    assert code == 0 and "1 games played into " in out and "it holds 2 games in all" in out


def test_replay_prints_a_readable_state_not_json(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(capsys, "replay", db, "last")
    lines = out.splitlines()

    assert code == 0 and not out.lstrip().startswith("{")
    assert "at event 12 of 12 (step 4): state hash" in lines[0]
    assert lines[1] == "t9a: round 2, charge phase, red active"
    assert any(line.split()[:3] == ["red-spears", "red", "on_table"] for line in lines)
    assert any(line.split()[:2] == ["blue", "0"] for line in lines)  # CP
    assert "reaction window: none open" in lines


def test_replay_and_board_take_a_log_step(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, by_step, _ = run_cli(capsys, "replay", db, "last", "--step", "1", "--json")
    _, by_event, _ = run_cli(capsys, "replay", db, "last", "--at", "6", "--json")
    code, out, _ = run_cli(capsys, "board", db, "last", "--step", "2", "--svg",
                           str(tmp_path / "b.svg"))
    bad, _, err = run_cli(capsys, "replay", db, "last", "--step", "9")

    assert orjson.loads(by_step) == orjson.loads(by_event)
    assert orjson.loads(by_step)["phase"] == "charge"
    assert code == 0 and "at event 8 of 12" in out
    assert bad == 2 and "--step must be between 0 and 4" in err


def test_audit_shows_event_ranges_and_the_round_and_phase_of_each_step(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run_cli(capsys, "audit", db, "last")
    _, as_json, _ = run_cli(capsys, "audit", db, "last", "--json")
    steps = {e["step"]: e for e in orjson.loads(as_json)}

    assert (steps[0]["events_from"], steps[0]["events_to"]) == (1, 4)
    assert (steps[2]["events_from"], steps[2]["events_to"]) == (7, 8)
    assert (steps[2]["round"], steps[2]["phase"]) == (1, "charge")
    assert (steps[3]["round"], steps[3]["phase"]) == (1, "movement")
    assert any(line.split()[:5] == ["3", "ev", "9-10", "r1", "movement"]
               for line in out.splitlines())


def test_audit_fold_keeps_a_refused_undo_request_and_its_refusal(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for step in ('{"by": "red", "do": "next_phase"}',
                 '{"by": "red", "do": "request_undo", "steps": 1}',
                 '{"by": "blue", "do": "consent", "accept": false}'):
        code, _, _ = run_cli(capsys, "step", db, "last", step)
        assert code == 0
    _, folded, _ = run_cli(capsys, "audit", db, "last", "--fold", "--json")
    commands = [e["command"] for e in orjson.loads(folded)]

    assert commands[-3:] == ["next_phase", "request_undo", "consent"]
    assert "RequestRefused" in orjson.loads(folded)[-1]["events"]


def test_run_draws_an_accepted_undo_consent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = yaml.safe_load((EXAMPLES / "t9a-turns.yaml").read_text())
    script.pop("expect"), script.pop("expect_state")
    script["steps"] = [{"by": "red", "do": "next_phase"},
                       {"by": "red", "do": "request_undo", "steps": 1},
                       {"by": "blue", "do": "consent", "accept": True}]
    path = tmp_path / "undo.yaml"
    path.write_text(yaml.safe_dump(script))

    code, out, err = run_cli(capsys, "run", str(path), "--json", "--svg-dir",
                             str(tmp_path / "pics"))

    assert code == 0, err
    assert [s["accepted"] for s in orjson.loads(out)["steps"]] == [True, True, True]
    assert "StepsUndone" in orjson.loads(out)["steps"][2]["events"]
    assert (tmp_path / "pics" / "step-2.svg").read_text().startswith("<svg")


def test_board_as_a_player_leaves_out_a_hidden_trooper(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "i.db")
    run_cli(capsys, "run", str(EXAMPLES / "infinity-cautious-aro.yaml"), "--db", db)

    run_cli(capsys, "board", db, "last", "--svg", str(tmp_path / "all.svg"))
    code, _, _ = run_cli(capsys, "board", db, "last", "--svg", str(tmp_path / "pano.svg"),
                         "--as", "panoceania")

    assert "hidden-hacker" in (tmp_path / "all.svg").read_text()
    assert code == 0 and "hidden-hacker" not in (tmp_path / "pano.svg").read_text()

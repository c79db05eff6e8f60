"""Files that are not scripts, texts too long, and `step --expect-event`:
each is one clear line, never a hang, a traceback or the "unexpected" handler."""

from __future__ import annotations

import os
from pathlib import Path

import orjson
import pytest
import yaml

from domain import datafile
from domain.datafile import MAX_FILE_BYTES, MAX_TEXT
from replay.service import GameService
from tests.cli_helpers import run_cli, stored_game
from warledger.script import MAX_STEPS

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HEAD = "ruleset: t9a\nboard: {width: 72, height: 48}\nplayers: [red, blue]\n"




def refused_with_one_line(code: int, err: str, fragment: str) -> None:
    assert code == 2, err
    assert fragment in err, err
    assert err.count("\n") == 1 and "Traceback" not in err and "unexpected" not in err


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    return stored_game(tmp_path, capsys)


def stored(db: str) -> tuple[int, str]:
    """The number of stored events of the game, and its head hash."""
    service = GameService(db)
    game = service.load(service.game_ids()[-1])
    head = (len(service.stored_events(game.id)), game.head_hash)
    service.close()
    return head


# -- files that are not scripts ----------------------------------------------------
def test_a_fifo_is_refused_at_once_not_waited_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "script.yaml"
    os.mkfifo(fifo)

    code, _, err = run_cli(capsys, "run", str(fifo))

    refused_with_one_line(code, err, "it is a FIFO (named pipe), not a regular file")


@pytest.mark.parametrize("path, kind", [("/dev/zero", "a character device"),
                                        ("/tmp", "a directory")])
def test_a_device_or_a_directory_is_refused(
    path: str, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli(capsys, "run", path)

    refused_with_one_line(code, err, f"it is {kind}, not a regular file")


def test_a_file_larger_than_the_limit_is_refused_before_it_is_parsed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "huge.yaml"
    script.write_text(HEAD + "steps:\n" + "  - {by: red, do: next_phase}\n" * (
        MAX_FILE_BYTES // 28 + 10))

    code, _, err = run_cli(capsys, "run", str(script))

    refused_with_one_line(code, err, "larger than 1 MiB: too large for a script")


def test_more_steps_than_the_limit_are_refused_up_front(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "long.json"
    script.write_text(orjson.dumps({
        "ruleset": "t9a", "board": {"width": 72, "height": 48}, "players": ["red", "blue"],
        "steps": [{"by": "red", "do": "next_phase"}] * (MAX_STEPS + 1)}).decode())

    code, _, err = run_cli(capsys, "run", str(script))

    refused_with_one_line(code, err, f"steps: 10,001 steps; a script holds at most {MAX_STEPS:,}")


def test_a_lone_surrogate_in_json_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "s.json"
    script.write_text('{"ruleset": "t9a", "board": {"width": 9, "height": 9}, '
                      '"players": ["red\\ud800"]}')

    code, _, err = run_cli(capsys, "run", str(script))

    refused_with_one_line(code, err, "holds a lone UTF-16 surrogate (U+D800)")


def test_a_text_longer_than_the_limit_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "s.yaml"
    script.write_text(HEAD + f"units: [{{id: {'x' * (MAX_TEXT + 1)}, owner: red}}]\n")

    code, _, err = run_cli(capsys, "run", str(script))

    refused_with_one_line(code, err, "a text of 10,001 characters ('xxxxxxxxxxxxxxxxxxxx'…) "
                          "is longer than the 10,000 a game holds")


def test_yaml_is_parsed_by_libyaml_when_it_is_installed() -> None:
    if not yaml.__with_libyaml__:
        pytest.skip("libyaml is not installed: the pure-Python parser is used")
    assert issubclass(datafile._Yaml12Loader, yaml.CSafeLoader)
    text = (EXAMPLES / "t9a-ambush-legal.yaml").read_text()
    assert datafile.parse_yaml(text) == datafile.parse_yaml(
        text, datafile.PurePythonYaml12Loader)


def test_libyaml_nesting_past_its_limit_is_named_as_too_deep() -> None:
    with pytest.raises(ValueError, match="nested more than 64 deep"):
        datafile.parse_yaml("a: " + "[" * 5000 + "]" * 5000)


# -- the JSON arguments of step and board --command ----------------------------------
@pytest.mark.parametrize("text, fragment", [
    ('{"by": "red\\udc00", "do": "next_phase"}', "lone UTF-16 surrogate (U+DC00)"),
    ('{"by": "red", "do": "ruling", "text": "' + "y" * (MAX_TEXT + 1) + '"}',
     "is longer than the 10,000 a game holds"),
])
def test_a_step_or_board_command_argument_out_of_limits_is_one_line(
    text: str, fragment: str, db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = stored(db)

    code, out, err = run_cli(capsys, "step", db, "last", text)
    refused_with_one_line(code, err, fragment)
    code, _, err = run_cli(capsys, "board", db, "last", "--svg", str(tmp_path / "b.svg"),
                           "--command", text)
    refused_with_one_line(code, err, fragment)
    assert out == "" and stored(db) == before


# -- step --expect-event ----------------------------------------------------------------
def seen_by_red(db: str) -> tuple[int, str]:
    """Red's own event count and view hash (what red's receipts show)."""
    from projections.state_view import state_hash
    from replay.export import numbered_for

    service = GameService(db)
    game_id = service.game_ids()[-1]
    seen = (len(numbered_for(service.stored_events(game_id), "red")),
            state_hash(service.load(game_id).state, "red"))
    service.close()
    return seen


def test_a_stale_expect_event_is_refused_and_writes_nothing(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The judge counts the log's events."""
    events, head_hash = stored(db)

    code, out, err = run_cli(capsys, "step", db, "last",
                             '{"by": "judge", "do": "ruling", "text": "ok"}',
                             "--expect-event", str(events - 1))

    assert code == 3 and out == ""
    assert err == (f"warledger: conflict: the command was decided after {events - 1} events; "
                   f"the game is at event {events} (head {head_hash}); nothing was written\n")
    assert stored(db) == (events, head_hash)


def test_a_players_stale_expect_event_names_only_what_they_may_know(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A player counts their own events (their receipt's `n`) and is shown their own
    view hash, never the log's numbers."""
    events, head_hash = stored(db)
    seen, view = seen_by_red(db)

    code, out, err = run_cli(capsys, "step", db, "last", '{"by": "red", "do": "next_phase"}',
                             "--expect-event", str(seen - 1))

    assert code == 3 and out == ""
    assert err == (f"warledger: conflict: the command was decided after {seen - 1} events; red "
                   f"has seen {seen} events of the game (view hash {view}); nothing was "
                   "written\n")
    assert head_hash not in err and stored(db) == (events, head_hash)


def test_the_expected_event_lets_the_step_through(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    seen, _ = seen_by_red(db)

    code, out, _ = run_cli(capsys, "step", db, "last", '{"by": "red", "do": "next_phase"}',
                           "--expect-event", str(seen))

    result = orjson.loads(out)
    assert code == 0 and result["accepted"] is True
    assert result["receipt"]["n"] == seen_by_red(db)[0] > seen


# -- a set-up the game cannot start: one line naming the file (CONTRACT section 3) ------
@pytest.mark.parametrize("unit, fragment", [
    ("{id: r1, owner: red, name: Intercessors, x: 100, y: 10, models: 10}",
     "units: CORE-BOARD-EDGE: r1 at (100, 10) is not wholly on the 48\" x 48\" board"),
    ("{id: r1, owner: red, name: Intercessors, x: 10, y: 10, models: -3}",
     "units[0]: models: Input should be greater than or equal to 0"),
])
def test_a_set_up_range_error_names_the_script_as_other_file_errors_do(
    unit: str, fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "setup.yaml"
    script.write_text("ruleset: w40k-10\nboard: {width: 48, height: 48}\nplayers: [red, blue]\n"
                      f"units:\n  - {unit}\n")

    code, _, err = run_cli(capsys, "run", str(script))

    refused_with_one_line(code, err, f"warledger: {script}: {fragment}")

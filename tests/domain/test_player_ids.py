"""Look-alike player ids are refused at set-up, by every reader of a script."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.errors import ScriptError
from domain.player_ids import ids_problem
from warledger.cli import main
from warledger.script import parse_script

BASE = {"ruleset": "t9a", "board": {"width": 72, "height": 48}, "units": []}


@pytest.mark.parametrize(("players", "words"), [
    (["red", "red\u200b"], "invisible"),          # a zero-width space
    (["red", "Judge"], "reserved role 'judge'"),  # the reserved role, case-folded
    (["red", "JUDGE"], "reserved role 'judge'"),
    (["red", "RED"], "look alike"),
    (["red", "\uff52ed"], "normal form"),         # a full-width r
    (["red", "r\u0435d"], "mixes letters"),       # a Cyrillic ie among Latin letters
    (["red", "abc\u05d0"], "left-to-right and right-to-left"),
    (["\u202ered", "blue"], "invisible"),         # a right-to-left override
    (["red ", "blue"], "space"),
])
def test_a_look_alike_id_is_refused(players: list[str], words: str) -> None:
    with pytest.raises(ScriptError, match=words):
        parse_script(BASE | {"players": players})


@pytest.mark.parametrize("players", [["red", "blue"], ["Ærø", "Öst"], ["אדום", "כחול"],
                                     ["panoceania", "nomads"], ["p1", "p2"]])
def test_distinct_ids_in_one_script_are_kept(players: list[str]) -> None:
    assert ids_problem(players, ("judge",)) is None
    assert parse_script(BASE | {"players": players}).players == players


def test_warledger_run_refuses_a_look_alike(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "s.json"
    script.write_text('{"ruleset": "t9a", "board": {"width": 72, "height": 48}, '
                      '"players": ["red", "red\\u200b"]}', encoding="utf-8")
    assert main(["run", str(script)]) == 2
    assert "invisible" in capsys.readouterr().err

"""Look-alike player ids are refused at set-up, by every reader of a script; the same
rules hold for unit ids, and the spectator's seat is reserved like the judge's (one
implementation, `domain.player_ids`, asked by every front door's set-up)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from domain.errors import ScriptError
from domain.player_ids import RESERVED_ROLES, ids_problem, players_problem, units_problem
from domain.ruleset import Setup
from replay.service import GameService
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


# -- unit ids, and the spectator's seat ------------------------------------------
NFC, NFD = "\u00e9", "e\u0301"  # é as one character, and as e + a combining acute

W40K: dict[str, Any] = {"ruleset": "w40k-10", "board": {"width": 48, "height": 48},
                        "players": ["red", "blue"]}


def unit(unit_id: str, x: float) -> dict[str, Any]:
    return {"id": unit_id, "owner": "red", "x": x, "y": 10, "facing": 90}


def start(data: dict[str, Any]) -> None:
    """Start the set-up through the service (as the API and the server do)."""
    GameService(":memory:").start(Setup.model_validate(data))


@pytest.mark.parametrize(("units", "words"), [
    ([NFC, NFD], "not in normal form"),            # the NFD one is refused
    ([NFD], "not in normal form"),
    ([NFC, NFC.upper()], "unit ids 'é' and 'É' look alike"),
    (["r1", "r1\u200b"], "unit id 'r1.+u200b' holds an invisible"),
    (["r1", "R1"], "look alike"),
    (["\uff521"], "not in normal form"),             # a full-width r
    (["r\u04355"], "mixes letters"),                 # a Cyrillic ie among Latin letters
    (["r1 "], "space"),
])
def test_a_look_alike_unit_id_is_refused_at_set_up(units: list[str], words: str) -> None:
    data = W40K | {"units": [unit(u, 10 + 5 * i) for i, u in enumerate(units)]}
    with pytest.raises(ScriptError, match=words):
        start(data)


def test_distinct_unit_ids_are_kept() -> None:
    ids = [NFC, "Ærø", "r1", "r2", "sniper-hd", "<script>"]
    data = W40K | {"units": [unit(u, 5 + 6 * i) for i, u in enumerate(ids)]}
    service = GameService(":memory:")
    game_id = service.start(Setup.model_validate(data))
    assert sorted(service.load(game_id).state.units) == sorted(ids)


@pytest.mark.parametrize("ident", [NFD, "a\u200b", "\u202ered", "r\u0435d", "x "])
def test_one_rule_for_player_and_unit_ids(ident: str) -> None:
    """The same check refuses the same id, only named for its kind."""
    as_player, as_unit = ids_problem([ident]), units_problem([ident])
    assert as_player is not None and as_unit is not None
    assert as_unit == as_player.replace("player id", "unit id")


@pytest.mark.parametrize("player", ["spectator", "judge"])
def test_a_reserved_role_is_no_player(player: str) -> None:
    expected = f"'{player}' is a reserved role, not a player id"
    assert players_problem(["red", player]) == expected
    with pytest.raises(ScriptError, match=expected):
        parse_script(W40K | {"players": ["red", player]})
    with pytest.raises(ScriptError, match=expected):
        start(W40K | {"players": ["red", player]})


@pytest.mark.parametrize("player", ["Spectator", "SPECTATOR", "\uff53pectator"])
def test_a_look_alike_of_the_spectator_is_refused(player: str) -> None:
    problem = players_problem(["red", player])
    assert problem is not None and ("reserved role 'spectator'" in problem
                                    or "normal form" in problem)
    assert "spectator" in RESERVED_ROLES


def test_run_refuses_a_player_called_spectator(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "s.json"
    script.write_text('{"ruleset": "t9a", "board": {"width": 72, "height": 48}, '
                      '"players": ["red", "spectator"]}', encoding="utf-8")
    assert main(["run", str(script)]) == 2
    assert "'spectator' is a reserved role, not a player id" in capsys.readouterr().err


@pytest.mark.parametrize("player", ["", " "])
def test_an_empty_player_id_is_refused(player: str) -> None:
    assert players_problem(["red", player]) == "a player id cannot be empty"
    with pytest.raises(ScriptError, match="a player id cannot be empty"):
        start(W40K | {"players": ["red", player]})

"""Command points (RULINGS 40k; A-STR-12): 1 CP for both players in every Command
phase, at most 1 more per battle round from other sources (CORE-CP-CAP), and a
ledger of every gain and spend in the state view."""

from __future__ import annotations

import pytest

from domain.errors import ScriptError

from .conftest import Run
from .helpers import step

END_RED = {"by": "red", "do": "end_turn"}
END_BLUE = {"by": "blue", "do": "end_turn"}


def gain(amount: int, by: str = "red") -> dict[str, object]:
    return {"by": by, "do": "gain_cp", "amount": amount, "source": "Secondary objective"}


def test_both_players_gain_1cp_at_the_start_of_every_command_phase(run: Run) -> None:
    result = run([END_RED, END_BLUE], cp=0)

    # red's Command phase (round 1), blue's (round 1), red's (round 2): 3 each.
    assert result["state"]["players"] == {"red": {"cp": 3}, "blue": {"cp": 3}}
    sources = [e["source"] for e in result["state"]["cp_ledger"] if e["player"] == "blue"]
    assert sources == ["starting CP (option cp)", "Command phase (red's turn)",
                       "Command phase (blue's turn)", "Command phase (red's turn)"]


def test_core_cp_cap_at_most_1_extra_cp_per_battle_round_the_excess_is_lost(run: Run) -> None:
    result = run([gain(2), gain(1)], cp=0)

    assert step(result, 0)["rule"] == "CORE-CP-CAP"
    assert "1CP lost" in str(step(result, 0)["message"])
    ledger = [e for e in result["state"]["cp_ledger"] if e["kind"] == "other"]
    assert [(e["change"], e["lost"]) for e in ledger] == [(1, 1), (0, 1)]
    assert result["state"]["players"]["red"]["cp"] == 2


def test_core_cp_cap_resets_each_battle_round_and_is_per_player(run: Run) -> None:
    result = run([gain(1), gain(1, "blue"), END_RED, END_BLUE, gain(1)], cp=0)

    assert result["state"]["players"]["red"]["cp"] == 5  # 3 Command phases + 2 extra
    assert result["state"]["players"]["blue"]["cp"] == 4


def test_the_cp_ledger_balance_always_matches_the_players_cp(run: Run) -> None:
    result = run([gain(1), END_RED, gain(3, "blue"), END_BLUE], cp=2)

    for player, data in result["state"]["players"].items():
        entries = [e for e in result["state"]["cp_ledger"] if e["player"] == player]
        assert entries[-1]["balance"] == data["cp"]
        assert sum(e["change"] for e in entries) == data["cp"]


def test_a_str_12_starting_cp_must_be_a_whole_number_of_0_or_more(run: Run) -> None:
    with pytest.raises(ScriptError, match=r"options\.cp: starting CP must be a whole number "
                                          r"of 0 or more, not -1"):
        run([], cp=-1)

"""Secrets stay secret: no player's view or export holds what they may not know.

Scans every player export of every example game (plus a game built here with a
Hidden Deployment trooper) for the secret values: the sealed seed, and the
ids and positions of units hidden from that player.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from uuid import UUID

import orjson
import pytest

from domain.game import Game
from domain.ruleset import Setup
from projections.state_view import state_view
from replay.audit import as_json, audit_entries, render
from replay.export import export_lines, hidden_from, seen_by
from replay.service import GameService
from tests.accepting import accept
from warledger.script import load_script, run_script

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.yaml"))

HIDDEN_SETUP = Setup(
    ruleset="infinity-n4",
    board={"width": 48, "height": 48},
    players=("pano", "nomads"),
    seed=123456789,
    units=(
        {"id": "fusilier", "owner": "pano", "x": 10, "y": 10, "facing": 90},
        {"id": "sniper-hd", "owner": "nomads", "x": 31.25, "y": 37.75, "facing": 270,
         "conditions": ["hidden_deployment"]},
    ),
)


def secrets_for(service: GameService, game_id: UUID, player: str) -> set[str]:
    """The ids of units hidden from `player` at any point of the game."""
    events = service.stored_events(game_id)
    game = Game.from_first_event(events[0])
    hidden: set[str] = set(hidden_from(game.state, player))
    for event in events[1:]:
        game.apply_event(event)
        hidden |= hidden_from(game.state, player)
    return hidden


def export_text(service: GameService, game_id: UUID, player: str | None) -> str:
    lines = export_lines(service.stored_events(game_id), player)
    return "\n".join(orjson.dumps(line).decode() for line in lines)


def audit_text(service: GameService, game_id: UUID, player: str) -> str:
    """A player's audit, as text and as JSON."""
    entries = audit_entries(seen_by(service.stored_events(game_id), player), lang=True)
    return render(entries, lang=True) + orjson.dumps(as_json(entries)).decode()


def until_the_end(text: str, end: str) -> str:
    """The lines of an export or audit before the first that names `end`."""
    lines = text.splitlines()
    return "\n".join(lines[:next((i for i, line in enumerate(lines) if end in line),
                                  len(lines))])


def check_player_exports(service: GameService, game_id: UUID) -> None:
    """No player's export, audit or view holds a unit hidden from them. Once a game
    whose Private Information opens at the end has ended (CORE-PRIVATE-AT-END), its
    view shows every unit, and only what came before the end must keep them out."""
    game = service.load(game_id)
    opened = game.state.finished and game.ruleset.reveals_at_game_end
    for player in game.state.players:
        text = export_text(service, game_id, player)
        audit = audit_text(service, game_id, player)
        view = orjson.dumps(state_view(game.state, player)).decode()
        assert "SeedSealed" not in text + audit and '"seed"' not in text + audit
        if opened:
            text, audit = until_the_end(text, "GameEnded"), until_the_end(audit, "end_game")
        for unit_id in secrets_for(service, game_id, player):
            assert unit_id not in text, f"{unit_id} leaks into {player}'s export"
            assert unit_id not in audit, f"{unit_id} leaks into {player}'s audit"
            if opened:
                assert unit_id in view, f"{unit_id} is not open to {player} at the end"
            else:
                assert unit_id not in view, f"{unit_id} leaks into {player}'s view"


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_no_player_export_of_an_example_holds_a_secret(path: Path, service: GameService) -> None:
    result = run_script(service, load_script(path))

    check_player_exports(service, UUID(result["game_id"]))


def test_a_hidden_deployment_trooper_is_invisible_to_its_opponent(
    backend_service: GameService,
) -> None:
    game_id = backend_service.start(HIDDEN_SETUP)
    accept(backend_service, game_id, {"do": "next_phase", "by": "pano"})

    pano = export_text(backend_service, game_id, "pano")
    full = export_text(backend_service, game_id, None)

    assert "sniper-hd" not in pano and "31.25" not in pano and "123456789" not in pano
    assert "sniper-hd" not in audit_text(backend_service, game_id, "pano")
    assert "sniper-hd" in full and "31.25" in full and "123456789" in full
    assert "sniper-hd" not in state_view(backend_service.load(game_id).state, "pano")["units"]
    assert "sniper-hd" in state_view(backend_service.load(game_id).state, "nomads")["units"]
    check_player_exports(backend_service, game_id)


def test_the_full_export_carries_the_hash_chain(service: GameService) -> None:
    game_id = service.start(HIDDEN_SETUP)

    lines = list(export_lines(service.stored_events(game_id)))

    assert all(b["prev_hash"] == a["hash"] for a, b in itertools.pairwise(lines))


def test_audit_as_a_player_shows_their_view_and_the_judges_audit_shows_all(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from warledger.cli import main

    db = str(tmp_path / "game.db")
    service = GameService(db)
    game_id = service.start(HIDDEN_SETUP)
    accept(service, game_id, {"do": "next_phase", "by": "pano"})
    service.close()

    assert main(["audit", db, str(game_id), "--as", "pano"]) == 0
    pano = capsys.readouterr().out
    assert main(["audit", db, str(game_id)]) == 0
    full = capsys.readouterr().out
    assert main(["audit", db, str(game_id), "--as", "nobody"]) == 2
    refused = capsys.readouterr()

    assert "as pano may see it" in pano and "next phase" in pano
    assert "SeedSealed" not in pano and pano.count("UnitFielded") == 1
    assert "SeedSealed" in full and full.count("UnitFielded") == 2
    assert "'nobody' is not a player in this game" in refused.err and not refused.out


def test_a_player_export_numbers_its_own_lines_so_gaps_count_no_hidden_fact(
    service: GameService,
) -> None:
    game_id = service.start(HIDDEN_SETUP)
    accept(service, game_id, {"do": "next_phase", "by": "pano"})

    pano = list(export_lines(service.stored_events(game_id), "pano"))
    full = list(export_lines(service.stored_events(game_id)))

    assert [line["n"] for line in pano] == list(range(1, len(pano) + 1))
    assert all("version" not in line and "hash" not in line for line in pano)
    assert len(full) - len(pano) == 2  # the sealed seed and the hidden trooper

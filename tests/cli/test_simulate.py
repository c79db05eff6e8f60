"""`warledger simulate`: complete, legal, reproducible games.

Every simulated game ends with a confirmed result (CORE-RESULT-ANSWER), verifies,
and replays to the live state; the same seed gives the same logs and hashes.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from uuid import UUID, uuid4

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from projections.state_view import state_hash
from replay.service import GameService
from replay.verify import fold, read_chain, verify_game
from tests.conftest import POSTGRES_URL
from warledger.cli import main
from warledger.sampling import FACTIONS, SAMPLERS
from warledger.simulate import SimulationClock, simulate, simulate_game

RULESETS = sorted(SAMPLERS)


def logs(db: str, ids: list[UUID]) -> list[list[tuple[str, str, str]]]:
    """Each game's events as (type, timestamp, hash)."""
    service = GameService(db)
    try:
        return [[(e.fact.type, e.timestamp.isoformat(), e.hash)
                 for e in service.stored_events(game_id)] for game_id in ids]
    finally:
        service.close()


def hashes(db: str, ids: list[UUID]) -> list[str]:
    service = GameService(db)
    try:
        return [state_hash(service.load(game_id).state) for game_id in ids]
    finally:
        service.close()


def test_the_same_seed_gives_identical_logs_and_state_hashes(tmp_path: Path) -> None:
    first, second, other = (str(tmp_path / f"{name}.db") for name in ("a", "b", "c"))

    ids = simulate("w40k-10", 2, 5, first)
    again = simulate("w40k-10", 2, 5, second)
    different = simulate("w40k-10", 2, 6, other)

    assert ids == again and logs(first, ids) == logs(second, again)
    assert hashes(first, ids) == hashes(second, again)
    assert different != ids and logs(other, different) != logs(first, ids)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_simulated_game_ends_with_a_confirmed_result_and_verifies(
    ruleset: str, tmp_path: Path,
) -> None:
    db = str(tmp_path / "sim.db")

    ids = simulate(ruleset, 2, 1, db)

    service = GameService(db)
    for game_id in ids:
        state = service.load(game_id).state
        assert state.finished and state.result is not None and state.reaction_window is None
        assert str(state.end_reason).endswith("was the last round")  # CORE-TURNS: played out
        assert state.metadata is not None and state.metadata["deployed_first"] in state.players
        assert {info["faction"] for info in state.metadata["players"].values()} <= set(
            FACTIONS[ruleset])
        assert verify_game(service, game_id).ok
        assert state_hash(fold(read_chain(service, game_id)).state) == state_hash(state)
    service.close()


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset=st.sampled_from(RULESETS), seed=st.integers(0, 2**32))
def test_simulated_games_replay_to_the_live_state_and_verify(ruleset: str, seed: int) -> None:
    """The property test: replay equals live; `verify` passes."""
    service = GameService(":memory:", clock=SimulationClock())
    game_id = simulate_game(service, ruleset, seed, 0)

    live = service.load(game_id).state
    assert state_hash(fold(read_chain(service, game_id)).state) == state_hash(live)
    assert verify_game(service, game_id).ok
    assert live.result is not None


def test_simulated_games_use_the_rules_windows_undo_and_results(tmp_path: Path) -> None:
    """AROs (CAU), stratagems (STR), undos by consent (CORE-UNDO-CONSENT), Ambush
    arrivals (AMB), eliminated figures (MNT), refused and confirmed results."""
    db = str(tmp_path / "sim.db")
    games = {"infinity-n4": 3, "mageknight-2": 6, "t9a": 6, "w40k-10": 6}
    ids = {ruleset: simulate(ruleset, count, 1, db) for ruleset, count in games.items()}

    service = GameService(db)
    kinds = {ruleset: Counter(e.fact.type for game_id in games
                              for e in service.stored_events(game_id))
             for ruleset, games in ids.items()}
    first = {service.load(g).state.players[0] for games in ids.values() for g in games}
    service.close()
    every = sum(kinds.values(), Counter())
    assert kinds["infinity-n4"]["ReactionDeclared"] and kinds["infinity-n4"]["TrooperMoved"]
    assert kinds["w40k-10"]["StratagemUsed"] and kinds["w40k-10"]["ChargeDeclared"]
    assert kinds["t9a"]["UnitArrivedFromAmbush"] and kinds["t9a"]["T9AUnitMoved"]
    assert kinds["mageknight-2"]["AttackResolved"] and kinds["mageknight-2"]["FigureMoved"]
    assert every["StepsUndone"] and every["RequestRefused"] and every["ResultRefused"]
    assert every["ResultConfirmed"] == sum(games.values())
    assert first == {"red", "blue"}  # either player may go first


def test_a_length_in_steps_makes_longer_games(tmp_path: Path) -> None:
    short = simulate("w40k-10", 1, 2, str(tmp_path / "short.db"))
    long = simulate("w40k-10", 1, 2, str(tmp_path / "long.db"), steps=400)

    assert len(logs(str(tmp_path / "long.db"), long)[0]) > 1.5 * len(
        logs(str(tmp_path / "short.db"), short)[0])


def test_the_cli_simulates_and_reports_its_speed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    db = str(tmp_path / "cli.db")

    code = main(["simulate", "mageknight-2", "--games", "2", "--seed", "4", "--db", db,
                 "--json"])

    out = orjson.loads(capsys.readouterr().out)
    assert code == 0 and out["games"] == 2 and len(out["game_ids"]) == 2
    assert out["events"] == sum(len(log) for log in logs(db, [UUID(i) for i in out["game_ids"]]))
    assert out["games_per_s"] > 0 and out["events_per_s"] > 0
    assert main(["simulate", "t9a", "--games", "1", "--db", db, "--progress"]) == 0
    shown = capsys.readouterr()
    assert "simulated 1 t9a game(s)" in shown.out and "simulating t9a" in shown.err
    assert main(["simulate", "t9a", "--games", "1", "--db", db]) == 2
    assert "already holds game 0 of this simulation" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "words"), [
    (["simulate", "chess", "--db", "x.db"], "unknown ruleset 'chess'"),
    (["simulate", "t9a", "--games", "0", "--db", "x.db"], "--games must be at least 1"),
    (["simulate", "t9a", "--steps", "0", "--db", "x.db"], "--steps must be at least 1"),
])
def test_bad_simulate_arguments_are_one_clear_line(
    argv: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)

    code = main(argv)

    err = capsys.readouterr().err
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1


@pytest.mark.skipif(POSTGRES_URL is None, reason="needs WARLEDGER_TEST_POSTGRES")
def test_simulated_games_store_and_verify_on_postgresql() -> None:
    assert POSTGRES_URL is not None
    ids = simulate("infinity-n4", 1, uuid4().int % 2**32, POSTGRES_URL)  # a database kept

    service = GameService(POSTGRES_URL)
    assert verify_game(service, ids[0]).ok
    assert service.load(ids[0]).state.result is not None
    service.close()


def test_a_simulated_game_is_stored_as_if_it_had_been_played_in_the_store(
    tmp_path: Path,
) -> None:
    """The same events and the same snapshots as playing it step by step there."""
    stored, direct_db = str(tmp_path / "sim.db"), str(tmp_path / "direct.db")
    ids = simulate("mageknight-2", 1, 8, stored, steps=300)
    direct = GameService(direct_db, clock=SimulationClock())
    assert simulate_game(direct, "mageknight-2", 8, 0, 300) == ids[0]
    direct.close()

    versions = []
    for db in (stored, direct_db):
        service = GameService(db)
        assert service.snapshots is not None and verify_game(service, ids[0]).ok
        versions.append([s.originator_version for s in service.snapshots.get(ids[0])])
        service.close()
    assert logs(stored, ids) == logs(direct_db, ids)
    assert versions[0] == versions[1] and versions[0]  # at least one snapshot
    service = GameService(stored)
    closed = service.load(ids[0])
    service.close()
    # its result confirmed, the game is snapshotted at its end (`snapshot_due`), and
    # simulate's `store_snapshots` kept that snapshot as a store would have
    assert closed.state.result is not None and versions[0][-1] == closed.version

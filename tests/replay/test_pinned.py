"""Pinned logs of 2026-12-01 still load, replay to the same state and verify, and
the dice and hash algorithms give the values they gave that day.

A failure here means stored games would replay differently or be re-rolled:
fix the change, never the fixture (tests/fixtures/pinned/README.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from domain.dice import digital_die, seed_commitment
from events.envelope import GENESIS_HASH, chain_hash, hashed_body
from projections.state_view import state_hash
from replay.service import GameService
from replay.verify import verify_game
from tests.conftest import BACKENDS, make_service
from tests.pinned import fixture_paths, load_rows, read_fixture

FIXTURES = fixture_paths()
SEED = 20261201
#: The first 100 digital dice of game seed 20261201 (indices 0-99), as derived on 2026-12-01.
D6 = [2, 2, 5, 3, 2, 3, 4, 1, 1, 6, 6, 6, 2, 2, 3, 1, 5, 4, 5, 6, 1, 1, 3, 5, 4, 2, 6, 6, 6, 4,
      4, 6, 3, 2, 6, 3, 6, 4, 6, 5, 1, 1, 4, 3, 3, 4, 5, 6, 5, 3, 2, 6, 3, 5, 2, 4, 2, 2, 4, 3,
      6, 5, 1, 3, 5, 5, 1, 4, 6, 2, 2, 5, 2, 6, 5, 2, 6, 1, 5, 4, 2, 2, 5, 6, 5, 5, 5, 4, 6, 6,
      2, 2, 1, 4, 5, 3, 4, 4, 2, 4]
D10 = [6, 4, 3, 7, 4, 1, 4, 9, 1, 10, 6, 2, 10, 8, 5, 9, 5, 6, 1, 6, 7, 7, 9, 5, 10, 2, 8, 8, 4,
       10, 4, 6, 1, 4, 10, 9, 6, 4, 4, 5, 7, 5, 2, 5, 9, 2, 7, 8, 3, 1, 6, 6, 7, 3, 10, 10, 10, 4,
       10, 7, 6, 3, 5, 9, 3, 1, 3, 8, 6, 2, 8, 7, 6, 8, 1, 10, 2, 3, 5, 6, 10, 8, 5, 2, 1, 9, 1,
       6, 10, 4, 2, 10, 9, 8, 7, 9, 8, 10, 10, 2]
D20 = [16, 14, 3, 7, 14, 11, 14, 19, 1, 10, 16, 2, 10, 18, 15, 9, 5, 16, 1, 16, 7, 17, 9, 15,
       10, 2, 8, 18, 4, 10, 4, 16, 1, 4, 20, 19, 6, 14, 4, 5, 17, 5, 12, 15, 19, 12, 7, 18, 3,
       11, 16, 16, 17, 3, 10, 20, 10, 4, 20, 17, 16, 3, 15, 19, 13, 1, 3, 8, 6, 18, 18, 7, 6,
       18, 11, 10, 2, 13, 15, 6, 10, 18, 5, 2, 1, 19, 1, 16, 20, 14, 12, 20, 19, 8, 17, 14, 8,
       20, 20, 2]


@pytest.mark.parametrize(("sides", "expected"), [(6, D6), (10, D10), (20, D20)])
def test_the_first_hundred_digital_dice_are_pinned(sides: int, expected: list[int]) -> None:
    assert [digital_die(SEED, index, sides) for index in range(100)] == expected


def test_a_biased_byte_is_rejected_not_folded() -> None:
    """Die 36 of this seed: its first HMAC byte is 255 (>= 252, biased for a d6), so the
    die comes from the next byte; folding 255 would give 4."""
    assert digital_die(SEED, 36, 6) == 6


@pytest.mark.parametrize(("index", "sides", "first_bytes", "die"), [
    (36, 8, (255, 185), 8),    # 256 is a multiple of 8: no byte is biased, 255 is kept
    (371, 6, (252, 41), 6),    # 252 is the first biased byte of a d6: rejected
    (727, 6, (251, 163), 6),   # 251 is the last unbiased one: kept (251 % 6 + 1)
])
def test_the_rejection_limit_is_exactly_the_largest_multiple_of_the_sides(
    index: int, sides: int, first_bytes: tuple[int, int], die: int,
) -> None:
    assert digital_die(SEED, index, sides) == die


@pytest.mark.parametrize("sides", [2, 256])
def test_a_die_may_have_2_to_256_sides(sides: int) -> None:
    assert 1 <= digital_die(SEED, 0, sides) <= sides
    assert [digital_die(SEED, i, 2) for i in range(8)] == [2, 2, 1, 1, 2, 1, 2, 1]
    assert [digital_die(SEED, i, 256) for i in range(3)] == [56, 14, 83]


@pytest.mark.parametrize("sides", [1, 0, 257])
def test_a_die_of_fewer_than_2_or_more_than_256_sides_is_an_error(sides: int) -> None:
    with pytest.raises(ValueError, match=f"2 to 256 sides, not {sides}"):
        digital_die(SEED, 0, sides)


def test_the_genesis_hash_the_seed_commitment_and_the_event_hash_are_pinned() -> None:
    assert GENESIS_HASH == "0" * 64
    assert seed_commitment(SEED) == (
        "9402a067a201caae0aafa10c28b1f80ea6b81548c113263db707c4da646e3d94")
    body = {"b": 1, "a": [1.5, "x"], "c": None}
    assert chain_hash(body) == chain_hash(dict(reversed(body.items())))  # key order is canon
    assert chain_hash(body) == "695fed0b215040b07442f990ff0343be942ea5b0f028f31418ce6fdf0a42aa48"


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_every_pinned_event_hash_is_recomputed_as_stored(path: Path) -> None:
    fixture = read_fixture(path)
    prev = GENESIS_HASH
    for row in fixture["events"]:
        body = row["body"]
        hashed = hashed_body(fixture["game_id"], row["version"], body["timestamp"],
                             body["step"], prev, body["fact"])
        assert (body["prev_hash"], chain_hash(hashed)) == (prev, body["hash"]), row["version"]
        prev = body["hash"]
    assert prev == fixture["head_hash"]


@pytest.fixture(params=BACKENDS)
def pinned_service(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    service = make_service(request.param, tmp_path)
    yield service
    service.close()


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_a_pinned_log_loads_replays_to_its_state_hash_and_verifies(
    path: Path, pinned_service: GameService,
) -> None:
    fixture = read_fixture(path)
    game_id = pinned_game(pinned_service, fixture)

    game = pinned_service.game_at(game_id)
    verdict = verify_game(pinned_service, game_id, expect_head=fixture["head_hash"])

    assert (game.version, game.head_hash) == (fixture["event_count"], fixture["head_hash"])
    assert game.state.ruleset == fixture["ruleset"] and game.state.seed == fixture["seed"]
    assert state_hash(game.state) == fixture["state_hash"]
    assert verdict.ok, verdict.line()
    assert verdict.notes == ()  # its snapshots are read and agree with the log
    rolled = [event.fact.values for event in pinned_service.stored_events(game_id)  # type: ignore[attr-defined]
              if event.fact.type == "DiceRolled"]
    assert [list(values) for values in rolled] == fixture["dice"]


def test_the_pinned_dice_game_rolled_the_pinned_digital_dice() -> None:
    fixture = read_fixture(next(p for p in FIXTURES if p.stem == "test-dice-undo-redo"))
    assert fixture["seed"] == SEED
    assert fixture["dice"] == [[D6[0]], [D6[1]], [D6[2]], [D6[2]]]  # the undone die, reused
    assert fixture["snapshots"], "the dice game pins snapshots too"


def pinned_game(service: GameService, fixture: dict[str, Any]) -> Any:
    """Load a fixture's rows, unless this store holds that game already (PostgreSQL)."""
    from uuid import UUID

    game_id = UUID(fixture["game_id"])
    if service.recorder.select_events(game_id, limit=1):
        return game_id
    return load_rows(service, fixture)

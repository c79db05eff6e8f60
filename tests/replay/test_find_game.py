"""A GAME argument (full id, prefix or 'last') is resolved by a few index lookups on
SQLite (docs/performance.md, cold start), with exactly the answers of listing every game."""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

import pytest

from domain.ruleset import Setup
from replay.service import GameNotFoundError, GameService, pick_game

SETUP = Setup(ruleset="w40k-10", board={"width": 44, "height": 60}, players=("red", "blue"),
              units=({"id": "u1", "owner": "red", "x": 5.0, "y": 10.0, "facing": 90.0},))


def answer(find: object, text: str) -> str:
    """The game found, or the error's message."""
    try:
        return str(find(text))  # type: ignore[operator]
    except GameNotFoundError as error:
        return f"error: {error}"


@pytest.fixture
def service(tmp_path: Path) -> GameService:
    return GameService(str(tmp_path / "games.db"))


def test_every_form_gives_what_listing_the_games_gives(service: GameService) -> None:
    ids = [service.start(SETUP) for _ in range(6)]
    first = service.handle(ids[0], {"do": "next_phase", "by": "red"})  # the first game grows
    assert first.accepted, first
    texts = ["last", "", "-", "zz", "0" * 33, *(str(i)[:n] for i in ids for n in (1, 2, 8, 36)),
             *(str(i).upper() for i in ids), *(str(i).replace("-", "") for i in ids)]
    listed = service.game_ids()
    assert listed == ids
    for text in texts:
        assert answer(service.find_game, text) == \
            answer(lambda t: pick_game(listed, t), text), text
    assert service.find_game("last") == ids[-1]  # started last, though not written last
    assert service.find_game(str(ids[2])) == ids[2]


def test_an_ambiguous_prefix_says_how_many_games_match(service: GameService) -> None:
    ids = [service.start(SETUP, UUID(f"abc{n}" + "0" * 28)) for n in range(3)]
    with pytest.raises(GameNotFoundError, match="'abc' matches 3 games; give more of the id"):
        service.find_game("abc")
    assert service.find_game(str(ids[1])[:36]) == ids[1]
    assert service.find_game("abc1") == ids[1]


def test_an_empty_game_argument_names_no_game_even_in_a_store_of_one(
        service: GameService) -> None:
    only = service.start(SETUP)
    assert service.find_game(str(only)[:4]) == only
    for find in (service.find_game, lambda text: pick_game([only], text)):
        with pytest.raises(GameNotFoundError, match="no game named: give a game id"):
            find("")


def test_an_empty_store_holds_no_last_game(service: GameService) -> None:
    with pytest.raises(GameNotFoundError, match="the database holds no games"):
        service.find_game("last")
    with pytest.raises(GameNotFoundError, match="no game '1234' in this database"):
        service.find_game("1234")
    assert isinstance(service.start(SETUP), UUID)

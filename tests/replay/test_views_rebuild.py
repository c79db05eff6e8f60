"""A large rebuild from scratch: split by game with a second
process (each folds its part's events and reads their state views), written into a
new views file that replaces the old one only when complete. `parallel_from=1`
takes that path on a small log; the tables must equal the ones the ordinary
catch-up writes."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from replay.service import GameService
from replay.views import FIRST_PART_LEAD, PARTS, Views, part_range
from tests.replay.test_analytics import (
    accepted,
    dice_game_with_undo,
    dump,
    play_examples,
)

EXAMPLES = ["w40k-battle-round.yaml", "t9a-ambush-legal.yaml", "infinity-cautious-aro.yaml",
            "mageknight-benefits.yaml"]


def store(tmp_path: Path) -> GameService:
    """Every rule set's examples and a dice game with an undo (test-dice, a rule set
    only the test registers: the helper must import it too)."""
    service = GameService(str(tmp_path / "g.db"))
    play_examples(service, EXAMPLES)
    game_id = dice_game_with_undo(service)
    accepted(service, game_id, {"do": "request_redo", "by": "red"})
    accepted(service, game_id, {"do": "consent", "by": "blue", "accept": True})
    while len({part_of(game) for game in service.game_ids()}) < PARTS:
        dice_game_with_undo(service)  # games in every part, so each part has work
    return service


def part_of(game_id: UUID) -> int:
    """The part of a rebuild a game falls in (`replay.views.part_range`)."""
    return next(part for part in range(PARTS)
                if part_range(part, PARTS)[0] <= game_id.hex < part_range(part, PARTS)[1])


@pytest.mark.parametrize("unwritten", [2, 8192])
def test_a_parallel_rebuild_into_a_new_file_equals_the_catch_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unwritten: int,
) -> None:
    """`unwritten`: how many games' rows may wait (2: written every few pages)."""
    monkeypatch.setattr("replay.views.UNWRITTEN_GAMES", unwritten)
    service = store(tmp_path)
    incremental = Views(service, str(tmp_path / "inc.views"), batch=5)
    incremental.run()
    path = tmp_path / "fresh.views"
    fresh = Views(service, str(path), batch=7, parallel_from=1)
    processed = fresh.run()

    assert processed == incremental.position() > 0
    tables = dump(fresh.conn)
    assert tables == dump(incremental.conn)
    assert tables["state_views"] and tables["dice"] and tables["w40k_stratagems"]
    assert fresh.position() == incremental.position()
    # the new file is a complete views file: WAL journal, every secondary index
    conn = sqlite3.connect(path)
    assert conn.execute("pragma journal_mode").fetchone()[0] == "wal"
    indexes = {row[0] for row in conn.execute("select name from sqlite_master "
                                              "where type = 'index' and sql is not null")}
    assert {"games_result", "steps_step", "dice_step", "w40k_cp_step"} <= indexes
    assert sorted(p.name for p in tmp_path.iterdir() if "fresh" in p.name or "part" in p.name) \
        == ["fresh.views", "fresh.views-shm", "fresh.views-wal"]  # no scratch file left
    # the next step is caught up incrementally in the replaced file
    accepted(service, dice_game_with_undo(service), {"do": "roll", "by": "red"})
    assert fresh.run() == incremental.run() > 0
    assert dump(fresh.conn) == dump(incremental.conn)


def test_a_rebuild_that_fails_leaves_the_old_views_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    service = store(tmp_path)
    path = tmp_path / "fresh.views"
    views = Views(service, str(path), batch=7, parallel_from=1)
    writes = 0
    original = Views._write_analytics

    def crash_on_the_third_batch(self: Views, page: list[tuple[int, str, int, bytes]],
                                 *rest: Any) -> None:
        nonlocal writes
        writes += 1
        if writes == 3:
            raise KeyboardInterrupt
        original(self, page, *rest)

    monkeypatch.setattr(Views, "_write_analytics", crash_on_the_third_batch)
    with pytest.raises(KeyboardInterrupt):
        views.run()
    assert writes == 3
    assert views.position() == 0  # the old file: nothing projected, nothing half-done
    assert not dump(views.conn)["steps"] and not dump(views.conn)["state_views"]
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith((".rebuild", ".tmp"))]
    monkeypatch.setattr(Views, "_write_analytics", original)
    assert views.run() > 0
    incremental = Views(service, str(tmp_path / "inc.views"))
    incremental.run()
    assert dump(views.conn) == dump(incremental.conn)


def test_the_shared_fact_mapper_reads_the_events_the_ordinary_mapper_reads(
    tmp_path: Path,
) -> None:
    from replay.event_store import GameEventStore
    from replay.mapper import SharedFactMapper

    service = GameService(str(tmp_path / "g.db"))
    first, second = play_examples(service, ["t9a-ambush-legal.yaml", "t9a-ambush-legal.yaml"])
    shared = GameEventStore(mapper=SharedFactMapper(service.construct_transcoder()),
                            recorder=service.events.recorder)
    ours = [list(shared.get(game)) for game in (first, second)]
    assert ours == [list(service.events.get(game)) for game in (first, second)]
    assert len(ours[0]) > 10
    # the same script played twice: the same facts, validated once and shared
    assert all(a.fact is b.fact for a, b in zip(ours[0][2:], ours[1][2:], strict=False)
               if a.fact == b.fact)
    assert sum(a.fact is b.fact for a, b in zip(ours[0], ours[1], strict=False)) > 5
    game = service.load(second)
    from replay.snapshots import trusted_game

    folded = trusted_game(None, shared, second)
    assert folded is not None and folded.state == game.state and folded.version == game.version


def test_the_parts_split_every_game_id_between_them() -> None:
    """Every stored id (hex text) falls in exactly one part, each about as large."""
    from uuid import uuid4

    ids = [uuid4().hex for _ in range(4000)]
    for parts in (2, 3, 5):
        ranges = [part_range(part, parts) for part in range(parts)]
        assert ranges[0][0] == "000" and all(lo < hi for lo, hi in ranges)
        for game in ids:
            assert sum(lo <= game < hi for lo, hi in ranges) == 1
        sizes = [sum(lo <= game < hi for game in ids) for lo, hi in ranges]
        first = 1 / parts + FIRST_PART_LEAD  # this process's part: a little more
        assert abs(sizes[0] / len(ids) - first) < 0.03
        assert all(abs(size / len(ids) - (1 - first) / (parts - 1)) < 0.03
                   for size in sizes[1:])


def test_events_stored_while_the_parts_are_built_are_caught_up_after_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The parts fold the log up to its last notification when the rebuild began;
    what is stored meanwhile is caught up in the new file before `run` returns."""
    service = store(tmp_path)
    game_id = dice_game_with_undo(service)
    original = Views.build_part
    heads: list[int] = []

    def store_a_step_first(self: Views, head: int, part: int, parts: int) -> int:
        heads.append(head)
        accepted(service, game_id, {"do": "roll", "by": "red"})  # after `head`
        return original(self, head, part, parts)

    monkeypatch.setattr(Views, "build_part", store_a_step_first)
    fresh = Views(service, str(tmp_path / "fresh.views"), batch=7, parallel_from=1)
    processed = fresh.run()
    incremental = Views(service, str(tmp_path / "inc.views"), batch=5)
    assert processed == incremental.run() > heads[0]
    assert fresh.position() == incremental.position() > heads[0]
    assert dump(fresh.conn) == dump(incremental.conn)
    assert fresh.view(game_id) == incremental.view(game_id)


def test_a_rebuild_of_complete_views_keeps_them_until_the_new_file_is_complete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`warledger views --rebuild`: a large rebuild does not drop the old tables first;
    a rebuild that fails leaves every row of the old views, and one that succeeds
    writes the same rows again."""
    service = store(tmp_path)
    views = Views(service, str(tmp_path / "g.views"), batch=7, parallel_from=1)
    assert views.run() > 0
    before, position = dump(views.conn), views.position()
    original = Views._write_analytics

    def crash(self: Views, page: list[tuple[int, str, int, bytes]], *rest: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(Views, "_write_analytics", crash)
    with pytest.raises(KeyboardInterrupt):
        views.rebuild()
    assert dump(views.conn) == before and views.position() == position
    monkeypatch.setattr(Views, "_write_analytics", original)
    assert views.rebuild() == position
    assert dump(views.conn) == before and views.position() == position

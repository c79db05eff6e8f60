"""Old facts stay readable: a stored v1 event is read back as v2."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from uuid import UUID

import orjson

from domain.ruleset import Setup
from events.base import upcast
from events.core import DiceRolled
from events.envelope import chain_hash
from replay.service import GameService

SETUP = Setup(ruleset="w40k-10", board={"width": 44, "height": 60}, players=("red", "blue"))


def test_upcast_turns_v1_dice_data_into_v2() -> None:
    v1 = {"type": "DiceRolled", "purpose": "hit", "values": [3], "source": "digital",
          "index": 4, "class_version": 1}

    data = upcast(v1)

    assert DiceRolled.model_validate(data) == DiceRolled(
        purpose="hit", values=(3,), source="digital", first_index=4, subject=None
    )


def test_stored_v1_event_is_read_back_as_v2(tmp_path: Path) -> None:
    db = str(tmp_path / "old.db")
    service = GameService(db)
    game_id = service.start(SETUP)
    head = service.load(game_id)
    # Write a v1 DiceRolled row by hand, as an old version of warledger stored it.
    v1_fact = {"type": "DiceRolled", "purpose": "old roll", "sides": 6, "values": [5, 2],
               "source": "digital", "index": 0, "class_version": 1}
    body = {"originator_id": str(game_id), "originator_version": head.version + 1,
            "timestamp": "2026-01-01T00:00:00+00:00", "step": 0,
            "prev_hash": head.head_hash, "fact": v1_fact}
    stored = {**{k: body[k] for k in ("timestamp", "step", "prev_hash", "fact")},
              "hash": chain_hash(body)}
    with sqlite3.connect(db) as conn:
        conn.execute(
            "insert into stored_events (originator_id, originator_version, topic, state) "
            "values (?, ?, ?, ?)",
            (game_id.hex, head.version + 1, "warledger:GameEvent", orjson.dumps(stored)),
        )
    service.close()

    events = GameService(db).stored_events(UUID(str(game_id)))

    fact = events[-1].fact
    assert isinstance(fact, DiceRolled)
    assert fact.first_index == 0 and fact.values == (5, 2) and fact.subject is None
    assert type(fact).class_version == 2


def test_verify_accepts_a_game_holding_an_upcast_event(tmp_path: Path) -> None:
    from replay.verify import verify_game

    test_stored_v1_event_is_read_back_as_v2(tmp_path)
    service = GameService(str(tmp_path / "old.db"))

    verdict = verify_game(service, service.game_ids()[0])

    assert verdict.ok, verdict.line()

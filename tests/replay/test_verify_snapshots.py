"""`verify` with and without the key, on a keyed game's snapshots: a snapshot whose
state is honest but whose MAC another key made is named (the MAC is then the only
thing that tells), one without a MAC is noted, and a keyed game verified without the
key is told apart by its snapshots' MACs even when its heads and one snapshot row
are gone."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import orjson
import pytest

from replay.keyed import KEY_ENV, snapshot_mac
from replay.service import GameService
from replay.signed_games import RECORD_ENV, SignedGamesRecord
from replay.verify import SIGNED, UNCHECKED, verify_game
from tests.replay.test_keyed import KEY, OTHER_KEY, grenade_game
from tests.replay.test_snapshots import latest_snapshot, write_snapshot


@pytest.fixture(autouse=True)
def record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The key's signed-games record of these tests: a file of their own."""
    monkeypatch.setenv(RECORD_ENV, str(tmp_path / "signed-games.jsonl"))
    monkeypatch.delenv(KEY_ENV, raising=False)


def rewrite_latest_seal(db: str, change: Any) -> int:
    """Change the latest snapshot's seal (its state data left as stored)."""
    version, raw = latest_snapshot(db)
    body = orjson.loads(raw)
    change(body["state"])
    write_snapshot(db, version, orjson.dumps(body))
    return version


def test_verify_names_an_honest_snapshot_whose_mac_another_key_made(tmp_path: Path) -> None:
    """The state and its seal are exactly the replayed game's: only the MAC is wrong."""
    db, game_id, _ = grenade_game(tmp_path, KEY)

    def other_keys_mac(state: dict[str, Any]) -> None:
        state["__mac__"] = snapshot_mac(OTHER_KEY, game_id, state["__version__"],
                                        state["__head_hash__"], state["__state_hash__"])

    version = rewrite_latest_seal(db, other_keys_mac)

    keyed = verify_game(GameService(db, key=KEY), game_id)
    unkeyed = verify_game(GameService(db), game_id)

    assert (keyed.ok, keyed.bad_version) == (False, version)
    assert keyed.reason == (f"the stored snapshot at this event fails its {KEY_ENV} MAC: it "
                            f"was rewritten, or {KEY_ENV} is not the key that signed it")
    assert (unkeyed.ok, unkeyed.heads) == (True, UNCHECKED)


def test_a_keyed_snapshot_stripped_of_its_mac_is_noted_not_failed(tmp_path: Path) -> None:
    db, game_id, _ = grenade_game(tmp_path, KEY)
    version = rewrite_latest_seal(db, lambda state: state.pop("__mac__"))

    verdict = verify_game(GameService(db, key=KEY), game_id)

    assert (verdict.ok, verdict.heads) == (True, SIGNED)
    assert verdict.notes == (f"the stored snapshot at event {version} carries no {KEY_ENV} "
                             "MAC; a keyed server does not use it",)


def test_a_game_stored_without_the_key_is_not_noted_for_its_snapshots_lacking_macs(
    tmp_path: Path,
) -> None:
    """Every snapshot of an unsigned game lacks a MAC: its UNSIGNED verdict says what
    that means once, not once a snapshot."""
    db, game_id, _ = grenade_game(tmp_path, None)

    verdict = verify_game(GameService(db, key=KEY), game_id)

    assert verdict.unsigned and not verdict.ok
    assert not [note for note in verdict.notes if "carries no" in note]


def test_without_the_key_a_keyed_game_is_told_by_its_readable_snapshots_macs(
    tmp_path: Path,
) -> None:
    """Its heads deleted and its first snapshot row unreadable: the other snapshots'
    MACs still say it was stored with a key (UNCHECKED), and the bad row is noted."""
    db, game_id, _ = grenade_game(tmp_path, KEY)
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM warledger_heads")
        first = conn.execute("select min(originator_version) from stored_snapshots").fetchone()
    write_snapshot(db, int(first[0]), b"\x00{nope")

    verdict = verify_game(GameService(db), game_id)

    assert (verdict.ok, verdict.heads) == (True, UNCHECKED)
    assert any(f"snapshot at event {first[0]} cannot be read" in note for note in verdict.notes)



# -- the signed heads and the key's signed-games record ------------------------------------
def test_verify_lists_a_signed_game_that_the_keys_record_does_not_know(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game signed before the record was kept (here: the record file was lost) is
    listed again, from its FIRST signed head, by a `verify` whose heads hold; once its
    heads and snapshots are stripped, the record still says it was signed."""
    db, game_id, _ = grenade_game(tmp_path, KEY)
    reader = GameService(db, key=KEY)
    assert reader.heads is not None
    first_head = reader.heads.all(game_id)[0].version
    reader.close()
    fresh_record = tmp_path / "a-new-record.jsonl"
    monkeypatch.setenv(RECORD_ENV, str(fresh_record))
    assert SignedGamesRecord.for_key(KEY).listed(game_id) is None

    signed = verify_game(GameService(db, key=KEY), game_id)
    with sqlite3.connect(db) as conn:
        last_head = conn.execute("select max(version) from warledger_heads").fetchone()[0]
        conn.execute("DELETE FROM warledger_heads")
        conn.execute("DELETE FROM stored_snapshots")
    stripped = verify_game(GameService(db, key=KEY), game_id)

    assert (signed.ok, signed.heads) == (True, SIGNED)
    assert first_head < last_head
    assert SignedGamesRecord.for_key(KEY).listed(game_id) == first_head
    assert (stripped.ok, stripped.unsigned, stripped.listed) == (False, True, first_head)


def test_without_the_key_one_signed_head_is_enough_to_say_the_heads_were_not_checked(
    tmp_path: Path,
) -> None:
    """A keyed game with a single signed head (its set-up) and no snapshot MAC."""
    from domain.datafile import parse_yaml
    from tests.replay.test_snapshots import GRENADE_GAME
    from warledger.script import parse_script

    db = str(tmp_path / "game.db")
    keyed = GameService(db, key=KEY)
    game_id = keyed.start(parse_script(parse_yaml(GRENADE_GAME), "grenade").setup())
    assert len(keyed.heads.all(game_id)) == 1  # type: ignore[union-attr]
    keyed.close()

    verdict = verify_game(GameService(db), game_id)

    assert (verdict.ok, verdict.heads) == (True, UNCHECKED)
    assert "heads were NOT checked" in verdict.line()

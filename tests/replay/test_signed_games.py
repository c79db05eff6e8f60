"""The key's signed-games record (`replay.signed_games`): where it is, what it lists."""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

import orjson
import pytest

from domain.errors import ScriptError
from replay.signed_games import RECORD_ENV, SignedGamesRecord, key_id, record_path

KEY = b"a server key nobody else holds"
OTHER_KEY = b"the attacker's own key, not ours"
GAME, OTHER_GAME = UUID(int=21), UUID(int=22)


def test_the_record_is_where_the_variable_says_or_beside_the_key_s_state(
        tmp_path: Path) -> None:
    named = tmp_path / "named.jsonl"
    assert record_path(KEY, {RECORD_ENV: str(named)}) == named
    assert record_path(KEY, {"XDG_STATE_HOME": str(tmp_path)}) == (
        tmp_path / "warledger" / f"signed-games-{key_id(KEY)}.jsonl")
    home = record_path(KEY, {RECORD_ENV: "", "XDG_STATE_HOME": ""})
    assert home == Path.home() / ".local" / "state" / "warledger" / home.name
    assert key_id(KEY) != key_id(OTHER_KEY) and len(key_id(KEY)) == 16
    assert key_id(KEY) not in KEY.hex()  # a fingerprint, not the key


def test_a_game_is_listed_once_at_its_first_signed_head(tmp_path: Path) -> None:
    path = tmp_path / "state" / "signed.jsonl"
    record = SignedGamesRecord.for_key(KEY, {RECORD_ENV: str(path)})
    assert path.read_bytes() == b"" and record.listed(GAME) is None
    record.list(GAME, 7)
    record.list(GAME, 9)
    again = SignedGamesRecord.for_key(KEY, {RECORD_ENV: str(path)})  # another server
    again.list(GAME, 11)
    assert (record.listed(GAME), again.listed(GAME), again.listed(OTHER_GAME)) == (7, 7, None)
    assert [orjson.loads(line) for line in path.read_bytes().splitlines()] == [
        {"game": str(GAME), "event": 7, "key": key_id(KEY)}]
    again.list(OTHER_GAME, 3)
    assert record.listed(OTHER_GAME) == 3  # read afresh: the other server listed it


def test_another_key_s_lines_and_unreadable_lines_list_nothing(tmp_path: Path) -> None:
    path = tmp_path / "shared.jsonl"
    theirs = SignedGamesRecord.for_key(OTHER_KEY, {RECORD_ENV: str(path)})
    theirs.list(GAME, 5)
    with path.open("ab") as file:
        file.write(b'not json\n{"game": "x"}\n{"game": 1, "event": "e", "key": "k"}\n')
    ours = SignedGamesRecord.for_key(KEY, {RECORD_ENV: str(path)})
    assert ours.listed(GAME) is None
    ours.list(GAME, 8)
    assert (ours.listed(GAME), theirs.listed(GAME)) == (8, 5)
    path.unlink()  # removed: nothing is listed any more, and the next game lists again
    assert SignedGamesRecord(path, KEY).listed(GAME) is None
    ours.list(OTHER_GAME, 2)
    assert SignedGamesRecord(path, KEY).listed(OTHER_GAME) == 2


def test_a_record_that_cannot_be_kept_is_one_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(ScriptError, match="cannot keep the signed-games record .* set "
                       f"{RECORD_ENV}"):
        SignedGamesRecord.for_key(KEY, {RECORD_ENV: str(blocker / "signed.jsonl")})


def test_the_record_is_the_key_holder_s_alone_and_read_once_a_game_is_listed(
        tmp_path: Path) -> None:
    """Its folder and file are made readable by their owner only; a game listed by this
    service is not looked up in the file again (a save costs no file access)."""
    path = tmp_path / "new" / "state" / "signed.jsonl"
    record = SignedGamesRecord.for_key(KEY, {RECORD_ENV: str(path)})
    assert (path.parent.stat().st_mode & 0o777, path.stat().st_mode & 0o777) == (0o700, 0o600)
    SignedGamesRecord.for_key(KEY, {RECORD_ENV: str(path)})  # the folder exists: fine
    record.list(GAME, 4)
    path.unlink()
    record.list(GAME, 6)  # known: the file is neither read nor written again
    assert not path.exists()


def test_the_latest_head_seen_signed_is_the_highest_this_key_noted(tmp_path: Path) -> None:
    """Two servers note heads in any order; another key's lines are not this key's."""
    path = tmp_path / "heads.jsonl"
    ours = SignedGamesRecord.for_key(KEY, {RECORD_ENV: str(path)})
    theirs = SignedGamesRecord.for_key(OTHER_KEY, {RECORD_ENV: str(path)})
    assert ours.latest_head(GAME) is None
    ours.list(GAME, 6)
    for version in (6, 9, 8):
        ours.saw_head(GAME, version)
    theirs.saw_head(GAME, 40)
    theirs.saw_head(OTHER_GAME, 3)
    assert (ours.latest_head(GAME), ours.latest_head(OTHER_GAME)) == (9, None)
    assert (theirs.latest_head(GAME), ours.listed(GAME)) == (40, 6)
    assert [orjson.loads(line) for line in path.read_bytes().splitlines()][1] == {
        "game": str(GAME), "head": 6, "key": key_id(KEY)}


@pytest.mark.parametrize("note", ["list", "saw_head"])
def test_a_line_waits_for_another_server_s_lock_on_the_record(
        tmp_path: Path, note: str) -> None:
    """Servers sharing the record take its lock to write a line: while another holds it,
    nothing is written (the wait below only gives a writer that ignores the lock time to
    show it; a writer that takes it is held for as long as the lock is)."""
    import fcntl
    import threading

    path = tmp_path / "shared.jsonl"
    record = SignedGamesRecord.for_key(KEY, {RECORD_ENV: str(path)})
    with path.open("ab") as other_server:
        fcntl.flock(other_server, fcntl.LOCK_EX)
        writer = threading.Thread(target=getattr(record, note), args=(GAME, 5))
        writer.start()
        writer.join(timeout=0.5)
        assert writer.is_alive() and path.read_bytes() == b""
    writer.join()
    assert orjson.loads(path.read_bytes())["game"] == str(GAME)

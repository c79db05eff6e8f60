"""A keyed game forged whole: its log rewritten with recomputed hashes, its signed heads
and snapshots deleted, nothing left in the database that says a key was ever used.

What is left looks like a game stored without the key. The key's signed-games record
(`replay.signed_games`), kept outside the database, still lists it: with the key,
`verify` never says "ok" of it (UNSIGNED, exit 5, "the record LISTS it"), a keyed
service decides nothing on it, and `verify --sign-head HEAD` refuses to adopt it. With
the record lost too, `--sign-head` adopts it only at the head hash the operator names
(the forged head is not the one on a player's receipt).

On every backend: SQLite and PostgreSQL store heads in a table (the PostgreSQL insert
function path signs them), a keyed service on `:memory:` in a dict.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import orjson
import pytest

from domain.datafile import parse_yaml
from events.envelope import GENESIS_HASH, chain_hash, hashed_body
from replay.keyed import KEY_ENV, SignedHead, TamperedGameError
from replay.service import GameService
from replay.signed_games import RECORD_ENV, SignedGamesRecord
from replay.verify import SIGNED, UNSIGNED, verify_game
from tests.conftest import POSTGRES_URL, backend_params
from tests.replay.test_keyed import KEY, field_b1_in_range
from tests.replay.test_snapshots import GRENADE, GRENADE_GAME
from warledger.cli import main
from warledger.script import parse_script

Change = Callable[[int, dict[str, Any]], None]


@dataclasses.dataclass
class KeyedGame:
    """A keyed game on one backend, and how a forger with its database edits it."""

    backend: str
    db: str
    service: GameService  # the keyed service that played it (the store, on `:memory:`)
    game_id: UUID
    receipt: str  # the head hash on the judge's receipt
    opened: list[GameService] = dataclasses.field(default_factory=list)
    #: PostgreSQL: the game's honest rows, put back when the test ends (the suite shares
    #: the database, and the views and follower tests read its whole log), and the
    #: other games a test stored there, removed then.
    honest_rows: list[tuple[Any, ...]] = dataclasses.field(default_factory=list)
    others: list[UUID] = dataclasses.field(default_factory=list)

    def keyed(self, key: bytes | None = KEY) -> GameService:
        """A service as after a restart: nothing cached (on `:memory:`, the same store).
        It stays open until the test ends (a service closes its store when dropped)."""
        if self.backend == "memory":
            self.service.key = key
            self.service._cache.clear()
            return self.service
        self.opened.append(GameService(self.db, key=key))
        return self.opened[-1]

    # -- the forger's edits, on the raw rows -------------------------------------------------
    def bodies(self) -> list[tuple[int, dict[str, Any]]]:
        return [(row.originator_version, orjson.loads(row.state))
                for row in self.service.recorder.select_events(self.game_id)]

    def write(self, version: int, body: dict[str, Any]) -> None:
        state = orjson.dumps(body)
        recorder: Any = self.service.recorder
        if self.backend == "memory":
            stored = recorder._stored_events
            index = next(i for i, row in enumerate(stored) if row.originator_id == self.game_id
                         and row.originator_version == version)
            stored[index] = dataclasses.replace(stored[index], state=state)
            return
        mark = "?" if self.backend == "sqlite" else "%s"
        with recorder.datastore.transaction(commit=True) as cursor:
            cursor.execute(f"UPDATE {recorder.events_table_name} SET state = {mark} WHERE "
                           f"originator_id = {mark} AND originator_version = {mark}",
                           (state, self.game_id.hex if self.backend == "sqlite"
                            else self.game_id, version))

    def rewrite(self, change: Change, *, only: int | None = None) -> None:
        """Edit facts and recompute hashes as a forger would: every hash and link after
        the edit (or, with `only`, that one event's own hash, the next link left alone)."""
        prev = GENESIS_HASH
        for version, body in self.bodies():
            if only is not None and version != only:
                continue
            change(version, body["fact"])
            if only is None:
                body["prev_hash"] = prev
            body["hash"] = chain_hash(hashed_body(self.game_id, version, body["timestamp"],
                                                  body["step"], body["prev_hash"],
                                                  body["fact"]))
            prev = body["hash"]
            self.write(version, body)

    def strip_snapshots(self) -> None:
        """Delete the game's snapshots (a cache: nothing is lost)."""
        snapshots: Any = self.service.snapshots.recorder  # type: ignore[union-attr]
        if self.backend == "memory":
            snapshots._stored_events.clear()
            snapshots._stored_events_index.clear()
            return
        mark = "?" if self.backend == "sqlite" else "%s"
        with snapshots.datastore.transaction(commit=True) as cursor:
            cursor.execute(f"DELETE FROM {snapshots.events_table_name} WHERE originator_id "
                           f"= {mark}", (self.game_id.hex if self.backend == "sqlite"
                                         else self.game_id,))

    def strip(self) -> None:
        """Delete everything in the database that says a key was used: the signed heads
        (SQLite: the whole table) and the snapshots, whose seals carry MACs."""
        recorder: Any = self.service.recorder
        snapshots: Any = self.service.snapshots.recorder  # type: ignore[union-attr]
        if self.backend == "memory":
            assert self.service.heads is not None
            self.service.heads.memory.clear()
            snapshots._stored_events.clear()
            snapshots._stored_events_index.clear()
            return
        if self.backend == "sqlite":
            with recorder.datastore.transaction(commit=True) as cursor:
                cursor.execute("DROP TABLE warledger_heads")
                cursor.execute(f"DELETE FROM {snapshots.events_table_name}")
            return
        with recorder.datastore.transaction(commit=True) as cursor:
            cursor.execute("DELETE FROM warledger_heads WHERE game_id = %s", (str(self.game_id),))
            cursor.execute(f"DELETE FROM {snapshots.events_table_name} WHERE originator_id "
                           "= %s", (self.game_id,))

    def keep_honest_rows(self) -> None:
        """PostgreSQL: remember the game's rows as stored (`restore` puts them back)."""
        if self.backend != "postgres":
            return
        recorder: Any = self.service.recorder
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute(f"SELECT originator_id, originator_version, topic, state, "
                           f"notification_id FROM {recorder.events_table_name} WHERE "
                           "originator_id = %s", (self.game_id,))
            self.honest_rows = [tuple(row.values()) if isinstance(row, dict) else tuple(row)
                                for row in cursor.fetchall()]

    def restore(self) -> None:
        """PostgreSQL: the game's honest rows back, other games stored by the test gone."""
        if self.backend != "postgres":
            return
        recorder: Any = self.service.recorder
        table = recorder.events_table_name
        with recorder.datastore.transaction(commit=True) as cursor:
            for originator in (self.game_id, *self.others):
                cursor.execute(f"DELETE FROM {table} WHERE originator_id = %s", (originator,))
            for row in self.honest_rows:
                cursor.execute(f"INSERT INTO {table} (originator_id, originator_version, "
                               "topic, state, notification_id) VALUES (%s, %s, %s, %s, %s)",
                               row)

    def close(self) -> None:
        self.restore()
        for service in [*self.opened, self.service]:
            service.close()


@pytest.fixture
def record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own signed-games record of `KEY`, and the key in the environment."""
    path = tmp_path / "signed-games.jsonl"
    monkeypatch.setenv(RECORD_ENV, str(path))
    monkeypatch.setenv(KEY_ENV, KEY.decode())
    return path


@pytest.fixture(params=backend_params("memory", "sqlite", "postgres"))
def keyed_game(request: pytest.FixtureRequest, tmp_path: Path,
               record: Path) -> Iterator[KeyedGame]:
    """The grenade game stored by a keyed service (a snapshot at every event), with one
    more step: red's next phase."""
    backend = request.param
    db = {"memory": ":memory:", "sqlite": str(tmp_path / "game.db")}.get(backend) \
        or str(POSTGRES_URL)
    service = GameService(db, key=KEY)
    service.snapshot_interval = 1
    setup = parse_script(parse_yaml(GRENADE_GAME), "grenade").setup()
    game_id = service.start(setup)
    outcome = service.handle(game_id, {"by": "red", "do": "next_phase"})
    assert outcome.accepted
    game = KeyedGame(backend, db, service, game_id, outcome.head_hash)
    game.keep_honest_rows()
    yield game
    game.close()


def verify_cli(game: KeyedGame, capsys: pytest.CaptureFixture[str],
               *extra: str) -> tuple[int, str, str]:
    code = main(["verify", game.db, str(game.game_id), *extra])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_keyed_game_is_listed_in_the_key_s_record_and_verifies_signed(
        keyed_game: KeyedGame, record: Path) -> None:
    keyed = keyed_game.keyed()
    assert keyed.heads is not None and len(keyed.heads.all(keyed_game.game_id)) == 2
    assert keyed.heads.latest(keyed_game.game_id) == keyed.heads.all(keyed_game.game_id)[-1]
    assert keyed.handle(keyed_game.game_id, GRENADE).rule == "STR-04"  # decided on its head
    verdict = verify_game(keyed, keyed_game.game_id)
    assert (verdict.ok, verdict.heads, verdict.head_hash) == (True, SIGNED, keyed_game.receipt)
    signed = [head.version for head in keyed.heads.all(keyed_game.game_id)]
    lines = [orjson.loads(line) for line in record.read_bytes().splitlines()]
    assert {line["game"] for line in lines} == {str(keyed_game.game_id)}
    assert [line["event"] for line in lines if "event" in line] == signed[:1]
    assert [line["head"] for line in lines if "head" in line] == signed


def test_a_log_cut_back_to_an_earlier_signed_head_fails_with_the_key_s_record(
        keyed_game: KeyedGame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cut the log back to an earlier signed head and delete the heads after it: all
    that is left is signed, but the key's record saw a later head signed."""
    game_id = keyed_game.game_id
    keyed = keyed_game.keyed()
    earlier, last = (head.version for head in keyed.heads.all(game_id))  # type: ignore[union-attr]
    recorder: Any = keyed_game.service.recorder
    if keyed_game.backend == "memory":
        stored = recorder._stored_events
        stored[:] = [row for row in stored if row.originator_version <= earlier]
        recorder._stored_events_index[str(game_id)] = {
            v: i for v, i in recorder._stored_events_index[str(game_id)].items() if v <= earlier}
        keyed.heads.memory[str(game_id)].pop(last)  # type: ignore[union-attr]
    else:
        mark = "?" if keyed_game.backend == "sqlite" else "%s"
        with recorder.datastore.transaction(commit=True) as cursor:
            cursor.execute(f"DELETE FROM {recorder.events_table_name} WHERE originator_id = "
                           f"{mark} AND originator_version > {mark}",
                           (game_id.hex if keyed_game.backend == "sqlite" else game_id,
                            earlier))
            cursor.execute(f"DELETE FROM warledger_heads WHERE game_id = {mark} AND version "
                           f"> {mark}", (str(game_id), earlier))
    keyed_game.strip_snapshots()

    verdict = verify_game(keyed_game.keyed(), game_id)
    assert (verdict.ok, verdict.bad_version) == (False, earlier)
    assert verdict.reason == (f"the log ends here, but the WARLEDGER_KEY signed-games record "
                              f"saw its head at event {last} signed: events were removed (or "
                              "this is an older copy of the game)")
    monkeypatch.setenv(RECORD_ENV, str(tmp_path / "a-new-record.jsonl"))  # record lost:
    keyed_game.service.signed_games = SignedGamesRecord.for_key(KEY)
    assert verify_game(keyed_game.keyed(), game_id).ok  # only a receipt can tell then


def test_a_forged_keyed_log_stripped_of_heads_and_snapshots_is_never_ok(
        keyed_game: KeyedGame, capsys: pytest.CaptureFixture[str]) -> None:
    game_id = keyed_game.game_id
    first = keyed_game.keyed().heads.all(game_id)[0].version  # type: ignore[union-attr]
    keyed_game.rewrite(field_b1_in_range)
    keyed_game.strip()

    # Without the key the forgery is a sound log: its chain holds, every step re-decides.
    plain = verify_game(keyed_game.keyed(key=None), game_id)
    assert plain.ok and plain.heads == "" and plain.head_hash != keyed_game.receipt

    keyed = keyed_game.keyed()
    verdict = verify_game(keyed, game_id)
    assert (verdict.ok, verdict.unsigned, verdict.heads, verdict.listed) == (
        False, True, UNSIGNED, first)
    line = verdict.line()
    assert line.startswith("UNSIGNED: no head of this game is signed with WARLEDGER_KEY")
    assert f"record LISTS it (signed from event {first})" in line and "ok" not in line[:12]
    with pytest.raises(TamperedGameError, match="signed-games record lists it"):
        keyed.handle(game_id, GRENADE)
    assert keyed.heads is not None and keyed.heads.all(game_id) == []  # nothing was signed

    if keyed_game.backend == "memory":
        return  # the CLI opens its own store: no other process sees a `:memory:` one
    code, out, _ = verify_cli(keyed_game, capsys)
    assert code == 5 and out.startswith("UNSIGNED: ") and "record LISTS it" in out
    code, out, err = verify_cli(keyed_game, capsys, "--sign-head", plain.head_hash)
    assert (code, out) == (2, "")
    assert "--sign-head refuses game" in err and f"signed from event {first}" in err
    assert keyed_game.keyed().heads.all(game_id) == []  # type: ignore[union-attr]


def test_with_the_record_lost_sign_head_adopts_only_at_the_head_named(
        keyed_game: KeyedGame, capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The forgery's head is not the receipt's: an operator who compares them adopts
    nothing; one who names the forged head signs what they named."""
    if keyed_game.backend == "memory":
        pytest.skip("the CLI opens its own store: no other process sees a `:memory:` one")
    game_id = keyed_game.game_id
    keyed_game.rewrite(field_b1_in_range)
    keyed_game.strip()
    monkeypatch.setenv(RECORD_ENV, str(tmp_path / "a-new-record.jsonl"))

    code, out, _ = verify_cli(keyed_game, capsys)
    assert code == 5 and out.startswith("UNSIGNED: ") and "record does not list it" in out
    forged = verify_game(keyed_game.keyed(key=None), game_id).head_hash
    assert f"--sign-head {forged}` adopts it" in out

    code, out, _ = verify_cli(keyed_game, capsys, "--sign-head", keyed_game.receipt)
    assert code == 1 and f"not at the receipt's {keyed_game.receipt}" in out
    assert "signed the head" not in out
    assert keyed_game.keyed().heads.all(game_id) == []  # type: ignore[union-attr]

    code, out, _ = verify_cli(keyed_game, capsys, "--sign-head", forged)
    assert code == 0 and out.splitlines()[-1].startswith("signed the head at event")
    assert verify_cli(keyed_game, capsys)[0] == 0
    code, _, err = verify_cli(keyed_game, capsys, "--sign-head", forged)
    assert code == 2 and "--sign-head refuses game" in err  # listed now: once only


def test_sign_head_needs_a_head_and_the_key(
        keyed_game: KeyedGame, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    if keyed_game.backend == "memory":
        pytest.skip("the CLI opens its own store: no other process sees a `:memory:` one")
    with pytest.raises(SystemExit) as exit_:
        main(["verify", keyed_game.db, str(keyed_game.game_id), "--sign-head"])
    assert exit_.value.code == 2 and "expected one argument" in capsys.readouterr().err
    monkeypatch.delenv(KEY_ENV)
    code, _, err = verify_cli(keyed_game, capsys, "--sign-head", keyed_game.receipt)
    assert code == 2 and "--sign-head needs the server key" in err
    monkeypatch.setenv(KEY_ENV, KEY.decode())
    code, _, err = verify_cli(keyed_game, capsys, "--sign-head", keyed_game.receipt,
                              "--expect-head", "e" * 64)
    assert code == 2 and "name different heads" in err


def test_a_middle_event_rewritten_with_a_fresh_hash_breaks_the_next_link(
        keyed_game: KeyedGame) -> None:
    """The forger rewrites one event and its own hash, and leaves the next event's
    `prev_hash` alone: each event matches its hash, but the chain is cut after it."""
    game_id = keyed_game.game_id
    fielded = next(v for v, body in keyed_game.bodies() if body["fact"]["type"] ==
                   "UnitFielded" and body["fact"]["unit"]["id"] == "b1")
    keyed_game.rewrite(field_b1_in_range, only=fielded)
    keyed_game.strip()

    keyed = keyed_game.keyed()
    with pytest.raises(TamperedGameError, match=f"event {fielded + 1} of game {game_id} does "
                       "not link to the event before it"):
        keyed.handle(game_id, GRENADE)
    verdict = verify_game(keyed, game_id)
    assert (verdict.ok, verdict.bad_version) == (False, fielded + 1)
    assert "link to the previous event is broken" in verdict.reason


def test_a_game_stored_without_the_key_is_unsigned_and_not_listed(
        tmp_path: Path, record: Path) -> None:
    """On `:memory:` too: the in-memory heads are this service's own."""
    service = GameService(":memory:")
    setup = parse_script(parse_yaml(GRENADE_GAME), "grenade").setup()
    game_id = service.start(setup)
    service.key = KEY
    service.signed_games = SignedGamesRecord.for_key(KEY)
    from replay.keyed import SignedHeads

    service.heads = SignedHeads(service.recorder)
    verdict = verify_game(service, game_id)
    assert (verdict.ok, verdict.heads, verdict.listed) == (False, UNSIGNED, None)
    assert "record does not list it" in verdict.line()
    assert record.read_bytes() == b""
    with pytest.raises(TamperedGameError, match="stored without the key"):
        service.handle(game_id, GRENADE)


def test_with_the_key_no_reader_shows_a_history_a_database_writer_made(
        keyed_game: KeyedGame, capsys: pytest.CaptureFixture[str]) -> None:
    """Audit, export, replay, the viewer and reveal read `stored_events`: with the key it
    holds only what a keyed server wrote, so a rewritten log (hashes recomputed, heads
    kept) is refused there too, as `step` refuses it; without the key it is shown."""
    game_id = keyed_game.game_id
    honest = keyed_game.keyed().stored_events(game_id)
    assert [e.hash for e in honest][-1] == keyed_game.receipt
    keyed_game.rewrite(field_b1_in_range)

    assert keyed_game.keyed(key=None).stored_events(game_id)[-1].hash != keyed_game.receipt
    with pytest.raises(TamperedGameError, match="fails its WARLEDGER_KEY MAC"):
        keyed_game.keyed().stored_events(game_id)
    keyed_game.strip()
    with pytest.raises(TamperedGameError, match="signed-games record lists it"):
        keyed_game.keyed().stored_events(game_id)
    if keyed_game.backend == "memory":
        return  # the CLI opens its own store: no other process sees a `:memory:` one
    for command in (["audit"], ["export"], ["replay"], ["reveal", "--in-progress"],
                    ["viewer", "-o", str(Path(keyed_game.db).parent / "v.html")]
                    if keyed_game.backend == "sqlite" else ["export", "--as", "red"]):
        code = main([command[0], keyed_game.db, str(game_id), *command[1:]])
        captured = capsys.readouterr()
        assert code == 2 and "signed-games record lists it" in captured.err, command
        assert captured.out == "" and "Traceback" not in captured.err


def test_the_first_event_must_link_to_the_genesis_hash(keyed_game: KeyedGame) -> None:
    """The forger gives the first event another `prev_hash` and recomputes the chain
    from it: every event matches its hash and links on, but the chain does not start
    at the genesis hash; a keyed read names event 1 (before any head is looked at)."""
    game_id = keyed_game.game_id
    first_prev = {1: "f" * 64}
    prev = ""
    for version, body in keyed_game.bodies():
        body["prev_hash"] = first_prev.get(version, prev)
        body["hash"] = chain_hash(hashed_body(game_id, version, body["timestamp"],
                                              body["step"], body["prev_hash"], body["fact"]))
        prev = body["hash"]
        keyed_game.write(version, body)
    keyed_game.strip()
    with pytest.raises(TamperedGameError, match=f"event 1 of game {game_id} does not link"):
        keyed_game.keyed().stored_events(game_id)


def test_a_row_that_cannot_be_read_does_not_match_its_hash(keyed_game: KeyedGame) -> None:
    game_id = keyed_game.game_id
    recorder: Any = keyed_game.service.recorder
    if keyed_game.backend == "memory":
        stored = recorder._stored_events
        stored[2] = dataclasses.replace(stored[2], state=b"{not json")
    else:
        mark = "?" if keyed_game.backend == "sqlite" else "%s"
        with recorder.datastore.transaction(commit=True) as cursor:
            cursor.execute(f"UPDATE {recorder.events_table_name} SET state = {mark} WHERE "
                           f"originator_id = {mark} AND originator_version = 3",
                           (b"{not json", game_id.hex if keyed_game.backend == "sqlite"
                            else game_id))
    with pytest.raises(TamperedGameError, match=f"event 3 of game {game_id} does not match "
                       "its hash"):
        keyed_game.keyed().stored_events(game_id)


def test_the_signing_insert_returns_the_library_s_notification_ids(
        keyed_game: KeyedGame) -> None:
    """The recorder's insert, wrapped to sign heads in its transaction, still answers
    what the library's does: the new rows' notification ids, in order."""
    from eventsourcing.persistence import StoredEvent

    from replay.keyed import HEADS_KWARG

    recorder = keyed_game.service.recorder
    before = recorder.max_notification_id() or 0
    other = uuid4()
    keyed_game.others.append(other)
    rows = [StoredEvent(originator_id=other, originator_version=version, topic="t",
                        state=b"{}") for version in (1, 2)]
    ids = recorder.insert_events(rows, **{HEADS_KWARG: [(other, 2, "m" * 64)]})
    assert list(ids or []) == [before + 1, before + 2] == [
        n.id for n in recorder.select_notifications(before + 1, 10)][-2:]
    assert keyed_game.service.heads.all(other) == [  # type: ignore[union-attr]
        SignedHead(2, "m" * 64)]

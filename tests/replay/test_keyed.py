"""Keyed tamper evidence: with WARLEDGER_KEY, heads and snapshots carry
an HMAC that someone with the database but not the key cannot recompute.

Each forgery edits the SQLite file the way someone with the file and the hash function
would (recomputing seals and hash chains); a keyed service then refuses to decide on
it, or sets the snapshot aside, and `verify` with the key names it. Without the key the
same edits get through: that is what the key is for.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import orjson
import pytest

from events.envelope import GENESIS_HASH, chain_hash, hashed_body
from replay.keyed import KEY_ENV, TamperedGameError, key_from_env
from replay.service import GameService
from replay.signed_games import RECORD_ENV
from replay.verify import verify_game
from tests.conftest import POSTGRES_SKIP_REASON, POSTGRES_URL
from tests.replay.test_snapshots import (
    GRENADE,
    GRENADE_GAME,
    Warnings,
    edit_snapshot,
    latest_snapshot,
    move_b1_into_range,
)
from warledger.cli import main
from warledger.script import load_script, run_script

KEY = b"a server key nobody else holds"
OTHER_KEY = b"the attacker's own key, not ours"


def grenade_game(tmp_path: Path, key: bytes | None, *, snapshots: bool = True,
                 clock: Callable[[], datetime] | None = None) -> tuple[str, UUID, int]:
    """The w40k grenade game (red's r1 18.75" from blue's b1: a Grenade is refused),
    stored by a service with `key`, a snapshot at every event."""
    script = tmp_path / "grenade.yaml"
    script.write_text(GRENADE_GAME)
    db = str(tmp_path / "game.db")
    service = GameService(db, key=key, clock=clock)
    service.snapshot_interval = 1 if snapshots else 10_000
    result = run_script(service, load_script(str(script)))
    assert all(step["accepted"] for step in result["steps"]), result["steps"]
    version = service.load(UUID(result["game_id"])).version
    service.close()
    return db, UUID(result["game_id"]), version


def keyed(db: str, key: bytes | None = KEY) -> tuple[GameService, Warnings]:
    service = GameService(db, key=key)
    service.snapshot_recheck_events = 0  # a long game: the seal is all that is checked
    warnings = Warnings()
    service.warn = warnings
    return service, warnings


def rows(db: str) -> list[tuple[int, dict[str, Any]]]:
    with sqlite3.connect(db) as conn:
        found = conn.execute("SELECT originator_version, state FROM stored_events "
                             "ORDER BY originator_version").fetchall()
    return [(int(v), orjson.loads(state)) for v, state in found]


def rewrite_events(db: str, game_id: UUID, change: Callable[[int, dict[str, Any]], None],
                   ) -> None:
    """Edit stored events' facts and recompute every hash and link, as a forger would."""
    prev = GENESIS_HASH
    with sqlite3.connect(db) as conn:
        for version, body in rows(db):
            change(version, body["fact"])
            body["prev_hash"] = prev
            body["hash"] = chain_hash(hashed_body(game_id, version, body["timestamp"],
                                                  body["step"], prev, body["fact"]))
            prev = body["hash"]
            conn.execute("UPDATE stored_events SET state = ? WHERE originator_version = ?",
                         (orjson.dumps(body), version))
        conn.execute("DELETE FROM stored_snapshots")


def field_b1_in_range(version: int, fact: dict[str, Any]) -> None:
    """The set-up fielded b1 at y 28.75; the forged log fields it at y 14."""
    if fact["type"] == "UnitFielded" and fact["unit"]["id"] == "b1":
        fact["unit"]["y"] = 14.0


def head_rows(db: str) -> list[tuple[int, str]]:
    with sqlite3.connect(db) as conn:
        return [(int(v), str(m)) for v, m in conn.execute(
            "SELECT version, mac FROM warledger_heads ORDER BY version")]


# -- the poisoned snapshot (docs/testing.md) -----------------------------------------------
def test_a_resealed_poisoned_snapshot_decides_the_grenade_without_a_key(tmp_path: Path) -> None:
    """The hole the key closes: past the rebuild check, a resealed snapshot is believed."""
    db, game_id, _ = grenade_game(tmp_path, KEY)
    edit_snapshot(db, move_b1_into_range, reseal=True)
    service, warnings = keyed(db, key=None)

    outcome = service.handle(game_id, GRENADE)

    assert outcome.accepted, outcome  # b1 "moved" to 4" away by the snapshot alone
    assert warnings == []


@pytest.mark.parametrize("mac", ["kept", "removed", "attacker's"])
def test_with_the_key_a_resealed_poisoned_snapshot_is_not_used(
        tmp_path: Path, mac: str) -> None:
    db, game_id, version = grenade_game(tmp_path, KEY)

    def poison(state: dict[str, Any]) -> None:
        move_b1_into_range(state)
        if mac == "removed":
            state.pop("__mac__")
        elif mac == "attacker's":
            from replay.keyed import snapshot_mac

            body = {k: v for k, v in state.items() if not k.startswith("__")}
            state["__mac__"] = snapshot_mac(OTHER_KEY, game_id, version,
                                            state["__head_hash__"], chain_hash(body))
    edit_snapshot(db, poison, reseal=True)
    service, warnings = keyed(db)

    outcome = service.handle(game_id, GRENADE)

    assert (outcome.accepted, outcome.rule) == (False, "STR-16")  # 18.75" away: refused
    assert warnings and f"snapshot at event {version}" in warnings[0]
    words = "carries no WARLEDGER_KEY MAC" if mac == "removed" else "fails its WARLEDGER_KEY MAC"
    assert words in warnings[0] and "rebuilt from its events" in warnings[0]
    verdict = verify_game(GameService(db, key=KEY), game_id)
    assert (verdict.ok, verdict.bad_version) == (False, version)


def test_an_honest_keyed_snapshot_is_used_without_a_word(tmp_path: Path) -> None:
    db, game_id, _ = grenade_game(tmp_path, KEY)
    assert b'"__mac__"' in latest_snapshot(db)[1]
    service, warnings = keyed(db)

    outcome = service.handle(game_id, GRENADE)

    assert (outcome.accepted, outcome.rule) == (False, "STR-16")
    assert warnings == []
    assert verify_game(GameService(db, key=KEY), game_id).ok


# -- rewritten events: the head MAC ---------------------------------------------------------------
def test_rewritten_events_with_a_recomputed_chain_are_caught_by_the_head_mac(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    db, game_id, _ = grenade_game(tmp_path, KEY)
    rewrite_events(db, game_id, field_b1_in_range)

    # Without the key the forgery is a sound log: its chain holds, every step re-decides,
    # and the grenade is accepted at a unit that was 18.75" away (on a copy of the file).
    copy = str(tmp_path / "copy.db")
    with sqlite3.connect(db) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    assert verify_game(GameService(copy), game_id).ok
    assert GameService(copy).handle(game_id, GRENADE).accepted

    before = rows(db)
    service, _ = keyed(db)
    with pytest.raises(TamperedGameError, match="fails its WARLEDGER_KEY MAC"):
        service.handle(game_id, GRENADE)
    assert rows(db) == before  # nothing was written

    verdict = verify_game(GameService(db, key=KEY), game_id)
    first_signed = head_rows(db)[0][0]  # the set-up's head: b1 is fielded before it
    assert (verdict.ok, verdict.bad_version) == (False, first_signed)
    assert "the head signed at this event fails its WARLEDGER_KEY MAC" in verdict.reason

    monkeypatch.setenv(KEY_ENV, KEY.decode())
    assert main(["verify", db, str(game_id)]) == 1
    assert capsys.readouterr().out.startswith(f"BAD event {first_signed}: the head signed")
    step = main(["step", db, str(game_id), orjson.dumps(GRENADE).decode()])
    err = capsys.readouterr().err
    assert step == 2 and "fails its WARLEDGER_KEY MAC" in err and "Traceback" not in err


def test_an_event_edited_without_rehashing_is_refused_by_a_keyed_service(
        tmp_path: Path) -> None:
    """The stored hashes unchanged, the fact changed: a keyed read checks each event."""
    db, game_id, _ = grenade_game(tmp_path, KEY, snapshots=False)
    with sqlite3.connect(db) as conn:
        version, body = next((v, b) for v, b in rows(db) if b["fact"]["type"] == "UnitFielded"
                             and b["fact"]["unit"]["id"] == "b1")
        body["fact"]["unit"]["y"] = 14.0
        conn.execute("UPDATE stored_events SET state = ? WHERE originator_version = ?",
                     (orjson.dumps(body), version))
    service, _ = keyed(db)

    with pytest.raises(TamperedGameError, match=f"event {version} .* does not match its hash"):
        service.handle(game_id, GRENADE)


def test_events_appended_without_the_key_or_cut_off_are_refused(tmp_path: Path) -> None:
    db, game_id, version = grenade_game(tmp_path, KEY)
    unkeyed = GameService(db)
    assert unkeyed.handle(game_id, {"by": "red", "do": "next_phase"}).accepted
    service, _ = keyed(db)
    with pytest.raises(TamperedGameError, match=f"after its last signed head \\(event {version}"):
        service.handle(game_id, {"by": "red", "do": "next_phase"})
    verdict = verify_game(GameService(db, key=KEY), game_id)
    assert (verdict.ok, verdict.bad_version) == (False, version + 1)

    with sqlite3.connect(db) as conn:  # cut the log back to before the set-up's end
        conn.execute("DELETE FROM stored_events WHERE originator_version > 11")
        conn.execute("DELETE FROM stored_snapshots")
    service, _ = keyed(db)
    with pytest.raises(TamperedGameError, match="events were removed"):
        service.handle(game_id, {"by": "red", "do": "next_phase"})
    assert not verify_game(GameService(db, key=KEY), game_id).ok


# -- compatibility: games without a key, receipts -------------------------------------------------
def test_the_key_changes_no_hash_of_a_fact_or_a_state(tmp_path: Path) -> None:
    """The same game, with and without the key: the same stored events, byte for byte,
    and the same state hash; the MACs are beside them."""
    from domain.datafile import parse_yaml
    from projections.state_view import state_hash
    from warledger.script import parse_script

    moment = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    game_id = UUID(int=15)
    setup = parse_script(parse_yaml(GRENADE_GAME), "grenade").setup()
    played = {}
    for name, key in (("plain", None), ("signed", KEY)):
        db = str(tmp_path / f"{name}.db")
        service = GameService(db, key=key, clock=lambda: moment)
        service.start(setup, game_id)
        for _ in range(2):
            assert service.handle(game_id, {"by": "red", "do": "next_phase"}).accepted
        played[name] = (rows(db), state_hash(service.load(game_id).state))
        service.close()

    assert played["plain"] == played["signed"]
    assert len(head_rows(str(tmp_path / "signed.db"))) == 3


def test_a_game_stored_without_a_key_verifies_as_before_and_can_be_signed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    db, game_id, _ = grenade_game(tmp_path, None)
    assert verify_game(GameService(db), game_id).ok
    assert GameService(db).handle(game_id, GRENADE).rule == "STR-16"  # loads as before

    monkeypatch.setenv(KEY_ENV, KEY.decode())
    monkeypatch.setenv(RECORD_ENV, str(tmp_path / "signed-games.jsonl"))
    # An honest game stored without the key is not tampered, but with the key it is not
    # "ok" either: its chain and decisions are checked, it is UNSIGNED (exit 5), and the
    # line names its head and the command that adopts it at that head.
    assert main(["verify", db, str(game_id)]) == 5
    captured = capsys.readouterr()
    head = verify_game(GameService(db), game_id).head_hash
    assert captured.out.startswith("UNSIGNED: no head of this game is signed with "
                                   "WARLEDGER_KEY (13 events, 2 steps: the hash chain and "
                                   f"every decision check out; head {head})")
    assert "the key's signed-games record does not list it" in captured.out
    assert f"`warledger verify {db} {game_id} --sign-head {head}` adopts it" in captured.out
    assert "BAD" not in captured.out and "carries no" not in captured.err
    step = main(["step", db, str(game_id), orjson.dumps(GRENADE).decode()])
    assert step == 2 and "has no head signed with WARLEDGER_KEY" in capsys.readouterr().err

    assert main(["verify", db, str(game_id), "--sign-head", head]) == 0
    assert "signed the head at event" in capsys.readouterr().out
    assert main(["step", db, str(game_id), orjson.dumps(GRENADE).decode()]) == 1  # refused
    assert "STR-16" in capsys.readouterr().out
    assert main(["verify", db, str(game_id)]) == 0
    out = capsys.readouterr().out
    assert "every head signed with WARLEDGER_KEY checks out" in out and "unsigned" not in out


def test_a_keyed_game_whose_signed_heads_were_removed_is_not_taken_for_an_unsigned_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Its snapshots still carry this key's MAC: it was stored with the key, so the heads
    missing from it were removed (exit 1). With the snapshots gone too nothing in the
    database tells it from a game stored without the key, but the key's signed-games
    record does: verify says UNSIGNED (exit 5) and that the record lists it, and a keyed
    server decides nothing on it."""
    db, game_id, version = grenade_game(tmp_path, KEY)
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM warledger_heads")
    monkeypatch.setenv(KEY_ENV, KEY.decode())

    assert main(["verify", db, str(game_id)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"BAD event {version}: no head of this game is signed")
    assert "its signed heads were removed" in out

    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM stored_snapshots")
    assert main(["verify", db, str(game_id)]) == 5
    out = capsys.readouterr().out
    assert out.startswith("UNSIGNED: ") and "the key's signed-games record LISTS it" in out
    service, _ = keyed(db)
    with pytest.raises(TamperedGameError, match="signed-games record lists it"):
        service.handle(game_id, GRENADE)


def test_verify_without_the_key_says_a_keyed_game_s_heads_were_not_checked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    db, game_id, _ = grenade_game(tmp_path, KEY)
    assert main(["verify", db, str(game_id)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ok: 13 events, 2 steps")
    assert "its WARLEDGER_KEY heads were NOT checked (no key given" in out

    with sqlite3.connect(db) as conn:  # no head rows, but the snapshots' MACs tell
        conn.execute("DELETE FROM warledger_heads")
    assert main(["verify", db, str(game_id)]) == 0
    assert "heads were NOT checked" in capsys.readouterr().out

    (tmp_path / "plain").mkdir()
    plain, plain_id, _ = grenade_game(tmp_path / "plain", None)  # no heads table at all
    assert main(["verify", plain, str(plain_id)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ok: 13 events") and "WARLEDGER_KEY" not in out


def test_sign_head_never_re_signs_a_game_another_key_signed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`verify --sign-head` adopts a game stored without the key, or unkeyed events
    after its last signed head; a game signed with another key fails, and nothing is
    signed (the head rows are as they were)."""
    db, game_id, _ = grenade_game(tmp_path, KEY)
    signed = head_rows(db)
    head = verify_game(GameService(db), game_id).head_hash
    monkeypatch.setenv(KEY_ENV, OTHER_KEY.decode())
    assert main(["verify", db, str(game_id), "--sign-head", head]) == 1
    out = capsys.readouterr().out
    assert "fails its WARLEDGER_KEY MAC" in out and "not the key that signed it" in out
    assert "signed the head" not in out
    assert head_rows(db) == signed
    step = main(["step", db, str(game_id), orjson.dumps(GRENADE).decode()])
    assert step == 2 and "not the key that signed it" in capsys.readouterr().err

    monkeypatch.setenv(KEY_ENV, KEY.decode())  # unkeyed events after the signed heads
    plain = GameService(db)
    moved = plain.handle(game_id, {"by": "red", "do": "next_phase"})
    assert moved.accepted
    assert main(["verify", db, str(game_id)]) == 1
    capsys.readouterr()
    # The key's record lists the game: --sign-head never adopts it, whatever its heads.
    assert main(["verify", db, str(game_id), "--sign-head", moved.head_hash]) == 2
    assert "--sign-head refuses game" in capsys.readouterr().err
    assert head_rows(db) == signed
    # A game signed before the record was kept (a record that does not list it): the
    # unkeyed events after its signed heads are adopted at the head named.
    monkeypatch.setenv(RECORD_ENV, str(tmp_path / "a-new-record.jsonl"))
    assert main(["verify", db, str(game_id), "--sign-head", moved.head_hash]) == 0
    assert "signed the head at event" in capsys.readouterr().out
    assert main(["verify", db, str(game_id)]) == 0


def test_verify_expect_head_proves_a_receipt_with_the_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    db, game_id, _ = grenade_game(tmp_path, KEY)
    service = GameService(db, key=KEY)
    outcome = service.handle(game_id, {"by": "red", "do": "next_phase"})
    assert outcome.accepted
    service.close()
    monkeypatch.setenv(KEY_ENV, KEY.decode())

    assert main(["verify", db, str(game_id), "--expect-head", outcome.head_hash]) == 0
    assert outcome.head_hash in capsys.readouterr().out
    assert main(["verify", db, str(game_id), "--expect-head", "e" * 64]) == 1
    assert "not at the receipt's" in capsys.readouterr().out


def test_a_short_or_missing_key() -> None:
    from domain.errors import ScriptError

    assert key_from_env({}) is None and key_from_env({KEY_ENV: ""}) is None
    assert key_from_env({KEY_ENV: "x" * 16}) == b"x" * 16
    for short in ("secret", "x" * 15):
        with pytest.raises(ScriptError, match=f"too short \\({len(short)} characters\\); "
                           "use at least 16"):
            key_from_env({KEY_ENV: short})


# -- many keyed writers ---------------------------------------------------------------------------
@pytest.mark.postgres
@pytest.mark.skipif(POSTGRES_URL is None, reason=POSTGRES_SKIP_REASON)
def test_two_keyed_services_on_one_postgresql_take_turns_without_a_false_alarm() -> None:
    from domain.datafile import parse_yaml
    from warledger.script import parse_script

    assert POSTGRES_URL is not None
    a, b = GameService(POSTGRES_URL, key=KEY), GameService(POSTGRES_URL, key=KEY)
    try:
        setup = parse_script(parse_yaml(GRENADE_GAME), "grenade").setup()
        game_id = a.start(setup)
        assert b.handle(game_id, {"by": "red", "do": "next_phase"}).accepted
        assert a.handle(game_id, {"by": "red", "do": "next_phase"}).accepted  # a caught up
        assert b.handle(game_id, GRENADE).rule == "STR-16"
        assert verify_game(a, game_id).ok
        assert len(a.heads.all(game_id)) == 3  # type: ignore[union-attr]
    finally:
        a.close()
        b.close()


@pytest.mark.postgres
@pytest.mark.skipif(POSTGRES_URL is None, reason=POSTGRES_SKIP_REASON)
def test_on_postgresql_verify_says_which_heads_it_checked() -> None:
    from domain.datafile import parse_yaml
    from replay.verify import SIGNED, UNCHECKED, UNSIGNED
    from warledger.script import parse_script

    assert POSTGRES_URL is not None
    setup = parse_script(parse_yaml(GRENADE_GAME), "grenade").setup()
    signed, plain = GameService(POSTGRES_URL, key=KEY), GameService(POSTGRES_URL)
    try:
        keyed_game, plain_game = signed.start(setup), plain.start(setup)
        verdicts = {(name, which): verify_game(service, game)
                    for name, service in (("key", signed), ("none", plain))
                    for which, game in (("keyed", keyed_game), ("plain", plain_game))}
        assert [k for k, v in verdicts.items() if not v.ok] == [("key", "plain")], verdicts
        assert verdicts["key", "plain"].unsigned and verdicts["key", "plain"].listed is None
        assert {k: v.heads for k, v in verdicts.items()} == {
            ("key", "keyed"): SIGNED, ("key", "plain"): UNSIGNED,
            ("none", "keyed"): UNCHECKED, ("none", "plain"): ""}
    finally:
        signed.close()
        plain.close()


# -- without a key: what verify tells a judge of snapshots past the rebuild window ----------------
def test_verify_without_the_key_warns_that_a_long_game_s_snapshots_steer_replay(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/testing.md "Snapshots are a cache": past the rebuild window a re-sealed
    snapshot steers `replay` and `step` without the key; verify's output says so for a
    game longer than the window, and not with the key."""
    db, game_id, version = grenade_game(tmp_path, KEY)
    monkeypatch.delenv(KEY_ENV, raising=False)
    monkeypatch.setattr(GameService, "snapshot_recheck_events", version)
    assert main(["verify", db, str(game_id)]) == 0
    assert "a stored snapshot more than" not in capsys.readouterr().err  # within the window

    monkeypatch.setattr(GameService, "snapshot_recheck_events", version - 1)
    assert main(["verify", db, str(game_id)]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("ok: 13 events")
    assert (f"warledger: warning: without WARLEDGER_KEY, a stored snapshot more than "
            f"{version - 1} events into this game is trusted on its seal alone: `replay`, "
            "`step` and a server would follow one re-sealed") in captured.err

    monkeypatch.setenv(KEY_ENV, KEY.decode())
    assert main(["verify", db, str(game_id)]) == 0
    assert "trusted on its seal alone" not in capsys.readouterr().err

"""Keyed tamper evidence: heads and snapshots signed with a server key.

A hash chain proves that a log is whole, not who wrote it: anyone who can write
the database can rewrite an event, recompute every hash after it, and poison a
snapshot and recompute its seal. With a server key (`WARLEDGER_KEY`) a service
also signs, with HMAC-SHA256, what an attacker without the key cannot sign again:

- **signed heads**: each save (one step's events) writes a row `(game, version,
  mac)` beside the events, in the same transaction, where `mac` signs the game id,
  the event number and the head hash at that event (`head_mac`). SQLite: the table
  `warledger_heads` in the game file; PostgreSQL: the same table in the game
  database; in memory: a dict.
- **snapshot MACs**: a snapshot's seal gains `__mac__`, signing the game id, its
  event number, its head hash and its state hash (`snapshot_mac`).
- **seat MACs**: each seat row of a server's seat store signs its token hash, game,
  role and seat (`seat_mac`; `warledger.server.seats`), so a row a database writer
  added holds no seat.

Nothing a fact holds changes: event hashes, state hashes and views are exactly
those of an unkeyed game. A service without a key writes and reads neither, so
stored games without a key load and verify as before.

With the key, a service decides only on what it can authenticate: a snapshot
whose MAC is missing or wrong is not used (the events decide), every event read
is checked against its hash and its link, and the head it decides on must be the
latest signed head (`TamperedGameError` otherwise: one clear error, nothing
written). `verify` with the key names the first signed head that fails.

What signed heads alone cannot catch: someone who cuts the log back to an earlier
signed head (and deletes the heads after it), or deletes every head and snapshot,
leaves a log that is all signed, or one that looks stored without the key. The key's
signed-games record, outside the database (`replay.signed_games`), catches both for
`verify`; a receipt catches the first too: `verify --expect-head HASH` fails when the
log no longer ends at it.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast
from uuid import UUID

import orjson
from eventsourcing.persistence import ApplicationRecorder, EventStore, StoredEvent

from domain.errors import ScriptError
from events.envelope import GENESIS_HASH, GameEvent, GameSnapshot, chain_hash, hashed_body

#: The environment variable holding the server key.
KEY_ENV = "WARLEDGER_KEY"
#: The shortest key taken (a key anyone can guess signs nothing).
MIN_KEY_LENGTH = 16
#: The snapshot seal's keyed MAC (beside `__version__`, `__head_hash__`, `__state_hash__`).
MAC_KEY = "__mac__"
#: The key word under which a save hands its signed head to the recorder.
HEADS_KWARG = "warledger_heads"

HEADS_SCHEMA = ("CREATE TABLE IF NOT EXISTS warledger_heads (game_id TEXT NOT NULL,"
                " version BIGINT NOT NULL, mac TEXT NOT NULL, PRIMARY KEY (game_id, version))")


class TamperedGameError(Exception):
    """A keyed service will not decide on this game: what it read is not what a keyed
    server wrote (the message says what and where)."""


def key_from_env(environ: Mapping[str, str] | None = None) -> bytes | None:
    """The server key from `WARLEDGER_KEY` (None when unset or empty)."""
    text = (os.environ if environ is None else environ).get(KEY_ENV, "")
    if not text:
        return None
    if len(text) < MIN_KEY_LENGTH:
        raise ScriptError(
            f"{KEY_ENV} is too short ({len(text)} characters); use at least {MIN_KEY_LENGTH}, "
            "e.g. python -c 'import secrets; print(secrets.token_urlsafe(32))'")
    return text.encode("utf-8", "surrogatepass")


def _mac(key: bytes, *parts: object) -> str:
    message = "\x00".join(str(part) for part in parts).encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def head_mac(key: bytes, game_id: UUID, version: int, head_hash: str) -> str:
    """The MAC of a game's head: that event `version` of `game_id` has `head_hash`."""
    return _mac(key, "warledger-head", game_id, version, head_hash)


def snapshot_mac(key: bytes, game_id: UUID, version: int, head_hash: str,
                 state_hash: str) -> str:
    """The MAC of a snapshot's seal (its state through its state hash)."""
    return _mac(key, "warledger-snapshot", game_id, version, head_hash, state_hash)


def seat_mac(key: bytes, token_hash: str, game_id: UUID | str, role: str, seat: str) -> str:
    """The MAC of a seat row: the token with this hash holds this seat (`role`, `seat`)
    of `game_id` (`warledger.server.seats`; a judge's further table: role "table")."""
    return _mac(key, "warledger-seat", token_hash, game_id, role, seat)


def macs_match(stored: object, expected: str) -> bool:
    """Constant-time comparison of a stored MAC with the one computed."""
    return isinstance(stored, str) and hmac.compare_digest(stored.encode(), expected.encode())


def sign_snapshot(snapshot: GameSnapshot, key: bytes) -> GameSnapshot:
    """The snapshot with `__mac__` added to its seal (its state hash unchanged)."""
    state = dict(snapshot.state)
    state[MAC_KEY] = snapshot_mac(key, snapshot.originator_id, snapshot.originator_version,
                                  str(state["__head_hash__"]), str(state["__state_hash__"]))
    return snapshot.model_copy(update={"state": state})


# -- events read with the key: each against its hash and its link -------------------------
def authentic_events(events: EventStore[UUID], game_id: UUID, gt: int | None,
                     lte: int | None, prev_hash: str | None = None) -> list[GameEvent]:
    """Stored events of a game with `gt` < version ≤ `lte`, each checked as stored: its
    body hashes to its `hash`, and its `prev_hash` is the hash of the event before
    (`prev_hash`, when the caller knows it: the genesis hash from the start).
    `TamperedGameError` names the first that fails."""
    rows = events.recorder.select_events(game_id, gt=gt, lte=lte)
    if prev_hash is None and not gt:
        prev_hash = GENESIS_HASH
    found: list[GameEvent] = []
    for row in rows:
        version = row.originator_version
        stored_hash, linked_to = check_row(game_id, row)
        if prev_hash is not None and linked_to != prev_hash:
            raise TamperedGameError(
                f"event {version} of game {game_id} does not link to the event before it")
        prev_hash = stored_hash
        found.append(cast("GameEvent", events.mapper.to_domain_event(row)))
    return found


def check_row(game_id: UUID, row: StoredEvent) -> tuple[str, str]:
    """A raw event row's (hash, prev_hash), once its body is shown to hash to it."""
    version = row.originator_version
    try:
        body = orjson.loads(row.state)
        hashed = hashed_body(game_id, version, body["timestamp"], body["step"],
                             body["prev_hash"], body["fact"])
        good = chain_hash(hashed) == body["hash"]
    except Exception:  # a row that cannot be read is no more authentic
        good = False
    if not good:
        raise TamperedGameError(
            f"event {version} of game {game_id} does not match its hash")
    return str(body["hash"]), str(body["prev_hash"])


# -- the signed heads -------------------------------------------------------------------------
@dataclass(frozen=True)
class SignedHead:
    """One signed head: event `version` of the game had the hash the `mac` signs."""

    version: int
    mac: str


Insert = Callable[..., Any]


class SignedHeads:
    """The heads a keyed service signed, stored beside its events.

    Each save hands its head to the recorder (`HEADS_KWARG`), which writes it in the
    transaction that inserts the events: a head is visible exactly when its events are.
    """

    def __init__(self, recorder: ApplicationRecorder) -> None:
        self.recorder = recorder
        module = type(recorder).__module__
        self.kind = ("postgres" if module.endswith("postgres")
                     else "sqlite" if module.endswith("sqlite") else "memory")
        self.memory: dict[str, dict[int, str]] = {}
        self.memory_lock = threading.Lock()

    # -- writing, in the events' own transaction ---------------------------------------------
    def install(self) -> None:
        """Create the table and make the recorder write heads with its events."""
        if self.kind == "memory":
            self._wrap("insert_events", lambda original: self._after_memory(original))
            return
        with self.recorder.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
            cursor.execute(HEADS_SCHEMA)
        if self.kind == "postgres" and self.recorder.datastore.enable_db_functions:  # type: ignore[attr-defined]
            self._wrap("insert_events", lambda original: self._with_pg_function(original))
        else:
            self._wrap("_insert_events", lambda original: self._with_sql(original))

    def _wrap(self, name: str, make: Callable[[Insert], Insert]) -> None:
        setattr(self.recorder, name, make(getattr(self.recorder, name)))

    def _with_sql(self, original: Insert) -> Insert:
        placeholder = "%s" if self.kind == "postgres" else "?"
        upsert = (f"INSERT INTO warledger_heads (game_id, version, mac) VALUES "
                  f"({placeholder}, {placeholder}, {placeholder}) ON CONFLICT (game_id, "
                  "version) DO UPDATE SET mac = excluded.mac")

        def insert(cursor: Any, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Any:
            result = original(cursor, stored_events, **kwargs)
            for game_id, version, mac in kwargs.get(HEADS_KWARG, ()):
                cursor.execute(upsert, (str(game_id), version, mac))
            return result
        return insert

    def _with_pg_function(self, original: Insert) -> Insert:
        """PostgreSQL with the library's insert function (LIBRARY-NOTES: one statement,
        committed by itself): call it inside a transaction that also upserts the head."""
        recorder: Any = self.recorder
        upsert = ("INSERT INTO warledger_heads (game_id, version, mac) VALUES (%s, %s, %s) "
                  "ON CONFLICT (game_id, version) DO UPDATE SET mac = excluded.mac")

        def insert(stored_events: Sequence[StoredEvent], **kwargs: Any) -> Any:
            heads = kwargs.get(HEADS_KWARG, ())
            rows = [recorder.construct_pg_stored_event(
                originator_id=e.originator_id, originator_version=e.originator_version,
                topic=e.topic, state=e.state) for e in stored_events]
            with recorder.datastore.get_connection() as conn, conn.transaction(), \
                    conn.cursor() as cursor:
                cursor.execute(recorder.sql_invoke_pg_function_insert_events, (rows,),
                               prepare=True)
                ids = [r[recorder.pg_function_name_insert_events] for r in cursor.fetchall()]
                for game_id, version, mac in heads:
                    cursor.execute(upsert, (str(game_id), version, mac))
            return ids
        return insert

    def _after_memory(self, original: Insert) -> Insert:
        def insert(stored_events: Sequence[StoredEvent], **kwargs: Any) -> Any:
            result = original(stored_events, **kwargs)
            for game_id, version, mac in kwargs.get(HEADS_KWARG, ()):
                self.sign(game_id, version, mac)
            return result
        return insert

    def sign(self, game_id: UUID, version: int, mac: str) -> None:
        """Store one signed head by itself (`verify --sign-head`)."""
        if self.kind == "memory":
            with self.memory_lock:
                self.memory.setdefault(str(game_id), {})[version] = mac
            return
        placeholder = "%s" if self.kind == "postgres" else "?"
        with self.recorder.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
            cursor.execute(
                f"INSERT INTO warledger_heads (game_id, version, mac) VALUES ({placeholder}, "
                f"{placeholder}, {placeholder}) ON CONFLICT (game_id, version) DO UPDATE SET "
                "mac = excluded.mac", (str(game_id), version, mac))

    # -- reading -----------------------------------------------------------------------------
    def latest(self, game_id: UUID) -> SignedHead | None:
        """The game's latest signed head (None: it has none)."""
        heads = self._select(game_id, latest=True)
        return heads[0] if heads else None

    def all(self, game_id: UUID) -> list[SignedHead]:
        """Every signed head of the game, oldest first."""
        return self._select(game_id, latest=False)

    def _select(self, game_id: UUID, latest: bool) -> list[SignedHead]:
        if self.kind == "memory":
            with self.memory_lock:
                stored = sorted(self.memory.get(str(game_id), {}).items())
            pairs: Iterable[tuple[Any, Any]] = stored[-1:] if latest else stored
        else:
            placeholder = "%s" if self.kind == "postgres" else "?"
            sql = (f"SELECT version, mac FROM warledger_heads WHERE game_id = {placeholder} "
                   f"ORDER BY version {'DESC LIMIT 1' if latest else 'ASC'}")
            with self.recorder.datastore.transaction(commit=False) as cursor:  # type: ignore[attr-defined]
                cursor.execute(sql, (str(game_id),))
                rows = cursor.fetchall()
            pairs = [(r["version"], r["mac"]) if isinstance(r, Mapping) else (r[0], r[1])
                     for r in rows]
        return [SignedHead(int(version), str(mac)) for version, mac in pairs]


def check_head(key: bytes, game_id: UUID, version: int, head_hash: str,
               signed: SignedHead | None, listed: int | None = None) -> None:
    """The head a decision would stand on must be the latest signed head. `listed`: the
    event from which the key's signed-games record says the game was signed
    (`replay.signed_games`), None when the record does not list it."""
    if signed is None and listed is not None:
        raise TamperedGameError(
            f"game {game_id} has no head signed with {KEY_ENV}, but the key's signed-games "
            f"record lists it (signed from event {listed}): its signed heads were removed "
            "from the database; nothing was decided")
    if signed is None:
        raise TamperedGameError(
            f"game {game_id} has no head signed with {KEY_ENV}: it was stored without the "
            "key (`warledger verify` names its head; `verify --sign-head HEAD` adopts it "
            "once HEAD is compared with a receipt); nothing was decided")
    if signed.version < version:
        raise TamperedGameError(
            f"game {game_id} has events after its last signed head (event {signed.version}, "
            f"the log ends at event {version}): they were not written by a server holding "
            f"{KEY_ENV}; nothing was decided")
    if signed.version > version:
        raise TamperedGameError(
            f"game {game_id} ends at event {version}, but its head at event {signed.version} "
            "was signed: events were removed; nothing was decided")
    if not macs_match(signed.mac, head_mac(key, game_id, version, head_hash)):
        raise TamperedGameError(
            f"the head of game {game_id} (event {version}) fails its {KEY_ENV} MAC: the log "
            f"was rewritten, or {KEY_ENV} is not the key that signed it; nothing was decided")


def has_stored_heads(recorder: ApplicationRecorder, game_id: UUID) -> bool:
    """Whether the store holds signed heads of a game, read without the key (False when
    it has no heads table: no keyed server ever wrote to it; and in memory, where a
    keyed service's heads are its own). Nothing is checked: `verify` without the key
    says only that they were not."""
    datastore: Any = getattr(recorder, "datastore", None)
    if datastore is None:
        return False
    postgres = type(recorder).__module__.endswith("postgres")
    exists = ("SELECT 1 WHERE to_regclass('warledger_heads') IS NOT NULL" if postgres else
              "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'warledger_heads'")
    placeholder = "%s" if postgres else "?"
    with datastore.transaction(commit=False) as cursor:
        cursor.execute(exists)
        if not cursor.fetchall():
            return False
        cursor.execute(f"SELECT 1 FROM warledger_heads WHERE game_id = {placeholder} LIMIT 1",
                       (str(game_id),))
        return bool(cursor.fetchall())

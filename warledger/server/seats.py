"""Seats: the server's store beside the game store.

A seat is a player of one game, its judge, or a spectator. Each seat has one secret
token (`secrets.token_urlsafe(32)`); only its SHA-256 hash is stored, so anyone who
can read the database (an operator) learns no token. A token is found by its hash
and compared again with `hmac.compare_digest`.

Refused attempts are kept by the game service in the game store itself, whatever
the front door (`replay.attempts`); an older `games.db.seats` file's are moved there.

With a server key (`WARLEDGER_KEY`) each row also carries a MAC (`replay.keyed.seat_mac`:
the token hash, the game, the role and the seat), written when the seat is issued; a
row whose MAC is missing or wrong holds no seat, exactly as an unknown token holds
none. So whoever can write the database cannot give a token a seat that a keyed server
then speaks for (and signs). Rows written without the key hold no seat on a keyed
server until its operator seals them (`python -m warledger.server.seats seal DB`).

A judge's token may judge several tables: a game created with it (`issue` with
`judge`) gets no judge's token of its own, and the table is listed under that token.

Beside an SQLite game file `games.db` this is `games.db.seats` (SQLite); on
PostgreSQL it is the tables `warledger_seats` and `warledger_tables` in the game
database itself, so every app server on that database sees the same seats.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from domain.bounded import Bounded
from replay.keyed import key_from_env, macs_match, seat_mac
from replay.sqlite_files import connect, use_wal
from replay.storage import postgres_env, schema_setup_lock

JUDGE_SEAT = "judge"
#: The seat of a spectator, as the views are asked for it: no player can be called
#: this (a player id holds no control character), so it sees only what is public.
SPECTATOR = "\x00spectator"

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS warledger_seats ("
    " token_hash TEXT PRIMARY KEY, game_id TEXT NOT NULL, role TEXT NOT NULL,"
    " seat TEXT NOT NULL, mac TEXT)",
    # The further tables a judge's token judges (`issue` with `judge`).
    "CREATE TABLE IF NOT EXISTS warledger_tables ("
    " token_hash TEXT NOT NULL, game_id TEXT NOT NULL, mac TEXT,"
    " PRIMARY KEY (token_hash, game_id))",
)
#: The tables whose rows carry a MAC, in stores made before seats had one (no column).
SEALED_TABLES = ("warledger_seats", "warledger_tables")
#: The role a judge's further table is signed as (a seat's role is never this).
TABLE_ROLE = "table"


@dataclass(frozen=True)
class Seat:
    """Who a token speaks for: `role` is player, judge or spectator."""

    game_id: UUID
    role: str
    seat: str

    @property
    def player(self) -> str | None:
        """The id the views are asked for: a player's own, None for the judge (the
        full view), `SPECTATOR` for a spectator (public only)."""
        if self.role == "player":
            return self.seat
        return None if self.role == "judge" else SPECTATOR

    @property
    def name(self) -> str:
        return "spectator" if self.role == "spectator" else self.seat


#: Seats a server remembers it has found (a seat, once issued, never changes): the
#: tokens used last, so a command does not ask the database who its token is.
KNOWN_SEATS = 4096


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class SeatStore:
    """Seat tokens (hashed), in SQLite or PostgreSQL."""

    def __init__(self, db: str, key: bytes | None = None) -> None:
        self.key = key
        self.postgres = db.startswith(("postgresql://", "postgres://"))
        self._local = threading.local()
        self._db = db
        self._pool: Any = None
        env = postgres_env(db) if self.postgres else {}
        if self.postgres:
            from psycopg_pool import ConnectionPool

            # One connection open at start, at most 8 in use: a dozen app servers fit a
            # default PostgreSQL's 100 connections beside their game stores' own.
            self._pool = ConnectionPool(
                kwargs={"dbname": env["POSTGRES_DBNAME"], "host": env["POSTGRES_HOST"],
                        "port": int(env["POSTGRES_PORT"]), "user": env["POSTGRES_USER"],
                        "password": env["POSTGRES_PASSWORD"], "autocommit": True},
                min_size=1, max_size=8, open=True)
        self._memory = sqlite3.connect(":memory:", check_same_thread=False) \
            if db == ":memory:" else None
        self._memory_lock = threading.Lock()
        #: Token hash -> the seats it was found to hold, lately (`KNOWN_SEATS`).
        self._known: Bounded[str, tuple[Seat, ...]] = Bounded(KNOWN_SEATS)
        self._known_lock = threading.Lock()
        # Several app servers may set up one PostgreSQL database at once: under the
        # schema set-up lock they do it one after another (`schema_setup_lock`).
        with schema_setup_lock(env):
            for statement in SCHEMA:
                self._run(statement, ())
            self._add_mac_columns()

    # -- plumbing -------------------------------------------------------------------
    @contextmanager
    def _sqlite(self) -> Iterator[sqlite3.Connection]:
        if self._memory is not None:
            with self._memory_lock:
                yield self._memory
            return
        connection = getattr(self._local, "connection", None)
        if connection is None:
            connection = connect(f"{self._db}.seats", isolation_level=None)
            use_wal(connection)
            self._local.connection = connection
        yield connection

    def _run(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        if self.postgres:
            with self._pool.connection() as connection:
                cursor = connection.execute(sql.replace("?", "%s"), params)
                return list(cursor.fetchall()) if cursor.description else []
        with self._sqlite() as connection:
            return connection.execute(sql, params).fetchall()

    def _add_mac_columns(self) -> None:
        """A store made before seats had MACs gains the (empty) column."""
        for table in SEALED_TABLES:
            if self.postgres:
                self._run(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS mac TEXT", ())
            elif "mac" not in {row[1] for row in self._run(f"PRAGMA table_info({table})", ())}:
                self._run(f"ALTER TABLE {table} ADD COLUMN mac TEXT", ())

    def _mac(self, hashed: str, game_id: object, role: str, seat: str) -> str | None:
        return None if self.key is None else seat_mac(self.key, hashed, str(game_id), role,
                                                      seat)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()

    # -- seats ----------------------------------------------------------------------
    def issue(self, game_id: UUID, players: Sequence[str],
              judge: str | None = None) -> dict[str, Any]:
        """New tokens for every seat of a new game: {seats: {player|judge: token},
        spectator: token}. The tokens are shown once, here, and never stored. With
        `judge` (a token that holds a judge's seat), that token judges this table too,
        and no judge's token is made."""
        tokens = {p: self._new_token(game_id, "player", p) for p in players}
        if judge is None:
            tokens[JUDGE_SEAT] = self._new_token(game_id, "judge", JUDGE_SEAT)
        else:
            hashed = token_hash(judge)
            self._run("INSERT INTO warledger_tables (token_hash, game_id, mac) "
                      "VALUES (?, ?, ?)", (hashed, str(game_id),
                                           self._mac(hashed, game_id, TABLE_ROLE, JUDGE_SEAT)))
            tokens[JUDGE_SEAT] = judge
        return {"seats": tokens, "spectator": self._new_token(game_id, "spectator", "")}

    def _new_token(self, game_id: UUID, role: str, seat: str) -> str:
        token = secrets.token_urlsafe(32)
        hashed = token_hash(token)
        self._run("INSERT INTO warledger_seats (token_hash, game_id, role, seat, mac) "
                  "VALUES (?, ?, ?, ?, ?)",
                  (hashed, str(game_id), role, seat, self._mac(hashed, game_id, role, seat)))
        return token

    def seats_held(self, token: str) -> list[Seat]:
        """Every seat the token holds, read from the store: the one it was issued for,
        then, for a judge's token, the further tables it judges; none for a wrong token.
        With a server key, a row whose MAC is missing or wrong holds no seat."""
        wanted = token_hash(token)
        rows = self._run(
            "SELECT token_hash, game_id, role, seat, mac, role FROM warledger_seats "
            "WHERE token_hash = ?", (wanted,)) + sorted(self._run(
                f"SELECT token_hash, game_id, 'judge', 'judge', mac, '{TABLE_ROLE}' "
                "FROM warledger_tables WHERE token_hash = ?", (wanted,)))
        held = tuple(Seat(UUID(str(game)), str(role), str(seat))
                     for stored, game, role, seat, mac, signed_as in rows
                     if hmac.compare_digest(str(stored), wanted)
                     and self._sealed(wanted, game, signed_as, seat, mac))
        if held:
            with self._known_lock:
                self._known.keep(wanted, held)
        return list(held)

    def _sealed(self, hashed: str, game: object, role: str, seat: str, mac: object) -> bool:
        """Whether a row holds its seat: always without a key; with one, only if its
        MAC holds."""
        expected = self._mac(hashed, game, role, seat)
        return expected is None or macs_match(mac, expected)

    def seal(self) -> list[tuple[str, str, str]]:
        """Sign, with the key, every row that has no MAC (rows written without the key);
        a row whose MAC is wrong is left as it is. Returns the (game, role, seat) of each
        row signed, for the operator to compare with the games' seats."""
        assert self.key is not None, "sealing seats needs the server key"
        sealed: list[tuple[str, str, str]] = []
        for hashed, game, role, seat in self._run(
                "SELECT token_hash, game_id, role, seat FROM warledger_seats "
                "WHERE mac IS NULL ORDER BY game_id, role, seat", ()):
            self._run("UPDATE warledger_seats SET mac = ? WHERE token_hash = ?",
                      (self._mac(hashed, game, role, seat), hashed))
            sealed.append((str(game), str(role), str(seat)))
        for hashed, game in self._run("SELECT token_hash, game_id FROM warledger_tables "
                                      "WHERE mac IS NULL ORDER BY game_id", ()):
            self._run("UPDATE warledger_tables SET mac = ? WHERE token_hash = ? AND game_id = ?",
                      (self._mac(hashed, game, TABLE_ROLE, JUDGE_SEAT), hashed, game))
            sealed.append((str(game), TABLE_ROLE, JUDGE_SEAT))
        return sealed

    def seat_in(self, game_id: UUID, token: str) -> Seat | None:
        """The seat a token holds in this game, or None (a wrong token, or one that
        holds no seat in it, whether or not the game exists). The seats a token was
        found to hold are remembered; a game not among them is looked up again (another
        server may have added a table to its judge's token)."""
        with self._known_lock:
            known = self._known.recent(token_hash(token)) or ()
        found = seat_of_game(known, game_id)
        return found if found is not None else seat_of_game(self.seats_held(token), game_id)


def seat_of_game(held: Iterable[Seat], game_id: UUID) -> Seat | None:
    """The one of these seats that is in this game, or None."""
    return next((seat for seat in held if seat.game_id == game_id), None)


def main(argv: Sequence[str], environ: dict[str, str] | None = None) -> int:
    """`python -m warledger.server.seats seal DB`: sign with `WARLEDGER_KEY` the seats
    stored without it (one line per seat signed). Run it only on a store whose seats
    you trust now: it signs whatever rows it finds without a MAC."""
    key = key_from_env(environ)
    if list(argv[:1]) != ["seal"] or len(argv) != 2 or key is None:
        print("usage: WARLEDGER_KEY=... python -m warledger.server.seats seal DB")
        return 2
    store = SeatStore(argv[1], key)
    try:
        for game, role, seat in store.seal():
            print(f"sealed {game} {role} {seat}".rstrip())
    finally:
        store.close()
    return 0


if __name__ == "__main__":  # pragma: no cover - the command line's entry
    import sys

    sys.exit(main(sys.argv[1:]))

"""The projections `warledger views` keeps: the state view and the analytic tables.

Both follow the notification log with their own tracking position, and write
their rows together with the new position in ONE transaction, so a crash can
never count an event twice (LIBRARY-NOTES).

- **Analytic tables** (`replay.analytics`): each event is decoded once, from
  its stored JSON, and folded into the rows of the games it touches.
- **State view** (`state_views`, one row per game, CONTRACT section 4):
  games kept in a bounded LRU take the batch's events directly; any other
  game (a rebuild from scratch, or one that fell out) is read once at the end
  as its latest snapshot plus its tail. No event is decoded twice, and memory
  is bounded by the LRU, never by the length of a game.
- **A large rebuild from scratch** is split by game between two processes
  (`Views.build_part`, `PartHelper`), into a new file renamed over the old one
  once complete (docs/analytics.md).

On SQLite the views live in their own file beside the event store
(`<db>.views`: the library's `BEGIN` would lock the events file). On
PostgreSQL they are tables in the same database, kept by eventsourcing's
`ProjectionRunner` with a PostgreSQL tracking recorder (`replay.pg_views`).
Dropping the tables and running again rebuilds them, identical.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sqlite3
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol, cast
from uuid import UUID

import orjson
from eventsourcing.persistence import StoredEvent

from domain.game import Game
from events.envelope import GameEvent
from projections.canonical import canonical_json
from projections.state_view import state_view
from replay.analytics import (
    GAMES,
    PLAYERS,
    TABLE_NAMES,
    TABLES,
    Batch,
    Fold,
    GameContext,
    index_statements,
    schema_statements,
)
from replay.event_store import GameEventStore
from replay.mapper import EVENT_TOPIC, SharedFactMapper
from replay.service import GameNotFoundError, GameService
from replay.snapshots import Warn, trusted_game
from replay.sqlite_files import connect, use_wal
from replay.storage import ANALYTICS

#: Notifications read per page (and analytic batch) while catching up.
BATCH = 20000
#: A rebuild from scratch of at least this many events (an SQLite event file) is
#: split by game between this process and `PARTS - 1` others (`PartHelper`).
PARALLEL_FROM = 50_000
#: Into how many parts: one per core of the two (each part folds its games' events
#: and reads their state views; the state views cost about as much as the fold).
PARTS = 2
#: A part's events up to a notification, game after game (the library's primary key
#: index on the stored id, as hex text, and the event number): a part is a range
#: of ids (`part_range`).
PART_ROWS = ("select rowid, originator_id, originator_version, state from stored_events "
             "where originator_id >= ? and originator_id < ? and rowid <= ? "
             "order by originator_id, originator_version")
#: The environment variable that holds a helper's orders.
HELPER_ORDERS = "WARLEDGER_VIEWS_HELPER"
#: Games whose rows a rebuild into a new file may keep unwritten (their contexts).
UNWRITTEN_GAMES = 8192
#: Games whose full state the state view keeps in memory between batches.
STATE_CACHE = 64
STATE_VIEWS = "state_views"
VIEW_SCHEMA = [
    "create table if not exists state_views (game_id text primary key, "
    "version integer not null, state text not null)",
]
SQLITE_TRACKING = (
    "create table if not exists tracking (application text primary key, "
    "notification_id integer not null)"
)


def upsert_sql(table_name: str, columns: Sequence[str], key: Sequence[str]) -> str:
    """`insert … on conflict do update` (the same text on SQLite and PostgreSQL)."""
    marks = ", ".join("?" for _ in columns)
    sets = ", ".join(f"{c} = excluded.{c}" for c in columns if c not in key)
    return (f"insert into {table_name} ({', '.join(columns)}) values ({marks}) "
            f"on conflict ({', '.join(key)}) do update set {sets}")


GAMES_UPSERT = upsert_sql(GAMES.name, GAMES.column_names, GAMES.key)
PLAYERS_UPSERT = upsert_sql(PLAYERS.name, PLAYERS.column_names, PLAYERS.key)
VIEW_UPSERT = upsert_sql("state_views", ["game_id", "version", "state"], ["game_id"])
INSERTS = {t.name: t.insert_sql() for t in TABLES}


class Cursor(Protocol):
    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Any: ...
    def executemany(self, sql: str, rows: Iterable[Sequence[Any]], /) -> Any: ...


def write_batch(curs: Cursor, batch: Batch, mark: str = "?", games_too: bool = True) -> None:
    """Every row of a batch, inserts first, then updates in log order, then (unless
    told not to) the games it touched, with their contexts. `mark` is the driver's
    placeholder."""
    def sql(text: str) -> str:
        return text if mark == "?" else text.replace("?", mark)

    for table, rows in batch.inserts.items():
        curs.executemany(sql(INSERTS[table]), rows)
    for text, params in batch.updates:
        curs.execute(sql(text), params)
    if games_too:
        write_games(curs, batch.touched.values(), sql)


def write_games(curs: Cursor, contexts: Iterable[GameContext],
                sql: Callable[[str], str] = str) -> None:
    """The `games` and `players` rows of these games (their contexts included)."""
    games = list(contexts)
    curs.executemany(sql(GAMES_UPSERT), [g.game_row() for g in games])
    curs.executemany(sql(PLAYERS_UPSERT), [row for g in games for row in g.player_rows()])


class StateViews:
    """The state view of every game a run touched (see the module docstring)."""

    def __init__(self, service: GameService, capacity: int = STATE_CACHE,
                 reader: sqlite3.Connection | None = None) -> None:
        """`reader`: a read-only connection to the SQLite event file, if there is one."""
        self.service = service
        self.capacity = capacity
        self.games: OrderedDict[str, Game] = OrderedDict()
        self.touched: dict[str, int] = {}
        self.deferred: set[str] = set()
        #: The games' events, each distinct fact validated once (a read-only view).
        self.mapper = SharedFactMapper(service.construct_transcoder())
        self.events = GameEventStore(self.mapper, service.events.recorder, reader)
        self.snapshots = None if service.snapshots is None else GameEventStore(
            service.mapper, service.snapshots.recorder, reader)

    def note(self, game_id: str, version: int, state: bytes) -> None:
        """Fold one stored event into a cached game, or leave its game for the end."""
        self.touched[game_id] = version
        if game_id in self.deferred:
            return
        game = self.games.get(game_id)
        if game is None or game.version != version - 1:
            self.games.pop(game_id, None)
            self.deferred.add(game_id)
            return
        stored = StoredEvent(originator_id=game.id, originator_version=version,
                             topic=EVENT_TOPIC, state=state)
        game.apply_event(cast(GameEvent, self.mapper.to_domain_event(stored)))
        self.games.move_to_end(game_id)

    def rows(self) -> Iterator[tuple[str, int, str]]:
        """(game id, version, state view JSON) of every touched game."""
        for game_id, version in self.touched.items():
            game = self.games.get(game_id)
            if game is None or game.version != version:
                game = self.read(UUID(game_id), version)
                self.games[game_id] = game
                if len(self.games) > self.capacity:
                    self.games.popitem(last=False)
            yield game_id, version, canonical_json(state_view(game.state)).decode()

    def read(self, game_id: UUID, version: int) -> Game:
        """A game once, as its latest snapshot plus its tail. The snapshot is checked
        against the hash chain and its own state hash, but not rebuilt from the
        events (`GameService.game_at` does that for short games): a projection reads
        every game once, and the rebuild would read its events a second time
        (`warledger verify` checks every event)."""
        service = self.service
        game = trusted_game(self.snapshots, self.events, game_id, version,
                            recheck_events=0, warn=service.warn)
        if game is None:
            raise GameNotFoundError(f"no game {game_id} in this store")
        return game

    def reset(self, forget: bool = False) -> None:
        self.touched.clear()
        self.deferred.clear()
        if forget:
            self.games.clear()


#: How much more than its share part 0 takes: this process builds it, and starts
#: on it while each helper is still starting its interpreter and imports (about
#: half a second on the 1.1M-event store).
FIRST_PART_LEAD = 0.03


def part_range(part: int, parts: int) -> tuple[str, str]:
    """The stored ids (hex text) of part `part` of `parts`: from the first to just
    before the second (ids are random, so a part holds games in proportion to its
    range: part 0 a little more, `FIRST_PART_LEAD`, the others alike)."""
    first = 1 / parts + (FIRST_PART_LEAD if parts > 1 else 0)

    def bound(k: int) -> str:
        if k >= parts:
            return "g"  # sorts after any hex digit
        share = 0 if k == 0 else first + (k - 1) * (1 - first) / (parts - 1)
        return f"{round(4096 * share):03x}"

    return bound(part), bound(part + 1)


def remove_sqlite_file(path: str, keep_main: bool = False) -> None:
    """Remove an SQLite file and its journal, WAL and shared-memory files (a new
    file must never meet an old file's WAL)."""
    for suffix in ("-journal", "-wal", "-shm", *(() if keep_main else ("",))):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path + suffix)


class PartHelper:
    """One part of a rebuild from scratch, built by another process while this one
    builds its own (they share nothing but the event file).

    Helper `part` of `parts` folds the events up to notification `head` of every
    game in its part (`part_range`) and reads their state views at `head` (latest
    snapshot plus tail, `StateViews.read`), into a scratch views file beside the
    views (`Views.build_part`). The rebuild copies those rows in, in the same
    transaction as the tracking positions; until that commit the scratch file is
    not part of the views: a crash leaves the views as they were, and the file is
    removed.
    """

    def __init__(self, env: dict[str, str], head: int, views_path: str,
                 part: int, parts: int) -> None:
        import subprocess
        import sys
        import tempfile

        self.head, self.part = head, part
        folder = os.path.dirname(os.path.abspath(views_path))
        handle, self.path = tempfile.mkstemp(prefix=".views-part-", suffix=".tmp", dir=folder)
        os.close(handle)
        # A plain child interpreter (not multiprocessing's spawn, which re-runs the
        # caller's main module), with exactly this process's import path (`-P`: not
        # the working directory's modules first). Its orders go in its environment,
        # which only its owner can read: the service's settings may hold a secret,
        # and a command line is visible to every user of the machine.
        orders = orjson.dumps({"env": env, "head": head, "path": self.path, "part": part,
                               "parts": parts, "modules": rule_set_modules()}).decode()
        child_env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p),
                     HELPER_ORDERS: orders}
        self.process = subprocess.Popen(
            [sys.executable, "-P", "-c", "from replay.views import part_main; part_main()"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=child_env)

    def attach(self, conn: sqlite3.Connection, warn: Warn | None) -> tuple[str, int]:
        """Wait for the helper (raising its error), pass on its warnings and attach
        its rows; the schema name they are attached as, and how many events it folded."""
        out, err = self.process.communicate()
        if self.process.returncode != 0:
            lines = err.decode(errors="replace").strip().splitlines() or ["no message"]
            raise RuntimeError(f"the views helper failed: {lines[-1]}")
        report = orjson.loads(out)
        for message in report["warnings"]:
            if warn is not None:
                warn(message)
        name = f"part{self.part}"
        conn.execute(f"attach database ? as {name}", (self.path,))
        return name, int(report["events"])

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.communicate()
        remove_sqlite_file(self.path)


def rule_set_modules() -> list[str]:
    """The modules that registered rule sets of their own (tests, benchmarks): the
    helper imports them; the rule sets of `events.rule_sets` load by name."""
    from domain.ruleset import RULESETS
    from events.rule_sets import rule_sets

    wired = {entry.name for entry in rule_sets()}
    return sorted({type(ruleset).__module__ for name, ruleset in RULESETS.items()
                   if name not in wired})


def part_main() -> None:
    """The helper process: its orders (JSON) in its environment; its warnings and
    how many events it folded (JSON) on stdout."""
    import sys

    orders = orjson.loads(os.environ[HELPER_ORDERS])
    for module in orders["modules"]:
        importlib.import_module(module)
    warnings: list[str] = []
    service = GameService(None, env=orders["env"])
    service.warn = warnings.append
    views = Views(service, orders["path"], fresh=True)
    try:
        events = views.build_part(orders["head"], orders["part"], orders["parts"])
    finally:
        views.close()
        service.close()
    sys.stdout.buffer.write(orjson.dumps({"warnings": warnings, "events": events}))


class Views:
    """The state view and analytic tables of an SQLite store, in their own file."""

    def __init__(self, service: GameService, path: str, batch: int = BATCH,
                 parallel_from: int = PARALLEL_FROM, fresh: bool = False) -> None:
        """`fresh`: the file is a new one a rebuild writes (`_connect`)."""
        self.service = service
        self.batch = batch
        self.parallel_from = parallel_from
        #: Games whose rows wait for the end of a rebuild into a new file.
        self.unwritten: dict[str, GameContext] | None = None
        self.where = path
        self.conn = self._connect(path, fresh)
        self.fold = Fold(self._context)
        self.ids: dict[str, str] = {}
        self.events = self._events_file(service)
        self.states = StateViews(service, reader=self.events)

    @staticmethod
    def _connect(path: str, fresh: bool = False) -> sqlite3.Connection:
        """The views file, its tables made. A `fresh` file (a rebuild from scratch
        into a new file) is written without a journal and gets its secondary
        indexes at the end (`_finish_fresh`)."""
        conn = connect(path, isolation_level=None)
        if fresh:
            conn.execute("pragma journal_mode = off")
        else:
            use_wal(conn)
        conn.execute(f"pragma synchronous = {'off' if fresh else 'normal'}")
        for statement in [*schema_statements(indexes=not fresh), *VIEW_SCHEMA,
                          SQLITE_TRACKING]:
            conn.execute(statement)
        return conn

    @staticmethod
    def _events_file(service: GameService) -> sqlite3.Connection | None:
        """A read-only connection to the SQLite event store, if the service uses one."""
        if not service.env.get("PERSISTENCE_MODULE", "").endswith("sqlite"):
            return None
        name = service.env.get("SQLITE_DBNAME", "")
        if not name or name == ":memory:" or "mode=memory" in name:
            return None
        return connect(f"file:{name}?mode=ro", uri=True)

    def _context(self, game_id: str) -> GameContext | None:
        row = self.conn.execute("select ctx from games where game_id = ?", (game_id,)).fetchone()
        return GameContext.from_json(row[0]) if row else None

    def tracked(self, name: str) -> int:
        row = self.conn.execute(
            "select notification_id from tracking where application = ?",
            (f"{self.service.name}:{name}",),
        ).fetchone()
        return int(row[0]) if row else 0

    def position(self) -> int:
        """The last notification id both projections have processed (0 before the first)."""
        return min(self.tracked(ANALYTICS), self.tracked(STATE_VIEWS))

    def _track(self, name: str, position: int) -> None:
        self.conn.execute(
            "insert into tracking (application, notification_id) values (?, ?) "
            "on conflict (application) do update set notification_id = excluded.notification_id",
            (f"{self.service.name}:{name}", position),
        )

    def run(self) -> int:
        """Project every new notification; return how many were processed.

        A large rebuild from scratch (`PARALLEL_FROM` events or more, an SQLite
        event file) is split by game with other processes (`build_part`), and
        writes a new views file beside the old one, without a journal, that
        replaces it only once complete: a crash leaves the old file as it was."""
        analytics_at, views_at = self.tracked(ANALYTICS), self.tracked(STATE_VIEWS)
        head = None if analytics_at or views_at else self._parallel_head()
        if head is None:
            return self._project(analytics_at, views_at)
        return self._rebuild_in_parts(head)

    def rebuild(self) -> int:
        """Every view again from the first event (`warledger views --rebuild`). A large
        rebuild writes a new file that replaces this one only once complete: the old
        views stay as they were until then, and if it fails. A small one drops the
        tables and runs."""
        head = self._parallel_head()
        if head is None:
            self.drop()
            return self.run()
        return self._rebuild_in_parts(head)

    def _rebuild_in_parts(self, head: int) -> int:
        """From scratch, up to notification `head` split into parts (`build_part`),
        then whatever came after it; returns how many events were processed."""
        self.states.reset(forget=True)
        helpers = [PartHelper(dict(self.service.env), head, self.where, part, PARTS)
                   for part in range(1, PARTS)]
        kept, fresh_path = self.conn, f"{self.where}.rebuild"
        remove_sqlite_file(fresh_path)
        self.conn = self._connect(fresh_path, fresh=True)
        try:
            processed = self.build_part(head, 0, PARTS)
            processed += self._copy_parts(helpers, head)
            for statement in index_statements():
                self.conn.execute(statement)
            self.conn.execute("pragma journal_mode = wal")
        except BaseException:
            self.conn.close()
            self.conn = kept
            self.fold.forget()
            remove_sqlite_file(fresh_path)
            raise
        finally:
            for helper in helpers:
                helper.close()
        self.conn.close()
        kept.close()
        remove_sqlite_file(self.where, keep_main=True)
        os.replace(fresh_path, self.where)
        self.conn = self._connect(self.where)
        return processed + self._project(head, head)  # what came after `head`

    def build_part(self, head: int, part: int, parts: int) -> int:
        """Into this new file (`fresh`): the analytic rows of every event up to
        notification `head` of the games of one part (`part_range`), and their state
        views at `head`; returns how many events it folded.

        The events are read game after game, whatever order they were stored in (a
        game's rows depend on its own events alone), so the rows are written in the
        order of the tables' keys, and each game's row once."""
        assert self.events is not None
        rows = self.events.execute(PART_ROWS, (*part_range(part, parts), head))
        self.fold.forget()
        self.unwritten = {}
        versions: dict[str, int] = {}
        processed = 0
        try:
            while page := rows.fetchmany(self.batch):  # the games' ids as stored (hex)
                self._write_analytics(page, self._game_id)
                versions.update((row[1], row[2]) for row in page)
                processed += len(page)
            self._write_unwritten_games()
        finally:
            rows.close()
            self.unwritten = None
        states = StateViews(self.service, capacity=1, reader=self.events)  # read once each
        states.touched.update((self._game_id(game), at) for game, at in versions.items())
        with self._transaction():
            self.conn.executemany(VIEW_UPSERT, states.rows())
        return processed

    def _copy_parts(self, helpers: Sequence[PartHelper], head: int) -> int:
        """The other parts' rows, copied in with both tracking positions at `head`;
        how many events the other parts folded."""
        attached = [helper.attach(self.conn, self.service.warn) for helper in helpers]
        try:
            with self._transaction():
                for name, _events in attached:
                    for table in [*TABLE_NAMES, STATE_VIEWS]:
                        self.conn.execute(f"insert into {table} select * from {name}.{table}")
                self._track(ANALYTICS, head)
                self._track(STATE_VIEWS, head)
        finally:
            for name, _events in attached:
                self.conn.execute(f"detach database {name}")
        return sum(events for _name, events in attached)

    def _parallel_head(self) -> int | None:
        """The last notification of the log, if a rebuild of it from scratch is to be
        split into parts (a large SQLite log, two cores or more; None if not)."""
        if self.events is None or (os.cpu_count() or 1) < 2:
            return None
        row = self.events.execute("select max(rowid) from stored_events").fetchone()
        head = int(row[0] or 0)
        return head if head >= self.parallel_from else None

    def _project(self, analytics_at: int, views_at: int) -> int:
        start = min(analytics_at, views_at)
        processed = 0
        self.states.reset()
        try:
            while page := self._page(start):
                fresh = [row for row in page if row[0] > analytics_at]
                if fresh:
                    self._write_analytics(fresh)
                if page[-1][0] > views_at:
                    for row in page:
                        if row[0] > views_at:
                            self.states.note(row[1], row[2], row[3])
                start = page[-1][0]
                processed += len(page)
            if start > views_at:
                self._write_state_views(start)
        except BaseException:
            self.states.reset(forget=True)
            raise
        return processed

    def _page(self, start: int) -> list[tuple[int, str, int, bytes]]:
        """(notification id, game id, event number, stored body) of the next events.

        On SQLite the rows are read straight from the library's table (its
        notification id is the rowid), skipping a `Notification` and a UUID per
        row; elsewhere through the recorder."""
        if self.events is not None:
            return self._with_game_ids(self.events.execute(
                "select rowid, originator_id, originator_version, state from stored_events "
                "where rowid > ? order by rowid limit ?", (start, self.batch)).fetchall())
        page = self.service.recorder.select_notifications(
            start, self.batch, inclusive_of_start=False)
        return [(n.id, str(n.originator_id), n.originator_version, n.state) for n in page]

    def _with_game_ids(self, rows: list[tuple[int, str, int, bytes]]
                       ) -> list[tuple[int, str, int, bytes]]:
        """Stored rows with each game's id as text (its stored hex read once)."""
        ids = self.ids
        if len(ids) > 100_000:
            ids.clear()
        return [(n, ids.get(g) or ids.setdefault(g, str(UUID(g))), v, b) for n, g, v, b in rows]

    def _game_id(self, stored: str) -> str:
        """A game's id as text, from its id as stored (hex)."""
        return str(UUID(stored))

    def _write_analytics(self, page: list[tuple[int, str, int, bytes]],
                         game_id_of: Callable[[str], str] | None = None) -> None:
        """Fold a page and write its rows with the tracking position. In a rebuild
        into a new file the games rows wait (`unwritten`, at most `UNWRITTEN_GAMES`):
        with every game played at once, each page touches every game, and its games
        row (the context) would be rewritten every page."""
        unwritten = self.unwritten
        try:
            batch = self.fold.fold(page, touched=unwritten, game_id_of=game_id_of)
            games_too = unwritten is None or len(unwritten) >= UNWRITTEN_GAMES
            with self._transaction():
                write_batch(self.conn, batch, games_too=games_too)
                self._track(ANALYTICS, batch.position)
            if unwritten is not None and games_too:
                unwritten.clear()
        except BaseException:
            self.fold.forget()  # contexts may hold the unwritten batch
            raise

    def _write_unwritten_games(self) -> None:
        assert self.unwritten is not None
        with self._transaction():
            write_games(self.conn, self.unwritten.values())
        self.unwritten.clear()

    def _write_state_views(self, position: int) -> None:
        try:
            with self._transaction():
                self.conn.executemany(VIEW_UPSERT, self.states.rows())
                self._track(STATE_VIEWS, position)
        finally:
            self.states.reset()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """One transaction of the views file: committed, or rolled back on any error."""
        self.conn.execute("begin")
        try:
            yield
            self.conn.execute("commit")
        except BaseException:
            self.conn.execute("rollback")
            raise

    def view(self, game_id: UUID) -> tuple[int, str] | None:
        """(version, state JSON) of one game's view, if projected."""
        row = self.conn.execute(
            "select version, state from state_views where game_id = ?", (str(game_id),)
        ).fetchone()
        return (int(row[0]), str(row[1])) if row else None

    def drop(self) -> None:
        """Drop every view table and its tracking (the next run rebuilds them)."""
        for name in [*(t.name for t in TABLES), "state_views", "tracking"]:
            self.conn.execute(f"drop table if exists {name}")
        for statement in [*schema_statements(), *VIEW_SCHEMA, SQLITE_TRACKING]:
            self.conn.execute(statement)
        self.fold.forget()
        self.states.reset(forget=True)

    def close(self) -> None:
        self.conn.close()
        if self.events is not None:
            self.events.close()


class ViewsLike(Protocol):
    where: str

    def run(self) -> int: ...
    def rebuild(self) -> int: ...
    def position(self) -> int: ...
    def drop(self) -> None: ...
    def close(self) -> None: ...


def open_views(service: GameService, db: str, path: str) -> ViewsLike:
    """The views of a store: tables in its PostgreSQL database, or an SQLite file at `path`."""
    if db.startswith(("postgresql://", "postgres://")):
        from replay.pg_views import PgViews

        return PgViews(db, service)
    return Views(service, path)


#: The name this projection had before the analytic tables joined it.
StateViewProjection = Views

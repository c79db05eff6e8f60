"""The views of a PostgreSQL store: tables in the same database.

The analytic tables are kept current by eventsourcing's `ProjectionRunner`:
its subscription hands each notification to `AnalyticsProjection`, which
folds it (decoded once, from its stored JSON) and writes the rows together
with the library's tracking record in ONE transaction (`AnalyticsRecorder`,
a `PostgresTrackingRecorder`). While catching up it writes a batch every
`BATCH` events; at the head of the log, every event at once.

The state views (`state_views`) follow with their own tracking row: after the
analytic tables reach the head, each game with newer events is read once as
its latest snapshot plus its tail (or folded from the bounded cache).

`PgViews.follow` keeps the runner subscribed (`warledger views URL --follow`):
each committed event is folded as it comes (LISTEN/NOTIFY), and the state views
follow within `poll` seconds. Exactly one follower should run per database, but
two are safe: every write takes one transaction-level advisory lock and checks,
inside that transaction, that no one has tracked a position at or beyond its
first event (`ProjectionConflictError` otherwise, and nothing is written); the
follower that lost then resumes from the tables' own position. A follower killed
at any moment loses nothing and counts nothing twice: its rows and its tracking
record commit together or not at all.
"""

from __future__ import annotations

import threading
import time
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Mapper, Tracking
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.projection import Projection, ProjectionRunner
from psycopg.sql import SQL

from replay.analytics import (
    TABLES,
    Batch,
    Fold,
    GameContext,
    UnknownFactError,
    schema_statements,
)
from replay.mapper import OrjsonTranscoder
from replay.postgres import SafeHead
from replay.service import GameService
from replay.storage import storage_env
from replay.views import BATCH, STATE_VIEWS, VIEW_SCHEMA, VIEW_UPSERT, StateViews, write_batch

PROJECTION = "analytics"
EVENTS_TABLE = f"{GameService.name}_events"
#: The advisory lock every write of the views takes (an arbitrary, fixed number).
WRITE_LOCK = 0x57A12_0015


class ProjectionConflictError(Exception):
    """Another process has already projected these events (nothing was written)."""


class RawEvent:
    """A stored event as the subscription delivers it: not decoded yet."""

    __slots__ = ("originator_id", "originator_version", "state")

    def __init__(self, originator_id: Any, originator_version: int, state: bytes) -> None:
        self.originator_id = originator_id
        self.originator_version = originator_version
        self.state = state


class RawMapper(Mapper[UUID]):
    """Hands stored events on as they are (the projection decodes each once)."""

    def to_domain_event(self, stored_event: Any) -> Any:
        return RawEvent(stored_event.originator_id, stored_event.originator_version,
                        stored_event.state)


class RawGameService(GameService):
    """The application the runner subscribes to, built from an env as runners build it."""

    name = GameService.name  # the same events table and tracking name

    def __init__(self, env: Any = None) -> None:
        super().__init__(None, env=dict(env or {}))

    def construct_mapper(self) -> Mapper[UUID]:
        return RawMapper(transcoder=OrjsonTranscoder())


class AnalyticsRecorder(PostgresTrackingRecorder):
    """The library's PostgreSQL tracking recorder, with the view tables beside it."""

    def __init__(self, datastore: Any, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self.safe_head = SafeHead(datastore, EVENTS_TABLE)
        for statement in [*schema_statements(), *VIEW_SCHEMA]:
            self.sql_create_statements.append(SQL(statement).format())

    def write(self, fold: Fold, rows: list[tuple[int, str, int, bytes]]) -> None:
        """Fold rows and write them with their tracking, in one transaction."""
        try:
            batch = self.fold(fold, rows)
            with self.datastore.transaction(commit=True) as curs:
                self.claim(curs, GameService.name, rows[0][0])
                write_batch(curs, batch, "%s")
                self._insert_tracking(curs, Tracking(GameService.name, batch.position))
        except BaseException:
            fold.forget()
            raise

    def fold(self, fold: Fold, rows: list[tuple[int, str, int, bytes]]) -> Batch:
        """The batch's rows. An event out of step with a game's stored context means
        another follower has written past this one's start (a conflict, checked
        under the lock), or tables not of this log (the fold's own error)."""
        try:
            return fold.fold(rows)
        except UnknownFactError:
            with self.datastore.transaction(commit=False) as curs:
                self.claim(curs, GameService.name, rows[0][0])
            raise

    def claim(self, curs: Any, application: str, first: int) -> None:
        """Inside a write's transaction: take the views' write lock and check that no
        one has projected notification `first` or later (`ProjectionConflictError`)."""
        curs.execute("select pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
        curs.execute(SQL(f"select max(notification_id) as at from {self.tracking_table_name} "
                         "where application_name = %s"), (application,))
        row = curs.fetchone()
        at = int(row["at"] or 0) if row else 0
        if at >= first:
            raise ProjectionConflictError(
                f"{application} is already projected to notification {at} (this write "
                f"began at {first}): another process follows the same database")

    def context(self, game_id: str) -> GameContext | None:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute("select ctx from games where game_id = %s", (game_id,))
            row = curs.fetchone()
        return GameContext.from_json(row["ctx"]) if row else None

    def head(self) -> int:
        """The newest notification id of the event store that no save in flight can
        pass (`replay.postgres.SafeHead`: ids need not commit in order)."""
        return self.safe_head.read()

    def drop(self) -> None:
        """Drop the view tables and forget both projections' positions."""
        with self.datastore.transaction(commit=True) as curs:
            for name in [*(t.name for t in TABLES), "state_views"]:
                curs.execute(SQL(f"drop table if exists {name}"))
            curs.execute(SQL(f"delete from {self.tracking_table_name} "
                             "where application_name like %s"), (f"{GameService.name}%",))
        self.create_table()


class AnalyticsProjection(Projection[AnalyticsRecorder]):
    """Folds each notification into the analytic tables (see the module docstring)."""

    name = PROJECTION

    def __init__(self, view: AnalyticsRecorder) -> None:
        super().__init__(view)
        self.fold = Fold(view.context)
        self.pending: list[tuple[int, str, int, bytes]] = []
        self.known_head = 0

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        event = domain_event
        self.pending.append((tracking.notification_id, str(event.originator_id),
                             event.originator_version, event.state))
        at_head = tracking.notification_id >= self.known_head and self._refresh_head(tracking)
        if at_head or len(self.pending) >= BATCH:
            rows, self.pending = self.pending, []
            self.view.write(self.fold, rows)

    def _refresh_head(self, tracking: Tracking) -> bool:
        self.known_head = self.view.head()
        return tracking.notification_id >= self.known_head


class PgViews:
    """`warledger views` on PostgreSQL: run the projection to the head, then the state views."""

    def __init__(self, url: str, service: GameService | None = None,
                 timeout: float = 600.0) -> None:
        self.env = storage_env(url)
        self.timeout = timeout
        self.service = service or GameService(url)
        self.where = "the tables of the PostgreSQL database"
        self.recorder = self._recorder()
        self.states = StateViews(self.service)

    def _recorder(self) -> AnalyticsRecorder:
        from eventsourcing.persistence import InfrastructureFactory

        env = ProjectionRunner._construct_env(name=PROJECTION, env=self.env)
        factory = InfrastructureFactory[AnalyticsRecorder].construct(env=env)
        return factory.tracking_recorder(AnalyticsRecorder)

    def tracked(self, name: str | None = None) -> int:
        app = GameService.name if name is None else f"{GameService.name}:{name}"
        return int(self.recorder.max_tracking_id(app) or 0)

    def position(self) -> int:
        """The last notification id both projections have processed."""
        return min(self.tracked(), self.tracked(STATE_VIEWS))

    def _runner(self) -> ProjectionRunner[RawGameService, AnalyticsRecorder]:
        # The runner's application finds the tables this one made: no DDL, which
        # would wait for every save in flight.
        env = {**self.env, f"{GameService.name.upper()}_CREATE_TABLE": "n"}
        return ProjectionRunner(application_class=RawGameService,
                                projection_class=AnalyticsProjection,
                                view_class=AnalyticsRecorder, env=env)

    def run(self) -> int:
        """Catch every projection up with the head; return how many events were new."""
        head = self.recorder.head()
        before = min(self.tracked(), self.tracked(STATE_VIEWS))
        deadline = time.monotonic() + self.timeout
        while self.tracked() < head:
            try:
                with self._runner() as runner:
                    while self.tracked() < head:
                        runner.run_forever(timeout=0.005)  # re-raises the projection's error
                        if time.monotonic() > deadline:
                            raise TimeoutError(
                                f"the analytic tables did not reach event {head}")
            except ProjectionConflictError:
                continue  # another process wrote first: go on from the tables' position
        self._state_views(head)
        return max(0, head - before)

    def follow(self, stop: threading.Event, poll: float = 0.05) -> None:
        """Keep both projections current until `stop` is set: the runner folds each
        event as it is committed; the state views catch up every `poll` seconds."""
        while not stop.is_set():
            try:
                with self._runner() as runner:
                    while not stop.is_set():
                        runner.run_forever(timeout=poll)
                        self._state_views(self.tracked())
            except ProjectionConflictError:
                continue  # another follower wrote first: resume from the tables' position

    def _state_views(self, head: int) -> None:
        since = self.tracked(STATE_VIEWS)
        if since >= head:
            return
        with self.recorder.datastore.transaction(commit=False) as curs:
            curs.execute(SQL(f"select originator_id, max(originator_version) as version "
                             f"from {EVENTS_TABLE} where notification_id > %s and "
                             "notification_id <= %s group by originator_id "
                             "order by originator_id"), (since, head))
            latest = [(str(r["originator_id"]), int(r["version"])) for r in curs.fetchall()]
        self.states.reset()
        self.states.touched.update(latest)
        application = f"{GameService.name}:{STATE_VIEWS}"
        try:
            with self.recorder.datastore.transaction(commit=True) as curs:
                self.recorder.claim(curs, application, since + 1)
                curs.executemany(VIEW_UPSERT.replace("?", "%s"), list(self.states.rows()))
                self.recorder._insert_tracking(curs, Tracking(application, head))
        except ProjectionConflictError:
            pass  # another follower wrote these games' views (at least this far)
        finally:
            self.states.reset()

    def view(self, game_id: UUID) -> tuple[int, str] | None:
        with self.recorder.datastore.transaction(commit=False) as curs:
            curs.execute("select version, state from state_views where game_id = %s",
                         (str(game_id),))
            row = curs.fetchone()
        return (int(row["version"]), str(row["state"])) if row else None

    def drop(self) -> None:
        self.recorder.drop()
        self.states.reset(forget=True)

    def rebuild(self) -> int:
        """Every view again from the first event: the tables dropped, then a run."""
        self.drop()
        return self.run()

    def close(self) -> None:
        self.recorder.datastore.close()
        self.service.close()

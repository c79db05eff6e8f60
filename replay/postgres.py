"""The PostgreSQL notification log in commit order: no reader ever passes a gap.

A sequence hands out notification ids when rows are inserted, not when they are
committed, so with concurrent writers id 41 can commit after id 42. The library's
insert function (`POSTGRES_ENABLE_DB_FUNCTIONS=y`) takes no table lock, so a reader
that has read 42 and goes on from there never sees 41: the follower then meets a
game's next event with one missing and stops, and a stream is not woken.

Two changes make every reader see every event, in order, with no gaps, while
writers still commit in parallel (docs/performance.md, "Notification log in commit
order", measures both this and the library's table lock):

- **Writers** (`insert_function`): a transaction takes its transaction id *before*
  it draws any notification id, and draws all of its ids at once under a short
  advisory lock (`NOTIFICATION_IDS_LOCK`, released before the insert, never held to
  the commit). Each insert's ids are consecutive (the library's non-interleaving
  guarantee), and a transaction holding an id is always listed in flight by any
  snapshot taken after that id was drawn.
- **Readers** (`SafeHead`): the newest id a reader may go up to is the newest one
  visible in a snapshot `S`, once every transaction in flight at `S` has ended
  (`pg_snapshot_xmin` of a later snapshot reaches `pg_snapshot_xmax(S)`). Any row
  below it that `S` could not see belongs to one of those transactions, so by then
  it is committed (visible) or rolled back (a gap that stays a gap). When nothing
  is in flight the newest id is safe at once; otherwise a reader waits for the
  transactions of that moment (a few milliseconds), never for later ones, and
  after `HOLD_WAIT` seconds (a transaction left open) goes on with the last point
  known safe and asks again later.

`CommitOrderRecorder` is the library's application recorder with both (and
`CommitOrderProcessRecorder` its process recorder): its
`select_notifications`, `max_notification_id` and `subscribe` never go past the
safe point, so the `ProjectionRunner` (`views`, `views --follow`), the server's
stream notifier and `game_ids` all read the log this way. `postgres_env` selects
them (`APPLICATION_RECORDER_TOPIC`, `PROCESS_RECORDER_TOPIC`). The module's name
ends in `postgres`, as the callers that ask `type(recorder).__module__` for the
backend expect.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Sequence
from typing import Any, cast

from eventsourcing.persistence import (
    ApplicationRecorder,
    Notification,
    StoredEvent,
    Subscription,
)
from eventsourcing.postgres import (
    PostgresApplicationRecorder,
    PostgresDatastore,
    PostgresProcessRecorder,
    PostgresSubscription,
)
from psycopg.sql import SQL, Composed, Identifier, Literal

#: The advisory lock (per database) under which an insert draws its notification ids.
NOTIFICATION_IDS_LOCK = int.from_bytes(
    hashlib.sha256(b"warledger: notification ids").digest()[:8], "big", signed=True)
#: The longest a read waits for the transactions in flight when it began (seconds).
HOLD_WAIT = 2.0
#: How soon a held-back subscription asks again (seconds).
REPOLL = 0.005


def insert_function(recorder: PostgresApplicationRecorder, name: str) -> Composed:
    """`CREATE OR REPLACE FUNCTION` of warledger's insert function (the module
    docstring): the transaction id first, the ids drawn together under the short
    lock, then the library's insert and NOTIFY."""
    schema = Identifier(recorder.datastore.schema)
    table = Identifier(recorder.events_table_name)
    qualified = f"{recorder.datastore.schema}.{recorder.events_table_name}"
    return SQL(
        "CREATE OR REPLACE FUNCTION {schema}.{name}(events {schema}.{event}[]) "
        "RETURNS SETOF bigint LANGUAGE plpgsql AS $BODY$ "
        "DECLARE ids bigint[]; seq regclass; "
        "BEGIN "
        "    SET LOCAL lock_timeout = '{lock_timeout}s'; "
        "    PERFORM pg_current_xact_id(); "
        "    seq := pg_get_serial_sequence({qualified}, 'notification_id')::regclass; "
        "    BEGIN "  # the lock is a session's: released on every way out of the block
        "        PERFORM pg_advisory_lock({key}); "
        "        ids := ARRAY(SELECT nextval(seq) FROM generate_series(1, cardinality(events))); "
        "        PERFORM pg_advisory_unlock({key}); "
        "    EXCEPTION WHEN OTHERS OR query_canceled THEN "
        "        PERFORM pg_advisory_unlock({key}); "
        "        RAISE; "
        "    END; "
        "    NOTIFY {channel}; "
        "    RETURN QUERY "
        "    INSERT INTO {schema}.{table} "
        "    (originator_id, originator_version, topic, state, notification_id) "
        "    SELECT e.originator_id, e.originator_version, e.topic, e.state, ids[e.n] "
        "    FROM unnest(events) WITH ORDINALITY "
        "    AS e(originator_id, originator_version, topic, state, n) "
        "    RETURNING notification_id; "
        "END; $BODY$"
    ).format(
        schema=schema, name=Identifier(name), table=table,
        event=Identifier(recorder.stored_event_type_name),
        lock_timeout=SQL(str(int(recorder.datastore.lock_timeout))),
        qualified=Literal(qualified), key=Literal(NOTIFICATION_IDS_LOCK),
        channel=Identifier(recorder.channel_name),
    )


class SafeHead:
    """The newest notification id of an events table that no transaction still in
    flight can pass (the module docstring)."""

    def __init__(self, datastore: PostgresDatastore, events_table_name: str,
                 hold_wait: float = HOLD_WAIT) -> None:
        self.datastore = datastore
        self.hold_wait = hold_wait
        self.glance = SQL(
            "SELECT (SELECT max(notification_id) FROM {schema}.{table}) AS head, "
            "pg_snapshot_xmin(s)::text::bigint AS xmin, "
            "pg_snapshot_xmax(s)::text::bigint AS xmax FROM pg_current_snapshot() AS s"
        ).format(schema=Identifier(datastore.schema), table=Identifier(events_table_name))
        self.oldest = SQL("SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS xmin")
        #: The last point known safe (a fall-back when a transaction stays open).
        self.known = 0
        self.lock = threading.Lock()
        self.local = threading.local()

    @property
    def held_back(self) -> bool:
        """Did this thread's last read stop short of a newer committed id?"""
        return bool(getattr(self.local, "held_back", False))

    def read(self) -> int:
        """The safe point now (0: nothing yet)."""
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            row = curs.execute(self.glance).fetchone()
            assert row is not None
            head = int(row["head"] or 0)
            if row["xmin"] < row["xmax"] and not self._ended(curs, int(row["xmax"])):
                self.local.held_back = head > self.known
                return self.known
        self.local.held_back = False
        with self.lock:
            self.known = max(self.known, head)
        return head

    def _ended(self, curs: Any, xmax: int) -> bool:
        """Wait (at most `hold_wait` s) until every transaction older than `xmax` has
        ended; did they?"""
        deadline = time.monotonic() + self.hold_wait
        pause = 0.0005
        while True:
            row = curs.execute(self.oldest).fetchone()
            if row is not None and int(row["xmin"]) >= xmax:
                return True
            if time.monotonic() > deadline:
                return False
            time.sleep(pause)
            pause = min(pause * 2, 0.01)


class CommitOrderRecorder(PostgresApplicationRecorder):
    """The library's PostgreSQL application recorder, read and written in commit
    order (the module docstring)."""

    def __init__(self, datastore: PostgresDatastore, **tables: Any) -> None:
        super().__init__(datastore, **tables)
        # One function per table (the library's name is one per schema: two
        # applications' recorders in one schema would insert into each other's table).
        name = f"{self.events_table_name}_insert_{datastore.originator_id_type}"
        self.pg_function_name_insert_events = name
        self.sql_invoke_pg_function_insert_events = SQL(
            "SELECT * FROM {schema}.{name}((%s))").format(
            schema=Identifier(datastore.schema), name=Identifier(name))
        self.sql_create_pg_function_insert_events = insert_function(self, name)
        self.sql_create_statements[self.create_insert_function_statement_index] = (
            self.sql_create_pg_function_insert_events)
        self.safe_head = SafeHead(datastore, self.events_table_name)

    def select_notifications(self, start: int | None, limit: int, stop: int | None = None,
                             topics: Sequence[str] = (), *,
                             inclusive_of_start: bool = True) -> Sequence[Notification]:
        """The library's page of notifications, none past the safe point."""
        safe = self.safe_head.read()
        return cast("Sequence[Notification]", super().select_notifications(
            start, limit, safe if stop is None else min(stop, safe), topics,
            inclusive_of_start=inclusive_of_start))

    def max_notification_id(self) -> int | None:
        """The safe point: the newest id a reader may go up to (None: no events)."""
        return self.safe_head.read() or None

    def subscribe(self, gt: int | None = None,
                  topics: Sequence[str] = ()) -> Subscription[ApplicationRecorder]:
        return CommitOrderSubscription(recorder=self, gt=gt, topics=topics)


class CommitOrderProcessRecorder(CommitOrderRecorder, PostgresProcessRecorder):
    """The library's PostgreSQL process recorder in commit order. With the insert
    function, the library's own drops a `tracking` record (it calls the function
    alone); here the tracking record and the function's insert share one transaction,
    as they do without the function."""

    def insert_events(self, stored_events: Sequence[StoredEvent],
                      **kwargs: Any) -> Sequence[int] | None:
        tracking = kwargs.get("tracking")
        if tracking is None or not self.datastore.enable_db_functions:
            return cast("Sequence[int] | None", super().insert_events(stored_events, **kwargs))
        rows = [self.construct_pg_stored_event(
            originator_id=e.originator_id, originator_version=e.originator_version,
            topic=e.topic, state=e.state) for e in stored_events]
        with self.datastore.get_connection() as conn, conn.transaction(), \
                conn.cursor() as curs:
            self._insert_tracking(curs, tracking)
            if not rows:
                return []
            curs.execute(self.sql_invoke_pg_function_insert_events, (rows,), prepare=True)
            return [row[self.pg_function_name_insert_events] for row in curs.fetchall()]


class CommitOrderSubscription(PostgresSubscription):
    """LISTEN/NOTIFY as the library's, asking again soon after a read that was held
    back: the transactions it waited for may end without a notification of their own
    (a commit of another table's rows)."""

    def _pull(self) -> None:
        super()._pull()
        recorder = self._recorder
        if isinstance(recorder, CommitOrderRecorder) and recorder.safe_head.held_back \
                and not self._has_been_stopped:
            time.sleep(REPOLL)
            self._has_been_notified.set()

"""The state-view projection: one row per game, kept current from the notification log.

It pulls notifications after its tracked position (SQLite has no push
subscription), and writes the views it changed together with the new
position in ONE transaction, so a crash can never count an event twice.
Views live in their own SQLite file (`<db>.views`), apart from the event
store (LIBRARY-NOTES: the library's `BEGIN` would lock the events file).
Dropping the file and running again rebuilds every view from the log.
"""

from __future__ import annotations

import sqlite3
from uuid import UUID

from projections.state_view import canonical_json, state_view
from replay.service import GameService

BATCH = 500
SCHEMA = """
create table if not exists state_views (
    game_id text primary key, version integer not null, state text not null);
create table if not exists tracking (
    application text primary key, notification_id integer not null);
"""


class StateViewProjection:
    """Materialised CONTRACT state views for every game of a service."""

    def __init__(self, service: GameService, path: str) -> None:
        self.service = service
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.executescript(SCHEMA)

    def position(self) -> int:
        """The last notification id projected (0 before the first)."""
        row = self.conn.execute(
            "select notification_id from tracking where application = ?", (self.service.name,)
        ).fetchone()
        return int(row[0]) if row else 0

    def run(self) -> int:
        """Project every new notification; return how many were processed."""
        processed = 0
        while True:
            start = self.position()
            batch = self.service.recorder.select_notifications(
                start, BATCH, inclusive_of_start=False
            )
            if not batch:
                return processed
            latest: dict[UUID, int] = {}
            for notification in batch:
                game_id = UUID(str(notification.originator_id))
                latest[game_id] = max(latest.get(game_id, 0), notification.originator_version)
            self._write(latest, batch[-1].id)
            processed += len(batch)

    def _write(self, latest: dict[UUID, int], position: int) -> None:
        rows = []
        for game_id, version in latest.items():
            game = self.service.game_at(game_id, version=version)
            rows.append((str(game_id), version, canonical_json(state_view(game.state)).decode()))
        self.conn.execute("begin")
        try:
            self.conn.executemany(
                "insert into state_views (game_id, version, state) values (?, ?, ?) "
                "on conflict(game_id) do update set version = excluded.version, "
                "state = excluded.state",
                rows,
            )
            self.conn.execute(
                "insert into tracking (application, notification_id) values (?, ?) "
                "on conflict(application) do update set notification_id = excluded.notification_id",
                (self.service.name, position),
            )
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

    def close(self) -> None:
        self.conn.close()

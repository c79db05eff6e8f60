"""The library's event store, reading a game's events directly on SQLite.

eventsourcing's SQLite recorder builds a `StoredEvent` from each named-column
row before the mapper sees it (a fifth of a full replay). `GameEventStore.get`
runs the same query for the three columns the mapper needs and hands each row
to `PydanticMapper.decode_stored`: the same events, in the same order. Every
other backend (PostgreSQL) reads through the library as before.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any, cast
from uuid import UUID

from eventsourcing.persistence import AggregateRecorder, EventStore, Mapper

from replay.mapper import PydanticMapper, as_uuid


def sqlite_datastore(recorder: object) -> Any | None:
    """The SQLite datastore of one of eventsourcing's SQLite recorders (None for any
    other backend): where warledger reads rows itself."""
    datastore = getattr(recorder, "datastore", None)
    if type(recorder).__module__ != "eventsourcing.sqlite":
        return None
    return datastore


#: One stored row of a game as the mapper reads it: (version, topic, body).
Row = tuple[int, str, bytes]


def select_rows(store: EventStore[UUID], originator_id: UUID, *, gt: int | None = None,
                lte: int | None = None, desc: bool = False,
                limit: int | None = None) -> list[Row]:
    """One game's stored rows, `gt` < version ≤ `lte`: read directly on SQLite
    (the events or the snapshots table), through the library's recorder elsewhere."""
    recorder = store.recorder
    reader = store.reader if isinstance(store, GameEventStore) else None
    datastore = sqlite_datastore(recorder)
    if datastore is None and reader is None:
        return [(row.originator_version, row.topic, row.state) for row in
                recorder.select_events(originator_id, gt=gt, lte=lte, desc=desc, limit=limit)]
    table = recorder.events_table_name  # type: ignore[attr-defined]
    statement = (f"SELECT originator_version, topic, state FROM {table} "
                 "WHERE originator_id=? ")
    params: list[Any] = [as_uuid(originator_id).hex]
    if gt is not None:
        statement += "AND originator_version>? "
        params.append(gt)
    if lte is not None:
        statement += "AND originator_version<=? "
        params.append(lte)
    statement += "ORDER BY originator_version " + ("DESC " if desc else "ASC ")
    if limit is not None:
        statement += "LIMIT ? "
        params.append(limit)
    if reader is not None:
        return cast("list[Row]", reader.execute(statement, params).fetchall())
    assert datastore is not None
    with datastore.transaction(commit=False) as cursor:
        cursor.execute(statement, params)
        return cast("list[Row]", cursor.fetchall())


class GameEventStore(EventStore[UUID]):
    """`EventStore` with a direct read of one game's rows on SQLite: through the
    library's connection pool, or on a `reader` of the same file (a read-only
    connection of a projection that reads many games, each with its own query: the
    pool's transaction around each query cost as much as the query)."""

    def __init__(self, mapper: Mapper[UUID], recorder: AggregateRecorder,
                 reader: sqlite3.Connection | None = None) -> None:
        super().__init__(mapper=mapper, recorder=recorder)
        self.reader = reader

    def get(
        self,
        originator_id: UUID,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Iterator[Any]:
        mapper = self.mapper
        direct = self.reader is not None or sqlite_datastore(self.recorder) is not None
        if not direct or not isinstance(mapper, PydanticMapper):
            return super().get(originator_id, gt=gt, lte=lte, desc=desc, limit=limit)
        game_id = as_uuid(originator_id)
        rows = select_rows(self, game_id, gt=gt, lte=lte, desc=desc, limit=limit)
        decode = mapper.decode_stored
        return (decode(game_id, row[0], row[1], row[2]) for row in rows)

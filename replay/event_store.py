"""The library's event store, reading a game's events directly on SQLite.

eventsourcing's SQLite recorder builds a `StoredEvent` from each named-column
row before the mapper sees it (a fifth of a full replay). `GameEventStore.get`
runs the same query for the three columns the mapper needs and hands each row
to `PydanticMapper.decode_stored`: the same events, in the same order. Every
other backend (PostgreSQL) reads through the library as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

from eventsourcing.persistence import EventStore

from replay.mapper import PydanticMapper, as_uuid


def sqlite_datastore(recorder: object) -> Any | None:
    """The SQLite datastore of one of eventsourcing's SQLite recorders (None for any
    other backend): where warledger reads rows itself."""
    datastore = getattr(recorder, "datastore", None)
    if type(recorder).__module__ != "eventsourcing.sqlite":
        return None
    return datastore


class GameEventStore(EventStore[UUID]):
    """`EventStore` with a direct read of one game's rows on SQLite."""

    def get(
        self,
        originator_id: UUID,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Iterator[Any]:
        recorder = self.recorder
        datastore = sqlite_datastore(recorder)
        mapper = self.mapper
        if datastore is None or not isinstance(mapper, PydanticMapper):
            return super().get(originator_id, gt=gt, lte=lte, desc=desc, limit=limit)
        game_id = as_uuid(originator_id)
        table = recorder.events_table_name  # type: ignore[attr-defined]
        statement = (f"SELECT originator_version, topic, state FROM {table} "
                     "WHERE originator_id=? ")
        params: list[Any] = [game_id.hex]
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
        with datastore.transaction(commit=False) as cursor:
            cursor.execute(statement, params)
            rows = cursor.fetchall()
        decode = mapper.decode_stored
        return (decode(game_id, row[0], row[1], row[2]) for row in rows)

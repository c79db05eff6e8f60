"""What `warledger games` lists: each game told apart without replaying it.

A game's line is read from a few rows of the store, however long the game:
- its first events (the set-up): the rule set, the players, the date it started, and
  the metadata (event, round, table) when the set-up recorded some
  (`GameMetadataRecorded`, the third event of a set-up that has it);
- its last event's number: how many events it has;
- its latest snapshot: a save that leaves a game with a confirmed result always
  snapshots it (`replay.service.snapshot_due`), so a game has a confirmed result
  exactly when its latest snapshot stands at its last event and holds one.

The whole list is three queries, whatever the number of games (`stored_rows`): on
SQLite by walking the events' (game id, version) index, a few lookups per game, never
reading every event; on PostgreSQL the first events, the last event's numbers (an
index-only aggregate) and the latest snapshots. In memory, the library's reads.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, cast
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from events.core import GameStarted
from events.envelope import GameEvent
from events.results import GameMetadataRecorded
from projections.wording import say_result
from replay.service import GAMES_WALK, GameService

#: A set-up's events up to its metadata: GameStarted, SeedSealed, GameMetadataRecorded.
SETUP_HEAD = 3

@dataclass(frozen=True)
class GameSummary:
    """One game as `warledger games` tells it apart from the others."""

    game_id: UUID
    ruleset: str
    players: tuple[str, ...]
    started: str
    events: int
    metadata: dict[str, str] = field(default_factory=dict)
    #: The confirmed result (winner, draw, points, confirmed_by), or None.
    result: dict[str, Any] | None = None

    def line(self) -> str:
        """`id  date  rule set  players  N events  result  [event, round, table]`."""
        result = f"confirmed: {say_result(self.result)}" if self.result else "no confirmed result"
        where = ", ".join(f"{key} {value}" if key != "event" else value
                          for key, value in self.metadata.items())
        return (f"{self.game_id}  {self.started[:16].replace('T', ' ')}  {self.ruleset:<12} "
                f"{' v '.join(self.players):<24} {self.events:>6} events  {result}"
                + (f"  [{where}]" if where else ""))

    def as_json(self) -> dict[str, Any]:
        return {"game_id": str(self.game_id), "ruleset": self.ruleset,
                "players": list(self.players), "started": self.started,
                "events": self.events, "metadata": self.metadata, "result": self.result}


def game_summaries(service: GameService) -> Iterator[GameSummary]:
    """Every game of the store, in the order they were started."""
    store = stored_rows(service)
    if store is None:  # in memory: the library's reads, game by game
        for game_id in service.game_ids():
            yield summary(service, game_id)
        return
    firsts, heads, snapshots = store
    for game_id, rows in firsts.items():
        events = [cast("GameEvent", service.mapper.to_domain_event(stored(game_id, row)))
                  for row in rows]
        last = heads[game_id]
        snapshot = snapshots.get(game_id)
        yield summary_of(game_id, events, last, result_of(service, game_id, snapshot)
                         if snapshot is not None and snapshot[0] == last else None)


#: One stored row as read: (version, topic, body).
Row = tuple[int, str, bytes]
#: What a store's rows say of its games: each game's first events (in the order the
#: games were started), its last event's number, its latest snapshot.
StoreRows = tuple[dict[UUID, list[Row]], dict[UUID, int], dict[UUID, Row]]

#: Three queries on SQLite: each game's first events and last event's number by the
#: (game id, version) index, one walk over the games; the latest snapshot of each.
SQLITE_QUERIES = (
    GAMES_WALK + "SELECT e.originator_id, e.originator_version, e.topic, e.state FROM games "
    "JOIN {table} AS e ON e.originator_id = games.id AND e.originator_version <= {head} "
    "ORDER BY e.rowid",
    GAMES_WALK + "SELECT id, (SELECT MAX(originator_version) FROM {table} "
    "WHERE originator_id = games.id) FROM games WHERE id IS NOT NULL",
    "SELECT originator_id, MAX(originator_version), topic, state FROM {snapshots} "
    "GROUP BY originator_id",
)
POSTGRES_QUERIES = (
    "SELECT originator_id, originator_version, topic, state FROM {table} "
    "WHERE originator_version <= {head} ORDER BY notification_id",
    "SELECT originator_id, MAX(originator_version) FROM {table} GROUP BY originator_id",
    "SELECT DISTINCT ON (originator_id) originator_id, originator_version, topic, state "
    "FROM {snapshots} ORDER BY originator_id, originator_version DESC",
)


def stored_rows(service: GameService) -> StoreRows | None:
    """The rows every game's summary is read from, in three queries (None in memory)."""
    recorder: Any = service.recorder
    module = type(recorder).__module__
    if not module.endswith(("sqlite", "postgres")) or service.snapshots is None:
        return None
    queries = SQLITE_QUERIES if module.endswith("sqlite") else POSTGRES_QUERIES
    names = {"table": recorder.events_table_name, "head": SETUP_HEAD,
             "snapshots": service.snapshots.recorder.events_table_name}  # type: ignore[attr-defined]
    firsts_rows, head_rows, snapshot_rows = (select(recorder, sql.format(**names))
                                             for sql in queries)
    firsts: dict[UUID, list[Row]] = {}
    for game, version, topic, state in firsts_rows:
        firsts.setdefault(as_id(game), []).append((int(version), str(topic), bytes(state)))
    heads = {as_id(game): int(last) for game, last in head_rows}
    snapshots = {as_id(game): (int(version), str(topic), bytes(state))
                 for game, version, topic, state in snapshot_rows}
    return firsts, heads, snapshots


def select(recorder: Any, sql: str) -> list[tuple[Any, ...]]:
    with recorder.datastore.transaction(commit=False) as cursor:
        cursor.execute(sql)
        return [tuple(row.values()) if isinstance(row, Mapping) else tuple(row)
                for row in cursor.fetchall()]


def stored(game_id: UUID, row: Row) -> StoredEvent:
    version, topic, state = row
    return StoredEvent(originator_id=game_id, originator_version=version, topic=topic,
                       state=state)


def as_id(value: Any) -> UUID:
    return value if isinstance(value, UUID) else UUID(str(value))


def summary(service: GameService, game_id: UUID) -> GameSummary:
    """One game's summary through the library's reads (a store in memory)."""
    recorder = service.recorder
    first = [cast("GameEvent", service.mapper.to_domain_event(row))
             for row in recorder.select_events(game_id, lte=SETUP_HEAD)]
    last = recorder.select_events(game_id, desc=True, limit=1)[0].originator_version
    rows = service.snapshots.recorder.select_events(game_id, desc=True, limit=1) \
        if service.snapshots is not None else []
    snapshot = (rows[0].originator_version, rows[0].topic, rows[0].state) if rows else None
    return summary_of(game_id, first, last, result_of(service, game_id, snapshot)
                      if snapshot is not None and snapshot[0] == last else None)


def summary_of(game_id: UUID, first: list[GameEvent], last: int,
               result: dict[str, Any] | None) -> GameSummary:
    """A summary from a game's first events, its last event's number and its result."""
    started = first[0].fact
    assert isinstance(started, GameStarted)
    return GameSummary(game_id, started.ruleset, tuple(started.players),
                       first[0].timestamp.isoformat(), last,
                       metadata_of([event.fact for event in first]), result)


def metadata_of(facts: list[Any]) -> dict[str, str]:
    """The event, round and table the set-up recorded (those it has)."""
    for fact in facts:
        if isinstance(fact, GameMetadataRecorded):
            return {key: value for key in ("event", "round", "table")
                    if (value := getattr(fact, key)) is not None}
    return {}


def result_of(service: GameService, game_id: UUID, snapshot: Row) -> dict[str, Any] | None:
    """The confirmed result a game's latest snapshot holds (read only when it stands at
    the game's last event: every save leaving a result snapshots, `snapshot_due`)."""
    assert service.snapshots is not None
    decoded: Any = service.snapshots.mapper.to_domain_event(stored(game_id, snapshot))
    result = decoded.state.get("result")
    return dict(result) if isinstance(result, Mapping) else None

"""What `warledger games` lists: each game told apart without replaying it.

A game's line is read from a few rows of the store, however long the game:
- its first events (the set-up): the rule set, the players, the date it started, and
  the metadata (event, round, table) when the set-up recorded some
  (`GameMetadataRecorded`, the third event of a set-up that has it);
- its last event's number: how many events it has;
- its latest snapshot: a save that leaves a game with a confirmed result always
  snapshots it (`replay.service.snapshot_due`), so a game has a confirmed result
  exactly when its latest snapshot stands at its last event and holds one.

On SQLite the games are found by walking the events' (game id, version) index, one
lookup per game, not by reading every event; on PostgreSQL by one query on the
first events; in memory from the notification log.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, cast
from uuid import UUID

from events.core import GameStarted
from events.envelope import GameEvent
from events.results import GameMetadataRecorded
from projections.wording import say_result
from replay.event_store import sqlite_datastore
from replay.service import SQLITE_GAMES, GameService

#: A set-up's events up to its metadata: GameStarted, SeedSealed, GameMetadataRecorded.
SETUP_HEAD = 3

POSTGRES_GAMES = ("SELECT originator_id FROM {table} WHERE originator_version = 1 "
                  "ORDER BY notification_id")


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
    for game_id in started_games(service):
        yield summary(service, game_id)


def started_games(service: GameService) -> list[UUID]:
    """The store's game ids, oldest first, without reading every event."""
    recorder: Any = service.recorder
    datastore = sqlite_datastore(recorder)
    module = type(recorder).__module__
    if datastore is None and not module.endswith("postgres"):
        return service.game_ids()
    sql = (SQLITE_GAMES if datastore is not None else POSTGRES_GAMES).format(
        table=recorder.events_table_name)
    with recorder.datastore.transaction(commit=False) as cursor:
        cursor.execute(sql)
        rows = cursor.fetchall()
    return [UUID(str(row["originator_id"] if isinstance(row, Mapping) else row[0]))
            for row in rows if (row["originator_id"] if isinstance(row, Mapping) else row[0])]


def summary(service: GameService, game_id: UUID) -> GameSummary:
    """One game's summary from its set-up's first events, its last event's number and
    its latest snapshot."""
    recorder = service.recorder
    first = [cast("GameEvent", service.mapper.to_domain_event(row))
             for row in recorder.select_events(game_id, lte=SETUP_HEAD)]
    started = first[0].fact
    assert isinstance(started, GameStarted)
    last = recorder.select_events(game_id, desc=True, limit=1)[0].originator_version
    return GameSummary(
        game_id, started.ruleset, tuple(started.players), first[0].timestamp.isoformat(),
        last, metadata_of([event.fact for event in first]), confirmed_result(service, game_id,
                                                                             last))


def metadata_of(facts: list[Any]) -> dict[str, str]:
    """The event, round and table the set-up recorded (those it has)."""
    for fact in facts:
        if isinstance(fact, GameMetadataRecorded):
            return {key: value for key in ("event", "round", "table")
                    if (value := getattr(fact, key)) is not None}
    return {}


def confirmed_result(service: GameService, game_id: UUID, last: int) -> dict[str, Any] | None:
    """The game's confirmed result, read from its latest snapshot when that stands at
    its last event (every save leaving a result snapshots: `snapshot_due`)."""
    if service.snapshots is None:
        return None
    rows = service.snapshots.recorder.select_events(game_id, desc=True, limit=1)
    if not rows or rows[0].originator_version != last:
        return None
    snapshot: Any = service.snapshots.mapper.to_domain_event(rows[0])
    result = snapshot.state.get("result")
    return dict(result) if isinstance(result, Mapping) else None

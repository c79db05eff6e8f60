"""Storing pydantic events: an orjson transcoder and a mapper that keeps upcasting.

The stored body of a `GameEvent` is `{timestamp, step, prev_hash, hash, fact}`,
where `fact` carries its `type` and `class_version`. Reading runs the fact's
upcaster chain (`events.base.upcast`) before validation, which the published
eventsourcing pydantic mapper does not (LIBRARY-NOTES: eventsourcing's issue tracker, #302).
"""

from __future__ import annotations

import zlib
from datetime import datetime
from functools import lru_cache
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.persistence import Mapper, StoredEvent, Transcoder

from events.base import Fact
from events.envelope import GameEvent, GameSnapshot
from events.registry import load_fact, load_facts

EVENT_TOPIC = "warledger:GameEvent"
SNAPSHOT_TOPIC = "warledger:GameSnapshot"
#: Snapshots are stored zlib-compressed under their own topic (a game's state repeats
#: itself: ledgers, unit records), about a tenth of the bytes; older snapshots, plain
#: JSON under SNAPSHOT_TOPIC, are still read.
COMPRESSED_SNAPSHOT_TOPIC = "warledger:GameSnapshot+zlib"
SNAPSHOT_TOPICS = (SNAPSHOT_TOPIC, COMPRESSED_SNAPSHOT_TOPIC)
#: zlib level for snapshots: 6 is within a few per cent of 9 at a third of the time.
SNAPSHOT_COMPRESSION = 6


class OrjsonTranscoder(Transcoder):
    """JSON bytes via orjson (the mapper hands it plain JSON data only)."""

    def encode(self, obj: Any) -> bytes:
        return orjson.dumps(obj)

    def decode(self, data: bytes) -> Any:
        return orjson.loads(data)


class PydanticMapper(Mapper[UUID]):
    """Maps `GameEvent` and `GameSnapshot` to stored events and back."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        if isinstance(domain_event, GameEvent):
            topic = EVENT_TOPIC
            body: dict[str, Any] = {
                "timestamp": domain_event.timestamp.isoformat(),
                "step": domain_event.step,
                "prev_hash": domain_event.prev_hash,
                "hash": domain_event.hash,
                "fact": domain_event.stored_fact or domain_event.fact.payload(),
            }
        elif isinstance(domain_event, GameSnapshot):
            snapshot = {
                "timestamp": domain_event.timestamp.isoformat(),
                "ruleset": domain_event.ruleset,
                "state": domain_event.state,
            }
            return StoredEvent(
                originator_id=domain_event.originator_id,
                originator_version=domain_event.originator_version,
                topic=COMPRESSED_SNAPSHOT_TOPIC,
                state=zlib.compress(self.transcoder.encode(snapshot), SNAPSHOT_COMPRESSION),
            )
        else:
            raise TypeError(f"cannot store {type(domain_event).__name__}")
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=topic,
            state=self.transcoder.encode(body),
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        return self.decode_stored(as_uuid(stored_event.originator_id),
                                  stored_event.originator_version, stored_event.topic,
                                  stored_event.state)

    def decode_stored(self, originator_id: UUID, version: int, topic: str,
                      data: bytes) -> GameEvent | GameSnapshot:
        """A stored row's event or snapshot (`to_domain_event`, without the row
        first made a `StoredEvent`: `replay.event_store` reads rows directly)."""
        if topic == EVENT_TOPIC:
            return decode_event(originator_id, version, self.transcoder.decode(data))
        if topic == COMPRESSED_SNAPSHOT_TOPIC:
            data = zlib.decompress(data)
        body = self.transcoder.decode(data)
        if topic in SNAPSHOT_TOPICS:
            return decode_snapshot(originator_id, version, body)
        return decode_event(originator_id, version, body)


def decode_snapshot(originator_id: UUID, version: int, body: dict[str, Any]) -> GameSnapshot:
    """A stored snapshot body as a `GameSnapshot`. Its JSON can only hold what the
    model's validation would check here (text keys, no NaN), so the model is built
    from the checked parts without validating its state a second time (its state
    is checked against its seal, then validated as the rule set's state, by
    `replay.snapshots.open_snapshot`)."""
    ruleset, state = body["ruleset"], body["state"]
    if not isinstance(ruleset, str) or not isinstance(state, dict):
        raise ValueError("a snapshot's rule set must be a name and its state an object")
    load_facts(ruleset)  # the events after it are of its rule set
    return GameSnapshot.model_construct(
        originator_id=originator_id,
        originator_version=version,
        timestamp=datetime.fromisoformat(body["timestamp"]),
        ruleset=ruleset,
        state=state,
    )


def as_uuid(value: Any) -> UUID:
    """A stored originator id as a UUID (backends return a UUID or its text)."""
    return value if isinstance(value, UUID) else UUID(str(value))


@lru_cache(maxsize=64)
def read_timestamp(text: str) -> datetime:
    """A stored time stamp (the events of one step share theirs: read it once)."""
    return datetime.fromisoformat(text)


def decode_event(originator_id: UUID, version: int, body: dict[str, Any],
                 fact: Fact | None = None) -> GameEvent:
    """Build a `GameEvent` from a stored body (upcasting its fact), or around the
    `fact` already validated from it."""
    return GameEvent(
        originator_id=originator_id,
        originator_version=version,
        timestamp=read_timestamp(body["timestamp"]),
        step=body["step"],
        prev_hash=body["prev_hash"],
        hash=body["hash"],
        fact=load_fact(body["fact"]) if fact is None else fact,
    )


#: Facts a `SharedFactMapper` keeps (a simulated log repeats most of its facts:
#: about four in five of a million simulated events are a fact seen before).
SHARED_FACTS = 16384


class SharedFactMapper(PydanticMapper):
    """A mapper for read-only projections: each distinct stored fact is validated
    once and the same frozen fact object is handed to every event that stored it.

    The key is the stored body from its `"fact":` key on: the other keys of the
    body hold a string or a number, never an object, so the first `"fact":` in
    the bytes is that key, and the bytes after it begin with the fact's JSON
    exactly as stored. Equal keys are an equal fact, validated by the same
    `load_fact`, so the game a projection folds is the game `PydanticMapper`
    gives, to the state hash. Only for games that are read, never decided on or
    stored (`replay.views.StateViews`).
    """

    def __init__(self, transcoder: Transcoder, capacity: int = SHARED_FACTS) -> None:
        super().__init__(transcoder=transcoder)
        self.capacity = capacity
        self.facts: dict[bytes, Fact] = {}

    def decode_stored(self, originator_id: UUID, version: int, topic: str,
                      data: bytes) -> GameEvent | GameSnapshot:
        if topic != EVENT_TOPIC:
            return super().decode_stored(originator_id, version, topic, data)
        body = orjson.loads(data)
        stored = body["fact"]
        key = data[data.find(b'"fact":'):]
        facts = self.facts
        fact = facts.get(key)
        if fact is None:
            if len(facts) >= self.capacity:
                facts.clear()
            fact = facts[key] = load_fact(stored)
        return decode_event(originator_id, version, body, fact)

"""The stored form of a fact: its place in the game's log and in the hash chain."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any
from uuid import UUID

import orjson
from pydantic import BaseModel, ConfigDict, SerializeAsAny

from events.base import Fact

GENESIS_HASH = "0" * 64


class GameEvent(BaseModel):
    """One stored event: a fact at `originator_version` of game `originator_id`.

    `hash` is SHA-256 over `prev_hash` and the canonical JSON of everything
    else, so changing, dropping or reordering any event breaks the chain.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    step: int
    prev_hash: str
    hash: str
    fact: SerializeAsAny[Fact]

    def body(self) -> dict[str, Any]:
        """Everything the hash covers, as canonical JSON-ready data."""
        return {
            "originator_id": str(self.originator_id),
            "originator_version": self.originator_version,
            "timestamp": self.timestamp.isoformat(),
            "step": self.step,
            "prev_hash": self.prev_hash,
            "fact": self.fact.payload(),
        }

    def computed_hash(self) -> str:
        """The hash this event must carry, given its body."""
        return chain_hash(self.body())


def chain_hash(body: dict[str, Any]) -> str:
    """SHA-256 of the canonical (sorted-key) JSON of an event body."""
    return hashlib.sha256(orjson.dumps(body, option=orjson.OPT_SORT_KEYS)).hexdigest()


class GameSnapshot(BaseModel):
    """A disposable copy of a game's state at a version (rebuilt from events)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    ruleset: str
    state: dict[str, Any]

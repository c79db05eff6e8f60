"""Facts of a game's result and of its metadata (docs/results.md).

A result is proposed (`ResultProposed`, by `end_game` or `end_turn` carrying a
`result`), then confirmed by the opponent or the judge (`ResultConfirmed`,
which carries a copy of what was confirmed) or refused (`ResultRefused`, kept
in the log and the audit, with no effect). `GameMetadataRecorded` is part of
the set-up when a script or API call gives `metadata`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from events.base import Fact, fact

#: Longest text of a metadata field or a result's reason.
TEXT_LIMIT = 200


class PlayerInfo(BaseModel):
    """A player's name and faction (or army), as the metadata gives them."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)
    name: str | None = Field(default=None, min_length=1, max_length=TEXT_LIMIT)
    faction: str | None = Field(default=None, min_length=1, max_length=TEXT_LIMIT,
                                description="faction or army")


class GameMetadata(BaseModel):
    """What a tournament or club records about a game; players keyed by player id."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)
    event: str | None = Field(default=None, min_length=1, max_length=TEXT_LIMIT)
    round: str | None = Field(default=None, min_length=1, max_length=TEXT_LIMIT,
                              description="the event's round, e.g. \"3\" or \"semi-final\"")
    table: str | None = Field(default=None, min_length=1, max_length=TEXT_LIMIT)
    mission: str | None = Field(default=None, min_length=1, max_length=TEXT_LIMIT)
    deployed_first: str | None = Field(default=None, description="a player id")
    players: dict[str, PlayerInfo] = Field(default_factory=dict)


class ResultClaim(BaseModel):
    """A result as a step gives it: a winner or a draw, and points per player."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)
    winner: str | None = None
    draw: bool = False
    points: dict[str, int] = Field(default_factory=dict)


@fact
class GameMetadataRecorded(Fact):
    """The game's metadata (event, round, table, mission, players' names and
    factions, who deployed first), recorded at set-up."""

    type: Literal["GameMetadataRecorded"] = "GameMetadataRecorded"
    event: str | None = None
    round: str | None = None
    table: str | None = None
    mission: str | None = None
    deployed_first: str | None = None
    players: dict[str, PlayerInfo] = Field(default_factory=dict)


@fact
class ResultProposed(Fact):
    """A player (or the natural end of the game) proposed a result; it opens a
    reaction window of kind "result". It has no effect until confirmed."""

    type: Literal["ResultProposed"] = "ResultProposed"
    by: str
    winner: str | None
    draw: bool
    points: dict[str, int]
    reason: str | None = None


@fact
class ResultConfirmed(Fact):
    """The opponent or the judge confirmed the proposed result: it takes effect.
    A copy of the result, so that readers need not look back."""

    type: Literal["ResultConfirmed"] = "ResultConfirmed"
    by: str
    winner: str | None
    draw: bool
    points: dict[str, int]


@fact
class ResultRefused(Fact):
    """The opponent or the judge refused the proposed result: it has no effect."""

    type: Literal["ResultRefused"] = "ResultRefused"
    by: str

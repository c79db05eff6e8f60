"""The base of every fact, and the upcaster chain that keeps old facts readable.

A fact is a frozen pydantic model whose `type` field names it (the union
discriminator). Each fact class declares `class_version`; a stored fact with a
lower version is upgraded by the class's `upcast_vN_vN1(data)` static methods,
run in order before validation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

JsonDict = dict[str, Any]


class Fact(BaseModel):
    """Something that happened in a game. Never validated again, never refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    class_version: ClassVar[int] = 1
    #: True when a per-player view must not show this fact to the opponent.
    secret: ClassVar[bool] = False

    type: str

    def payload(self) -> JsonDict:
        """The fact as JSON-ready data, with its class version (for storage)."""
        data = self.model_dump(mode="json")
        data["class_version"] = type(self).class_version
        return data


FACT_TYPES: dict[str, type[Fact]] = {}


def fact(cls: type[Fact]) -> type[Fact]:
    """Class decorator: register a fact class under its `type` name."""
    name = cls.model_fields["type"].default
    if not isinstance(name, str):
        raise TypeError(f"{cls.__name__} needs a default `type` literal")
    if name in FACT_TYPES and FACT_TYPES[name] is not cls:
        raise TypeError(f"fact type {name!r} registered twice")
    FACT_TYPES[name] = cls
    return cls


def upcast(data: JsonDict) -> JsonDict:
    """Bring stored fact data up to its class's current version, in place.

    Runs `upcast_v1_v2`, `upcast_v2_v3`, ... on the data, then drops the
    `class_version` key so the data validates against the current model.
    """
    cls = FACT_TYPES.get(data.get("type", ""))
    stored_version = int(data.pop("class_version", 1))
    if cls is None:
        return data
    while stored_version < cls.class_version:
        step: Callable[[JsonDict], None] = getattr(
            cls, f"upcast_v{stored_version}_v{stored_version + 1}"
        )
        step(data)
        stored_version += 1
    return data

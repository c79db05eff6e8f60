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

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, defer_build=True)

    class_version: ClassVar[int] = 1
    #: True when a per-player view must not show this fact to the opponent.
    secret: ClassVar[bool] = False
    #: True on a class that reads a fact as an older version stored it, when that
    #: version's applier decided more than it assigned (`legacy`).
    legacy: ClassVar[bool] = False
    #: True on a fact that makes explicit what an older version's applier decided
    #: itself: a step of an older log has none of these (`replay.verify`).
    implicit_in_legacy: ClassVar[bool] = False
    #: Fields added after the fact was first stored: serialised only when set, so a
    #: fact stored without them serialises (and hashes) exactly as it was stored.
    optional_fields: ClassVar[tuple[str, ...]] = ()

    type: str

    def visible_to(self, player: str, hidden_units: frozenset[str]) -> bool:
        """May `player` see this fact, given the units hidden from them now?

        Secret facts are never shown to players; a fact naming a hidden unit
        in one of its unit fields is not shown either. Rule sets override
        this for facts that carry secrets in other ways.
        """
        if self.secret:
            return False
        for name in UNIT_FIELDS:
            value = getattr(self, name, None)
            if isinstance(value, str) and value in hidden_units:
                return False
            if isinstance(value, tuple | list) and hidden_units.intersection(map(str, value)):
                return False
        return True

    def redacted_for(self, player: str, hidden_units: frozenset[str]) -> Fact | None:
        """This fact as `player` may see it: itself, a redacted copy, or None."""
        return self if self.visible_to(player, hidden_units) else None

    def payload(self) -> JsonDict:
        """The fact as JSON-ready data, with its class version (for storage)."""
        kind = type(self)  # the serializer itself: `model_dump`'s keyword handling skipped
        data: JsonDict = kind.__pydantic_serializer__.to_python(self, mode="json")
        for name in kind.optional_fields:
            if data.get(name) is None:
                data.pop(name, None)
        data["class_version"] = kind.class_version
        return data


#: Conditions that hide a unit (its existence and position) from its opponents.
HIDDEN_CONDITIONS = frozenset({"hidden_deployment"})

#: Field names that name units; facts naming a hidden unit there are hidden.
UNIT_FIELDS = ("unit", "unit_id", "units", "trooper", "figure", "subject", "target", "targets")

FACT_TYPES: dict[str, type[Fact]] = {}


def fact(cls: type[Fact]) -> type[Fact]:
    """Class decorator: register a fact class under its `type` name."""
    name = cls.model_fields["type"].default
    if not isinstance(name, str):
        raise TypeError(f"{cls.__name__} needs a default `type` literal")
    other = FACT_TYPES.get(name)
    if other is not None and (other.__module__, other.__qualname__) != (
        cls.__module__,
        cls.__qualname__,
    ):
        raise TypeError(
            f"fact type {name!r} is defined in both {other.__module__} and {cls.__module__}: "
            "fact type names must be unique across ALL rule sets (one discriminated union); "
            f"rename yours, e.g. with your rule set's prefix ({name!r} -> 'T9A{name}' / "
            f"'N4{name}' / 'MK{name}' / 'W40K{name}')"
        )
    FACT_TYPES[name] = cls
    return cls


#: Classes that read facts stored at an older `class_version`, by (type, version).
LEGACY_TYPES: dict[tuple[str, int], type[Fact]] = {}


def legacy(cls: type[Fact]) -> type[Fact]:
    """Class decorator: `cls` reads a fact type as stored at `cls.class_version`.

    Used where that version's applier made decisions that later versions leave
    to `decide` (docs/extending.md): old logs replay through the legacy class and its own
    applier, which keeps the old behaviour exactly, so their state hashes never
    change. The class shares the current class's fields and `type`."""
    cls.legacy = True
    LEGACY_TYPES[(cls.model_fields["type"].default, cls.class_version)] = cls
    return cls


def legacy_type(data: JsonDict) -> type[Fact] | None:
    """The legacy class that reads this stored fact, if its version has one."""
    return LEGACY_TYPES.get((str(data.get("type", "")), int(data.get("class_version", 1))))


def same_fact(decided: Fact, recorded: Fact) -> bool:
    """Is a re-decided fact the recorded one? A legacy fact is its current
    version's fact with the same fields (only how it applies differs)."""
    if decided == recorded:
        return True
    return recorded.legacy and decided.type == recorded.type and (
        decided.model_dump() == recorded.model_dump())


Upcaster = Callable[[JsonDict], None]


def same_fields(step: Upcaster) -> Upcaster:
    """Marks an upcaster that changes no data: the version after it has the same
    fields (only how the fact applies changed, read through a `legacy` class)."""
    setattr(step, "same_fields", True)  # noqa: B010
    return step


def stored_as_current_since(cls: type[Fact]) -> int:
    """The oldest stored version of `cls` whose data already reads as the current
    version (every upcaster from it on is `same_fields`)."""
    version = cls.class_version
    while version > 1 and getattr(getattr(cls, f"upcast_v{version - 1}_v{version}"),
                                  "same_fields", False):
        version -= 1
    return version


def upcast(data: JsonDict) -> JsonDict:
    """Bring stored fact data up to its class's current version, in place.

    Runs `upcast_v1_v2`, `upcast_v2_v3`, ... on the data, then drops the
    `class_version` key so the data validates against the current model.
    """
    cls = FACT_TYPES.get(data.get("type", ""))
    stored_version = int(data.pop("class_version", 1))
    if cls is None:
        return data
    if not 1 <= stored_version <= cls.class_version:
        raise ValueError(
            f"class_version {stored_version} is not a version of {cls.__name__} "
            f"(1 to {cls.class_version})"
        )
    while stored_version < cls.class_version:
        step: Callable[[JsonDict], None] = getattr(
            cls, f"upcast_v{stored_version}_v{stored_version + 1}"
        )
        step(data)
        stored_version += 1
    return data

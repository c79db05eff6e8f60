"""The one discriminated union of every fact type, and the loading of fact modules.

A fact module is imported when it is needed (docs/performance.md, cold start): the core facts at
once, a rule set's own when a game of that rule set is read (`load_facts`, told by
the game's `GameStarted` or snapshot), and every rule set's for the union, the
JSON Schema or a fact type no loaded module defines. The rule sets are those of
`events.rule_sets`; there is no other list.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from functools import cache
from typing import Annotated, Any, Union

from pydantic import Field, TypeAdapter

from events.base import FACT_TYPES, Fact, legacy_type, upcast
from events.core import GameStarted
from events.rule_sets import CORE_FACT_MODULES, entry_named, rule_sets

#: Were every rule set's fact modules imported (`load_facts()`)?
_EVERY_RULE_SET = [False]


def load_facts(ruleset: str | None = None) -> None:
    """Import the fact module of the rule set `ruleset` names (its name, alias or
    package in `events.rule_sets`), so its stored facts can be read; None, or a name
    no entry has (a rule set registered by a test), imports every rule set's."""
    if _EVERY_RULE_SET[0]:
        return
    entry = entry_named(ruleset) if ruleset is not None else None
    if entry is not None:
        importlib.import_module(entry.facts_module)
        return
    for module in (*CORE_FACT_MODULES, *(each.facts_module for each in rule_sets())):
        importlib.import_module(module)
    _EVERY_RULE_SET[0] = True


def every_fact_type() -> Mapping[str, type[Fact]]:
    """Every fact type of every rule set, by its `type` name (all modules loaded)."""
    load_facts()
    return FACT_TYPES


for _module in CORE_FACT_MODULES:
    importlib.import_module(_module)


@cache
def fact_adapter() -> TypeAdapter[Fact]:
    """The validator of the union of every fact, built on first use: a fact stored at
    its class's current version never needs it (`load_fact`), and building it costs
    a command's start about 0.1 s (docs/performance.md, cold start)."""
    return TypeAdapter(any_fact())


def any_fact() -> Any:
    """The discriminated union of every fact type (every fact module loaded)."""
    return Annotated[Union[tuple(every_fact_type().values())], Field(discriminator="type")]  # noqa: UP007


def __getattr__(name: str) -> Any:
    """`FACT_ADAPTER` and `AnyFact`, the names the adapter and the union had when
    they were built at import."""
    if name == "FACT_ADAPTER":
        return fact_adapter()
    if name == "AnyFact":
        return any_fact()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def load_fact(data: dict[str, Any]) -> Fact:
    """Upcast stored fact data to the current version and validate it.

    A version read by a legacy class is validated as that class
    (`events.base.legacy`). A fact stored at its class's current version (nearly all
    of them) is validated by its own class at once: no upcasting to try, no union to
    dispatch through; the same validation the union would run. Data is changed in
    place (the version goes). A fact type no loaded module defines loads every fact
    module; a `GameStarted` loads its rule set's facts, which the game's log holds.
    """
    name = data.get("type", "")
    if name not in FACT_TYPES:
        load_facts()
    cls = FACT_TYPES.get(name)
    if cls is not None and data.get("class_version", 1) == cls.class_version:
        data.pop("class_version", None)
        fact: Fact = cls.__pydantic_validator__.validate_python(data)
        if cls is GameStarted:
            load_facts(data["ruleset"])
        return fact
    old = legacy_type(data)
    if old is not None:
        return old.model_validate({k: v for k, v in data.items() if k != "class_version"})
    return fact_adapter().validate_python(upcast(data))


def events_json_schema() -> dict[str, Any]:
    """JSON Schema of every fact as stored and exported (`warledger schema events`):
    each fact's fields plus the `class_version` it was written at (upcasters read
    older versions)."""
    schema = fact_adapter().json_schema()
    for name, fact_type in every_fact_type().items():
        definition = schema["$defs"].get(fact_type.__name__) or schema["$defs"].get(name)
        if definition is not None:
            definition["properties"]["class_version"] = {
                "type": "integer", "minimum": 1, "maximum": fact_type.class_version,
                "description": "the fact's schema version when it was stored",
            }
    return schema

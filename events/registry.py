"""The one discriminated union of every fact type (its validator built on first use)."""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Union

from pydantic import Field, TypeAdapter

from events.base import FACT_TYPES, Fact, legacy_type, upcast
from events.rule_sets import CORE_FACT_MODULES, RULE_SETS


def _load_fact_modules() -> None:
    """Import the core fact modules and every rule set's (`events.rule_sets`): the
    `@fact` classes they define make up the union."""
    import importlib

    for module in (*CORE_FACT_MODULES, *(entry.facts_module for entry in RULE_SETS)):
        importlib.import_module(module)


_load_fact_modules()

AnyFact = Annotated[Union[tuple(FACT_TYPES.values())], Field(discriminator="type")]  # type: ignore[valid-type]  # noqa: UP007


@cache
def fact_adapter() -> TypeAdapter[Fact]:
    """The validator of the union of every fact, built on first use: a fact stored at
    its class's current version never needs it (`load_fact`), and building it costs
    a command's start about 0.1 s (issue 12 item 3)."""
    return TypeAdapter(AnyFact)  # type: ignore[arg-type]


def __getattr__(name: str) -> Any:
    """`FACT_ADAPTER`, the name the adapter had when it was built at import."""
    if name == "FACT_ADAPTER":
        return fact_adapter()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def load_fact(data: dict[str, Any]) -> Fact:
    """Upcast stored fact data to the current version and validate it.

    A version read by a legacy class is validated as that class
    (`events.base.legacy`). A fact stored at its class's current version (nearly all
    of them) is validated by its own class at once: no upcasting to try, no union to
    dispatch through; the same validation the union would run. Data is changed in
    place (the version goes).
    """
    cls = FACT_TYPES.get(data.get("type", ""))
    if cls is not None and data.get("class_version", 1) == cls.class_version:
        data.pop("class_version", None)
        fact: Fact = cls.__pydantic_validator__.validate_python(data)
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
    for name, fact_type in FACT_TYPES.items():
        definition = schema["$defs"].get(fact_type.__name__) or schema["$defs"].get(name)
        if definition is not None:
            definition["properties"]["class_version"] = {
                "type": "integer", "minimum": 1, "maximum": fact_type.class_version,
                "description": "the fact's schema version when it was stored",
            }
    return schema

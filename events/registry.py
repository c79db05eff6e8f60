"""The one discriminated union of every fact type, built once at import."""

from __future__ import annotations

from typing import Annotated, Any, Union

from pydantic import Field, TypeAdapter

import events.core  # noqa: F401  (registers the core facts)
from events.base import FACT_TYPES, Fact, legacy_type, upcast


def _load_rule_set_facts() -> None:
    """Import every rule set's fact module so its facts are registered."""
    import importlib

    for name in ("t9a", "infinity", "mageknight", "w40k", "undo"):
        try:
            importlib.import_module(f"events.{name}")
        except ModuleNotFoundError as missing:
            if missing.name != f"events.{name}":
                raise


_load_rule_set_facts()

AnyFact = Annotated[Union[tuple(FACT_TYPES.values())], Field(discriminator="type")]  # type: ignore[valid-type]  # noqa: UP007
FACT_ADAPTER: TypeAdapter[Fact] = TypeAdapter(AnyFact)  # type: ignore[arg-type]


def load_fact(data: dict[str, Any]) -> Fact:
    """Upcast stored fact data to the current version and validate it (a version
    read by a legacy class is validated as that class: `events.base.legacy`)."""
    old = legacy_type(data)
    if old is not None:
        return old.model_validate({k: v for k, v in data.items() if k != "class_version"})
    return FACT_ADAPTER.validate_python(upcast(data))


def events_json_schema() -> dict[str, Any]:
    """JSON Schema of every fact as stored and exported (`warledger schema events`):
    each fact's fields plus the `class_version` it was written at (upcasters read
    older versions)."""
    schema = FACT_ADAPTER.json_schema()
    for name, fact_type in FACT_TYPES.items():
        definition = schema["$defs"].get(fact_type.__name__) or schema["$defs"].get(name)
        if definition is not None:
            definition["properties"]["class_version"] = {
                "type": "integer", "minimum": 1, "maximum": fact_type.class_version,
                "description": "the fact's schema version when it was stored",
            }
    return schema

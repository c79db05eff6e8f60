"""Each rule set is wired by one explicit table."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from domain.apply import CORE_APPLIERS
from domain.commands import CORE_COMMANDS, META_COMMANDS
from domain.ruleset import find_ruleset
from events.base import FACT_TYPES
from events.registry import FACT_ADAPTER  # noqa: F401  (loads every fact module)
from events.rule_sets import CORE_FACT_MODULES, RULE_SET_NAMES, RULE_SETS


@pytest.mark.parametrize("name", RULE_SET_NAMES)
def test_the_wiring_table_applies_every_fact_and_decides_every_command(name: str) -> None:
    ruleset = find_ruleset(name)
    wiring = ruleset.wiring
    assert wiring is not None
    assert wiring.facts and set(wiring.facts) <= set(wiring.appliers)
    own = set(ruleset.commands) - {*CORE_COMMANDS, *META_COMMANDS}
    decided = {c for c in own if c in wiring.handlers or c in ruleset.handlers}
    assert decided == own
    module, _, func = str(wiring.overlays).partition(":")
    assert callable(getattr(importlib.import_module(module), func))


def test_every_fact_type_has_exactly_one_applier() -> None:
    """Each fact of the union is applied by the core or by the one rule set whose
    facts module defines it."""
    owners: dict[type, str] = {t: "core" for t in CORE_APPLIERS}
    for entry in RULE_SETS:
        wiring = find_ruleset(entry.name).wiring
        assert wiring is not None
        for fact_type in wiring.appliers:
            assert fact_type not in owners, fact_type
            owners[fact_type] = entry.name
    assert set(FACT_TYPES.values()) <= set(owners)
    for fact_type, owner in owners.items():
        expected = CORE_FACT_MODULES if owner == "core" else (
            next(e.facts_module for e in RULE_SETS if e.name == owner),)
        assert fact_type.__module__ in expected, (fact_type, owner)


def test_the_built_in_rule_sets_are_registered_as_entry_points() -> None:
    """pyproject.toml registers each built-in rule set in the group
    `warledger.rule_sets`, naming the same entry events/rule_sets.py holds for a
    source tree that runs uninstalled."""
    import tomllib

    from events import rule_sets

    project = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    points = project["project"]["entry-points"][rule_sets.ENTRY_POINT_GROUP]
    named = {name: getattr(rule_sets, value.split(":")[1]) for name, value in points.items()}

    assert named == {entry.name: entry for entry in rule_sets.BUILT_IN}

"""The one registry of rule sets: every part of warledger that needs the list of
rule sets reads it here (it was four hand-kept lists).

Each rule set `package` has its facts in `events/<package>.py`, its rules in
`domain/<package>/rules.py` (a `RULES` rule set object whose `wiring` table
names its handlers, appliers, facts and board overlays) and its overlays in
`projections/<package>.py`. This module imports nothing, so every layer may
read it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RuleSetEntry:
    """One rule set: its name in scripts and logs, its package, other names for it."""

    name: str
    package: str
    aliases: tuple[str, ...] = ()

    @property
    def rules_module(self) -> str:
        """The module whose `RULES` is the rule set."""
        return f"domain.{self.package}.rules"

    @property
    def facts_module(self) -> str:
        """The module of the rule set's facts."""
        return f"events.{self.package}"


RULE_SETS: tuple[RuleSetEntry, ...] = (
    RuleSetEntry("t9a", "t9a"),
    RuleSetEntry("infinity-n4", "infinity", ("infinity",)),
    RuleSetEntry("mageknight-2", "mageknight", ("mageknight",)),
    RuleSetEntry("w40k-10", "w40k", ("w40k",)),
)

#: Fact modules besides the rule sets' own: the core and contested moves.
CORE_FACT_MODULES = ("events.core", "events.undo", "events.results")

def entry_named(name: str) -> RuleSetEntry | None:
    """The entry whose name, package or alias `name` is (None: no entry's)."""
    for entry in RULE_SETS:
        if name in (entry.name, entry.package, *entry.aliases):
            return entry
    return None


#: The rule sets' names, in the order above.
RULE_SET_NAMES: tuple[str, ...] = tuple(entry.name for entry in RULE_SETS)

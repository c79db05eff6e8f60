"""The one registry of rule sets: every part of warledger that needs the list of
rule sets reads it here (it was four hand-kept lists).

Each built-in rule set `package` has its facts in `events/<package>.py`, its rules
in `domain/<package>/rules.py` (a `RULES` rule set object whose `wiring` table
names its handlers, appliers, facts and board overlays) and its overlays in
`projections/<package>.py`. An installed distribution adds a rule set through the
entry-point group `warledger.rule_sets` (docs/extending.md). This module imports
nothing of warledger, so every layer may read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

#: The entry-point group through which a distribution adds a rule set: each entry
#: point names a `RuleSetEntry` (`my-rules = "my_rules:ENTRY"`).
ENTRY_POINT_GROUP = "warledger.rule_sets"


@dataclass(frozen=True)
class RuleSetEntry:
    """One rule set: its name in scripts and logs, its package, other names for it,
    and the modules of its rules and facts (by default `domain.<package>.rules` and
    `events.<package>`; a rule set shipped as its own distribution names its own)."""

    name: str
    package: str
    aliases: tuple[str, ...] = ()
    #: The module whose `RULES` is the rule set.
    rules_module: str = ""
    #: The module of the rule set's facts.
    facts_module: str = ""
    #: What help texts call it (default: its name).
    title: str = ""

    def __post_init__(self) -> None:
        if not self.rules_module:
            object.__setattr__(self, "rules_module", f"domain.{self.package}.rules")
        if not self.facts_module:
            object.__setattr__(self, "facts_module", f"events.{self.package}")


#: The rule sets this distribution brings (also registered as its entry points, in
#: pyproject.toml; this list stands when a source tree runs uninstalled).
T9A = RuleSetEntry("t9a", "t9a", title="The 9th Age")
INFINITY = RuleSetEntry("infinity-n4", "infinity", ("infinity",), title="Infinity N4")
MAGEKNIGHT = RuleSetEntry("mageknight-2", "mageknight", ("mageknight",),
                          title="Mage Knight 2.0")
W40K = RuleSetEntry("w40k-10", "w40k", ("w40k",), title="Warhammer 40,000 10th")
BUILT_IN: tuple[RuleSetEntry, ...] = (T9A, INFINITY, MAGEKNIGHT, W40K)

#: Fact modules besides the rule sets' own: the core and contested moves.
CORE_FACT_MODULES = ("events.core", "events.undo", "events.results")


def entry_named(name: str) -> RuleSetEntry | None:
    """The entry whose name, package or alias `name` is (None: no entry's). The
    built-in rule sets are asked first, so naming one reads no installed metadata."""
    for entries in (BUILT_IN, rule_sets()):
        for entry in entries:
            if name in (entry.name, entry.package, *entry.aliases):
                return entry
    return None


@cache
def rule_sets() -> tuple[RuleSetEntry, ...]:
    """Every rule set: the built-in ones, then those installed distributions add
    through the `warledger.rule_sets` entry points (read once, with
    `importlib.metadata`), in name order."""
    from importlib.metadata import entry_points

    found = {entry.name: entry for entry in BUILT_IN}
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        entry = point.load()
        if not isinstance(entry, RuleSetEntry):
            raise TypeError(f"entry point {point.name} = {point.value} of group "
                            f"{ENTRY_POINT_GROUP} is not a RuleSetEntry")
        found.setdefault(entry.name, entry)
    return tuple(found.values())


def rule_set_names() -> tuple[str, ...]:
    """Every rule set's name (`rule_sets`), for help texts and the script schema."""
    return tuple(entry.name for entry in rule_sets())


def __getattr__(name: str) -> object:
    """`RULE_SETS` and `RULE_SET_NAMES`, read when first asked (they include the
    installed rule sets)."""
    if name == "RULE_SETS":
        return rule_sets()
    if name == "RULE_SET_NAMES":
        return rule_set_names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

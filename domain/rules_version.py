"""Rules versions: which rules decided a game, so old games keep their old verdicts.

A game is decided under two versions: the engine's (the core: gate, turns,
windows, undo; declared here in `ENGINE_CHANGES`) and its rule set's (declared in
the rule set's own wiring table, `Wiring.rules_changes`). Version 1 of each is
the rules as games were first stamped; a game whose log carries no stamp (stored
before stamping) was decided under version 1 of both.

The stamp is a fact: `GameStarted.rules` at set-up, and `RulesVersionChanged`
when play continues under newer versions (`domain.gate.keep_rules_version`). A
decide function gates a changed rule on the game's stamp, for example
`at_least(d.state, w40k=2)`, so a step is decided again exactly as it was
(`replay.verify`), and `warledger revalidate` (`replay.revalidate`) reports
what today's rules would decide differently.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from domain.state import GameState
from events.rule_sets import entry_named

#: The stamp's key for the engine's version (a rule set's key is its package).
ENGINE = "engine"
#: The version of anything not stamped: the rules as games were first stamped.
FIRST = 1


@dataclass(frozen=True)
class RulesChange:
    """One new rules version: the version it starts, the clauses whose verdicts it
    changes (seeds/CLAUSES.md, RULINGS, CORE-*), and what changed, in a line."""

    version: int
    clauses: tuple[str, ...]
    summary: str


#: The engine's changes, oldest first.
ENGINE_CHANGES: tuple[RulesChange, ...] = (
    RulesChange(2, ("CORE-HIDDEN-RULES",), "a unit given a hidden condition its rule set "
                "has no rules for (hidden_deployment outside Infinity) is refused at set-up"),
)
#: The engine's version from which a hidden condition needs its rule set's rules.
HIDDEN_NEEDS_RULES = 2


class Versioned(Protocol):
    """What a rule set tells about its versions (`domain.ruleset.Ruleset` is one)."""

    @property
    def name(self) -> str: ...

    @property
    def rules_changes(self) -> tuple[RulesChange, ...]: ...

    @property
    def oldest_rules_version(self) -> int: ...


def latest(changes: tuple[RulesChange, ...]) -> int:
    """The newest version a list of changes declares (`FIRST` without any)."""
    return max((change.version for change in changes), default=FIRST)


def key_of(ruleset_name: str) -> str:
    """A rule set's key in a stamp: its package (`w40k` for `w40k-10`), or its name
    for a rule set made elsewhere (tests)."""
    entry = entry_named(ruleset_name)
    return entry.package if entry is not None else ruleset_name


def current(ruleset: Versioned) -> dict[str, int]:
    """The versions today's code decides new steps under, for this rule set."""
    return {ENGINE: latest(ENGINE_CHANGES), key_of(ruleset.name): latest(ruleset.rules_changes)}


def first(ruleset_name: str) -> dict[str, int]:
    """The versions of a game stored before stamping (version 1 of both)."""
    return {ENGINE: FIRST, key_of(ruleset_name): FIRST}


def decided_under(state: GameState) -> dict[str, int]:
    """The versions the game's steps are decided under now (its latest stamp)."""
    return dict(state.rules_version) if state.rules_version else first(state.ruleset)


def at_least(state: GameState, **versions: int) -> bool:
    """Is the game decided under at least these versions, e.g. `at_least(s, w40k=2)`?

    A key not in the game's stamp (another rule set's) is never at least anything."""
    stamp = decided_under(state)
    return all(key in stamp and stamp[key] >= version for key, version in versions.items())


def missing_code(ruleset: Versioned, versions: Mapping[str, int]) -> str | None:
    """Why today's code cannot decide under `versions` (None: it can): a version
    newer than it knows, or older than the oldest whose rules it still holds."""
    now = current(ruleset)
    oldest = {ENGINE: FIRST, key_of(ruleset.name): ruleset.oldest_rules_version}
    for key, version in sorted(versions.items()):
        if key not in now:
            return f"{key} rules are not rules of {ruleset.name}"
        if version > now[key]:
            return f"{key} rules version {version} is newer than this code ({now[key]})"
        if version < oldest[key]:
            return (f"{key} rules version {version} is no longer held by this code (it "
                    f"holds {oldest[key]} to {now[key]})")
    return None


def words(versions: Mapping[str, int]) -> str:
    """A stamp in words: "engine 1, w40k 2"."""
    return ", ".join(f"{key} {version}" for key, version in sorted(versions.items()))


def versions_since(ruleset: Versioned, versions: Mapping[str, int]) -> list[
        tuple[dict[str, int], RulesChange]]:
    """Each stamp newer than `versions`, one change at a time (the engine's, then the
    rule set's), with the change it adds."""
    stamps: list[tuple[dict[str, int], RulesChange]] = []
    stamp = dict(versions)
    key = key_of(ruleset.name)
    for change in changes_since(ruleset, versions):
        stamp = {**stamp, (ENGINE if change in ENGINE_CHANGES else key): change.version}
        stamps.append((stamp, change))
    return stamps


def changes_since(ruleset: Versioned, versions: Mapping[str, int]) -> tuple[RulesChange, ...]:
    """The changes newer than `versions`: the engine's, then the rule set's."""
    engine = versions.get(ENGINE, FIRST)
    own = versions.get(key_of(ruleset.name), FIRST)
    return (*(c for c in ENGINE_CHANGES if c.version > engine),
            *(c for c in ruleset.rules_changes if c.version > own))

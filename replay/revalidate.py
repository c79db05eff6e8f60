"""Revalidate stored games: what today's rules would decide differently.

`warledger revalidate DB` reads every stored game's log (checking its hash
chain, as `verify` does), and follows the log as recorded: its set-up is
checked again, and each step's command is decided again under today's rules
versions (`domain.rules_version.current`) on the state the log had before it.
Each step whose verdict would now differ is reported: the clause, the verdict
the log holds and the one today's rules give. Nothing is written: a stored
game keeps the verdicts it was decided under (`verify` re-decides each step
under those, CONTRACT "Rules versions").

A release that changes a verdict lists each change it means in a verdict-changes
file (tests/fixtures/verdict-changes.yaml): game, step, clause, old, new,
reason. `allowed` reads one; the command fails on any change not listed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

from domain import rules_version
from domain.apply import apply
from domain.datafile import parse_yaml
from domain.dice import DiceSource
from domain.errors import RuleViolation, ScriptError
from domain.gate import settle
from domain.history import LogHistory
from domain.ruleset import Ruleset, Setup
from events.base import Fact, same_fact
from events.core import GameStarted, RulesVersionChanged, SeedSealed, StepTaken, UnitFielded
from events.envelope import GameEvent
from events.results import GameMetadataRecorded
from replay.service import GameService
from replay.verify import VerifyFailure, first_game, fold, read_chain

#: The step number of a game's set-up in a report.
SETUP_STEP = 0


@dataclass(frozen=True)
class VerdictChange:
    """One step whose verdict today's rules would change (`step` 0: the set-up)."""

    game: str
    step: int
    clause: str
    old: str
    new: str

    def key(self) -> tuple[str, int, str, str, str]:
        """What a verdict-changes entry must match."""
        return (self.game, self.step, self.clause, self.old, self.new)

    def line(self) -> str:
        """One human line."""
        where = "set-up" if self.step == SETUP_STEP else f"step {self.step}"
        return f"{self.game} {where}: {self.clause}: was {self.old}; now {self.new}"

    def entry(self) -> dict[str, Any]:
        """The change as a verdict-changes entry (its reason still to be written)."""
        return {"game": self.game, "step": self.step, "clause": self.clause,
                "old": self.old, "new": self.new, "reason": ""}


@dataclass(frozen=True)
class Revalidation:
    """What revalidating a store found."""

    games: int
    steps: int
    changes: tuple[VerdictChange, ...]
    #: Games whose log could not be followed at all (a broken chain): one line each.
    unreadable: tuple[str, ...] = ()


def revalidate(service: GameService) -> Revalidation:
    """Revalidate every stored game (never writing to any)."""
    steps, changes, unreadable = 0, [], []
    game_ids = service.game_ids()
    for game_id in game_ids:
        try:
            counted, found = revalidate_game(service, game_id)
        except VerifyFailure as failure:
            unreadable.append(f"{game_id}: event {failure.version}: {failure.reason}")
            continue
        steps += counted
        changes += found
    return Revalidation(len(game_ids), steps, tuple(changes), tuple(unreadable))


def revalidate_game(service: GameService, game_id: UUID) -> tuple[int, list[VerdictChange]]:
    """The number of steps of one game, and each change of verdict in it."""
    events = read_chain(service, game_id)
    game = first_game(events[0])
    index = 1
    while index < len(events) and not isinstance(events[index].fact, StepTaken):
        game.apply_event(events[index])
        index += 1
    changes = [c for c in [setup_change(game.ruleset, events[:index])] if c is not None]
    history = LogHistory(events, lambda version: fold(events[:version]).state)
    now = rules_version.current(game.ruleset)
    steps = 0
    while index < len(events):
        steps += 1
        end = next((i for i in range(index + 1, len(events))
                    if isinstance(events[i].fact, StepTaken)), len(events))
        recorded = events[index:end]
        change = step_change(game.ruleset, game.state, recorded, history, now)
        if change is not None:
            changes.append(change)
        for event in recorded:
            game.apply_event(event)
        index = end
    return steps, changes


def step_change(ruleset: Ruleset, state: Any, recorded: Sequence[GameEvent],
                history: LogHistory, now: dict[str, int]) -> VerdictChange | None:
    """The step decided again under `now` on the state before it; None if the
    verdict is the recorded one. A change names the clauses of the first rules
    version after the game's that changes it (`first_change`)."""
    taken = recorded[0].fact
    assert isinstance(taken, StepTaken)
    old = [e.fact for e in recorded if not isinstance(e.fact, RulesVersionChanged)]
    new = redecided(ruleset, state, recorded, history, now)
    if isinstance(new, list) and same_facts(old, new):
        return None
    game = str(recorded[0].originator_id)
    if isinstance(new, RuleViolation):
        return VerdictChange(game, taken.step, new.rule, accepted(old),
                             f"refused: {new.rule}: {new.message}")
    if isinstance(new, Exception):
        return VerdictChange(game, taken.step, "UNDECIDED", accepted(old), f"fails: {new!r}")
    clause = first_change(ruleset, state, recorded, history, old)
    return VerdictChange(game, taken.step, clause, *described(old, new))


def redecided(ruleset: Ruleset, state: Any, recorded: Sequence[GameEvent],
              history: LogHistory, versions: dict[str, int]) -> list[Fact] | Exception:
    """The recorded step's command decided under `versions` on the state before it:
    its facts (less those a legacy step has none of), or the refusal or error."""
    taken = recorded[0].fact
    assert isinstance(taken, StepTaken)
    dice = DiceSource(seed=state.seed or 0, next_index=state.dice_index,
                      physical=list(taken.dice) if taken.dice is not None else None,
                      reusable=state.reusable_dice)
    probe = state.model_copy(update={"rules_version": versions})
    try:
        command = ruleset.parse_command(dict(taken.command))
        new = settle(ruleset, probe, command, dice, history, versions).facts
    except Exception as error:  # a refusal, or a rule that cannot decide: a finding
        return error
    if any(e.fact.legacy for e in recorded):
        new = [f for f in new if not f.implicit_in_legacy]
    return new


def first_change(ruleset: Ruleset, state: Any, recorded: Sequence[GameEvent],
                 history: LogHistory, old: list[Fact]) -> str:
    """The clauses of the first rules version after the game's under which the step's
    verdict differs from the recorded one, or UNDECLARED (no version declares the
    change: a regression)."""
    was = rules_version.decided_under(state)
    for versions, change in rules_version.versions_since(ruleset, was):
        new = redecided(ruleset, state, recorded, history, versions)
        if not isinstance(new, list) or not same_facts(old, new):
            return " ".join(change.clauses)
    return "UNDECLARED"


def setup_change(ruleset: Ruleset, setup_events: Sequence[GameEvent]) -> VerdictChange | None:
    """The set-up checked again by today's rules: the same units fielded, or a change
    (newly refused, or fielded with other facts)."""
    started = setup_events[0].fact
    assert isinstance(started, GameStarted)
    facts = [e.fact for e in setup_events[1:]]
    old = [f for f in facts if not isinstance(f, SeedSealed | GameMetadataRecorded)]
    game = str(setup_events[0].originator_id)
    was = rules_version.decided_under(ruleset.initial_state(started))
    try:
        new = setup_facts_now(ruleset, started, facts)
    except ScriptError as refusal:
        clause = str(refusal).split(": ")[1] if ": " in str(refusal) else "set-up"
        return VerdictChange(game, SETUP_STEP, clause_of(clause, ruleset, was), accepted(old),
                             f"refused: {refusal}")
    if same_facts(old, new):
        return None
    return VerdictChange(game, SETUP_STEP, changed_clauses(ruleset, was), *described(old, new))


def setup_facts_now(ruleset: Ruleset, started: GameStarted, facts: Sequence[Fact]) -> list[Fact]:
    """The set-up's facts as today's rules field the recorded units (`ScriptError`
    if they refuse them)."""
    seed = next((f.seed for f in facts if isinstance(f, SeedSealed)), 0)
    model = ruleset.state_type.unit_model
    left_out = model.kept_by_play | model.set_by_fielding
    units = tuple({k: v for k, v in f.unit.items() if k not in left_out}
                  for f in facts if isinstance(f, UnitFielded))
    setup = Setup(ruleset=started.ruleset, variant=started.variant, seed=seed,
                  board=started.board, terrain=started.terrain, players=started.players,
                  units=units, options=dict(started.options))
    new = ruleset.setup_facts(setup)
    state = ruleset.initial_state(started)
    state.rules_version = rules_version.current(ruleset)  # today's rules check it
    for fact in new:
        apply(state, fact)
    ruleset.check_setup(state)
    return new


def clause_of(text: str, ruleset: Ruleset, was: dict[str, int]) -> str:
    """The clause a set-up refusal names (its message's first word, when it is an
    ID such as `AMB-11`), else the clauses changed since the game's versions."""
    word = text.split()[0] if text.split() else ""
    if "-" in word and word.replace("-", "").isalnum() and word.upper() == word:
        return word
    return changed_clauses(ruleset, was)


def changed_clauses(ruleset: Ruleset, was: dict[str, int]) -> str:
    """The clauses the rules versions after `was` change, or UNDECLARED (a verdict
    changed that no rules version declares: a regression)."""
    clauses = [c for change in rules_version.changes_since(ruleset, was) for c in change.clauses]
    return " ".join(dict.fromkeys(clauses)) or "UNDECLARED"


def same_facts(old: Sequence[Fact], new: Sequence[Fact]) -> bool:
    """The same facts, one by one (a legacy fact is its current version's)."""
    return len(old) == len(new) and all(same_fact(n, o) for o, n in zip(old, new, strict=True))


def accepted(facts: Sequence[Fact]) -> str:
    """An accepted verdict in words: its facts' types."""
    return "accepted: " + ", ".join(f.type for f in facts)


def described(old: Sequence[Fact], new: Sequence[Fact]) -> tuple[str, str]:
    """Both accepted verdicts in words; when their types agree, where they differ."""
    before, after = accepted(old), accepted(new)
    if before == after:
        at = next(i for i, (o, n) in enumerate(zip(old, new, strict=True)) if not same_fact(n, o))
        before += f" (fact {at + 1} differs)"
        after += f" (fact {at + 1} differs)"
    return before, after


# -- verdict-changes files ---------------------------------------------------------------------
ENTRY_KEYS = ("game", "step", "clause", "old", "new", "reason")


def allowed(path: Path) -> set[tuple[str, int, str, str, str]]:
    """The changes a verdict-changes file lists (a `ScriptError` for a bad file)."""
    try:
        data = parse_yaml(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ScriptError(f"cannot read {path}: {error.strerror}") from None
    except ValueError as error:
        raise ScriptError(f"{path}: {error}") from None
    entries = (data or {}).get("changes", []) if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise ScriptError(f"{path}: a verdict-changes file is a mapping with a `changes` list")
    keys: set[tuple[str, int, str, str, str]] = set()
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict) or sorted(entry) != sorted(ENTRY_KEYS):
            raise ScriptError(f"{path}: change {number} must have exactly "
                              f"{', '.join(ENTRY_KEYS)}")
        if not str(entry["reason"]).strip():
            raise ScriptError(f"{path}: change {number} gives no reason")
        keys.add((str(entry["game"]), int(entry["step"]), str(entry["clause"]),
                  str(entry["old"]), str(entry["new"])))
    return keys

"""The audit trail: one entry per step, with dice, citations, rulings and branches.

Undo and redo are shown as branches: an undone step is marked with the step
that undid it (and the one that brought it back, if any). `fold=True` shows
the game with undone branches folded away: undone steps and the requests and
answers about them are left out. The full audit is the judge's record: it
shows every command's arguments, hidden placements included. A player's audit
is built from the events that player may see (`replay.export.seen_by`), so it
holds no more than their export: a step whose command is hidden from them shows
as `(hidden)`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from events.core import ClauseApplied, DiceRolled, StepTaken
from events.envelope import GameEvent
from events.undo import RulingRecorded, StepsRedone, StepsUndone
from projections.clauses import clause_index

#: The steps that only ask for or answer an undo or redo (folded away with it).
UNDO_TALK = frozenset({"request_undo", "request_redo", "consent"})


@dataclass
class AuditEntry:
    """One step of the audit trail."""

    step: int
    time: str
    player: str
    command: str
    arguments: dict[str, Any]
    outcome: str
    events: list[str]
    dice: list[dict[str, Any]] = field(default_factory=list)
    citations: list[dict[str, str]] = field(default_factory=list)
    rulings: list[dict[str, Any]] = field(default_factory=list)
    branch: list[str] = field(default_factory=list)
    undone: bool = False


def audit_entries(events: Iterable[GameEvent], *, lang: bool = False) -> list[AuditEntry]:
    """The audit trail of a game's events (step 0 is the set-up)."""
    entries: dict[int, AuditEntry] = {}
    for event in events:
        entry = entries.get(event.step)
        if entry is None:
            entry = entries[event.step] = new_entry(event)
        describe_fact(entry, event, entries, lang)
    return [entries[step] for step in sorted(entries)]


def new_entry(event: GameEvent) -> AuditEntry:
    fact = event.fact
    if isinstance(fact, StepTaken):
        arguments = {k: v for k, v in fact.command.items() if k not in ("do", "by")}
        return AuditEntry(fact.step, event.timestamp.isoformat(), fact.by,
                          str(fact.command.get("do")), arguments, "accepted", [])
    command = "setup" if event.step == 0 else "(hidden)"
    return AuditEntry(event.step, event.timestamp.isoformat(), "-", command, {}, "accepted", [])


def describe_fact(
    entry: AuditEntry, event: GameEvent, entries: dict[int, AuditEntry], lang: bool
) -> None:
    """Add one fact's part to its step's entry (and mark branches it makes)."""
    fact = event.fact
    entry.events.append(fact.type)
    if isinstance(fact, DiceRolled):
        entry.dice.append({"purpose": fact.purpose, "values": list(fact.values),
                           "source": fact.source, "first_index": fact.first_index})
    elif isinstance(fact, ClauseApplied):
        entry.citations.append(citation(fact.rule, fact.message, lang))
    elif isinstance(fact, RulingRecorded):
        ruling: dict[str, Any] = {"judge": fact.judge, "ruling": fact.text,
                                  "on_step": fact.on_step}
        if fact.clause:
            ruling.update(citation(fact.clause, "", lang))
        entry.rulings.append(ruling)
        if fact.on_step is not None and fact.on_step in entries:
            entries[fact.on_step].branch.append(f"ruling at step {entry.step}")
    elif isinstance(fact, StepsUndone):
        entry.branch.append(f"undid steps {list(fact.steps)} (consent: {fact.consented_by})")
        for step in fact.steps:
            mark_branch(entries, step, True, f"undone at step {entry.step}")
    elif isinstance(fact, StepsRedone):
        entry.branch.append(f"redid steps {list(fact.steps)} (consent: {fact.consented_by})")
        for step in fact.steps:
            mark_branch(entries, step, False, f"redone at step {entry.step}")


def mark_branch(entries: dict[int, AuditEntry], step: int, undone: bool, note: str) -> None:
    """Mark a step undone or redone (a step hidden from this audit's reader is absent)."""
    if step in entries:
        entries[step].undone = undone
        entries[step].branch.append(note)


def citation(rule: str, message: str, lang: bool) -> dict[str, str]:
    """A clause ID with its English text (and, with `lang`, its original quote)."""
    clause = clause_index().get(rule)
    cited = {"rule": rule, "message": message, "text": clause.english if clause else ""}
    if lang:
        cited["original"] = clause.original if clause else ""
    return cited


def fold_entries(entries: list[AuditEntry]) -> list[AuditEntry]:
    """The game without its undone branches or the requests about them."""
    return [e for e in entries if not e.undone and e.command not in UNDO_TALK]


def render(entries: list[AuditEntry], *, lang: bool = False) -> str:
    """A readable timeline, one line per step (plus indented citations)."""
    lines = []
    for e in entries:
        args = " ".join(f"{k}={v}" for k, v in e.arguments.items())
        mark = " [UNDONE]" if e.undone else ""
        head = f"{e.step:>4}  {e.time[:19]}  {e.player:<8} {e.command} {args}".rstrip()
        lines.append(f"{head}  -> {e.outcome}: {', '.join(e.events)}{mark}")
        for roll in e.dice:
            lines.append(f"        dice {roll['purpose']}: {roll['values']} ({roll['source']})")
        for cited in e.citations:
            quote = cited.get("original") if lang else cited["text"]
            lines.append(f"        {cited['rule']}: {cited['message']}  — {quote}")
        for ruling in e.rulings:
            rule = f" [{ruling['rule']}: {ruling.get('original' if lang else 'text', '')}]" \
                if "rule" in ruling else ""
            lines.append(f"        RULING by {ruling['judge']}: {ruling['ruling']}{rule}")
        for note in e.branch:
            lines.append(f"        branch: {note}")
    return "\n".join(lines)


def as_json(entries: list[AuditEntry]) -> list[dict[str, Any]]:
    return [asdict(e) for e in entries]

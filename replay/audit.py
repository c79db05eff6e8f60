"""The audit trail: one entry per step, with dice, citations, rulings, results and branches.

A result's proposal, confirmation or refusal is shown on its step (a refused
result stays in the audit, marked as having no effect; folding keeps it).

Each entry names the events it spans (`events_from`..`events_to`, the numbers
`replay --at` takes; a player's audit numbers their own events) and the round
and phase the step was taken in (`replay --step` takes the step number).

Undo and redo are shown as branches: an undone step is marked with the step
that undid it (and the one that brought it back, if any). `fold_entries` shows
the game with undone branches folded away: undone steps and the requests and
answers that undid or redid them are left out. A refused request (and its
refusal) undid nothing and is final, so it stays. The full audit is the judge's record: it
shows every command's arguments, hidden placements included. A player's audit
is built from the events that player may see (`replay.export.seen_by`), so it
holds no more than their export: a step whose command is hidden from them shows
as `(hidden)`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from domain.game import Game
from events.core import ClauseApplied, DiceRolled, StepTaken
from events.envelope import GameEvent
from events.results import ResultConfirmed, ResultProposed, ResultRefused
from events.undo import RulingRecorded, StepsRedone, StepsUndone
from projections.clauses import clause_index
from projections.wording import say_command, say_result
from replay.attempts import Attempt

#: The steps that only ask for or answer an undo or redo (folded away with it).
UNDO_TALK = frozenset({"request_undo", "request_redo", "consent"})
#: The requests that open a round of undo talk.
UNDO_REQUESTS = frozenset({"request_undo", "request_redo"})
#: The facts by which undo talk changed the game (folded away with the steps).
UNDO_DONE = frozenset({"StepsUndone", "StepsRedone"})


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
    #: The events of this step (the reader's numbering), first and last.
    events_from: int = 0
    events_to: int = 0
    #: The round and phase the step was taken in (for the set-up: where play starts).
    round: int | None = None
    phase: str | None = None
    #: Results proposed, confirmed or refused at this step (docs/results.md).
    results: list[dict[str, Any]] = field(default_factory=list)


def audit_entries(
    events: Iterable[GameEvent], *, lang: bool = False,
    positions: dict[int, tuple[int, str]] | None = None,
) -> list[AuditEntry]:
    """The audit trail of a game's events (step 0 is the set-up), with each step's
    round and phase from `positions` (`step_positions` of the full log)."""
    entries: dict[int, AuditEntry] = {}
    for event in events:
        entry = entries.get(event.step)
        if entry is None:
            entry = entries[event.step] = new_entry(event)
            entry.events_from = event.originator_version
            entry.round, entry.phase = (positions or {}).get(event.step, (None, None))
        entry.events_to = event.originator_version
        describe_fact(entry, event, entries, lang)
    return [entries[step] for step in sorted(entries)]


def step_positions(events: Iterable[GameEvent]) -> dict[int, tuple[int, str]]:
    """The round and phase each step of the full log was taken in (the set-up: where
    play starts). Both are public: every player sees the turn sequence."""
    positions: dict[int, tuple[int, str]] = {}
    game: Game | None = None
    for event in events:
        if game is None:
            game = Game.from_first_event(event)
            continue
        if event.step not in positions and event.step > 0:
            positions.setdefault(0, (game.state.round, game.state.phase))
            positions[event.step] = (game.state.round, game.state.phase)
        game.apply_event(event)
    if game is not None:
        positions.setdefault(0, (game.state.round, game.state.phase))
    return positions


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
    elif isinstance(fact, ResultProposed | ResultConfirmed | ResultRefused):
        entry.results.append(result_note(fact))
    elif isinstance(fact, StepsUndone):
        entry.branch.append(f"undid steps {say_steps(fact.steps)} (consent: {fact.consented_by})")
        for step in fact.steps:
            mark_branch(entries, step, True, f"undone at step {entry.step}")
    elif isinstance(fact, StepsRedone):
        entry.branch.append(f"redid steps {say_steps(fact.steps)} (consent: {fact.consented_by})")
        for step in fact.steps:
            mark_branch(entries, step, False, f"redone at step {entry.step}")


def say_steps(items: Iterable[object]) -> str:
    """Steps (or players) listed as words: '3, 4'."""
    return ", ".join(str(item) for item in items)


def result_note(fact: ResultProposed | ResultConfirmed | ResultRefused) -> dict[str, Any]:
    """A result's part of the audit: proposed (with what), confirmed, or refused."""
    if isinstance(fact, ResultRefused):
        return {"result": "refused", "by": fact.by}
    status = "proposed" if isinstance(fact, ResultProposed) else "confirmed"
    return {"result": status, "by": fact.by, "winner": fact.winner, "draw": fact.draw,
            "points": dict(fact.points)}


def result_line(note: dict[str, Any]) -> str:
    """One line of the timeline for a result."""
    if note["result"] == "refused":
        return f"RESULT refused by {note['by']} (no effect)"
    return f"RESULT {note['result']} by {note['by']}: {say_result(note)}"


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
    """The game without its undone branches, nor the requests and answers that undid or
    redid steps. A request that was refused (or is still open) changed nothing and
    its refusal is final: it stays, with its answers."""
    folded: set[int] = set()
    talk: list[AuditEntry] = []  # the current request and the answers to it
    for entry in entries:
        if entry.command in UNDO_REQUESTS:
            talk = [entry]
        elif entry.command in UNDO_TALK and not entry.results:  # a result's answer stays
            talk.append(entry)
            if UNDO_DONE.intersection(entry.events):
                folded.update(e.step for e in talk)
                talk = []
    return [e for e in entries if not e.undone and e.step not in folded]


def render(entries: list[AuditEntry], *, lang: bool = False,
           attempts: Sequence[Attempt] = ()) -> str:
    """A readable timeline, one line per step (plus indented citations), commands said
    as players say them (`projections.wording`), with each refused attempt after the
    step it came after ("refused after step 5")."""
    lines = []
    waiting = sorted(attempts, key=lambda a: a.after_step)  # stable: in the order made
    for e in entries:
        while waiting and waiting[0].after_step < e.step:
            lines.append(attempt_line(waiting.pop(0)))
        lines += entry_lines(e, lang)
    lines += [attempt_line(a) for a in waiting]
    return "\n".join(lines)


def attempt_line(attempt: Attempt) -> str:
    """A refused attempt in the timeline: not a step, so no step number of its own."""
    return f"   -  {attempt.line()}"


def entry_lines(e: AuditEntry, lang: bool) -> list[str]:
    """One step's lines of the timeline."""
    lines: list[str] = []
    said = e.command if e.command in ("setup", "(hidden)") else say_command(
        {"do": e.command, **e.arguments})
    mark = " [UNDONE]" if e.undone else ""
    span = f"ev {e.events_from}-{e.events_to}" if e.events_to != e.events_from \
        else f"ev {e.events_from}"
    turn = f"r{e.round} {e.phase}" if e.phase is not None else "-"
    head = (f"{e.step:>4}  {span:<10} {turn:<16} {e.time[:19]}  {e.player:<8} "
            f"{said}").rstrip()
    lines.append(f"{head}  -> {e.outcome}: {', '.join(e.events)}{mark}")
    for roll in e.dice:
        values = ", ".join(str(v) for v in roll["values"])
        lines.append(f"        dice {roll['purpose']}: {values} ({roll['source']})")
    for cited in e.citations:
        quote = cited.get("original") if lang else cited["text"]
        lines.append(f"        {cited['rule']}: {cited['message']}  — {quote}")
    for ruling in e.rulings:
        rule = f" [{ruling['rule']}: {ruling.get('original' if lang else 'text', '')}]" \
            if "rule" in ruling else ""
        lines.append(f"        RULING by {ruling['judge']}: {ruling['ruling']}{rule}")
    for result in e.results:
        lines.append(f"        {result_line(result)}")
    for note in e.branch:
        lines.append(f"        branch: {note}")
    return lines


def as_json(entries: list[AuditEntry]) -> list[dict[str, Any]]:
    return [asdict(e) for e in entries]

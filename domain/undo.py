"""Contested moves: undo and redo by consent, and judges' rulings.

A player asks to undo their own latest steps (`request_undo`); this opens a
reaction window of kind "undo" for the other players and the judge. The first
answer (`consent`) settles it; a refusal is final for that request. An
accepted undo records `StepsUndone` with the state before the first undone
step, and queues the undone digital dice to be served first to the next rolls,
so undoing never buys new dice. `request_redo` brings the latest undone steps
back, with exactly their old results, while no new step has been taken since.
"""

from __future__ import annotations

from typing import Any

from domain.commands import (
    JUDGE,
    META_COMMAND_NAMES,
    META_COMMANDS,
    Command,
    Consent,
    RequestRedo,
    RequestUndo,
    Ruling,
)
from domain.decision import Decision
from domain.errors import RuleViolation
from domain.results import RESULT, decide_result_answer
from domain.rules_version import at_least, key_of
from domain.state import BOOKKEEPING, UNDO_DEPTH, GameState, StepRef
from domain.windows import WINDOWS, open_window
from events.base import HIDDEN_CONDITIONS
from events.core import DiceRolled, ReactionDeclared, ReactionWindowClosed
from events.undo import (
    RedoStackCleared,
    RequestRefused,
    RulingRecorded,
    StepsRedone,
    StepsSettled,
    StepsUndone,
)
from seeds import rule_ids

__all__ = ["META_COMMANDS", "Consent", "RequestRedo", "RequestUndo", "Ruling"]




def keep_undo_depth(d: Decision, command: Command) -> None:
    """CORE-UNDO-DEPTH, CORE-REDO-NOTHING, as a step of play is taken: only the
    latest `UNDO_DEPTH` steps can be undone, and once play moves on, steps undone
    before can no longer be redone. (Undo requests, answers and rulings are not
    steps of play.)"""
    if command.do in META_COMMAND_NAMES:
        return
    live = d.state.live_steps
    if len(live) > UNDO_DEPTH:
        d.emit(StepsSettled(steps=tuple(ref.step for ref in live[: len(live) - UNDO_DEPTH])))
    if d.state.redo_stack:
        d.emit(RedoStackCleared())


def decide_request_undo(d: Decision, command: RequestUndo) -> None:
    """CORE-UNDO-OWN, CORE-UNDO-DEPTH: a player may ask to undo only their own
    latest live steps."""
    state = d.state
    check_requester(d, command)
    check_private_kept(d)
    if command.steps > len(state.live_steps):
        raise RuleViolation(
            "CORE-UNDO-DEPTH",
            f"only {len(state.live_steps)} step(s) can be undone now, not {command.steps}",
        )
    group = state.live_steps[-command.steps :]
    check_own_steps(group, command.by, "undo only their own latest steps")
    check_not_refused(group, d.state.refused_undo, "undo")
    open_request(d, command.by, "undo", group)


def decide_request_redo(d: Decision, command: RequestRedo) -> None:
    """CORE-REDO-NOTHING, CORE-UNDO-OWN: the latest undone steps come back, if play has
    not moved on, when the player whose steps they were asks."""
    check_requester(d, command)
    if not d.state.redo_stack:
        raise RuleViolation(
            "CORE-REDO-NOTHING",
            "there is nothing to redo: no steps were undone, or play has moved on since",
        )
    group = d.state.redo_stack[-1]
    check_own_steps(group, command.by, "redo only their own undone steps")
    check_not_refused(group, d.state.refused_redo, "redo")
    open_request(d, command.by, "redo", group)


def check_own_steps(group: list[StepRef], by: str, rule: str) -> None:
    """CORE-UNDO-OWN: every step asked for was taken by the player who asks."""
    foreign = [ref for ref in group if ref.by != by]
    if foreign:
        raise RuleViolation(
            "CORE-UNDO-OWN",
            f"step {foreign[-1].step} ({foreign[-1].do}) was {foreign[-1].by}'s; "
            f"a player may {rule}",
        )


def check_not_refused(group: list[StepRef], refused: list[int], action: str) -> None:
    """CORE-UNDO-REFUSED: a refusal is final: the same steps are not asked for again."""
    again = [ref.step for ref in group if ref.step in refused]
    if again:
        raise RuleViolation(
            "CORE-UNDO-REFUSED",
            f"the {action} of step {again[0]} was refused already; that refusal is final",
        )


def check_private_kept(d: Decision) -> None:
    """CORE-PRIVATE-AT-END: an end that opened Private Information to every player
    is final. What each player was shown cannot be hidden from them again, so no step
    of such a game is undone any more (a result proposed in error is refused, not
    undone). A game whose end hid nothing may still be reopened by consent."""
    state, version = d.state, d.ruleset.secrets_final_from
    if version is None or not at_least(state, **{key_of(d.ruleset.name): version}):
        return  # (a game decided before the rule keeps its verdicts)
    if state.finished and d.ruleset.reveals_at_game_end and any(
            HIDDEN_CONDITIONS.intersection(unit.conditions) for unit in state.units.values()):
        raise RuleViolation(
            "CORE-PRIVATE-AT-END",
            "the game's end opened its Private Information to every player; what they "
            "were shown cannot be hidden again, so the game is not undone")


def check_requester(d: Decision, command: Command) -> None:
    """Only one request is open at a time: the window machine opens no undo window
    over an undo window (the gate keeps the judge from asking, CORE-JUDGE)."""
    if not WINDOWS.may_open(d.state, "undo"):
        raise RuleViolation("CORE-UNDO-PENDING", "an undo or redo request is already open")


def open_request(d: Decision, by: str, action: str, group: list[StepRef]) -> None:
    """Open the "undo" window for everyone else and the judge."""
    eligible = (*d.state.opponents(by), JUDGE)
    open_window(d, "undo", eligible, {
        "action": action,
        "requested_by": by,
        "steps": [ref.step for ref in group],
    })


def decide_consent(d: Decision, command: Consent) -> None:
    """CORE-UNDO-SELF: nobody consents to their own request; the first answer settles it."""
    window = d.state.reaction_window
    assert window is not None  # the gate only lets `consent` through with one open
    if window.kind == RESULT:
        decide_result_answer(d, command.by, command.accept)
        return
    requester = str(window.context["requested_by"])
    if command.by == requester:
        raise RuleViolation("CORE-UNDO-SELF", "a player cannot consent to their own request")
    if command.by not in window.eligible:
        raise RuleViolation("CORE-UNDO-CONSENT", f"{command.by} may not answer this request")
    steps = tuple(int(s) for s in window.context["steps"])
    d.emit(ReactionDeclared(by=command.by, answer="accept" if command.accept else "refuse"))
    d.emit(ReactionWindowClosed(kind="undo"))
    action = "undo" if window.context["action"] == "undo" else "redo"
    if not command.accept:
        d.emit(RequestRefused(action=action, steps=steps, requested_by=requester,
                              refused_by=command.by))
        return
    if action == "undo":
        undo(d, steps, requester, command.by)
    else:
        redo(d, steps, requester, command.by)


def undo(d: Decision, steps: tuple[int, ...], requester: str, consenter: str) -> None:
    """Return to the state before the first undone step; queue all its dice."""
    d.emit(
        StepsUndone(
            steps=steps,
            requested_by=requester,
            consented_by=consenter,
            restored=recorded(d.history.state_before(steps[0])),
            reused_dice=dice_of(d, steps),
        )
    )


def redo(d: Decision, steps: tuple[int, ...], requester: str, consenter: str) -> None:
    """Return to the state after the last redone step, exactly as it was; its
    dice, queued by the undo, leave the queue."""
    d.emit(
        StepsRedone(
            steps=steps,
            requested_by=requester,
            consented_by=consenter,
            restored=recorded(d.history.state_after(steps[-1])),
            reclaimed_dice=len(dice_of(d, steps)),
        )
    )


def recorded(state: GameState) -> dict[str, Any]:
    """A state as an undo or redo records it: the game, not the log's bookkeeping."""
    unset = {name for name in type(state).later_fields if getattr(state, name) is None}
    return state.model_dump(mode="json", exclude=set(BOOKKEEPING) | unset)


def dice_of(d: Decision, steps: tuple[int, ...]) -> tuple[int, ...]:
    """Every die the steps rolled, in order (digital, physical or reused)."""
    return tuple(
        value
        for step in steps
        for fact in d.history.facts_of(step)
        if isinstance(fact, DiceRolled)
        for value in fact.values
    )


def decide_ruling(d: Decision, command: Ruling) -> None:
    """CORE-JUDGE-ONLY: only the judge records rulings."""
    if command.by != JUDGE:
        raise RuleViolation("CORE-JUDGE-ONLY", "only the judge records rulings")
    if command.on_step is not None and command.on_step > d.state.step:
        raise RuleViolation("INPUT", f"there is no step {command.on_step} yet")
    if command.clause is not None and command.clause not in rule_ids():
        raise RuleViolation("INPUT", f"{command.clause!r} is not a rule of seeds/CLAUSES.md or "
                                     "INTERPRETATIONS.md (e.g. AMB-13, A-AMB-10, CORE-DICE)")
    d.emit(
        RulingRecorded(
            judge=command.by, text=command.text, clause=command.clause, on_step=command.on_step
        )
    )

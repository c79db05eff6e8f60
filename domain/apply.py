"""Applying facts: one small function per fact type, assignment only.

Applying never checks a rule, never fails on a valid fact, never rolls dice
and never reads the clock (DEVELOPERS.md, principle 1).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from domain.commands import META_COMMAND_NAMES
from domain.state import (
    BOOKKEEPING,
    UNDO_DEPTH,
    GameState,
    PlayerState,
    ReactionWindow,
    StepRef,
)
from events.base import Fact
from events.core import (
    ClauseApplied,
    DiceRolled,
    GameEnded,
    GameStarted,
    PhaseStarted,
    ReactionDeclared,
    ReactionWindowClosed,
    ReactionWindowOpened,
    ReactionWindowOpenedV1,
    RulesVersionChanged,
    SeedSealed,
    StepTaken,
    StepTakenV1,
    UnitFielded,
)
from events.undo import (
    RedoStackCleared,
    RequestRefused,
    RulingRecorded,
    StepsRedone,
    StepsSettled,
    StepsUndone,
)

F = TypeVar("F", bound=Fact)
S = TypeVar("S", bound=GameState)
Applier = Callable[[Any, Any], None]


class ApplierTable(dict[type[Fact], Applier]):
    """The appliers of one module, by fact type: a rule set's wiring table names
    its module's table (`Wiring.appliers`)."""

    def on(self, fact_type: type[F]) -> Callable[[Callable[[S, F], None]], Callable[[S, F], None]]:
        """Decorator: the function that applies one fact type."""

        def put(func: Callable[[S, F], None]) -> Callable[[S, F], None]:
            self[fact_type] = func
            return func

        return put


#: The core facts' appliers (this module's).
CORE_APPLIERS = ApplierTable()
applies = CORE_APPLIERS.on

#: Every applier in use: the core's, and each registered rule set's
#: (`domain.ruleset.register` adds them from its wiring table).
APPLIERS: dict[type[Fact], Applier] = {}


def apply(state: GameState, fact: Fact) -> None:
    """Apply one fact to the state in place."""
    try:
        applier = APPLIERS[type(fact)]
    except KeyError:
        applier = applier_for(type(fact))
    applier(state, fact)


def applier_for(fact_type: type[Fact]) -> Applier:
    """The applier of a fact type the dispatch table does not hold yet: the known
    rule sets are registered first (`domain.ruleset.load_rulesets`)."""
    from domain.ruleset import load_rulesets

    APPLIERS.update(CORE_APPLIERS)
    load_rulesets()
    return APPLIERS[fact_type]


@applies(SeedSealed)
def _seed_sealed(state: GameState, fact: SeedSealed) -> None:
    state.seed = fact.seed


@applies(StepTaken)
def _step_taken(state: GameState, fact: StepTaken) -> None:
    """The step is taken; a step of play (not an undo request, answer or ruling:
    those are about steps) joins the steps that can be undone."""
    state.step = fact.step
    name = str(fact.command.get("do"))
    if name not in META_COMMAND_NAMES:
        state.live_steps.append(StepRef(step=fact.step, by=fact.by, do=name))


@applies(StepsSettled)
def _steps_settled(state: GameState, fact: StepsSettled) -> None:
    settled = frozenset(fact.steps)
    live = state.live_steps
    oldest = 0  # nearly always the oldest steps: slice them off
    while oldest < len(live) and live[oldest].step in settled:
        oldest += 1
    if oldest == len(settled):
        state.live_steps = live[oldest:]
    else:
        state.live_steps = [ref for ref in live if ref.step not in settled]


@applies(RedoStackCleared)
def _redo_stack_cleared(state: GameState, fact: RedoStackCleared) -> None:
    state.redo_stack = []


@applies(StepTakenV1)
def _step_taken_v1(state: GameState, fact: StepTakenV1) -> None:
    """v1 logs (class_version 1): the applier also decided the undo depth and the redo
    stack (kept exactly, so those logs replay as they did; new logs say it with
    `StepsSettled` and `RedoStackCleared`, decided in `domain.gate`)."""
    _step_taken(state, fact)
    if str(fact.command.get("do")) not in META_COMMAND_NAMES:
        if len(state.live_steps) > UNDO_DEPTH:
            del state.live_steps[0]
        if state.redo_stack:
            state.redo_stack = []


@applies(DiceRolled)
def _dice_rolled(state: GameState, fact: DiceRolled) -> None:
    if fact.source == "digital" and fact.first_index is not None:
        state.dice_index = fact.first_index + len(fact.values)
    elif fact.source == "reused":
        state.reusable_dice = state.reusable_dice[len(fact.values) :]


@applies(PhaseStarted)
def _phase_started(state: GameState, fact: PhaseStarted) -> None:
    state.round = fact.round
    state.active_player = fact.active_player
    state.phase = fact.phase


@applies(GameEnded)
def _game_ended(state: GameState, fact: GameEnded) -> None:
    state.finished = True
    state.end_reason = fact.reason


@applies(ClauseApplied)
def _clause_applied(state: GameState, fact: ClauseApplied) -> None:
    """A citation changes no state."""


@applies(ReactionWindowOpened)
def _window_opened(state: GameState, fact: ReactionWindowOpened) -> None:
    """The new window holds the one open before it (suspended), which reopens
    when the new one closes."""
    state.reaction_window = ReactionWindow(
        kind=fact.kind,
        eligible=list(fact.eligible),
        context=dict(fact.context),
        suspended=state.reaction_window,
    )


@applies(ReactionWindowOpenedV1)
def _window_opened_v1(state: GameState, fact: ReactionWindowOpenedV1) -> None:
    """v1 logs (class_version 1): only an undo window suspended the open one; any other
    replaced it (kept exactly; new logs close a replaced window first)."""
    state.reaction_window = ReactionWindow(
        kind=fact.kind,
        eligible=list(fact.eligible),
        context=dict(fact.context),
        suspended=state.reaction_window if fact.kind == "undo" else None,
    )


@applies(ReactionDeclared)
def _reaction_declared(state: GameState, fact: ReactionDeclared) -> None:
    if state.reaction_window is not None:
        state.reaction_window.declared[fact.by] = fact.answer


@applies(ReactionWindowClosed)
def _window_closed(state: GameState, fact: ReactionWindowClosed) -> None:
    window = state.reaction_window
    state.reaction_window = window.suspended if window is not None else None


def restore(state: GameState, restored: dict[str, Any]) -> None:
    """Assign every game field of a recorded state (bookkeeping stays)."""
    recorded = type(state).model_validate(restored)
    for name in type(state).model_fields:
        if name not in BOOKKEEPING:
            setattr(state, name, getattr(recorded, name))


@applies(StepsUndone)
def _steps_undone(state: GameState, fact: StepsUndone) -> None:
    restore(state, fact.restored)
    undone = [ref for ref in state.live_steps if ref.step in fact.steps]
    state.live_steps = [ref for ref in state.live_steps if ref.step not in fact.steps]
    state.redo_stack = [*state.redo_stack, undone]
    state.reusable_dice = [*fact.reused_dice, *state.reusable_dice]


@applies(StepsRedone)
def _steps_redone(state: GameState, fact: StepsRedone) -> None:
    restore(state, fact.restored)
    group = state.redo_stack[-1] if state.redo_stack else []
    state.redo_stack = state.redo_stack[:-1]
    state.live_steps = [*state.live_steps, *group]
    state.reusable_dice = state.reusable_dice[fact.reclaimed_dice :]


@applies(RequestRefused)
def _request_refused(state: GameState, fact: RequestRefused) -> None:
    if fact.action == "undo":
        state.refused_undo = [*state.refused_undo, *fact.steps]
    else:
        state.refused_redo = [*state.refused_redo, *fact.steps]


@applies(RulingRecorded)
def _ruling_recorded(state: GameState, fact: RulingRecorded) -> None:
    """A ruling changes no state; the audit shows it."""


def new_player_states(players: list[str], cp: int) -> dict[str, PlayerState]:
    """Fresh per-player bookkeeping for a new game."""
    return {p: PlayerState(cp=cp) for p in players}


@applies(GameStarted)
def _game_started(state: GameState, fact: GameStarted) -> None:
    """`GameStarted` creates the state (`Ruleset.initial_state`); nothing to assign."""


@applies(RulesVersionChanged)
def _rules_version_changed(state: GameState, fact: RulesVersionChanged) -> None:
    state.rules_version = dict(fact.versions)


@applies(UnitFielded)
def _unit_fielded(state: GameState, fact: UnitFielded) -> None:
    state.units[str(fact.unit["id"])] = type(state).unit_model.model_validate(fact.unit)

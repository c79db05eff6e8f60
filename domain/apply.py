"""Applying facts: one small function per fact type, assignment only.

Applying never checks a rule, never fails on a valid fact, never rolls dice
and never reads the clock (DEVELOPERS.md, principle 1).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from domain.state import GameState, PlayerState, ReactionWindow
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
    SeedSealed,
    StepTaken,
    UnitFielded,
)

F = TypeVar("F", bound=Fact)
S = TypeVar("S", bound=GameState)
Applier = Callable[[Any, Any], None]

APPLIERS: dict[type[Fact], Applier] = {}


def applies(fact_type: type[F]) -> Callable[[Callable[[S, F], None]], Callable[[S, F], None]]:
    """Register the function that applies one fact type."""

    def register(func: Callable[[S, F], None]) -> Callable[[S, F], None]:
        APPLIERS[fact_type] = func
        return func

    return register


def apply(state: GameState, fact: Fact) -> None:
    """Apply one fact to the state in place."""
    APPLIERS[type(fact)](state, fact)


@applies(SeedSealed)
def _seed_sealed(state: GameState, fact: SeedSealed) -> None:
    state.seed = fact.seed


@applies(StepTaken)
def _step_taken(state: GameState, fact: StepTaken) -> None:
    state.step = fact.step


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
    state.reaction_window = ReactionWindow(
        kind=fact.kind, eligible=list(fact.eligible), context=dict(fact.context)
    )


@applies(ReactionDeclared)
def _reaction_declared(state: GameState, fact: ReactionDeclared) -> None:
    if state.reaction_window is not None:
        state.reaction_window.declared[fact.by] = fact.answer


@applies(ReactionWindowClosed)
def _window_closed(state: GameState, fact: ReactionWindowClosed) -> None:
    state.reaction_window = None


def new_player_states(players: list[str], cp: int) -> dict[str, PlayerState]:
    """Fresh per-player bookkeeping for a new game."""
    return {p: PlayerState(cp=cp) for p in players}


@applies(GameStarted)
def _game_started(state: GameState, fact: GameStarted) -> None:
    """`GameStarted` creates the state (`Ruleset.initial_state`); nothing to assign."""


@applies(UnitFielded)
def _unit_fielded(state: GameState, fact: UnitFielded) -> None:
    state.units[str(fact.unit["id"])] = type(state).unit_model.model_validate(fact.unit)

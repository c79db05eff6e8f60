"""Attachable Models in Ambush: joining an Ambushing unit (AMB-21…26)."""

from __future__ import annotations

from domain.decision import Decision
from domain.errors import RuleViolation
from domain.t9a.combining import check_join, check_model_in_ambush
from domain.t9a.commands import Attach
from domain.t9a.units import T9AState, as_t9a
from events.t9a import AmbushJoinChosen


def check_choice_before_roll(state: T9AState) -> None:
    """AMB-23: the model chooses its unit in your Player Turn before you roll to see
    whether your Ambushing units arrive."""
    if state.ambush_rolled.get(state.active_player) == state.round:
        raise RuleViolation(
            "AMB-23",
            f"the Ambush rolls of Player Turn {state.round} are made; the unit to join must "
            "be chosen before rolling",
        )


def decide_attach(d: Decision, cmd: Attach) -> None:
    """AMB-23, AMB-25, AMB-26: each Player Turn, before the roll, an Attachable Model in
    Ambush joins any eligible same-X Ambushing unit, or none (rolling alone); being
    Attachable locks no earlier choice (A-AMB-13)."""
    state = as_t9a(d.state)
    model = state.t9a_unit(cmd.model)
    check_model_in_ambush(model)
    check_choice_before_roll(state)
    if cmd.to is not None:
        check_join(model, state.t9a_unit(cmd.to))
    before = f" (was {model.joined_to})" if model.joined_to and model.joined_to != cmd.to else ""
    d.emit(AmbushJoinChosen(model=model.id, unit=cmd.to))
    d.cite("AMB-26", f"{model.id} joins {cmd.to or 'no unit'} this turn{before}")

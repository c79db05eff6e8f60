"""Attachable Models in Ambush: joining an Ambushing unit (AMB-21…26)."""

from __future__ import annotations

from domain.decision import Decision
from domain.errors import RuleViolation
from domain.t9a.commands import Attach
from domain.t9a.rules import RULESET, as_t9a
from domain.t9a.units import T9AState, T9AUnit
from events.t9a import AmbushJoinChosen


def check_same_ambush(model: T9AUnit, host: T9AUnit) -> None:
    """AMB-21: an Attachable Model in Ambush may join only a unit placed in Ambush with
    the same X; so every model of the Combined Unit has the same Ambush (A-AMB-17)."""
    if not model.rules.attachable:
        raise RuleViolation("AMB-21", f"{model.id} is not an Attachable Model; it joins no unit")
    if not host.in_ambush:
        raise RuleViolation("AMB-21", f"{host.id} is not placed in Ambush; {model.id} cannot "
                            "join it from Ambush")
    if host.rules.ambush != model.rules.ambush:
        raise RuleViolation(
            "AMB-21",
            f"{model.id} has Ambush ({model.rules.ambush}) but {host.id} has Ambush "
            f"({host.rules.ambush}); they need the same X",
        )


def check_usual_join_restrictions(model: T9AUnit, host: T9AUnit) -> None:
    """AMB-22: joining follows the usual restrictions: the host belongs to the same
    player, is a unit (not an Attachable Model) and is not the model itself."""
    if host.id == model.id:
        raise RuleViolation("AMB-22", f"{model.id} cannot join itself")
    if host.owner != model.owner:
        raise RuleViolation("AMB-22", f"{host.id} belongs to {host.owner}, not {model.owner}")
    if host.rules.attachable:
        raise RuleViolation("AMB-22", f"{host.id} is an Attachable Model; {model.id} can only "
                            "join a unit")


def check_join(state: T9AState, model: T9AUnit, host: T9AUnit) -> None:
    """An Attachable Model may join `host` in Ambush (AMB-21, AMB-22)."""
    check_usual_join_restrictions(model, host)
    check_same_ambush(model, host)


def check_choice_before_roll(state: T9AState) -> None:
    """AMB-23: the model chooses its unit in your Player Turn before you roll to see
    whether your Ambushing units arrive."""
    if state.ambush_rolled.get(state.active_player) == state.round:
        raise RuleViolation(
            "AMB-23",
            f"the Ambush rolls of Player Turn {state.round} are made; the unit to join must "
            "be chosen before rolling",
        )


@RULESET.handle(Attach)
def decide_attach(d: Decision, cmd: Attach) -> None:
    """AMB-23, AMB-25, AMB-26: each Player Turn, before the roll, an Attachable Model in
    Ambush joins any eligible same-X Ambushing unit, or none (rolling alone); being
    Attachable locks no earlier choice (A-AMB-13)."""
    state = as_t9a(d.state)
    model = state.t9a_unit(cmd.model)
    if not model.in_ambush:
        raise RuleViolation("AMB-21", f"{model.id} is not placed in Ambush")
    check_choice_before_roll(state)
    if cmd.to is not None:
        check_join(state, model, state.t9a_unit(cmd.to))
    before = f" (was {model.joined_to})" if model.joined_to and model.joined_to != cmd.to else ""
    d.emit(AmbushJoinChosen(model=model.id, unit=cmd.to))
    d.cite("AMB-26", f"{model.id} joins {cmd.to or 'no unit'} this turn{before}")

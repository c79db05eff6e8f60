"""Attachable Models in Ambush: joining an Ambushing unit (AMB-21…26)."""

from __future__ import annotations

from domain.decision import Decision
from domain.errors import RuleViolation
from domain.rules_version import at_least
from domain.t9a.combining import check_join, check_model_in_ambush
from domain.t9a.commands import Attach
from domain.t9a.units import T9AState, as_t9a
from events.core import PhaseStarted
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


#: The T9A rules version from which a model chooses its unit once each Player Turn.
ONE_CHOICE_A_TURN = 3


def check_one_choice_this_turn(d: Decision, state: T9AState, model: str) -> None:
    """AMB-23 (T9A rules version 3): the model "may choose a unit to join during each
    of your Player Turns": one choice each Player Turn, not one host after another.
    Read from the game's history (an undone choice does not count), so a log stored
    before version 3 shows, decided again, which choice it would now refuse; without
    a history (a bare decision) this is not checked."""
    if not at_least(state, t9a=ONE_CHOICE_A_TURN):
        return
    try:
        earlier = choice_this_turn(d, state, model)
    except LookupError:
        return
    if earlier is not None:
        raise RuleViolation("AMB-23", f"{model} has chosen its unit this Player Turn already "
                            f"(step {earlier}: {state.t9a_unit(model).joined_to or 'no unit'});"
                            " it chooses once each Player Turn")


def choice_this_turn(d: Decision, state: T9AState, model: str) -> int | None:
    """The step of this Player Turn at which the model chose its unit, if one did and
    it was not undone: steps back to the one that began the Player Turn."""
    live = {ref.step for ref in state.live_steps}
    oldest_live = min(live, default=state.step)
    first_phase = d.ruleset.machine.phases[0]
    for step in range(state.step - 1, 0, -1):
        facts = d.history.facts_of(step)
        in_effect = step in live or step < oldest_live  # not undone (or long settled)
        if in_effect and any(isinstance(f, AmbushJoinChosen) and f.model == model
                             for f in facts):
            return step
        if any(isinstance(f, PhaseStarted) and f.round == state.round and f.phase == first_phase
               and f.active_player == state.active_player for f in facts):
            return None
    return None


def decide_attach(d: Decision, cmd: Attach) -> None:
    """AMB-23, AMB-25, AMB-26: each Player Turn, before the roll, an Attachable Model in
    Ambush joins any eligible same-X Ambushing unit, or none (rolling alone), once;
    being Attachable locks no earlier turn's choice (A-AMB-13)."""
    state = as_t9a(d.state)
    model = state.t9a_unit(cmd.model)
    check_model_in_ambush(model)
    check_choice_before_roll(state)
    check_one_choice_this_turn(d, state, model.id)
    if cmd.to is not None:
        check_join(model, state.t9a_unit(cmd.to))
    before = f" (was {model.joined_to})" if model.joined_to and model.joined_to != cmd.to else ""
    d.emit(AmbushJoinChosen(model=model.id, unit=cmd.to))
    d.cite("AMB-26", f"{model.id} joins {cmd.to or 'no unit'} this turn{before}")

"""Stratagem windows (STR-04, RULINGS 40k "Timing windows"): a trigger opens one
for the players who could react; each answers once, with a use or a pass; the
window closes when all have (CORE-STRATAGEM-WINDOW).

The end of the Movement phase is itself a trigger (Rapid Ingress). Its window
opens while the phase is still the Movement phase, and the command that ends
the phase (`next_phase` or `end_turn`) is held until the window closes, so a
window never outlives its phase (CORE-PHASE-END-WINDOW).
"""

from __future__ import annotations

from itertools import islice
from typing import Literal

from domain import turns
from domain.bounded import Bounded
from domain.commands import EndTurn, NextPhase
from domain.decision import Decision
from domain.errors import RuleViolation
from domain.state import to_read
from domain.w40k.catalog import Stratagem, stratagems_of
from domain.w40k.charges import roll_held_charge
from domain.w40k.cost import check_can_pay, cost_of
from domain.w40k.effects import has_room_to_arrive
from domain.w40k.limits import (
    check_once_per_phase,
    check_restrictions,
    may_target,
)
from domain.w40k.state import W40KState, game
from domain.w40k.targets import target_problem
from domain.w40k.timing import TIMING, Moment, TimingCursor, is_timely
from domain.windows import open_window
from events.base import Fact
from events.core import (
    PhaseStarted,
    ReactionDeclared,
    ReactionWindowClosed,
    ReactionWindowOpened,
)

PhaseEnd = Literal["next_phase", "end_turn"]


# -- opening ---------------------------------------------------------------------------
def open_stratagem_window(d: Decision, moment: Moment, held: PhaseEnd | None = None) -> bool:
    """A trigger happened: open a stratagem window for the players who could react.

    RULINGS 40k: the machine never asks a player about a window that no
    stratagem in their catalog can use, so a player is named only if some
    stratagem answers this trigger now, within its limits, with a target it
    could select, at a cost they can pay. `held` is the phase-ending command
    that waits for the window. Returns whether a window opened.
    """
    state = game(d)
    eligible = tuple(p for p in state.players if can_react(state, p, moment))
    if not eligible:
        return False
    context = moment.context() if held is None else {**moment.context(), "held": held}
    open_window(d, "stratagem", eligible, context)
    return True


def can_react(state: W40KState, player: str, moment: Moment) -> bool:
    """Could `player` use some stratagem in a window opened at this moment? Only
    those answering its trigger are asked (`answering`): `can_use` refuses the rest."""
    return any(can_use(state, player, s, moment)
               for s in answering(stratagems_of(state.options), moment.trigger))


def answering(stratagems: dict[str, Stratagem], trigger: str | None) -> tuple[Stratagem, ...]:
    """STR-04: the reactive stratagems whose WHEN names `trigger` (none without a
    trigger: a window opens only at one), in catalog order; found once per catalog
    and trigger. `can_use` passes no other: it asks `is_reactive` and the timing
    table, whose row in a window asks `is_answering_the_trigger`, and outside one
    `is_proactive`."""
    key = (id(stratagems), trigger)
    found = _ANSWERING.get(key)
    if found is None or found[0] is not stratagems:
        found = _ANSWERING.keep(key, (stratagems, tuple(
            s for s in stratagems.values()
            if trigger is not None and s.is_reactive and trigger in s.when.triggers)))
    return found[1]


#: `answering`, per catalog (kept alive with its answer, so its id is not reused) and
#: trigger.
_ANSWERING: Bounded[tuple[int, str | None], tuple[dict[str, Stratagem], tuple[Stratagem, ...]]] \
    = Bounded(64)


def can_use(state: W40KState, player: str, stratagem: Stratagem, moment: Moment) -> bool:
    """The same checks as a use, asked ahead: timing, limits, a target, the CP."""
    if not stratagem.is_reactive or not is_timely(state, player, stratagem, moment):
        return False
    try:
        check_once_per_phase(state, player, stratagem, moment)
        check_restrictions(state, player, stratagem, moment)
        check_can_pay(state, player, stratagem, cost_of(state, player, stratagem, (), moment))
    except RuleViolation:
        return False
    candidates = (
        u for u in to_read(state.units)
        if target_problem(state, player, stratagem, u, moment) is None
        and may_target(state, player, stratagem, u.id, moment)
        and has_room_to_arrive(state, player, stratagem, u)
    )
    # as many as the stratagem targets are enough: the rest are not asked about
    return sum(1 for _ in islice(candidates, stratagem.target.count)) >= stratagem.target.count


# -- answering and closing ---------------------------------------------------------------
def answer_window(d: Decision, player: str, answer: str) -> None:
    """Record the player's answer; close the window once everyone named has
    answered, then carry out the phase end it held, if any."""
    state = game(d)
    window = state.reaction_window
    held = window.context.get("held") if window is not None else None
    d.emit(ReactionDeclared(by=player, answer=answer))
    cursor = TimingCursor(state, player, None, Moment.now(state))
    if TIMING.allows(cursor, "close_window"):
        d.emit(ReactionWindowClosed(kind="stratagem"))
        roll_held_charge(d)
        if held in ("next_phase", "end_turn"):
            end_phase(d, held)


# -- the end of the Movement phase ---------------------------------------------------------
def decide_next_phase(d: Decision, cmd: NextPhase) -> None:
    """CORE-PHASE-END-WINDOW: `next_phase`, held while the end of the Movement
    phase has a stratagem window open."""
    if not hold_phase_end(d, "next_phase"):
        turns.decide_next_phase(d, cmd)


def decide_end_turn(d: Decision, cmd: EndTurn) -> None:
    """CORE-PHASE-END-WINDOW: `end_turn`, held while the end of the Movement
    phase has a stratagem window open."""
    if not hold_phase_end(d, "end_turn"):
        turns.decide_end_turn(d, cmd)


def hold_phase_end(d: Decision, command: PhaseEnd) -> bool:
    """CORE-PHASE-END-WINDOW: ending the Movement phase opens the window for
    "the end of your opponent's Movement phase" (Rapid Ingress) in that phase;
    the phase ends when the window closes. Returns whether it was held."""
    state = game(d)
    if state.phase != "movement":
        return False
    moment = Moment(state.round, state.active_player, state.phase, "movement_phase_ended")
    return open_stratagem_window(d, moment, held=command)


def end_phase(d: Decision, command: PhaseEnd) -> None:
    """Carry out the held `next_phase` or `end_turn` of the active player."""
    state = game(d)
    d.dest = d.ruleset.machine.fire(state, command)
    if command == "next_phase":
        turns.decide_next_phase(d, NextPhase(by=state.active_player))
    else:
        turns.decide_end_turn(d, EndTurn(by=state.active_player))


# -- a trigger that opened no window for a player --------------------------------------------
#: The facts of the unit actions that are triggers, and the trigger each is.
TRIGGER_FACTS = {
    "UnitMoved": "unit_moved",
    "ShootingTargetSelected": "shooting_target_selected",
    "ChargeDeclared": "charge_declared",
    "ChargeMoveEnded": "charge_move_ended",
    "UnitFought": "unit_fought",
}


def last_trigger(d: Decision) -> Moment | None:
    """The trigger that happened just before this step: the last step that did
    not merely answer a window (its window's moment, or its own trigger), or None.

    Read from the game's history (a refusal writes nothing, so nothing depends on
    it); without a history the answer is None.
    """
    step = game(d).step - 1
    try:
        while step >= 1:
            facts = d.history.facts_of(step)
            if not any(isinstance(f, ReactionDeclared) for f in facts):
                return moment_of_step(d, step, facts)
            step -= 1
    except LookupError:
        return None
    return None


def moment_of_step(d: Decision, step: int, facts: list[Fact]) -> Moment | None:
    """The trigger moment a step made, if any (CORE-STRATAGEM-WINDOW,
    CORE-PHASE-END-WINDOW)."""
    state = game(d)
    for fact in facts:
        if isinstance(fact, ReactionWindowOpened) and fact.kind == "stratagem":
            c = fact.context
            return Moment(c["round"], c["turn"], c["phase"], c["trigger"], c["unit"],
                          c["target"])
    for fact in facts:
        trigger = TRIGGER_FACTS.get(fact.type)
        if trigger is not None:
            shot = trigger == "shooting_target_selected"
            target = getattr(fact, "target", None) if shot else None
            return Moment(state.round, state.active_player, state.phase, trigger,
                          getattr(fact, "unit", None), target)
    if any(isinstance(f, PhaseStarted) for f in facts):
        before = d.history.state_before(step)
        if before.phase == "movement":
            return Moment(before.round, before.active_player, "movement",
                          "movement_phase_ended")
    return None


def describe(moment: Moment) -> str:
    """The trigger in words: "r1 moved", "red's Movement phase ended"."""
    unit, target = moment.unit, moment.target
    return {
        "unit_moved": f"{unit} moved",
        "shooting_target_selected": f"{unit} selected {target} as its target",
        "charge_declared": f"{unit} declared a charge",
        "charge_move_ended": f"{unit} ended its Charge move",
        "unit_fought": f"{unit} fought",
        "movement_phase_ended": f"{moment.turn}'s Movement phase ended",
    }.get(moment.trigger or "", str(moment.trigger))

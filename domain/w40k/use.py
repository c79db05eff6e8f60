"""Using a stratagem (STR-11…16) and the stratagem windows reactive ones answer.

A use is decided whole: every check runs first (WHEN, limits, targets,
cost, effect choices), then the facts of the three steps are emitted in
order — targets selected (`StratagemUsed`), CP paid (`CommandPointsSpent`),
effect resolved. A use that fails any step writes nothing.
"""

from __future__ import annotations

from domain.decision import Decision
from domain.errors import InputError, RuleViolation
from domain.w40k.catalog import Stratagem, stratagems_of
from domain.w40k.commands import PassStratagem, UseStratagem
from domain.w40k.cost import check_can_pay, cost_of
from domain.w40k.effects import check_effect, resolve_effect
from domain.w40k.limits import (
    check_once_per_phase,
    check_one_stratagem_per_unit,
    check_restrictions,
    exempt_stratagems,
    targeted_this_phase,
)
from domain.w40k.state import W40KState, game
from domain.w40k.targets import select_targets, target_problem
from domain.w40k.timing import TIMING, Moment, TimingCursor, check_timing, is_timely
from events.core import ReactionDeclared, ReactionWindowClosed, ReactionWindowOpened
from events.w40k import CommandPointsSpent, StratagemUsed


def find_stratagem(state: W40KState, stratagem_id: str) -> Stratagem:
    """STR-18, STR-20: a core or codex stratagem by id (A-STR-05), or INPUT."""
    catalog = stratagems_of(state.options)
    if stratagem_id not in catalog:
        raise InputError(
            f"there is no stratagem {stratagem_id!r}; known: {', '.join(sorted(catalog))}"
        )
    return catalog[stratagem_id]


def decide_use_stratagem(d: Decision, cmd: UseStratagem) -> None:
    """STR-11: select targets (STR-12), pay the CP (STR-13…15), resolve (STR-16).

    STR-02, STR-18: either player may use any stratagem of the catalog.
    """
    state = game(d)
    stratagem = find_stratagem(state, cmd.stratagem)
    moment = check_timing(state, cmd.by, stratagem)
    check_once_per_phase(state, cmd.by, stratagem, moment)
    check_restrictions(state, cmd.by, stratagem, moment)
    targets = select_targets(state, cmd.by, stratagem, cmd.targets, moment)
    exempt = exempt_stratagems(stratagems_of(state.options))
    check_one_stratagem_per_unit(state, cmd.by, stratagem, cmd.targets, moment, exempt)
    cost = cost_of(state, cmd.by, stratagem, cmd.sections, moment)
    check_can_pay(state, cmd.by, stratagem, cost)
    check_effect(state, cmd, stratagem, targets, moment)

    use = f"U{len(state.uses) + 1}"
    d.emit(
        StratagemUsed(
            use=use, player=cmd.by, stratagem=stratagem.id, name=stratagem.name,
            targets=cmd.targets, sections=cmd.sections, base_cost=cost.base,
            section_cost=cost.sections, modifiers=cost.modifiers,
            modifier_total=cost.modifier_total, cost=cost.total, round=moment.round,
            turn=moment.turn, phase=moment.phase, trigger=moment.trigger,
        )
    )
    balance = state.player_state[cmd.by].cp - cost.total
    d.emit(CommandPointsSpent(player=cmd.by, amount=cost.total,
                              source=f"{stratagem.name} ({use})", balance=balance))
    resolve_effect(d, use, cmd, stratagem, targets, moment)
    if moment.trigger is not None:
        answer_window(d, cmd.by, stratagem.id)


def decide_pass_stratagem(d: Decision, cmd: PassStratagem) -> None:
    """Decline the open stratagem window (only a player it names may answer it)."""
    state = game(d)
    TIMING.fire(TimingCursor(state, cmd.by, None, Moment.now(state)), "pass_stratagem",
                rule="CORE-NOT-ELIGIBLE")
    answer_window(d, cmd.by, "pass")


def answer_window(d: Decision, player: str, answer: str) -> None:
    """Record the player's answer; close the window once everyone named has answered."""
    state = game(d)
    d.emit(ReactionDeclared(by=player, answer=answer))
    cursor = TimingCursor(state, player, None, Moment.now(state))
    if TIMING.allows(cursor, "close_window"):
        d.emit(ReactionWindowClosed(kind="stratagem"))


# -- opening windows -------------------------------------------------------------------
def open_stratagem_window(d: Decision, moment: Moment) -> None:
    """A trigger happened: open a stratagem window for the players who could react.

    RULINGS 40k: the machine never asks a player about a window that no
    stratagem in their catalog can use, so a player is named only if some
    stratagem answers this trigger now, within its limits, with a target it
    could select, at a cost they can pay.
    """
    state = game(d)
    eligible = tuple(p for p in state.players if can_react(state, p, moment))
    if eligible:
        d.emit(ReactionWindowOpened(kind="stratagem", eligible=eligible,
                                    context=moment.context()))


def can_react(state: W40KState, player: str, moment: Moment) -> bool:
    """Could `player` use some stratagem in a window opened at this moment?"""
    return any(can_use(state, player, s, moment) for s in stratagems_of(state.options).values())


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
    exempt = exempt_stratagems(stratagems_of(state.options))
    candidates = [
        u for u in state.units.values()
        if target_problem(state, player, stratagem, u, moment) is None
        and (stratagem.id in exempt
             or targeted_this_phase(state, player, u.id, moment, exempt) is None)
    ]
    return len(candidates) >= stratagem.target.count

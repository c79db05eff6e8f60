"""Using a stratagem (STR-11…16), or passing an open stratagem window.

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
from domain.w40k.cost import Cost, check_can_pay, cost_of
from domain.w40k.effects import (
    check_effect,
    check_just_after_the_roll,
    check_room_to_arrive,
    resolve_effect,
)
from domain.w40k.limits import (
    check_once_per_phase,
    check_one_stratagem_per_unit,
    check_restrictions,
)
from domain.w40k.selection import check_none_waiting
from domain.w40k.state import W40KState, W40KUnit, game
from domain.w40k.targets import select_targets
from domain.w40k.timing import TIMING, Moment, TimingCursor, check_timing, is_timely
from domain.w40k.windows import answer_window, describe, last_trigger
from events.w40k import CommandPointsSpent, CostModifiersUsed, StratagemUsed


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
    moment = check_timing_or_bar(d, cmd, stratagem)
    targets, cost = check_use(state, cmd, stratagem, moment)
    check_effect(state, cmd, stratagem, targets, moment)
    check_just_after_the_roll(d, cmd, stratagem, targets, moment)
    check_none_waiting(state, stratagem)

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
    spend_one_use_modifiers(d, use, cost.modifiers)
    balance = state.player_state[cmd.by].cp - cost.total
    d.emit(CommandPointsSpent(player=cmd.by, amount=cost.total,
                              source=f"{stratagem.name} ({use})", balance=balance))
    resolve_effect(d, use, cmd, stratagem, targets, moment)
    if moment.trigger is not None:
        answer_window(d, cmd.by, stratagem.id)


def check_use(
    state: W40KState, cmd: UseStratagem, stratagem: Stratagem, moment: Moment
) -> tuple[list[W40KUnit], Cost]:
    """The limits (STR-09, STR-07), the targets (STR-12, STR-10), room to set an
    arriving unit up (STR-16) and the cost (STR-14, STR-15) of a use at `moment`:
    the targets and the cost, or refused."""
    check_once_per_phase(state, cmd.by, stratagem, moment)
    check_restrictions(state, cmd.by, stratagem, moment)
    targets = select_targets(state, cmd.by, stratagem, cmd.targets, moment)
    check_one_stratagem_per_unit(state, cmd.by, stratagem, cmd.targets, moment)
    check_room_to_arrive(state, cmd.by, stratagem, targets)
    cost = cost_of(state, cmd.by, stratagem, cmd.sections, moment)
    check_can_pay(state, cmd.by, stratagem, cost)
    return targets, cost


#: Why a barred reactive use had no window: none opened, or it does not name the player.
NO_WINDOW_FOR = "no stratagem window opened for {player} when {when}"
NOT_NAMED = "the stratagem window for {when} does not name {player}"


def check_timing_or_bar(d: Decision, cmd: UseStratagem, stratagem: Stratagem) -> Moment:
    """STR-04: the moment of the use. A reactive use refused because no window is
    open just after a trigger it answers, or because the open window does not name
    the player, is refused for what kept the window from naming them (STR-07,
    STR-09, STR-10, STR-12, STR-15), as the same use would be if it did."""
    state = game(d)
    try:
        return check_timing(state, cmd.by, stratagem)
    except RuleViolation:
        window = state.reaction_window
        missed: Moment | None = None
        if window is None:
            missed, why = last_trigger(d), NO_WINDOW_FOR
        elif window.kind == "stratagem" and cmd.by not in window.eligible:
            missed, why = Moment.now(state), NOT_NAMED
        if missed is not None and is_timely(state, cmd.by, stratagem, missed):
            try:
                check_use(state, cmd, stratagem, missed)
            except RuleViolation as bar:
                so = why.format(player=cmd.by, when=describe(missed))
                raise RuleViolation(bar.rule, f"{bar.message}; so {so}") from None
        raise


def spend_one_use_modifiers(d: Decision, use: str, taken: tuple[str, ...]) -> None:
    """STR-23: a modifier without a duration applies to one use only; the use that
    takes it spends it."""
    one_use = tuple(m.id for m in game(d).cost_modifiers if m.id in taken and m.duration is None)
    if one_use:
        d.emit(CostModifiersUsed(use=use, modifiers=one_use))


def decide_pass_stratagem(d: Decision, cmd: PassStratagem) -> None:
    """Decline the open stratagem window (only a player it names may answer it)."""
    state = game(d)
    TIMING.fire(TimingCursor(state, cmd.by, None, Moment.now(state)), "pass_stratagem",
                rule="CORE-NOT-ELIGIBLE")
    answer_window(d, cmd.by, "pass")

"""The unit actions whose moments open stratagem windows (a minimal 40k core):
move, shoot (select a target), declare a charge (and roll it), make the Charge
move, fight. Refusals cite CORE-MOVE, CORE-SHOOT, CORE-CHARGE, CORE-FIGHT."""

from __future__ import annotations

from domain.decision import Decision
from domain.errors import RuleViolation
from domain.geometry import Disc, is_wholly_on_board, is_within, path_length
from domain.rules_version import at_least
from domain.w40k.charges import CHARGE_DICE, CHARGE_SIDES, roll_charge
from domain.w40k.commands import ChargeMove, DeclareCharge, Fight, Move, Shoot
from domain.w40k.selection import check_fights_next
from domain.w40k.state import ENGAGEMENT_RANGE, W40KState, W40KUnit, game
from domain.w40k.targets import are_engaged, gap_between, is_beyond, nearest_enemy
from domain.w40k.timing import Moment
from domain.w40k.windows import open_stratagem_window
from events.w40k import (
    ChargeDeclared,
    ChargeMoveEnded,
    ChargeRollHeld,
    ShootingTargetSelected,
    UnitFought,
    UnitMoved,
)

#: A charge may target enemy units within 12".
CHARGE_RANGE = 12.0
#: The w40k rules version from which the charge roll comes after its window.
ROLL_AFTER_OVERWATCH = 2


def moment_of(state: W40KState, trigger: str, unit: str, target: str | None = None) -> Moment:
    """The moment of a trigger happening now, in the phase being played."""
    return Moment(state.round, state.active_player, state.phase, trigger, unit, target)


def on_table(unit: W40KUnit, rule: str) -> tuple[float, float]:
    """The unit's centre; refused under `rule` if it is not on the battlefield."""
    if unit.status != "on_table" or unit.x is None or unit.y is None:
        raise RuleViolation(rule, f"{unit.id} is not on the battlefield ({unit.status})")
    return unit.x, unit.y


def check_enemy(state: W40KState, by: str, target_id: str, rule: str) -> W40KUnit:
    """An enemy unit on the battlefield, or refused under `rule`."""
    target = state.unit(target_id)
    if target.owner == by:
        raise RuleViolation(rule, f"{target_id} is not an enemy unit")
    on_table(target, rule)
    return target


def check_not_acted(state: W40KState, unit: W40KUnit, action: str, rule: str) -> None:
    """A unit does each action at most once per phase."""
    if unit.acted.get(action) == state.key():
        raise RuleViolation(rule, f"{unit.id} has already {action} this phase")


def placed_at(state: W40KState, unit: W40KUnit, x: float, y: float, rule: str) -> Disc:
    """The unit's base at (x, y), refused if not wholly on the battlefield."""
    placed = Disc(x, y, unit.base, unit.facing or 0.0)
    if not is_wholly_on_board(placed, state.board.width, state.board.height):
        raise RuleViolation(rule, f"{unit.id} would not be wholly on the battlefield")
    return placed


def decide_move(d: Decision, cmd: Move) -> None:
    """CORE-MOVE: a Normal move of up to M", once per phase, ending more than 1"
    from enemy units. Opens the window for Fire Overwatch."""
    state = game(d)
    unit = state.unit(cmd.unit)
    start = on_table(unit, "CORE-MOVE")
    check_not_acted(state, unit, "moved", "CORE-MOVE")
    length = path_length([start, (cmd.x, cmd.y)])
    if length > unit.move + 1e-9:
        raise RuleViolation("CORE-MOVE", f"{unit.id} moves up to {unit.move:g}\"; "
                                         f"the move is {length:.2f}\"")
    placed = placed_at(state, unit, cmd.x, cmd.y, "CORE-MOVE")
    near = nearest_enemy(state, cmd.by, placed, ENGAGEMENT_RANGE)
    if near is not None:
        raise RuleViolation("CORE-MOVE", f"{unit.id} would end {near[1]:.2f}\" from "
                                         f"{near[0].id}, within Engagement Range "
                                         f"({ENGAGEMENT_RANGE:g}\")")
    d.emit(UnitMoved(unit=unit.id, x=cmd.x, y=cmd.y, distance=round(length, 6)))
    open_stratagem_window(d, moment_of(state, "unit_moved", unit.id))


def decide_shoot(d: Decision, cmd: Shoot) -> None:
    """CORE-SHOOT: a unit shoots once per phase, at an enemy unit on the battlefield.
    Selecting the target opens the window for Go to Ground and Smokescreen."""
    state = game(d)
    unit = state.unit(cmd.unit)
    on_table(unit, "CORE-SHOOT")
    check_not_acted(state, unit, "shot", "CORE-SHOOT")
    target = check_enemy(state, cmd.by, cmd.target, "CORE-SHOOT")
    d.emit(ShootingTargetSelected(unit=unit.id, target=target.id))
    open_stratagem_window(d, moment_of(state, "shooting_target_selected", unit.id, target.id))


def decide_declare_charge(d: Decision, cmd: DeclareCharge) -> None:
    """CORE-CHARGE: a unit not in Engagement Range declares a charge against enemy
    units within 12", then rolls 2D6. Opens the window for Fire Overwatch; from w40k
    rules version 2 the roll comes after that window (`charges.roll_held_charge`),
    so the defender chooses Fire Overwatch not knowing it."""
    state = game(d)
    unit = state.unit(cmd.unit)
    on_table(unit, "CORE-CHARGE")
    check_not_acted(state, unit, "declared a charge", "CORE-CHARGE")
    engaged = nearest_enemy(state, cmd.by, unit.footprint(), ENGAGEMENT_RANGE)
    if engaged is not None:
        raise RuleViolation("CORE-CHARGE", f"{unit.id} is within Engagement Range of "
                                           f"{engaged[0].id} already")
    for target_id in cmd.targets:
        gap = gap_between(unit, check_enemy(state, cmd.by, target_id, "CORE-CHARGE"))
        if is_beyond(gap, CHARGE_RANGE):
            raise RuleViolation("CORE-CHARGE", f"a charge targets enemy units within "
                                               f"{CHARGE_RANGE:g}\"; {target_id} is {gap:.2f}\" "
                                               f"from {unit.id}")
    d.emit(ChargeDeclared(unit=unit.id, targets=cmd.targets))
    moment = moment_of(state, "charge_declared", unit.id)
    if not at_least(state, w40k=ROLL_AFTER_OVERWATCH):
        roll_charge(d, unit.id)
        open_stratagem_window(d, moment)
    elif open_stratagem_window(d, moment):
        d.emit(ChargeRollHeld(unit=unit.id, dice=d.dice.hold(CHARGE_DICE, CHARGE_SIDES)))
    else:
        roll_charge(d, unit.id)


def charge_roll_total(state: W40KState, unit_id: str) -> int:
    """The unit's charge roll this phase (the re-rolled one, if it was re-rolled)."""
    key = state.key()
    rolls = [r for r in state.rolls
             if r.unit == unit_id and r.purpose == "charge" and r.replaced_by is None
             and f"{r.round}:{r.turn}:{r.phase}" == key]
    return sum(rolls[-1].values) if rolls else 0


def decide_charge_move(d: Decision, cmd: ChargeMove) -> None:
    """CORE-CHARGE: after declaring a charge, move up to the charge roll and end
    within Engagement Range of a charge target. Opens the window for Tank Shock
    (the charging player) and Heroic Intervention (the opponent)."""
    state = game(d)
    unit = state.unit(cmd.unit)
    start = on_table(unit, "CORE-CHARGE")
    if unit.acted.get("declared a charge") != state.key():
        raise RuleViolation("CORE-CHARGE", f"{unit.id} has not declared a charge this phase")
    check_not_acted(state, unit, "charged", "CORE-CHARGE")
    total = charge_roll_total(state, unit.id)
    length = path_length([start, (cmd.x, cmd.y)])
    if length > total + 1e-9:
        raise RuleViolation("CORE-CHARGE", f"the charge roll is {total}; the move is "
                                           f"{length:.2f}\"")
    placed = placed_at(state, unit, cmd.x, cmd.y, "CORE-CHARGE")
    targets = [state.unit(t) for t in state.charges.get(unit.id, [])]
    reached = [t.id for t in targets
               if (f := t.footprint()) is not None and is_within(placed, f, ENGAGEMENT_RANGE)]
    if not reached:
        names = ", ".join(t.id for t in targets)
        raise RuleViolation("CORE-CHARGE", f"{unit.id} would not end within Engagement Range "
                                           f"of a charge target ({names})")
    d.emit(ChargeMoveEnded(unit=unit.id, x=cmd.x, y=cmd.y, distance=round(length, 6)))
    open_stratagem_window(d, moment_of(state, "charge_move_ended", unit.id))


def decide_fight(d: Decision, cmd: Fight) -> None:
    """CORE-FIGHT: a unit fights once per phase, against an enemy unit within
    Engagement Range; a unit a stratagem selected to fight fights first
    (CORE-SELECTED-TO-FIGHT). Opens the window for Counter-offensive."""
    state = game(d)
    unit = state.unit(cmd.unit)
    on_table(unit, "CORE-FIGHT")
    check_not_acted(state, unit, "fought", "CORE-FIGHT")
    check_fights_next(state, unit.id)
    target = check_enemy(state, cmd.by, cmd.target, "CORE-FIGHT")
    if not are_engaged(unit, target):
        raise RuleViolation("CORE-FIGHT", f"{target.id} is not within Engagement Range of "
                                          f"{unit.id}")
    d.emit(UnitFought(unit=unit.id, target=target.id))
    open_stratagem_window(d, moment_of(state, "unit_fought", unit.id))

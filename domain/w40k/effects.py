"""Step 3 of a use: resolving the stratagem's EFFECT (STR-06, STR-16).

"Your unit" in an effect is always the unit selected as the target, never
another unit of the army (STR-27, STR-28): every effect below acts on the
targets it is given, or on the one enemy unit the effect selects.
Each effect kind has a check (run before anything is emitted) and a resolve.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from domain.deferred import defer

if TYPE_CHECKING:
    import shapely
    from shapely.geometry import Point, box
    from shapely.geometry.base import BaseGeometry
else:  # imported on first use (`domain.deferred`): a replay needs no shapely
    defer(globals(), shapely="shapely", Point="shapely.geometry:Point",
          box="shapely.geometry:box")

from domain.decision import Decision
from domain.errors import InputError, RuleViolation
from domain.geometry import Disc, is_wholly_on_board
from domain.rules_version import at_least
from domain.state import to_read
from domain.w40k.catalog import (
    ArriveEffect,
    AutoPassBattleShockEffect,
    ConditionsEffect,
    MortalWoundsEffect,
    RecordEffect,
    RerollEffect,
    Stratagem,
)
from domain.w40k.commands import UseStratagem
from domain.w40k.state import ENGAGEMENT_RANGE, RollRecord, W40KState, W40KUnit, game
from domain.w40k.targets import gap_between, is_beyond, is_visible_to, nearest_enemy
from domain.w40k.timing import Moment
from events.w40k import (
    BattleShockTested,
    BattleShockTestsCancelled,
    ChargeRolled,
    ConditionsGiven,
    EffectRecorded,
    MortalWoundsRolled,
    RollReplaced,
    UnitArrived,
)


# -- checks ------------------------------------------------------------------------
def check_effect(
    state: W40KState, cmd: UseStratagem, stratagem: Stratagem, targets: list[W40KUnit],
    moment: Moment,
) -> None:
    """STR-16: the effect can be resolved with the choices the command makes."""
    effect = stratagem.effect
    wanted = {
        "enemy": isinstance(effect, MortalWoundsEffect)
        or (isinstance(effect, RecordEffect) and effect.needs_enemy),
        "at": isinstance(effect, ArriveEffect),
        "replaces": isinstance(effect, RerollEffect),
    }
    for field, allowed in wanted.items():
        if not allowed and getattr(cmd, field) is not None:
            raise InputError(f"{stratagem.name} takes no {field!r}")
    if isinstance(effect, RerollEffect):
        roll_to_replace(state, cmd, stratagem, effect, targets, moment)
    elif isinstance(effect, MortalWoundsEffect):
        check_mortal_wounds_enemy(state, cmd, stratagem, effect, targets[0])
    elif isinstance(effect, ArriveEffect):
        check_arrival(state, cmd, stratagem, effect, targets[0])
    elif isinstance(effect, RecordEffect) and effect.needs_enemy and cmd.enemy is None:
        raise RuleViolation("STR-16", f"{stratagem.name} needs an enemy unit (`enemy`)")


#: The w40k rules version from which a re-roll comes just after the roll it replaces.
JUST_AFTER_THE_ROLL = 4


def check_just_after_the_roll(
    d: Decision, cmd: UseStratagem, stratagem: Stratagem, targets: list[W40KUnit],
    moment: Moment,
) -> None:
    """STR-16 (Command Re-roll: "just after you make a roll"; w40k rules version 4):
    the roll it replaces was made by the step just before this one, so no other
    step (another roll, a window opened and closed) comes between them. Without the
    game's history (a bare decision) this is not checked."""
    state = game(d)
    effect = stratagem.effect
    if not isinstance(effect, RerollEffect) or not at_least(state, w40k=JUST_AFTER_THE_ROLL):
        return
    roll = roll_to_replace(state, cmd, stratagem, effect, targets, moment)
    try:
        previous = d.history.facts_of(state.step - 1)
    except LookupError:
        return
    if not any(getattr(fact, "roll", None) == roll.ref for fact in previous):
        raise RuleViolation("STR-16", f"roll {roll.ref} was not made by the step just before "
                                      f"this one: {stratagem.name} is used just after you "
                                      "make the roll")


def roll_to_replace(
    state: W40KState, cmd: UseStratagem, stratagem: Stratagem, effect: RerollEffect,
    targets: list[W40KUnit], moment: Moment,
) -> RollRecord:
    """STR-16 (Command Re-roll): the roll it replaces was made this phase for your
    unit (STR-27), is of a kind it can re-roll, and was not re-rolled already."""
    unit = targets[0].id
    if cmd.replaces is None:
        mine = [r for r in state.rolls if r.unit == unit and r.replaced_by is None
                and r.purpose in effect.purposes]
        if not mine:
            raise RuleViolation("STR-16", f"{unit} has made no roll {stratagem.name} can "
                                          f"re-roll")
        roll = mine[-1]
    else:
        found = state.roll(cmd.replaces)
        if found is None:
            raise InputError(f"there is no roll {cmd.replaces!r}")
        roll = found
    if roll.unit != unit:
        raise RuleViolation("STR-27", f"roll {roll.ref} was made for {roll.unit}, not for "
                                      f"your unit {unit}")
    if roll.purpose not in effect.purposes:
        raise RuleViolation("STR-16", f"{stratagem.name} re-rolls {', '.join(effect.purposes)}"
                                      f" rolls; {roll.ref} is a {roll.purpose} roll")
    if roll.replaced_by is not None:
        raise RuleViolation("CORE-REROLL-ONCE", f"roll {roll.ref} was already re-rolled "
                                               f"({roll.replaced_by}); a roll is re-rolled "
                                               f"at most once")
    original = next((r.ref for r in state.rolls if r.replaced_by == roll.ref), None)
    if original is not None:
        raise RuleViolation("CORE-REROLL-ONCE", f"roll {roll.ref} is itself the re-roll of "
                                               f"{original}; a dice is never re-rolled more "
                                               f"than once")
    if (roll.round, roll.turn, roll.phase) != (moment.round, moment.turn, moment.phase):
        raise RuleViolation("STR-16", f"roll {roll.ref} was made in an earlier phase")
    if roll.purpose == "charge" and targets[0].acted.get("charged") == state.key():
        raise RuleViolation("STR-16", f"roll {roll.ref} was already used: {unit} has made "
                                      "its charge move (a re-roll comes just after the roll)")
    return roll


def check_mortal_wounds_enemy(
    state: W40KState, cmd: UseStratagem, stratagem: Stratagem, effect: MortalWoundsEffect,
    unit: W40KUnit,
) -> W40KUnit:
    """STR-16 (Grenade, Tank Shock): the one enemy unit the effect selects."""
    if cmd.enemy is None:
        raise RuleViolation("STR-16", f"{stratagem.name} needs an enemy unit (`enemy`)")
    enemy = state.unit(cmd.enemy)
    if enemy.owner == cmd.by or enemy.status != "on_table":
        raise RuleViolation("STR-16", f"{enemy.id} is not an enemy unit on the battlefield")
    gap = gap_between(unit, enemy)
    if effect.enemy_within is not None and is_beyond(gap, effect.enemy_within):
        raise RuleViolation("STR-16", f"{stratagem.name} selects an enemy unit within "
                                      f"{effect.enemy_within:g}\" of {unit.id}; {enemy.id} is "
                                      f"{gap:.2f}\" away")
    if effect.enemy_engaged is True and is_beyond(gap, ENGAGEMENT_RANGE):
        raise RuleViolation("STR-16", f"{stratagem.name} selects an enemy unit within "
                                      f"Engagement Range ({ENGAGEMENT_RANGE:g}\") of {unit.id}; "
                                      f"{enemy.id} is {gap:.2f}\" away")
    if effect.enemy_visible and not is_visible_to(state, unit, enemy):
        raise RuleViolation("STR-16", f"{stratagem.name} selects an enemy unit visible to "
                                      f"{unit.id}; blocking terrain hides {enemy.id}")
    engaging = nearest_enemy(state, enemy.owner, enemy.footprint(), ENGAGEMENT_RANGE)
    if effect.enemy_engaged is False and engaging is not None:
        raise RuleViolation("STR-16", f"{stratagem.name} selects an enemy unit not within "
                                      f"Engagement Range of your army; {enemy.id} is "
                                      f"{engaging[1]:.2f}\" from {engaging[0].id}")
    return enemy


def check_arrival(
    state: W40KState, cmd: UseStratagem, stratagem: Stratagem, effect: ArriveEffect,
    unit: W40KUnit,
) -> Disc:
    """STR-16 (Rapid Ingress): set up wholly on the battlefield, more than X" from enemies."""
    if cmd.at is None:
        raise RuleViolation("STR-16", f"{stratagem.name} needs a position (`at: [x, y]`)")
    placed = Disc(cmd.at[0], cmd.at[1], unit.base, unit.facing or 0.0)
    if not is_wholly_on_board(placed, state.board.width, state.board.height):
        raise RuleViolation("STR-16", f"{unit.id} would not be wholly on the battlefield")
    near = nearest_enemy(state, cmd.by, placed, effect.more_than)
    if near is not None:
        raise RuleViolation("STR-16", f"{stratagem.name} sets {unit.id} up more than "
                                      f"{effect.more_than:g}\" from enemy units; at "
                                      f"{cmd.at[0]:g}, {cmd.at[1]:g} it would be {near[1]:.2f}\" "
                                      f"from {near[0].id}")
    return placed


#: Segments per quarter circle of the no-go discs of `arrival_room`.
ROOM_QUAD_SEGS = 64


def arrival_room(state: W40KState, player: str, unit: W40KUnit, more_than: float) -> BaseGeometry:
    """STR-16 (Rapid Ingress), found exactly: every centre where the unit's base is
    wholly on the battlefield and more than `more_than` inches from every enemy
    unit (each no-go disc circumscribed, so a spot found is truly far enough)."""
    r = unit.base / 2.0
    width, height = state.board.width, state.board.height
    if width < 2 * r or height < 2 * r:
        return box(0, 0, 0, 0)
    no_go = [Point(x, y).buffer(radius, quad_segs=ROOM_QUAD_SEGS)
             for x, y, radius in no_go_discs(state, player, unit, more_than)]
    room: BaseGeometry = box(r, r, width - r, height - r)
    return room.difference(shapely.union_all(no_go)) if no_go else room


def no_go_discs(state: W40KState, player: str, unit: W40KUnit,
                more_than: float) -> list[tuple[float, float, float]]:
    """STR-16: the centre and radius of the circle around each enemy unit that
    `arrival_room`'s no-go polygon lies within (the polygon's corners are on it)."""
    r = unit.base / 2.0
    slack = 1.0 / math.cos(math.pi / (4 * ROOM_QUAD_SEGS))
    return [
        (enemy.x, enemy.y, (more_than + enemy.base / 2.0 + r) * slack + 1e-6)
        for enemy in to_read(state.units)
        if enemy.owner != player and enemy.footprint() is not None
        and enemy.x is not None and enemy.y is not None
    ]


def has_room_to_arrive(state: W40KState, player: str, stratagem: Stratagem,
                       unit: W40KUnit) -> bool:
    """Could the effect set this unit up anywhere (only an Arrive effect asks)?

    A corner or the centre of the area the base's centre may take that lies
    outside the circle around every no-go polygon (`no_go_discs`) has room
    around it, so the room is not empty: the exact room is built only when none
    does (the same answer, found without the geometry in the usual case)."""
    effect = stratagem.effect
    if not isinstance(effect, ArriveEffect):
        return True
    if clear_spot(state, player, unit, effect.more_than):
        return True
    return not arrival_room(state, player, unit, effect.more_than).is_empty


def clear_spot(state: W40KState, player: str, unit: W40KUnit, more_than: float) -> bool:
    """STR-16, the quick answer: is a corner or the centre of the area the base's
    centre may take strictly outside every no-go circle (so `arrival_room` holds
    it, and room around it)?"""
    r = unit.base / 2.0
    width, height = state.board.width, state.board.height
    if width <= 2 * r or height <= 2 * r:
        return False
    discs = no_go_discs(state, player, unit, more_than)
    spots = ((r, r), (width - r, r), (r, height - r), (width - r, height - r),
             (width / 2.0, height / 2.0))
    return any(all(math.hypot(x - cx, y - cy) > radius for cx, cy, radius in discs)
               for x, y in spots)


def check_room_to_arrive(state: W40KState, player: str, stratagem: Stratagem,
                         targets: list[W40KUnit]) -> None:
    """STR-16: an Arrive effect needs some spot to set its unit up at all."""
    effect = stratagem.effect
    for unit in targets:
        if isinstance(effect, ArriveEffect) and not has_room_to_arrive(
                state, player, stratagem, unit):
            raise RuleViolation(
                "STR-16", f"{stratagem.name} sets {unit.id} up more than {effect.more_than:g}\" "
                          f"from enemy units; there is no such spot on the battlefield")


# -- resolving ---------------------------------------------------------------------
def resolve_effect(
    d: Decision, use: str, cmd: UseStratagem, stratagem: Stratagem, targets: list[W40KUnit],
    moment: Moment,
) -> None:
    """STR-16: resolve the effect on the selected targets (checked already)."""
    state = game(d)
    effect = stratagem.effect
    ids = tuple(t.id for t in targets)
    if isinstance(effect, RerollEffect):
        reroll(d, use, roll_to_replace(state, cmd, stratagem, effect, targets, moment))
    elif isinstance(effect, AutoPassBattleShockEffect):
        unit = targets[0]
        d.emit(BattleShockTested(unit=unit.id, roll=None, leadership=unit.leadership,
                                 passed=True, automatic=True, use=use))
    elif isinstance(effect, ConditionsEffect):
        for unit_id in ids:
            d.emit(ConditionsGiven(use=use, unit=unit_id, conditions=effect.conditions))
    elif isinstance(effect, MortalWoundsEffect):
        enemy = check_mortal_wounds_enemy(state, cmd, stratagem, effect, targets[0])
        roll_mortal_wounds(d, use, effect, targets[0], enemy)
    elif isinstance(effect, ArriveEffect):
        placed = check_arrival(state, cmd, stratagem, effect, targets[0])
        facing = cmd.facing if cmd.facing is not None else targets[0].facing or 0.0
        d.emit(UnitArrived(unit=ids[0], x=placed.x, y=placed.y, facing=facing, use=use))
    else:
        d.emit(EffectRecorded(use=use, stratagem=stratagem.id, targets=ids,
                              effect=effect.text, enemy=cmd.enemy))


def reroll(d: Decision, use: str, old: RollRecord) -> None:
    """Roll again; the old roll stays in the log, marked replaced by the new one."""
    state = game(d)
    values = d.roll(old.purpose, len(old.values), 6, old.unit)
    new = state.next_roll_ref()
    d.emit(RollReplaced(roll=old.ref, by=new, use=use))
    if old.purpose == "charge":
        d.emit(ChargeRolled(unit=old.unit, roll=new, values=values, use=use))
    else:
        unit = state.unit(old.unit)
        d.emit(BattleShockTested(unit=unit.id, roll=new, values=values,
                                 leadership=unit.leadership,
                                 passed=sum(values) >= unit.leadership, use=use))


def roll_mortal_wounds(
    d: Decision, use: str, effect: MortalWoundsEffect, unit: W40KUnit, enemy: W40KUnit
) -> None:
    """Roll the effect's dice; each success inflicts one mortal wound on the enemy."""
    state = game(d)
    count = unit.toughness if effect.dice == "toughness" else effect.dice
    values = d.roll(f"mortal wounds ({use})", count, 6, enemy.id)
    wounds = sum(1 for v in values if v >= effect.success)
    if effect.max_wounds is not None:
        wounds = min(wounds, effect.max_wounds)
    left = max(0, enemy.wounds_left - wounds)
    models = enemy.models_for(left)
    d.emit(MortalWoundsRolled(use=use, unit=unit.id, enemy=enemy.id,
                              roll=state.next_roll_ref(), values=values,
                              success=effect.success, mortal_wounds=wounds, wounds_left=left,
                              models_left=models, destroyed=models == 0))
    if models == 0 and enemy.id in state.battle_shock_due:
        # CORE-BATTLE-SHOCK tests units on the battlefield: a destroyed one owes none.
        d.emit(BattleShockTestsCancelled(units=(enemy.id,)))

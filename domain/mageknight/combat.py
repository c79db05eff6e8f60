"""Attacks: the core 2d6 close and ranged combat, with the cavalry rules for the
attacker's base (MNT-39 … MNT-41), its geometry (MNT-45) and the target's
(MNT-46 … MNT-50), and the rider's attack bonus (MNT-14, MNT-15).

A hit is 2d6 + attack + modifiers ≥ defense, and deals the damage value in clicks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from domain.decision import Decision
from domain.errors import RuleViolation
from domain.geometry import in_front_arc, in_rear_arc, is_within, segment
from domain.mageknight.actions import assign_action, check_can_be_given_action, finish_action
from domain.mageknight.allies import difficult_terrain_defense, lof_ignores_difficult_terrain
from domain.mageknight.commands import CloseAttack, RangedAttack
from domain.mageknight.dial import deal_damage, mk_state
from domain.mageknight.figures import (
    Point,
    body,
    check_in_contact,
    is_cavalry,
    is_opposing,
    on_table,
    opposing_in_contact,
    terrain_near,
    unit_of,
    units_on_table,
)
from domain.mageknight.horsemanship import horsemanship_note, horsemanship_penalty
from domain.mageknight.impale import check_no_weapon_master, impale_bonus
from domain.mageknight.restrictions import check_cavalry_may_use
from domain.mageknight.state import Figure, MageKnightState
from events.mageknight import AttackResolved

AttackKind = Literal["close", "ranged", "area"]
AREA_RADIUS = 1.5
"""Bombard hits every figure whose centre dot is within this of the target's (core)."""


def rider_attack_bonus(fig: Figure) -> int:
    """MNT-14: a rider's attack bonus counts only while it is on a mount."""
    return fig.rider_bonus if fig.mount is not None else 0


def attack_value(base: Figure) -> int:
    """MNT-15: the attack value, plus the rider bonus for every kind of attack."""
    return base.now.attack + rider_attack_bonus(base)


def item_abilities(state: MageKnightState, fig: Figure) -> set[str]:
    """The abilities of the items a figure carries."""
    return {
        item.ability
        for item_id in fig.items
        if (item := state.items.get(item_id)) is not None and item.ability is not None
    }


def check_base_abilities(state: MageKnightState, base: Figure, use: Sequence[str]) -> None:
    """MNT-40, MNT-41: attacking with the mount's base, only its abilities may be
    used; with the rider's base, the rider's abilities and its items'."""
    for ability in use:
        if is_cavalry(base) and base.is_mount:
            if ability not in base.abilities:
                raise RuleViolation(
                    "MNT-40",
                    f"using the mount's base, only {base.id}'s abilities count; "
                    f"it has no {ability!r}",
                )
        elif ability not in base.abilities and ability not in item_abilities(state, base):
            rule = "MNT-41" if is_cavalry(base) else "CORE-MK-NO-ABILITY"
            raise RuleViolation(rule, f"{base.id} has no {ability!r}, nor an item with it")


def check_front_arc(state: MageKnightState, unit: Figure, target: Figure | Point) -> None:
    """MNT-45: a cavalry unit attacks from its mount's front arc (core: every
    figure attacks into its front arc)."""
    aim = body(state, target) if isinstance(target, Figure) else target
    if not in_front_arc(body(state, unit), aim):
        rule = "MNT-45" if is_cavalry(unit) else "CORE-MK-FRONT-ARC"
        name = target.id if isinstance(target, Figure) else str(target)
        raise RuleViolation(rule, f"{name} is not in {unit.id}'s front arc")


def check_opposing(unit: Figure, target: Figure) -> None:
    """CORE-MK-TARGET: an attack targets an opposing figure."""
    if not is_opposing(unit, target):
        raise RuleViolation("CORE-MK-TARGET", f"{target.id} is not an opposing figure")


def rear_arc_bonus(state: MageKnightState, unit: Figure, target: Figure) -> int:
    """MNT-50: +1 attack from the target's rear arc; for a cavalry target, its
    mount's rear arc (the attacker's centre dot, MNT-45, behind the target's)."""
    target_base = body(state, target)
    centre = body(state, unit).centre
    return 1 if in_rear_arc(target_base, centre) and not in_front_arc(target_base, centre) else 0


def line_of_fire(state: MageKnightState, unit: Figure, target: Figure) -> tuple[Point, Point]:
    """MNT-45, MNT-47: line of fire runs from the attacker's centre dot (a
    cavalry unit's mount's) to the target's centre (a cavalry target's mount's)."""
    return body(state, unit).centre, body(state, target).centre


def terrain_crossed(state: MageKnightState, origin: Point, aim: Point, kind: str) -> list[str]:
    """The ids of terrain pieces of `kind` that the line of fire crosses."""
    line = segment(origin, aim)
    span = (min(origin[0], aim[0]), min(origin[1], aim[1]),
            max(origin[0], aim[0]), max(origin[1], aim[1]))
    return [piece.id for piece, outline in terrain_near(state, frozenset({kind}), span, 0.0)
            if line.intersects(outline)]


def check_line_of_fire(state: MageKnightState, origin: Point, aim: Point) -> None:
    """CORE-MK-LOF: blocking terrain on the line of fire stops a ranged attack."""
    blocked = terrain_crossed(state, origin, aim, "blocking")
    if blocked:
        raise RuleViolation(
            "CORE-MK-LOF", f"the line of fire crosses blocking terrain {blocked[0]}"
        )


def hindered_defense(state: MageKnightState, base: Figure, origin: Point, aim: Point) -> int:
    """CORE-MK-HINDERED: a line of fire through hindering terrain gives the target
    +1 defense, unless the attacker's LoF ignores it (MNT-131)."""
    if lof_ignores_difficult_terrain(base):
        return 0
    return 1 if terrain_crossed(state, origin, aim, "hindering") else 0


def defense_value(
    state: MageKnightState, base: Figure, unit: Figure, target: Figure, kind: AttackKind
) -> int:
    """The target's defense with its terrain modifiers."""
    defense = target.now.defense + difficult_terrain_defense(state, target, base, kind)
    if kind != "close":
        defense += hindered_defense(state, base, *line_of_fire(state, unit, target))
    return defense


def resolve_attack(
    d: Decision,
    base: Figure,
    unit: Figure,
    targets: Sequence[Figure],
    kind: AttackKind,
    aimed: str | None = None,
) -> None:
    """Roll 2d6 once; each target is hit on 2d6 + attack + modifiers ≥ its defense.
    `aimed`: the figure an area attack was aimed at (else the first target)."""
    state = mk_state(d)
    aimed = aimed or targets[0].id
    roll = sum(d.roll(f"{kind} attack", 2, 6, subject=base.id))
    for target in targets:
        rear = rear_arc_bonus(state, unit, target)
        penalty = horsemanship_penalty(state, target, kind, aimed)
        modifier = rear + penalty
        defense = defense_value(state, base, unit, target, kind)
        attack = attack_value(base)
        hit = roll + attack + modifier >= defense
        damage = base.now.damage + impale_bonus(state, base, kind, len(targets)) if hit else 0
        d.emit(
            AttackResolved(
                attacker=base.id,
                target=target.id,
                kind=kind,
                roll=roll,
                attack=attack,
                modifier=modifier,
                defense=defense,
                hit=hit,
                damage=damage,
            )
        )
        if penalty:
            d.cite("MNT-90", horsemanship_note(
                base, target, kind, roll, attack, {"Horsemanship": penalty, "rear arc": rear},
                defense))
        if hit:
            deal_damage(d, state.units[target.id], damage)


def close_targets(
    state: MageKnightState, unit: Figure, ids: Sequence[str], use: Sequence[str]
) -> list[Figure]:
    """MNT-46: the targets as named (a cavalry unit's rider or mount), each an
    opposing figure in base contact and in the attacker's front arc."""
    targets = [on_table(state, t) for t in ids]
    if len(targets) > 1 and "sweep" not in use:
        raise RuleViolation("CORE-MK-ONE-TARGET", "only Sweep attacks more than one target")
    if len({unit_of(state, t).id for t in targets}) < len(targets):
        raise RuleViolation(
            "CORE-MK-ONE-TARGET", "one attack hits a cavalry unit's rider or mount, not both"
        )
    for target in targets:
        check_opposing(unit, target)
        check_in_contact(state, unit, target, "CORE-MK-CONTACT", "close combat")
        check_front_arc(state, unit, target)
    return targets


def check_close_combat(
    state: MageKnightState, base: Figure, unit: Figure, ids: Sequence[str], use: Sequence[str]
) -> list[Figure]:
    """Every check on a close combat attack with the chosen base (MNT-39); its targets."""
    check_base_abilities(state, base, use)
    check_no_weapon_master(state, base, use)
    return close_targets(state, unit, ids, use)


def decide_close_attack(d: Decision, cmd: CloseAttack) -> None:
    """MNT-39: the figure named is the base that attacks (a cavalry unit's rider or
    mount); no Surge or sub-faction ability for a cavalry unit (MNT-28, MNT-31)."""
    state = mk_state(d)
    base = on_table(state, cmd.figure)
    unit = check_can_be_given_action(state, base, cmd.by)
    check_cavalry_may_use(base, cmd.use)
    targets = check_close_combat(state, base, unit, cmd.targets, cmd.use)
    started = assign_action(d, unit, "close_attack")
    resolve_attack(d, base, unit, targets, "close")
    finish_action(d, started)


def check_not_in_contact_for_ranged(state: MageKnightState, unit: Figure) -> None:
    """CORE-MK-RANGED-CONTACT: a figure in base contact with an opposing figure
    cannot make a ranged attack."""
    engaged = opposing_in_contact(state, unit)
    if engaged:
        raise RuleViolation(
            "CORE-MK-RANGED-CONTACT", f"{unit.id} is in base contact with {engaged[0].id}"
        )


def area_targets(state: MageKnightState, unit: Figure, target: Figure) -> list[Figure]:
    """MNT-48, MNT-49: Bombard hits every figure whose centre dot (a cavalry unit's
    mount's) is within the area; both rider and mount of a unit caught are hit."""
    centre = body(state, target).centre
    hit: list[Figure] = []
    for other in units_on_table(state):
        if other.id != unit.id and is_within(body(state, other).centre, centre, AREA_RADIUS):
            hit.append(other)
            if other.rider is not None:
                hit.append(state.units[other.rider])
    return hit


def ranged_targets(
    state: MageKnightState, base: Figure, unit: Figure, target: Figure, area: bool
) -> list[Figure]:
    """Every check on a ranged attack at `target`; the figures it will hit."""
    check_not_in_contact_for_ranged(state, unit)
    if base.range <= 0:
        raise RuleViolation("CORE-MK-RANGE", f"{base.id} has no range value")
    check_opposing(unit, target)
    origin, aim = line_of_fire(state, unit, target)
    if not is_within(origin, aim, base.range):
        raise RuleViolation(
            "CORE-MK-RANGE",
            f'{target.id} is {((aim[0] - origin[0]) ** 2 + (aim[1] - origin[1]) ** 2) ** 0.5:.2f}" '
            f"away; {base.id}'s range is {base.range:g}",
        )
    check_front_arc(state, unit, aim)
    check_line_of_fire(state, origin, aim)
    if area:
        check_base_abilities(state, base, ["bombard"])
        return area_targets(state, unit, target)
    return [target]


def decide_ranged_attack(d: Decision, cmd: RangedAttack) -> None:
    """MNT-39: the figure named is the base that attacks; geometry is the mount's
    (MNT-45); no Surge or sub-faction ability for a cavalry unit (MNT-28, MNT-31)."""
    state = mk_state(d)
    base = on_table(state, cmd.figure)
    unit = check_can_be_given_action(state, base, cmd.by)
    check_cavalry_may_use(base, cmd.use)
    check_base_abilities(state, base, cmd.use)
    targets = ranged_targets(state, base, unit, on_table(state, cmd.target), cmd.area)
    started = assign_action(d, unit, "ranged_attack")
    resolve_attack(d, base, unit, targets, "area" if cmd.area else "ranged", cmd.target)
    finish_action(d, started)

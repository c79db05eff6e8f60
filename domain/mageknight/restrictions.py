"""What cavalry units cannot do (MNT-08, MNT-25 … MNT-31): free spins, capture,
Surge, being carried by Strong Flyer or Magic Levitation, sub-faction abilities.

Free spin, capture and these abilities are core Mage Knight rules, kept as
small as these restrictions need (A-MNT-04).
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.decision import Decision
from domain.errors import InputError, RuleViolation
from domain.mageknight.actions import (
    assign_action,
    check_can_be_given_action,
    check_controls,
    finish_action,
)
from domain.mageknight.commands import Capture, FreeSpin, UseAbility
from domain.mageknight.dark_riders import is_dark_rider
from domain.mageknight.dial import mk_state
from domain.mageknight.figures import (
    check_in_contact,
    is_cavalry,
    is_opposing,
    on_table,
    unit_of,
)
from domain.mageknight.state import Figure
from events.mageknight import AbilityUsed, FacingChanged, FigureCaptured


def check_mount_free_spin(fig: Figure) -> None:
    """MNT-08: mounts cannot free spin."""
    if fig.is_mount:
        raise RuleViolation("MNT-08", f"{fig.id} is a mount; mounts cannot free spin")


def check_cavalry_free_spin(fig: Figure) -> None:
    """MNT-25: cavalry units cannot free spin."""
    if is_cavalry(fig):
        raise RuleViolation("MNT-25", f"{fig.id} is part of a cavalry unit, which cannot free spin")


def decide_free_spin(d: Decision, cmd: FreeSpin) -> None:
    """Core free spin: turn a figure on the spot, no action needed."""
    fig = on_table(mk_state(d), cmd.figure)
    check_controls(unit_of(mk_state(d), fig), cmd.by)
    check_cavalry_free_spin(fig)
    check_mount_free_spin(fig)
    d.emit(FacingChanged(figure=fig.id, facing=cmd.facing % 360.0))


def check_cavalry_cannot_capture(fig: Figure) -> None:
    """MNT-26: cavalry units cannot capture."""
    if is_cavalry(fig):
        raise RuleViolation("MNT-26", f"{fig.id} is part of a cavalry unit, which cannot capture")


def check_cavalry_cannot_be_captured(target: Figure) -> None:
    """MNT-27: cavalry units cannot be captured."""
    if is_cavalry(target):
        raise RuleViolation(
            "MNT-27", f"{target.id} is part of a cavalry unit and cannot be captured"
        )


def decide_capture(d: Decision, cmd: Capture) -> None:
    """Core capture (an action): take an opposing figure in base contact off the table."""
    state = mk_state(d)
    fig, target = on_table(state, cmd.figure), on_table(state, cmd.target)
    unit = check_can_be_given_action(state, fig, cmd.by)
    check_cavalry_cannot_capture(fig)
    check_cavalry_cannot_be_captured(target)
    if not is_opposing(unit, target):
        raise RuleViolation("CORE-MK-CAPTURE", f"{target.id} is not an opposing figure")
    check_in_contact(state, unit, target, "CORE-MK-CAPTURE", "capture", named=fig.id)
    started = assign_action(d, unit, "capture")
    d.emit(FigureCaptured(figure=target.id, by=fig.id))
    finish_action(d, started)


def check_no_surge(fig: Figure) -> None:
    """MNT-28: cavalry units cannot use Surge (*výpad*, A-MNT-01)."""
    if is_cavalry(fig):
        raise RuleViolation("MNT-28", f"{fig.id} is part of a cavalry unit, which cannot use Surge")


def check_not_strong_flyer_target(target: Figure) -> None:
    """MNT-29: cavalry units cannot be affected by Strong Flyer."""
    if is_cavalry(target):
        raise RuleViolation(
            "MNT-29",
            f"{target.id} is part of a cavalry unit and cannot be affected by Strong Flyer",
        )


def check_not_levitation_target(target: Figure) -> None:
    """MNT-30: cavalry units cannot be affected by Magic Levitation."""
    if is_cavalry(target):
        raise RuleViolation(
            "MNT-30",
            f"{target.id} is part of a cavalry unit and cannot be affected by Magic Levitation",
        )


TARGET_CHECKS = {
    "strong_flyer": check_not_strong_flyer_target,
    "magic_levitation": check_not_levitation_target,
}


def decide_use_ability(d: Decision, cmd: UseAbility) -> None:
    """Use Surge, Strong Flyer or Magic Levitation: a core ability that these
    rules only restrict (A-MNT-04), so its use is recorded as a fact."""
    state = mk_state(d)
    fig = on_table(state, cmd.figure)
    check_controls(unit_of(state, fig), cmd.by)
    if cmd.ability == "surge":
        check_no_surge(fig)
    if cmd.ability not in fig.abilities:
        raise RuleViolation("CORE-MK-NO-ABILITY", f"{fig.id} has no {cmd.ability!r}")
    check_target = TARGET_CHECKS.get(cmd.ability)
    if check_target is not None:
        if cmd.target is None:
            raise InputError(f"{cmd.ability} needs a target figure")
        check_target(on_table(state, cmd.target))
    d.emit(AbilityUsed(figure=fig.id, ability=cmd.ability, target=cmd.target))


def may_use_sub_faction_abilities(fig: Figure) -> bool:
    """MNT-31: cavalry units cannot use sub-faction abilities, except Dark Riders (MNT-124)."""
    return not is_cavalry(fig) or is_dark_rider(fig)


SUB_FACTION_ABILITIES = frozenset({"allies_of_nature", "dark_alliance"})
"""The sub-faction abilities these rules name: the Wylden's (MNT-130) and the
Dark Riders' (MNT-125)."""


def check_sub_faction_ability(fig: Figure, ability: str) -> None:
    """MNT-31: a cavalry unit (Dark Riders excepted, MNT-124) cannot use a
    sub-faction ability."""
    if ability in SUB_FACTION_ABILITIES and not may_use_sub_faction_abilities(fig):
        raise RuleViolation(
            "MNT-31",
            f"{fig.id} is part of a cavalry unit, which cannot use the sub-faction "
            f"ability {ability}",
        )


def check_cavalry_may_use(fig: Figure, use: Sequence[str]) -> None:
    """MNT-28, MNT-31: an action's `use` list names neither Surge nor a sub-faction
    ability for a cavalry unit, whichever of its figures is named."""
    for ability in use:
        if ability == "surge":
            check_no_surge(fig)
        check_sub_faction_ability(fig, ability)

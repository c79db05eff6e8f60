"""Mounting (MNT-79 … MNT-86): a dismounted rider in contact with a friendly
riderless mount of a matching type climbs on as a special action; the new
cavalry unit has one action token and may still act this turn."""

from __future__ import annotations

from domain.decision import Decision
from domain.errors import RuleViolation
from domain.mageknight.actions import assign_action, check_can_be_given_action
from domain.mageknight.building import symbols_match
from domain.mageknight.commands import MountUp
from domain.mageknight.dark_riders import check_collector_pair, is_dark_rider
from domain.mageknight.dial import mk_state
from domain.mageknight.figures import check_in_contact, on_table
from domain.mageknight.state import Figure, MageKnightState
from events.mageknight import RiderMounted, RiderTokensRemoved


def check_is_dismounted_rider(rider: Figure) -> None:
    """MNT-11, MNT-79: only a warrior that can become a rider, and is not on a
    mount now, may mount."""
    if rider.mount is not None:
        raise RuleViolation("MNT-79", f"{rider.id} already rides {rider.mount}")
    if not rider.can_become_rider and not is_dark_rider(rider):
        raise RuleViolation(
            "MNT-11", f"{rider.id} has no mount-type symbol on its base and cannot become a rider"
        )


def check_friendly_riderless_mount(
    state: MageKnightState, rider: Figure, mount: Figure, player: str
) -> None:
    """MNT-80: the mount is friendly (A-MNT-18), has no rider, and touches the rider."""
    if not mount.is_mount or mount.rider is not None:
        raise RuleViolation("MNT-80", f"{mount.id} is not a mount without a rider")
    if mount.controlled_by != player:
        raise RuleViolation("MNT-80", f"{mount.id} is not friendly to {player}")
    check_in_contact(state, mount, rider, "MNT-80", "mounting")


def check_mount_symbols(rider: Figure, mount: Figure) -> None:
    """MNT-81: the mount-type symbols of rider and mount must match
    (Dark Riders: the collector pair, MNT-116)."""
    if is_dark_rider(rider) or is_dark_rider(mount):
        check_collector_pair(rider, mount)
    elif not symbols_match(rider, mount):
        raise RuleViolation(
            "MNT-81",
            f"{rider.id} rides {', '.join(rider.rides)}; {mount.id} is a {mount.mount_type}",
        )


def decide_mount(d: Decision, cmd: MountUp) -> None:
    """MNT-82 … MNT-86: the mount special action, assigned to the dismounted rider."""
    state = mk_state(d)
    rider, mount = on_table(state, cmd.figure), on_table(state, cmd.mount)
    check_can_be_given_action(state, rider, cmd.by)
    check_is_dismounted_rider(rider)
    check_friendly_riderless_mount(state, rider, mount, cmd.by)
    check_mount_symbols(rider, mount)
    assign_action(d, rider, "mount", token=False)
    # MNT-83, MNT-84: into the saddle and the slot; MNT-85, MNT-86: one token, may still act.
    if rider.tokens:
        d.emit(RiderTokensRemoved(rider=rider.id))
    d.emit(RiderMounted(rider=rider.id, mount=mount.id, tokens=1))

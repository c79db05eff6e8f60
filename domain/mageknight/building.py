"""Building cavalry units at set-up (MNT-03 … MNT-24): mounts come into play
only with a rider whose symbols match, and both point values count.

A script gives `rider: <id>` on the mount; set-up puts the rider's base in
the mount's slot (MNT-18, MNT-21): the rider then stands at the mount's centre
and names its mount. A bad cavalry unit makes the script malformed, and the
message starts with the clause it breaks.
"""

from __future__ import annotations

from typing import Any

from domain.errors import ScriptError
from domain.mageknight.dark_riders import is_collector_pair, is_dark_rider
from domain.mageknight.state import REMOVED_FROM_GAME, Figure, MageKnightState
from events.base import Fact
from events.core import UnitFielded


def symbols_match(rider: Figure, mount: Figure) -> bool:
    """MNT-12: a warrior may ride the mount types whose symbols are on its base
    (for Dark Riders, MNT-116: the collector pair instead)."""
    if is_dark_rider(rider) or is_dark_rider(mount):
        return is_collector_pair(rider, mount)
    return mount.mount_type in rider.rides


def check_mount_has_rider(mount: Figure) -> None:
    """MNT-23: a mount must not be put into play without a rider."""
    if mount.rider is None:
        raise ScriptError(f"MNT-23: mount {mount.id} cannot be put into play without a rider")


def check_only_as_cavalry(mount: Figure, rider: Figure | None) -> None:
    """MNT-22: a mount comes into play only as part of a cavalry unit (with a warrior)."""
    if rider is None or rider.kind != "warrior" or rider.owner != mount.owner:
        raise ScriptError(
            f"MNT-22: mount {mount.id} comes into play only with a rider of its own side; "
            f"{mount.rider!r} is not one"
        )


def check_one_status(mount: Figure, rider: Figure) -> None:
    """CORE-MK-SETUP: a mount and its rider are one figure (MNT-32), so both halves
    are on the table, in reserve or removed together."""
    if mount.status != rider.status:
        raise ScriptError(
            f"CORE-MK-SETUP: mount {mount.id} is {mount.status} but its rider {rider.id} is "
            f"{rider.status}; a cavalry unit's mount and rider are one figure (MNT-32) "
            "with one status"
        )


def check_can_be_detached(rider: Figure) -> None:
    """MNT-20: only a warrior that can become a rider (MNT-11) may leave its base
    for a saddle."""
    if not rider.can_become_rider and not is_dark_rider(rider):
        raise ScriptError(
            f"MNT-20: {rider.id} has no mount-type symbol on its base and cannot become a rider"
        )


def check_symbols(rider: Figure, mount: Figure) -> None:
    """MNT-12 (MNT-116 for Dark Riders): the rider's symbols allow this mount."""
    if symbols_match(rider, mount):
        return
    if is_dark_rider(rider) or is_dark_rider(mount):
        raise ScriptError(
            f"MNT-116: Dark Riders pair by collector number; {rider.id} ({rider.collector}) "
            f"cannot ride {mount.id} ({mount.collector})"
        )
    raise ScriptError(
        f"MNT-12: {rider.id} rides {', '.join(rider.rides)}; {mount.id} is a {mount.mount_type}"
    )


def link_cavalry_units(facts: list[Fact]) -> list[Fact]:
    """MNT-17 … MNT-23: check each mount's rider and put it in the mount's slot."""
    raw: dict[str, dict[str, Any]] = {}
    for fact in facts:
        assert isinstance(fact, UnitFielded)
        raw[str(fact.unit["id"])] = dict(fact.unit)
    figures = {fid: Figure.model_validate(data) for fid, data in raw.items()}
    seated: dict[str, str] = {}
    for fig in figures.values():
        if fig.mount is not None:
            raise ScriptError(f"{fig.id}: give `rider: {fig.id}` on the mount, not `mount`")
        if not fig.is_mount:
            continue
        check_mount_has_rider(fig)
        assert fig.rider is not None
        rider = figures.get(fig.rider)
        check_only_as_cavalry(fig, rider)
        assert rider is not None
        if rider.id in seated:
            raise ScriptError(f"MNT-22: {rider.id} already rides {seated[rider.id]}")
        check_one_status(fig, rider)
        check_can_be_detached(rider)
        check_symbols(rider, fig)
        seated[rider.id] = fig.id
        raw[rider.id].update(mount=fig.id, x=fig.x, y=fig.y, facing=fig.facing)
    return [UnitFielded(unit=raw[str(f.unit["id"])]) for f in facts if isinstance(f, UnitFielded)]


def victory_points(state: MageKnightState) -> dict[str, int]:
    """CORE-MK-SCORE: a player scores the points of each opposing figure that left
    the table in their player turn; a mount removed from the game (MNT-63) counts
    as eliminated unless `score_removed_from_game` is false (A-MNT-12). Riders and
    mounts score separately, each its own points (MNT-24)."""
    counts_removed = bool(state.options.get("score_removed_from_game", True))
    scores = dict.fromkeys(state.players, 0)
    for fig in state.units.values():
        scorer = fig.removed_in_turn_of
        if scorer is None or scorer == fig.owner or scorer not in scores:
            continue
        if REMOVED_FROM_GAME in fig.conditions and not counts_removed:
            continue
        scores[scorer] += fig.points
    return scores


def army_points(state: MageKnightState) -> dict[str, int]:
    """MNT-24: the build total counts both the rider's and the mount's points."""
    totals = dict.fromkeys(state.players, 0)
    for fig in state.units.values():
        totals[fig.owner] += fig.points
    return totals

"""Combat dials: damage, healing, elimination, and what elimination does to a
cavalry unit (MNT-51, MNT-55 … MNT-59, with MNT-120 … MNT-123 for Dark Riders).
"""

from __future__ import annotations

from typing import Literal

from domain.decision import Decision
from domain.mageknight.dark_riders import is_protected_mount, keeps_figure_in_saddle
from domain.mageknight.figures import Point, find_room, is_cavalry, members, rider_of, unit_of
from domain.mageknight.state import Figure, MageKnightState
from events.mageknight import (
    DialReset,
    FigureDamaged,
    FigureEliminated,
    FigureHealed,
    RiderDismounted,
    RiderLost,
    TokensRemoved,
)


def mk_state(d: Decision) -> MageKnightState:
    """The decision's state, as Mage Knight state."""
    assert isinstance(d.state, MageKnightState)
    return d.state


def deal_damage(d: Decision, fig: Figure, clicks: int, *, pushing: bool = False) -> None:
    """Core: each click of damage turns the dial one click on; past its last click
    (three skulls) the figure is eliminated."""
    if clicks <= 0 or fig.status != "on_table":
        return
    assert fig.click is not None
    new = fig.click + clicks
    if new < len(fig.dial):
        d.emit(FigureDamaged(figure=fig.id, clicks=clicks, click=new, pushing=pushing))
    elif is_protected_mount(fig):
        reset_dark_riders_dial(d, fig)
    else:
        eliminate(d, fig, f"took {clicks} click(s) of damage past its last click")


def reset_dark_riders_dial(d: Decision, mount: Figure) -> None:
    """MNT-121: three skulls on a Dark Riders mount whose rider lives turn its
    dial back to its starting click (A-MNT-33)."""
    d.emit(DialReset(figure=mount.id, click=mount.start_click))
    d.cite(
        "MNT-121",
        f"{mount.id} showed 3 skulls; its dial is reset to click "
        f"{mount.start_click} because its rider is still in play",
    )


def pushing_recipient(state: MageKnightState, fig: Figure) -> Figure:
    """MNT-51: pushing damage on a cavalry unit goes to the rider or the mount,
    as the unit's controller chose (A-MNT-10; `choose_pushing`)."""
    unit = unit_of(state, fig)
    rider = rider_of(state, unit)
    if rider is not None and unit.pushing_to == "rider":
        return rider
    return unit


def deal_pushing_damage(d: Decision, fig: Figure, clicks: int = 1) -> None:
    """Pushing damage to a figure, or to the chosen part of a cavalry unit (MNT-51)."""
    deal_damage(d, pushing_recipient(mk_state(d), fig), clicks, pushing=True)


def healed_click(fig: Figure, clicks: int) -> int:
    """Core, MNT-128: healing turns the dial back toward `start_click`, never past
    it and never forward (A-MNT-35)."""
    assert fig.click is not None
    return min(fig.click, max(fig.start_click, fig.click - clicks))


def heal(d: Decision, fig: Figure, clicks: int) -> None:
    """Heal the figure up to `clicks` clicks (`healed_click`)."""
    assert fig.click is not None
    new = healed_click(fig, clicks)
    d.emit(FigureHealed(figure=fig.id, clicks=fig.click - new, click=new))


def eliminate(d: Decision, fig: Figure, reason: str) -> None:
    """Eliminate a figure; a cavalry unit loses its tokens and is split (MNT-55 … MNT-59)."""
    state = mk_state(d)
    if is_cavalry(fig):
        remove_cavalry_tokens(d, fig)
    rider = rider_of(state, fig) if fig.is_mount else None
    if rider is not None:
        eliminate_mount_before_rider(d, fig, rider, reason)
    elif fig.mount is not None:
        eliminate_rider(d, fig, state.units[fig.mount], reason)
    else:
        d.emit(FigureEliminated(figure=fig.id, reason=reason))


def remove_cavalry_tokens(d: Decision, fig: Figure) -> None:
    """MNT-59: when the rider or the mount is eliminated, the unit's action tokens go."""
    d.emit(TokensRemoved(figures=members(mk_state(d), fig), reason="MNT-59"))


def eliminate_mount_before_rider(d: Decision, mount: Figure, rider: Figure, reason: str) -> None:
    """MNT-55, MNT-56, MNT-57: the rider goes back on its own base, is placed in
    contact with its mount, and then the mount is removed."""
    spot = find_room(mk_state(d), rider, mount)
    if spot is None:
        remove_both(d, mount, rider)
        return
    put_rider_beside(d, rider, mount, spot, "mount_eliminated")
    d.emit(FigureEliminated(figure=mount.id, reason=reason))
    d.cite(
        "MNT-56",
        f"{mount.id} was eliminated before its rider; {rider.id} is placed in "
        f"contact with it at ({spot[0]:g}, {spot[1]:g}), then {mount.id} is removed",
    )


def put_rider_beside(
    d: Decision,
    rider: Figure,
    mount: Figure,
    spot: Point,
    cause: Literal["dismount", "unhorsed", "mount_eliminated"],
    *,
    fresh: bool = False,
) -> None:
    """The rider leaves the saddle for its own base, at `spot` in contact with its
    mount, facing as the mount does (MNT-56, MNT-75, MNT-76, MNT-106)."""
    d.emit(
        RiderDismounted(
            rider=rider.id,
            mount=mount.id,
            x=spot[0],
            y=spot[1],
            facing=mount.facing or 0.0,
            cause=cause,
            fresh=fresh,
        )
    )


def remove_both(d: Decision, mount: Figure, rider: Figure) -> None:
    """MNT-58: with no room for the rider in contact with its mount, both are removed."""
    d.emit(
        RiderLost(mount=mount.id, rider=rider.id),
        FigureEliminated(figure=rider.id, reason="MNT-58: no room beside its mount"),
        FigureEliminated(figure=mount.id, reason="MNT-58: eliminated with no room for its rider"),
    )
    d.cite("MNT-58", f"no room for {rider.id} in contact with {mount.id}: both are removed")


def eliminate_rider(d: Decision, rider: Figure, mount: Figure, reason: str) -> None:
    """A-MNT-11: the rider goes and the mount stays, riderless; a Dark Riders
    figure stays in the saddle (MNT-122, MNT-123)."""
    in_saddle = keeps_figure_in_saddle(rider)
    d.emit(
        RiderLost(mount=mount.id, rider=rider.id, in_saddle=in_saddle),
        FigureEliminated(figure=rider.id, reason=reason),
    )
    if in_saddle:
        d.cite(
            "MNT-123",
            f"{rider.id} is eliminated: its base leaves {mount.id}'s slot and "
            "its figure stays in the saddle; the mount now has no rider",
        )

"""Riderless mounts and their intelligence levels (MNT-60 … MNT-67), checked in
every player's phases (A-MNT-15)."""

from __future__ import annotations

from domain.decision import Decision
from domain.mageknight.dial import mk_state
from domain.mageknight.state import INTELLIGENCE, Figure, IntelligenceLevel, MageKnightState
from domain.state import to_read
from events.mageknight import AllegianceChanged, FigureRemovedFromGame


def intelligence_level(mount: Figure) -> IntelligenceLevel:
    """MNT-61, MNT-62: circle = Timid, pentagon = Independent, square = Evil."""
    assert mount.intelligence is not None
    return INTELLIGENCE[mount.intelligence]


def riderless_mounts(state: MageKnightState, level: IntelligenceLevel) -> list[Figure]:
    """MNT-60: the mounts on the table without a rider, of one intelligence level.

    MNT-64: an Independent mount has no rule here at all: it stays in play as
    a normal warrior of its owner."""
    return [
        fig
        for fig in sorted(to_read(state.units), key=lambda f: f.id)
        if fig.is_mount
        and fig.status == "on_table"
        and fig.rider is None
        and intelligence_level(fig) == level
    ]


def remove_timid_mounts(d: Decision) -> None:
    """MNT-63: at the start of any player's end phase, a riderless Timid mount
    is removed from the game."""
    for mount in riderless_mounts(mk_state(d), "timid"):
        d.emit(FigureRemovedFromGame(figure=mount.id, reason="MNT-63: a Timid mount with no rider"))
        d.cite("MNT-63", f"Timid mount {mount.id} has no rider: removed from the game")


def turn_evil_mounts(d: Decision) -> None:
    """MNT-65, MNT-66: at the start of any player's command phase, a riderless Evil
    mount becomes that player's warrior, and an enemy of every other player."""
    state = mk_state(d)
    for mount in riderless_mounts(state, "evil"):
        if mount.controlled_by != state.active_player:
            d.emit(AllegianceChanged(figure=mount.id, controller=state.active_player))
        d.cite(
            "MNT-65",
            f"Evil mount {mount.id} has no rider: it fights for {state.active_player} this turn",
        )


def end_evil_allegiance(d: Decision) -> None:
    """MNT-67: a riderless Evil mount's allegiance lasts for the rest of that turn
    only. A mount that a rider of its new side has mounted meanwhile stays with
    that rider's cavalry unit (CORE-MK-EVIL)."""
    for fig in sorted(to_read(mk_state(d).units), key=lambda f: f.id):
        if fig.controller is not None and fig.rider is None:
            d.emit(AllegianceChanged(figure=fig.id, controller=None))

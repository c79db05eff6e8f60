"""Items: dropped and picked up in contact with the figure's base; for a rider,
with its mount's base (MNT-42 … MNT-44)."""

from __future__ import annotations

from domain.decision import Decision
from domain.errors import InputError, RuleViolation
from domain.geometry import Disc, distance
from domain.mageknight.actions import check_controls
from domain.mageknight.commands import DropItem, PickUpItem
from domain.mageknight.dial import mk_state
from domain.mageknight.figures import (
    body,
    is_free_spot,
    is_touching,
    members,
    on_table,
    unit_of,
)
from domain.mageknight.state import Figure, Item, MageKnightState
from events.mageknight import ItemDropped, ItemPickedUp


def check_can_carry(fig: Figure) -> None:
    """MNT-42, MNT-43: a warrior (a rider too, while in a cavalry unit) may drop
    and pick up items; a mount cannot carry them."""
    if fig.is_mount:
        raise RuleViolation("CORE-MK-ITEMS", f"{fig.id} is a mount and cannot carry items")


def check_item_in_contact(state: MageKnightState, fig: Figure, spot: Disc) -> None:
    """MNT-44: the item must touch the base of the rider's mount (a warrior's own base)."""
    base = body(state, fig)
    if not is_touching(spot, base):
        rule = "MNT-44" if fig.mount is not None else "CORE-MK-ITEMS"
        where = f"{fig.mount}'s base" if fig.mount is not None else f"{fig.id}'s base"
        raise RuleViolation(
            rule,
            f'the item at ({spot.x:g}, {spot.y:g}) is {distance(spot, base):.2f}" from '
            f"{where}; it must be in contact",
        )


def item(state: MageKnightState, item_id: str) -> Item:
    """The item with this id (INPUT if there is none)."""
    found = state.items.get(item_id)
    if found is None:
        raise InputError(f"there is no item {item_id!r}")
    return found


def carrier_and_item(
    state: MageKnightState, figure_id: str, item_id: str, player: str
) -> tuple[Figure, Item]:
    """The player's figure that drops or picks up, and the item (MNT-42, MNT-43)."""
    fig = on_table(state, figure_id)
    check_controls(unit_of(state, fig), player)
    check_can_carry(fig)
    return fig, item(state, item_id)


def decide_drop_item(d: Decision, cmd: DropItem) -> None:
    """Drop a carried item at a spot in contact (MNT-42, MNT-44)."""
    state = mk_state(d)
    fig, thing = carrier_and_item(state, cmd.figure, cmd.item, cmd.by)
    if cmd.item not in fig.items:
        raise InputError(f"{fig.id} does not carry {cmd.item}")
    spot = Disc(cmd.at[0], cmd.at[1], thing.size)
    check_item_in_contact(state, fig, spot)
    if not is_free_spot(state, spot, set(members(state, fig))):
        raise RuleViolation("CORE-MK-ITEMS", f"there is no room for {cmd.item} there")
    d.emit(ItemDropped(figure=fig.id, item=cmd.item, x=cmd.at[0], y=cmd.at[1]))


def decide_pick_up_item(d: Decision, cmd: PickUpItem) -> None:
    """Pick up an item lying in contact (MNT-43, MNT-44)."""
    state = mk_state(d)
    fig, thing = carrier_and_item(state, cmd.figure, cmd.item, cmd.by)
    if thing.carried_by is not None or thing.x is None or thing.y is None:
        raise InputError(f"{cmd.item} is not lying on the table")
    check_item_in_contact(state, fig, Disc(thing.x, thing.y, thing.size))
    d.emit(ItemPickedUp(figure=fig.id, item=cmd.item))

"""Set-up checks beyond building cavalry units: a script fields only positions
that play can reach (CORE-MK-SETUP).

Conditions that play derives or records are not a script's to give; every item
lies on the board or is carried by one warrior (CORE-MK-ITEMS), and the state
names its carrier; bases stand clear of each other and of blocking terrain
(CORE-MK-MOVE). A problem makes the script malformed (`ScriptError`).
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.errors import ScriptError
from domain.geometry import Disc, is_wholly_on_board
from domain.mageknight.figures import (
    blocking_terrain_under,
    body,
    overlapped_base,
    units_on_table,
)
from domain.mageknight.state import CAPTURED_BY, PLAY_CONDITIONS, Figure, Item, MageKnightState
from domain.ruleset import Setup
from events.base import Fact
from events.core import Board, UnitFielded
from events.mageknight import ItemEquipped


def check_script_conditions(facts: Sequence[Fact]) -> None:
    """CORE-MK-SETUP: `mounted`, `riderless`, `dismounted_rider`, `removed_from_game`
    and `captured_by:…` are derived or recorded by play; a script cannot give them."""
    for index, fact in enumerate(facts):
        assert isinstance(fact, UnitFielded)
        given = sorted(
            str(c)
            for c in fact.unit.get("conditions", [])
            if c in PLAY_CONDITIONS or str(c).startswith(CAPTURED_BY)
        )
        if given:
            raise ScriptError(
                f"units[{index}]: CORE-MK-SETUP: the condition(s) {', '.join(given)} are kept "
                "by the game as it is played; a script cannot set them"
            )


def unique_item_ids(items: list[Item]) -> list[Item]:
    """CORE-MK-ITEMS: each item in `options.items` has its own id."""
    seen: set[str] = set()
    for item in items:
        if item.id in seen:
            raise ValueError(f"CORE-MK-ITEMS: item id {item.id!r} is listed twice")
        seen.add(item.id)
    return items


def check_carried_item(
    fig: Figure, item_id: str, listed: dict[str, Item], carriers: dict[str, str]
) -> None:
    """CORE-MK-ITEMS: a carried item is a warrior's (mounts carry none), is one of
    `options.items`, and has one carrier."""
    if fig.is_mount:
        raise ScriptError(
            f"units: CORE-MK-ITEMS: mount {fig.id} carries {item_id}; mounts carry no items"
        )
    if item_id not in listed:
        raise ScriptError(
            f"units: CORE-MK-ITEMS: {fig.id} carries {item_id!r}, which options.items "
            "does not list"
        )
    if item_id in carriers:
        raise ScriptError(
            f"units: CORE-MK-ITEMS: {item_id} is carried twice ({carriers[item_id]}, {fig.id}); "
            "an item has one carrier"
        )


def check_item_whereabouts(item: Item, carrier: str | None, board: Board) -> None:
    """CORE-MK-ITEMS: an item is carried (by the figure that lists it, as its
    `carried_by` says if given) or lies wholly on the board at `x, y`."""
    where = "options.items: CORE-MK-ITEMS:"
    if item.carried_by is not None and item.carried_by != carrier:
        held = f"{carrier} carries it" if carrier else "no figure lists it in its items"
        raise ScriptError(f"{where} {item.id} has carried_by {item.carried_by!r}, but {held}")
    placed = item.x is not None or item.y is not None
    if carrier is not None and placed:
        raise ScriptError(
            f"{where} {item.id} is carried by {carrier} and also given x, y; an item is "
            "carried or lies on the table, not both"
        )
    if carrier is None and (item.x is None or item.y is None):
        raise ScriptError(
            f"{where} {item.id} is carried by no figure and lacks x or y; an item lies on "
            "the table at x, y or is carried"
        )
    if item.x is not None and item.y is not None and not is_wholly_on_board(
        Disc(item.x, item.y, item.size), board.width, board.height
    ):
        raise ScriptError(
            f"{where} {item.id} at ({item.x:g}, {item.y:g}) is not wholly on the "
            f'{board.width:g}" x {board.height:g}" board'
        )


def equipment_facts(setup: Setup, facts: Sequence[Fact]) -> list[Fact]:
    """Check the items of the script (CORE-MK-ITEMS); one `ItemEquipped` for each
    item a figure carries from the start, so the item names its carrier."""
    listed = {i.id: i for i in (Item.model_validate(raw) for raw in setup.options.get("items", []))}
    carriers: dict[str, str] = {}
    equipped: list[Fact] = []
    for fact in facts:
        assert isinstance(fact, UnitFielded)
        fig = Figure.model_validate(fact.unit)
        for item_id in fig.items:
            check_carried_item(fig, item_id, listed, carriers)
            carriers[item_id] = fig.id
            equipped.append(ItemEquipped(figure=fig.id, item=item_id))
    for item in listed.values():
        check_item_whereabouts(item, carriers.get(item.id), setup.board)
    return equipped


def check_bases_clear(state: MageKnightState) -> None:
    """CORE-MK-MOVE: every base on the table stands clear of the other bases
    (touching is allowed) and off blocking and impassable terrain."""
    for fig in units_on_table(state):
        shape = body(state, fig)
        other = overlapped_base(state, shape, {fig.id})
        if other is not None:
            raise ScriptError(
                f"units: CORE-MK-MOVE: {fig.id}'s base overlaps {other.id}'s; bases stand "
                "clear of each other"
            )
        piece = blocking_terrain_under(state, shape)
        if piece is not None:
            raise ScriptError(
                f"units: CORE-MK-MOVE: {fig.id}'s base stands on {piece.kind} terrain {piece.id}"
            )

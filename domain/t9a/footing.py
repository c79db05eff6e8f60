"""Where any unit may end a placement or a Move: formation, board, Unit Spacing.

These core checks serve Deployment, the plain Moves and, citing AMB-14 and
AMB-15, arrival from Ambush.
"""

from __future__ import annotations

from domain.errors import RuleViolation
from domain.geometry import Obstacles, Rect
from domain.t9a.placement import UNIT_SPACING, is_legal_formation, is_on_board, too_close
from domain.t9a.units import T9AState, T9AUnit
from domain.words import counted


def check_formation(unit: T9AUnit, files: int, ranks: int, *, clause: str) -> None:
    """CORE-FORMATION (AMB-14 for an arrival): the formation is legal, i.e.
    `files·(ranks−1) < models ≤ files·ranks` (RULINGS)."""
    if not is_legal_formation(files, ranks, unit.models):
        raise RuleViolation(
            clause,
            f"{unit.id} has {counted(unit.models, 'model')}; {counted(files, 'file')} × "
            f"{counted(ranks, 'rank')} is not a legal "
            f"formation (it needs more than {files * (ranks - 1)} and at most {files * ranks})",
        )


def check_wholly_on_board(state: T9AState, unit: T9AUnit, rect: Rect) -> None:
    """CORE-BOARD-EDGE: every unit on the table lies wholly on the board (RULINGS)."""
    if not is_on_board(state, rect):
        xs = [x for x, _ in rect.corners]
        ys = [y for _, y in rect.corners]
        raise RuleViolation(
            "CORE-BOARD-EDGE",
            f"{unit.id}'s footprint (x {min(xs):.2f}…{max(xs):.2f}, y {min(ys):.2f}…"
            f"{max(ys):.2f}) is not wholly on the {state.board.width:g}\" × "
            f"{state.board.height:g}\" board",
        )


def check_unit_spacing(
    state: T9AState, unit: T9AUnit, rect: Rect, *, clause: str, index: Obstacles | None = None
) -> None:
    """CORE-UNIT-SPACING (AMB-15 for an arrival): the unit ends more than 1″ from every
    other unit and from Impassable Terrain (RULINGS, Unit Spacing)."""
    near = too_close(state, rect, ignore=(unit.id, *state.members_of(unit.id)), index=index)
    if near:
        what = ", ".join(f"{key} ({gap:.2f}\")" for key, gap in near)
        raise RuleViolation(
            clause,
            f"Unit Spacing: {unit.id} would be within {UNIT_SPACING:g}\" of {what}; "
            f"it must be more than {UNIT_SPACING:g}\" away",
        )

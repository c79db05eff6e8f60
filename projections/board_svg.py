"""Board pictures as SVG: the table, terrain, unit footprints with their fronts.

Rule sets add overlays (a placement check, arcs, zones of control) as
`Overlay` items; this module only knows how to draw shapes. y points up on
the table, so the picture is flipped into SVG's downward y.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html import escape
from itertools import pairwise
from textwrap import wrap

from shapely.geometry.base import BaseGeometry

from domain.geometry import Disc, Footprint, Rect, heading_vector
from domain.state import GameState

SCALE = 12.0  # pixels per inch
MARGIN = 24.0
PALETTE = ("#c0392b", "#2962ff", "#2e7d32", "#8e24aa")
TERRAIN_FILL = {
    "impassable": "#5d4037",
    "blocking": "#455a64",
    "hindering": "#a5d6a7",
    "elevated": "#d7ccc8",
    "clear": "#f1f8e9",
}


@dataclass(frozen=True)
class Overlay:
    """Something drawn over the board: a shape or a point, with a label."""

    geometry: BaseGeometry | tuple[float, float]
    stroke: str = "#000"
    fill: str = "none"
    label: str = ""
    dashed: bool = False
    opacity: float = 1.0
    #: A note is a line of text under the board (a verdict), not a shape.
    note: bool = False
    #: Where a point's label goes, in inches from the point; text grows away from it.
    label_offset: tuple[float, float] = (0.4, 0.4)

    def bounds(self) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of what this overlay draws."""
        if isinstance(self.geometry, tuple):
            x, y = self.geometry
            return x - 0.5, y - 0.5, x + 0.5, y + 0.5
        min_x, min_y, max_x, max_y = self.geometry.bounds
        return float(min_x), float(min_y), float(max_x), float(max_y)


@dataclass
class Picture:
    """An SVG of the table region `min_x..max_x` × `min_y..max_y` (inches).

    The region is the board, grown to hold every overlay (a 6" circle round a
    point on the board edge reaches off the board).
    """

    min_x: float
    min_y: float
    max_x: float
    max_y: float
    notes: list[str] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)

    def xy(self, x: float, y: float) -> tuple[float, float]:
        return MARGIN + (x - self.min_x) * SCALE, MARGIN + (self.max_y - y) * SCALE

    def polygon(self, points: Iterable[tuple[float, float]], *, stroke: str, fill: str,
                dashed: bool = False, opacity: float = 1.0, title: str = "") -> None:
        coords = " ".join(f"{px:.2f},{py:.2f}" for px, py in (self.xy(x, y) for x, y in points))
        dash = ' stroke-dasharray="6,4"' if dashed else ""
        tip = f"<title>{escape(title)}</title>" if title else ""
        self.parts.append(
            f'<polygon points="{coords}" stroke="{stroke}" fill="{fill}" '
            f'fill-opacity="{opacity}" stroke-width="1.5"{dash}>{tip}</polygon>'
        )

    def line(self, a: tuple[float, float], b: tuple[float, float], *, stroke: str,
             width: float = 1.5, dashed: bool = False) -> None:
        (x1, y1), (x2, y2) = self.xy(*a), self.xy(*b)
        dash = ' stroke-dasharray="6,4"' if dashed else ""
        self.parts.append(
            f'<line x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}" '
            f'stroke="{stroke}" stroke-width="{width}"{dash}/>'
        )

    def circle(self, centre: tuple[float, float], radius: float, *, stroke: str, fill: str,
               dashed: bool = False, opacity: float = 1.0) -> None:
        cx, cy = self.xy(*centre)
        dash = ' stroke-dasharray="6,4"' if dashed else ""
        self.parts.append(
            f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="{radius * SCALE:.2f}" stroke="{stroke}" '
            f'fill="{fill}" fill-opacity="{opacity}" stroke-width="1.5"{dash}/>'
        )

    def text(self, at: tuple[float, float], label: str, *, size: int = 11,
             colour: str = "#000", anchor: str = "start") -> None:
        x, y = self.xy(*at)
        self.parts.append(
            f'<text x="{x:.2f}" y="{y:.2f}" font-family="sans-serif" font-size="{size}" '
            f'fill="{colour}" text-anchor="{anchor}">{escape(label)}</text>'
        )

    def svg(self) -> str:
        w = (self.max_x - self.min_x) * SCALE + 2 * MARGIN
        board_h = (self.max_y - self.min_y) * SCALE + 2 * MARGIN
        lines = [line for note in self.notes for line in wrap(note, width=int(w / 6.5))]
        h = board_h + 16 * len(lines) + 8
        texts = [
            f'<text x="{MARGIN:.0f}" y="{board_h + 16 * i:.0f}" font-family="sans-serif" '
            f'font-size="12">{escape(line)}</text>'
            for i, line in enumerate(lines)
        ]
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
            f'viewBox="0 0 {w:.0f} {h:.0f}">\n'
            f'<rect x="0" y="0" width="{w:.0f}" height="{h:.0f}" fill="white"/>\n'
            + "\n".join(self.parts + texts) + "\n</svg>\n"
        )


def draw_footprint(
    pic: Picture, shape: Footprint, colour: str, label: str, label_at: tuple[float, float]
) -> None:
    """A unit's outline with its front edge (or front tick) drawn thick."""
    if isinstance(shape, Rect):
        pic.polygon(shape.corners, stroke=colour, fill=colour, opacity=0.25, title=label)
        front_left, front_right = shape.front_edge
        pic.line(front_left, front_right, stroke=colour, width=4)
    else:
        assert isinstance(shape, Disc)
        pic.circle(shape.centre, shape.radius, stroke=colour, fill=colour, opacity=0.25)
        dx, dy = heading_vector(shape.facing)
        tip = (shape.x + dx * shape.radius, shape.y + dy * shape.radius)
        pic.line(shape.centre, tip, stroke=colour, width=3)
    pic.text(label_at, label, size=10, colour="#000")


def label_spot(
    centre: tuple[float, float], taken: dict[tuple[float, float], int]
) -> tuple[float, float]:
    """Where a unit's label goes: beside its centre, stacked below any label that
    already stands there (a rider drawn on its mount, say)."""
    key = (round(centre[0], 1), round(centre[1], 1))
    count = taken.get(key, 0)
    taken[key] = count + 1
    return centre[0] + 0.3, centre[1] + 0.3 - 0.9 * count


def draw_overlay(pic: Picture, overlay: Overlay) -> None:
    """One overlay: a point, a line, or a polygon."""
    geom = overlay.geometry
    if isinstance(geom, tuple):
        pic.circle(geom, 0.25, stroke=overlay.stroke, fill=overlay.stroke)
        if overlay.label:
            dx, dy = overlay.label_offset
            pic.text((geom[0] + dx, geom[1] + dy), overlay.label, colour=overlay.stroke,
                     anchor="end" if dx < 0 else "start")
        return
    if geom.geom_type in ("LineString", "LinearRing"):
        coords = list(geom.coords)
        for a, b in pairwise(coords):
            pic.line(a, b, stroke=overlay.stroke, dashed=overlay.dashed)
    elif geom.geom_type == "Polygon":
        pic.polygon(geom.exterior.coords, stroke=overlay.stroke, fill=overlay.fill,
                    dashed=overlay.dashed, opacity=overlay.opacity, title=overlay.label)
    elif geom.geom_type == "Point":
        pic.circle((geom.x, geom.y), 0.25, stroke=overlay.stroke, fill=overlay.stroke)
    elif hasattr(geom, "geoms"):
        for part in geom.geoms:
            draw_overlay(pic, Overlay(part, overlay.stroke, overlay.fill, "", overlay.dashed,
                                      overlay.opacity))
    if overlay.label and geom.geom_type != "Point":
        x, y = geom.representative_point().coords[0]
        pic.text((x, y), overlay.label, colour=overlay.stroke)


def board_svg(state: GameState, overlays: Sequence[Overlay] = (), caption: str = "") -> str:
    """The board with terrain, units and overlays, as an SVG document."""
    shapes = [o for o in overlays if not o.note]
    boxes = [(0.0, 0.0, state.board.width, state.board.height), *(o.bounds() for o in shapes)]
    pic = Picture(min(b[0] for b in boxes), min(b[1] for b in boxes),
                  max(b[2] for b in boxes), max(b[3] for b in boxes))
    pic.polygon([(0, 0), (state.board.width, 0), (state.board.width, state.board.height),
                 (0, state.board.height)], stroke="#333", fill="#fafaf5")
    for piece in state.terrain:
        pic.polygon(piece.polygon, stroke="#222", fill=TERRAIN_FILL.get(piece.kind, "#ccc"),
                    opacity=0.8, title=f"{piece.id} ({piece.kind})")
        x, y = piece.polygon[0]
        pic.text((x, y - 0.8), f"{piece.id} ({piece.kind})", size=9)
    colours = {p: PALETTE[i % len(PALETTE)] for i, p in enumerate(state.players)}
    labelled: dict[tuple[float, float], int] = {}
    for unit_id, unit in sorted(state.units.items()):
        shape = unit.footprint()
        if shape is not None:
            draw_footprint(pic, shape, colours[unit.owner], unit_id,
                           label_spot(shape.centre, labelled))
    for overlay in shapes:
        draw_overlay(pic, overlay)
    legend = "  ".join(f"{p}: {c}" for p, c in colours.items())
    pic.notes.append(caption or f"round {state.round}, {state.active_player}'s "
                     f"{state.phase} phase   {legend}")
    pic.notes += [o.label for o in overlays if o.note]
    return pic.svg()

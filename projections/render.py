"""The board renderer: one drawing of the table that people can read, made with drawsvg.

Every picture of a board goes through here: `warledger board --svg`, the pictures of
`warledger run --svg-dir`, and every frame of `warledger viewer`. What it draws:

* the board, filling the frame (overlays reaching off the table are clipped to it),
  an inch grid (a line every inch, a stronger one and a number every 6″) and a scale bar;
* terrain, tinted by kind, named in the legend;
* each unit in its player's colour (players named in the legend), with its front;
* overlays in named layers (`LAYERS`): Line of Fire per observer, Zones of Control,
  arcs, the ambush check, movement paths, exclusion zones ...; the viewer toggles them;
* labels placed where they overlap nothing already drawn (`LabelPlacer`); a label
  that finds no room becomes a numbered marker explained in the legend;
* notes (the verdict, the caption) in words under the board, then the legend.

y points up on the table and down in SVG, so every y is flipped here and nowhere else.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from textwrap import wrap
from typing import Any

import drawsvg as draw
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from domain.geometry import Disc, Footprint, Rect, heading_vector
from domain.state import GameState, UnitState

PX = 16.0
"""Pixels per inch in a stand-alone picture (the viewer scales the picture to its pane)."""
MARGIN = 1.4
"""Inches of frame round the board: room for the grid numbers and edge labels."""
LABEL_SIZE = 0.62
"""Height of a label's text, in inches."""
PLAYER_COLOURS = ("#c0392b", "#1f5fd1", "#2e7d32", "#8e24aa", "#ef6c00", "#00838f")
TERRAIN_STYLE: dict[str, tuple[str, str]] = {
    "impassable": ("#6d4c41", "impassable terrain"),
    "blocking": ("#546e7a", "blocking terrain (blocks sight)"),
    "hindering": ("#81c784", "hindering terrain"),
    "elevated": ("#bcaaa4", "elevated terrain"),
    "clear": ("#e8f5e9", "clear terrain"),
}
LAYERS: dict[str, str] = {
    "lof": "Line of Fire",
    "zoc": "Zones of Control",
    "arcs": "arcs",
    "contact": "base contact",
    "ambush": "Ambush placement check",
    "paths": "movement paths",
    "exclusion": "exclusion zones",
    "stratagems": "stratagem effects",
    "status": "conditions",
    "checks": "checks",
}
"""Overlay layers, by key, with the name the legend and the viewer's toggles show."""


@dataclass(frozen=True)
class Overlay:
    """Something drawn over the board: a shape or a point, with a label, in a layer."""

    geometry: BaseGeometry | tuple[float, float]
    stroke: str = "#000"
    fill: str = "none"
    label: str = ""
    dashed: bool = False
    opacity: float = 1.0
    #: A note is a line of text under the board (a verdict), not a shape.
    note: bool = False
    #: Where a point's label would rather go, in inches from the point.
    label_offset: tuple[float, float] = (0.4, 0.4)
    #: The layer (a key of `LAYERS`) the viewer toggles it with.
    layer: str = "checks"
    #: Within a layer, whose it is (an observer's Line of Fire): toggled on its own.
    group: str = ""
    #: Label short and drawn on the board (True), or named in the legend (False).
    on_board: bool | None = None
    #: Line width in pixels (a part of a path the check found inside an area: thick).
    width: float = 1.5

    def labelled_on_board(self) -> bool:
        """Short labels of points go beside them; long ones, and shapes', to the legend."""
        if self.on_board is not None:
            return self.on_board
        return isinstance(self.geometry, tuple) and len(self.label) <= 16


@dataclass(frozen=True)
class LegendItem:
    """One line of the legend: a swatch (a colour, dashed or not) and words."""

    colour: str
    text: str
    dashed: bool = False
    kind: str = "fill"  # fill | line | marker
    layer: str = ""


@dataclass
class Frame:
    """Maps table inches to picture pixels, y flipped: the region `min_x..max_x` ×
    `min_y..max_y` (the board and `MARGIN`, or the part of it a check is about)."""

    width: float
    height: float
    px: float = PX
    min_x: float = -MARGIN
    min_y: float = -MARGIN
    max_x: float = math.nan
    max_y: float = math.nan

    def __post_init__(self) -> None:
        if math.isnan(self.max_x):
            self.max_x = self.width + MARGIN
        if math.isnan(self.max_y):
            self.max_y = self.height + MARGIN

    @classmethod
    def around(cls, width: float, height: float, focus: BaseGeometry, px: float) -> Frame:
        """A frame on the part of the board round `focus` (at least 24″ × 16″), so the
        action fills the picture instead of a corner of it."""
        min_x, min_y, max_x, max_y = focus.buffer(3.0).bounds
        grow_x, grow_y = max(0.0, 24 - (max_x - min_x)) / 2, max(0.0, 16 - (max_y - min_y)) / 2
        min_x, max_x = fit(min_x - grow_x, max_x + grow_x, -MARGIN, width + MARGIN)
        min_y, max_y = fit(min_y - grow_y, max_y + grow_y, -MARGIN, height + MARGIN)
        px = min(40.0, max(px, 960.0 / (max_x - min_x)))
        return cls(width, height, px, min_x, min_y, max_x, max_y)

    @property
    def label(self) -> float:
        """Height of label text in inches: larger on a larger region, so that labels
        stay readable when the picture is scaled to a screen."""
        return max(LABEL_SIZE, (self.max_x - self.min_x) / 45)

    def x(self, x: float) -> float:
        return round((x - self.min_x) * self.px, 2)

    def y(self, y: float) -> float:
        return round((self.max_y - y) * self.px, 2)

    @property
    def board_px(self) -> tuple[float, float]:
        """Width and height of the framed region, in pixels."""
        return (self.max_x - self.min_x) * self.px, (self.max_y - self.min_y) * self.px

    def region(self) -> Polygon:
        """What the frame shows, in inches."""
        return box(self.min_x, self.min_y, self.max_x, self.max_y)

    def points(self, coords: Iterable[Sequence[float]]) -> list[float]:
        out: list[float] = []
        for c in coords:
            out += [self.x(c[0]), self.y(c[1])]
        return out


def fit(low: float, high: float, floor: float, ceiling: float) -> tuple[float, float]:
    """The span low..high moved (not shrunk) to lie within floor..ceiling, if it can."""
    if low < floor:
        low, high = floor, high + (floor - low)
    if high > ceiling:
        low, high = low - (high - ceiling), ceiling
    return max(low, floor), high


def text_box(x: float, y: float, text: str, size: float, anchor: str) -> Polygon:
    """The box (in inches) that `text` takes when its baseline starts at (x, y)."""
    width = max(1, len(text)) * size * 0.56
    left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    return box(left, y - size * 0.25, left + width, y + size * 0.85)


class LabelPlacer:
    """Puts labels where they overlap nothing placed before (labels and bases)."""

    def __init__(self, frame: Frame) -> None:
        self.frame = frame
        self.taken: list[BaseGeometry] = []
        self.region = frame.region()

    def block(self, geometry: BaseGeometry) -> None:
        """Keep labels off this shape."""
        self.taken.append(geometry)

    def place(self, anchor: tuple[float, float], text: str, clearance: float,
              size: float | None = None) -> tuple[float, float, str] | None:
        """Where the label of something at `anchor` (of radius `clearance`) goes:
        (x, y, text-anchor), or None when nowhere near it is free."""
        size = size or self.frame.label
        ax, ay = anchor
        for reach in (clearance + 0.15, clearance + 0.9, clearance + 1.8):
            for angle in (45, 135, -45, -135, 0, 180, 90, -90):
                dx, dy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
                side = "start" if dx > 0.3 else "end" if dx < -0.3 else "middle"
                x = ax + dx * reach
                y = ay + dy * reach - (size * 0.6 if dy < -0.3 else 0 if dy > 0.3 else size * 0.3)
                spot = text_box(x, y, text, size, side)
                if self.region.contains(spot) and not any(spot.intersects(t)
                                                          for t in self.taken):
                    self.taken.append(spot)
                    return x, y, side
        return None


#: The palette's colours by the name a player may go by ("red", "blue"...).
NAMED_COLOURS = dict(zip(("red", "blue", "green", "purple", "orange", "teal"),
                         PLAYER_COLOURS, strict=True))


def player_colours(players: Sequence[str]) -> dict[str, str]:
    """One colour per player, the same whatever the seat order: a player named after
    a colour of the palette ("red", "Blue") is drawn in it; the others take the
    colours left, in script order."""
    named = {p: NAMED_COLOURS[p.casefold()] for p in players if p.casefold() in NAMED_COLOURS}
    free = [c for c in PLAYER_COLOURS if c not in named.values()] or list(PLAYER_COLOURS)
    others = [p for p in players if p not in named]
    return {p: named.get(p) or free[others.index(p) % len(free)] for p in players}


def fragment(*elements: draw.DrawingBasicElement) -> str:
    """The SVG text of some elements, without a document round them."""
    drawing = draw.Drawing(1, 1)
    for element in elements:
        drawing.append(element)
    svg: str = drawing.as_svg(header="")
    body = svg.split("</defs>\n", 1)[1]
    return body.rsplit("</svg>", 1)[0].strip()


def dash(dashed: bool) -> dict[str, str]:
    return {"stroke_dasharray": "6,4"} if dashed else {}


# -- the table ---------------------------------------------------------------------
def table_elements(frame: Frame, state: GameState) -> list[draw.DrawingBasicElement]:
    """The board, the inch grid with its numbers, and the terrain."""
    w, h = state.board.width, state.board.height
    out: list[draw.DrawingBasicElement] = [
        draw.Rectangle(0, 0, *frame.board_px, fill="#ffffff"),
        draw.Rectangle(frame.x(0), frame.y(h), w * frame.px, h * frame.px, fill="#f7f5ee",
                       stroke="#333", stroke_width=1.5),
    ]
    grid = draw.Group(class_="grid", stroke="#000", stroke_width=0.6)
    for i in range(1, math.ceil(w)):
        major = i % 6 == 0
        grid.append(draw.Line(frame.x(i), frame.y(0), frame.x(i), frame.y(h),
                              stroke_opacity=0.22 if major else 0.07))
    for j in range(1, math.ceil(h)):
        major = j % 6 == 0
        grid.append(draw.Line(frame.x(0), frame.y(j), frame.x(w), frame.y(j),
                              stroke_opacity=0.22 if major else 0.07))
    out.append(grid)
    numbers = draw.Group(class_="grid-numbers", font_family="sans-serif",
                         font_size=round(0.8 * frame.label * frame.px, 1), fill="#666")
    under, beside = max(-0.75, frame.min_y + 0.3), max(-0.25, frame.min_x + 0.9)
    for i in range(0, math.floor(w) + 1, 6):
        if frame.min_x <= i <= frame.max_x:
            numbers.append(draw.Text(f"{i}", None, frame.x(i), frame.y(under),
                                     text_anchor="middle"))
    for j in range(0, math.floor(h) + 1, 6):
        if frame.min_y <= j <= frame.max_y:
            numbers.append(draw.Text(f"{j}", None, frame.x(beside), frame.y(j - 0.18),
                                     text_anchor="end"))
    out.append(numbers)
    for piece in state.terrain:
        colour, name = TERRAIN_STYLE.get(piece.kind, ("#cccccc", f"{piece.kind} terrain"))
        shape = draw.Lines(*frame.points(piece.polygon), close=True, fill=colour,
                           fill_opacity=0.85, stroke="#263238", stroke_width=1,
                           class_="terrain")
        shape.append_title(f"{piece.id}: {name}")
        out.append(shape)
    return out


def terrain_labels(frame: Frame, state: GameState, placer: LabelPlacer) -> list[Any]:
    """Each terrain piece's name, inside it when it fits, else beside it."""
    out: list[Any] = []
    for piece in state.terrain:
        poly = Polygon(piece.polygon)
        spot = poly.representative_point()
        size = frame.label * 0.8
        inside = text_box(spot.x, spot.y - size * 0.3, piece.id, size, "middle")
        if poly.contains(inside):
            out.append(draw.Text(piece.id, round(size * frame.px, 1), frame.x(spot.x),
                                 frame.y(spot.y - size * 0.3), text_anchor="middle",
                                 fill="#fff", font_family="sans-serif", class_="terrain-label"))
            continue
        placed = placer.place((spot.x, spot.y), piece.id, 0.2, size)
        if placed:
            x, y, anchor = placed
            out.append(draw.Text(piece.id, round(size * frame.px, 1), frame.x(x), frame.y(y),
                                 text_anchor=anchor, fill="#263238", font_family="sans-serif",
                                 class_="terrain-label"))
    return out


# -- units ---------------------------------------------------------------------------
def unit_title(unit: UnitState) -> str:
    """What hovering a unit tells: its id, owner, place, facing and conditions."""
    where = f" at ({unit.x:g}, {unit.y:g})" if unit.x is not None and unit.y is not None else ""
    facing = f", facing {unit.facing:g}°" if unit.facing is not None else ""
    conditions = f"; {', '.join(sorted(unit.conditions))}" if unit.conditions else ""
    return f"{unit.id} ({unit.owner}){where}{facing}{conditions}"


def footprint_elements(frame: Frame, shape: Footprint, colour: str,
                       dashed: bool = False) -> list[draw.DrawingBasicElement]:
    """A base: its outline tinted in the player's colour and its front drawn thick."""
    if isinstance(shape, Rect):
        body: draw.DrawingBasicElement = draw.Lines(
            *frame.points(shape.corners), close=True, fill=colour, fill_opacity=0.3,
            stroke=colour, stroke_width=1.5, **dash(dashed))
        (ax, ay), (bx, by) = shape.front_edge
        front = draw.Line(frame.x(ax), frame.y(ay), frame.x(bx), frame.y(by), stroke=colour,
                          stroke_width=4)
        return [body, front]
    assert isinstance(shape, Disc)
    body = draw.Circle(frame.x(shape.x), frame.y(shape.y), round(shape.radius * frame.px, 2),
                       fill=colour, fill_opacity=0.3, stroke=colour, stroke_width=1.5,
                       **dash(dashed))
    dx, dy = heading_vector(shape.facing)
    tip = (shape.x + dx * shape.radius, shape.y + dy * shape.radius)
    front = draw.Line(frame.x(shape.x), frame.y(shape.y), frame.x(tip[0]), frame.y(tip[1]),
                      stroke=colour, stroke_width=3)
    return [body, front]


def clearance(shape: Footprint) -> float:
    """How far from its centre a base's label must start."""
    if isinstance(shape, Rect):
        return 0.5 * math.hypot(shape.width, shape.depth)
    return shape.radius


@dataclass
class Units:
    """The units' drawings, one SVG fragment per unit (the viewer swaps them per step),
    and the labels that found no room (numbered markers in the legend)."""

    fragments: dict[str, str] = field(default_factory=dict)
    unplaced: list[str] = field(default_factory=list)


def unit_drawings(frame: Frame, state: GameState, placer: LabelPlacer,
                  colours: dict[str, str], units: Sequence[UnitState] | None = None) -> Units:
    """Every unit on the table, with its label placed clear of the others."""
    chosen = [u for _, u in sorted(state.units.items())] if units is None else list(units)
    shapes = [(u, u.footprint()) for u in chosen]
    region = frame.region()
    drawn = [(u, s) for u, s in shapes if s is not None and s.polygon.intersects(region)]
    for _, shape in drawn:
        placer.block(shape.polygon)
    out = Units()
    for unit, shape in drawn:
        spot = placer.place(shape.centre, unit.id, clearance(shape))
        number = 0
        if spot is None:
            out.unplaced.append(unit.id)
            number = len(out.unplaced)
        colour = colours.get(unit.owner, "#444")
        key = (unit.model_dump_json(), spot, number, colour, frame.px, frame.min_x, frame.max_y)
        if key not in FRAGMENTS:
            if len(FRAGMENTS) > 20_000:
                FRAGMENTS.clear()
            FRAGMENTS[key] = unit_fragment(frame, unit, shape, colour, spot, number)
        out.fragments[unit.id] = FRAGMENTS[key]
    return out


#: Drawn units by what they look like and where their label went (a replay draws the
#: same unit at the same place many times).
FRAGMENTS: dict[tuple[Any, ...], str] = {}


def unit_fragment(frame: Frame, unit: UnitState, shape: Footprint, colour: str,
                  spot: tuple[float, float, str] | None, number: int) -> str:
    """One unit's SVG: its base, its front, and its label (or numbered marker)."""
    hidden = any(c in ("hidden_deployment", "camouflaged") for c in unit.conditions)
    group = draw.Group(id=f"unit-{css_id(unit.id)}", class_="unit",
                       data_unit=unit.id, data_x=f"{shape.centre[0]:g}",
                       data_y=f"{shape.centre[1]:g}")
    group.append_title(unit_title(unit))
    for element in footprint_elements(frame, shape, colour, dashed=hidden):
        group.append(element)
    if spot is None:
        group.append(marker(frame, shape.centre, str(number), colour))
    else:
        x, y, anchor = spot
        group.append(draw.Text(unit.id, round(frame.label * frame.px, 1), frame.x(x),
                               frame.y(y), text_anchor=anchor, fill="#111",
                               font_family="sans-serif", class_="label"))
    return fragment(group)


def marker(frame: Frame, at: tuple[float, float], number: str, colour: str) -> draw.Group:
    """A small numbered disc; the legend says what the number stands for."""
    group = draw.Group(class_="marker")
    group.append(draw.Circle(frame.x(at[0]), frame.y(at[1]), 0.32 * frame.px, fill="#fff",
                             stroke=colour, stroke_width=1.2))
    group.append(draw.Text(number, round(0.42 * frame.px, 1), frame.x(at[0]),
                           frame.y(at[1] - 0.15), text_anchor="middle", fill="#111",
                           font_family="sans-serif"))
    return group


def css_id(text: str) -> str:
    """A unit id made safe for an element id (its text stays in `data-unit`)."""
    return re.sub(r"[^A-Za-z0-9_-]", lambda m: f"_{ord(m.group()):x}", text)


# -- overlays ------------------------------------------------------------------------
@dataclass
class Overlays:
    """Overlays drawn, by layer; their legend lines; and the notes under the board."""

    layers: dict[str, str] = field(default_factory=dict)
    legend: list[LegendItem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def overlay_drawings(frame: Frame, overlays: Sequence[Overlay], placer: LabelPlacer) -> Overlays:
    """Each overlay in its layer: shapes clipped to the frame, short labels placed,
    long ones in the legend, notes kept as words."""
    out = Overlays()
    groups: dict[tuple[str, str], list[Any]] = {}
    seen_legend: set[tuple[str, str]] = set()
    region = frame.region()
    for item in overlays:
        if item.note:
            if item.label:
                out.notes.append(item.label)
            continue
        parts = groups.setdefault((item.layer, item.group), [])
        shapes = shape_elements(frame, item, region)
        if item.label:
            for shape in shapes:
                shape.append_title(item.label)
        parts += shapes
        if not item.label:
            continue
        if item.labelled_on_board():
            anchor = item.geometry if isinstance(item.geometry, tuple) else \
                item.geometry.representative_point().coords[0]
            spot = placer.place((float(anchor[0]), float(anchor[1])), item.label, 0.25)
            if spot is not None:
                x, y, side = spot
                parts.append(draw.Text(item.label, round(frame.label * 0.85 * frame.px, 1),
                                       frame.x(x), frame.y(y), text_anchor=side,
                                       fill=item.stroke, font_family="sans-serif",
                                       class_="label"))
                continue
        key = (item.stroke, item.label)
        if key not in seen_legend:
            seen_legend.add(key)
            kind = "marker" if isinstance(item.geometry, tuple) else (
                "line" if item.fill == "none" else "fill")
            out.legend.append(LegendItem(item.stroke, item.label, item.dashed, kind, item.layer))
    for (layer, owner), parts in groups.items():
        group = draw.Group(class_=f"layer layer-{layer}", data_layer=layer,
                           data_group=owner)
        for part in parts:
            group.append(part)
        out.layers[layer] = out.layers.get(layer, "") + fragment(group)
    return out


def shape_elements(frame: Frame, item: Overlay, region: Polygon) -> list[Any]:
    """The SVG elements of one overlay's shape, clipped to what the frame shows."""
    geom = item.geometry
    style = {"stroke": item.stroke, "stroke_width": item.width, **dash(item.dashed)}
    if isinstance(geom, tuple):
        return [draw.Circle(frame.x(geom[0]), frame.y(geom[1]), 0.22 * frame.px,
                            fill=item.stroke, stroke="#fff", stroke_width=0.8)]
    clipped = geom.intersection(region)
    if clipped.is_empty:
        return []
    out: list[Any] = []
    for part in getattr(clipped, "geoms", [clipped]):
        if part.geom_type == "Polygon":
            out.append(draw.Path(d=polygon_path(frame, part), fill=item.fill,
                                 fill_opacity=item.opacity, fill_rule="evenodd", **style))
        elif part.geom_type in ("LineString", "LinearRing"):
            out.append(draw.Lines(*frame.points(part.coords), close=False, fill="none",
                                  **style))
        elif part.geom_type == "Point":
            out.append(draw.Circle(frame.x(part.x), frame.y(part.y), 0.22 * frame.px,
                                   fill=item.stroke))
        elif hasattr(part, "geoms"):
            out += shape_elements(frame, replace(item, geometry=part, label=""), region)
    return out


def polygon_path(frame: Frame, polygon: Polygon) -> str:
    """An SVG path of a polygon with its holes (the shadows cut out of a Line of Fire)."""
    rings = [polygon.exterior, *polygon.interiors]
    return " ".join(
        "M " + " L ".join(f"{frame.x(x)},{frame.y(y)}" for x, y in ring.coords) + " Z"
        for ring in rings
    )


# -- words under the board ---------------------------------------------------------
def legend_items(state: GameState, colours: dict[str, str],
                 names: dict[str, str] | None = None) -> list[LegendItem]:
    """Players by colour and name, and the kinds of terrain on this table."""
    names = names or {}
    items = [LegendItem(colour, f"{names.get(p) or p} ({p})" if names.get(p) else p,
                        kind="fill") for p, colour in colours.items()]
    for kind in sorted({t.kind for t in state.terrain}):
        colour, name = TERRAIN_STYLE.get(kind, ("#ccc", f"{kind} terrain"))
        items.append(LegendItem(colour, name))
    return items


def caption_of(state: GameState) -> str:
    """Round, active player and phase in words."""
    if state.finished:
        return f"game over after round {state.round}" + (
            f" ({state.end_reason})" if state.end_reason else "")
    phase = state.phase.replace("_", " ")
    return f"Round {state.round}: {state.active_player}'s {phase} phase"


def words_elements(frame: Frame, top: float, notes: Sequence[str], legend: Sequence[LegendItem],
                   unplaced: Sequence[str]) -> tuple[list[Any], float]:
    """The scale bar, the notes and the legend, from `top` (pixels) down; and the height."""
    width = frame.board_px[0]
    size = 12.0
    y = top + 8
    out: list[Any] = []
    out += scale_bar(frame, y)
    y += 30
    chars = max(30, int(width / (size * 0.56)))
    for note in notes:
        for line in wrap(note, width=chars) or [""]:
            out.append(draw.Text(line, size, 10, y, font_family="sans-serif", fill="#111",
                                 class_="note"))
            y += size + 4
    entries = [*legend, *(LegendItem("#111", f"{n}: {text}", kind="marker")
                          for n, text in enumerate(unplaced, start=1))]
    x, row_h = 10.0, size + 8
    if entries:
        y += 4
    for entry in entries:
        text_w = len(entry.text) * size * 0.56 + 34
        if x > 10 and x + text_w > width:
            x, y = 10.0, y + row_h
        out += swatch(x, y - size + 2, entry)
        out.append(draw.Text(entry.text, size, x + 22, y, font_family="sans-serif",
                             fill="#111", class_="legend"))
        x += text_w
    return out, (y + row_h) - top


def swatch(x: float, y: float, entry: LegendItem) -> list[Any]:
    """A legend entry's sample: a tinted square, a line, or a dot."""
    if entry.kind == "line":
        return [draw.Line(x, y + 6, x + 16, y + 6, stroke=entry.colour, stroke_width=2,
                          **dash(entry.dashed))]
    if entry.kind == "marker":
        return [draw.Circle(x + 8, y + 6, 5, fill=entry.colour)]
    return [draw.Rectangle(x, y, 16, 12, fill=entry.colour, fill_opacity=0.5,
                           stroke=entry.colour, **dash(entry.dashed))]


def scale_bar(frame: Frame, y: float) -> list[Any]:
    """Six inches in black and white, one inch a block, labelled."""
    out: list[Any] = []
    for i in range(6):
        out.append(draw.Rectangle(10 + i * frame.px, y, frame.px, 6,
                                  fill="#111" if i % 2 == 0 else "#fff", stroke="#111",
                                  stroke_width=0.8))
    out.append(draw.Text('6″ (one square of the grid is 1″)', 11, 16 + 6 * frame.px, y + 7,
                         font_family="sans-serif", fill="#333"))
    return out


# -- a whole picture -----------------------------------------------------------------
def picture_frame(state: GameState, overlays: Sequence[Overlay], px: float = PX) -> Frame:
    """The whole board, or, when the overlays are about one part of it (a placement
    check), that part: the action fills the picture."""
    w, h = state.board.width, state.board.height
    shapes = [o.geometry for o in overlays if not o.note]
    if not shapes:
        return Frame(w, h, px)
    focus = unary_union([Point(g) if isinstance(g, tuple) else g for g in shapes])
    min_x, min_y, max_x, max_y = focus.bounds
    if (max_x - min_x) * (max_y - min_y) > 0.4 * w * h:
        return Frame(w, h, px)
    return Frame.around(w, h, focus, px)


def board_svg(state: GameState, overlays: Sequence[Overlay] = (), caption: str = "",
              names: dict[str, str] | None = None, *, whole_board: bool = False) -> str:
    """The board with terrain, units and overlays, as one SVG document: the part of
    the board a check is about, or (`whole_board`) all of it."""
    frame = Frame(state.board.width, state.board.height) if whole_board else \
        picture_frame(state, overlays)
    placer = LabelPlacer(frame)
    colours = player_colours(state.players)
    table = table_elements(frame, state)
    units = unit_drawings(frame, state, placer, colours)
    drawn = overlay_drawings(frame, overlays, placer)
    labels = terrain_labels(frame, state, placer)
    notes = [caption or caption_of(state), *drawn.notes]
    legend = [*legend_items(state, colours, names), *drawn.legend]
    width, board_h = frame.board_px
    words, words_h = words_elements(frame, board_h, notes, legend, units.unplaced)
    drawing = draw.Drawing(round(width), round(board_h + words_h))
    for element in [*table, *labels]:
        drawing.append(element)
    drawing.append(draw.Raw(f'<g class="overlays">{"".join(drawn.layers.values())}</g>'))
    drawing.append(draw.Raw(f'<g class="units">{"".join(units.fragments.values())}</g>'))
    for element in words:
        drawing.append(element)
    svg: str = drawing.as_svg(header="")
    return svg


"""What blocking terrain hides from a point, built once and asked many times.

Line of Fire is asked for again and again from the same few points: every enemy
at both ends of a movement, and along it for ARO eligibility, while the enemies
stand still (they do not move during the active trooper's order). So, per
terrain set, each observer's *hidden region* (the union of the shadows its
blocking terrain casts, see `domain.geometry.shadow`) is built once per observer
centre and kept as a prepared geometry; a question about a base is then one
prepared `intersects` or `contains`.

The fast answers are only given when they are robust: a base (or a whole swept
path) is *seen* when a slightly enlarged cover of it misses the hidden region,
and *hidden* when the enlarged cover lies inside it. Anything closer to a
shadow's edge than that margin is left to the exact, slower path
(`domain.geometry.has_clear_line`), so the fast path never changes a verdict;
`tests/domain/test_shadows.py` compares both on random scenes.

The enemies of a Cautious Movement are asked together about each end point
(`Lookouts`): their front arcs at once, then one vectorised prepared call over the
merged shadows of all of them, with the same margins; what that leaves open is
asked of each observer alone.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Generic, TypeVar

from domain.bounded import Bounded
from domain.deferred import defer

if TYPE_CHECKING:
    import numpy as np
    import shapely
    from shapely.geometry import LineString, Point
    from shapely.geometry.base import BaseGeometry
else:  # imported on first use (`domain.deferred`): a replay needs no shapely
    defer(globals(), np="numpy", shapely="shapely", LineString="shapely.geometry:LineString",
          Point="shapely.geometry:Point")

from domain.geometry import (
    EPS,
    SHADOW_ARC_STEP,
    Disc,
    Obstacles,
    Point2,
    front_arc_polygon,
    heading_vector,
    shadow,
    target_samples,
)

__all__ = ["HiddenRegion", "ListMemo", "Lookouts", "Sightlines", "swept_cover"]

#: A cover is the base (or swept path) made this much wider, relatively and in
#: inches: points of the true circle and of its polygon lie well inside it.
COVER_GROWTH = 1.01
COVER_SLACK = 1e-6
#: How far behind the side line a front-arc cover starts (inches): the arc is closed,
#: and a base within EPS of the side line still counts as in it.
ARC_SLACK = 4 * EPS
#: Up to this many pieces, every shadow is tried (no sorting by direction).
FEW_PIECES = 24
#: How many observer centres each terrain set keeps hidden regions for.
OBSERVERS_KEPT = 256
#: How many Line of Fire verdicts each terrain set keeps (by observer base and target).
VERDICTS_KEPT = 4096
#: A sample point of a base this far (inches) from every shadow is seen beyond doubt
#: (the shadows' own rounding is ~1e-12").
SAMPLE_MARGIN = 1e-3
#: How many sets of observers (`Lookouts`) each terrain set keeps, and how many answers
#: (one per target base) each of them keeps.
LOOKOUTS_KEPT = 16
ANSWERS_KEPT = 256
#: After this many questions to one observer, its shadows are merged into one prepared
#: polygon (clipped to the table): ~20-40 ms for 200 pieces, about what this many
#: shadow-by-shadow answers cost, after which a question is one prepared call (~1 µs).
UNION_AFTER = 400
#: The merged shadows are clipped this far beyond the area questions are asked about
#: (`Sightlines.covers_extent` allows 1").
CLIP_MARGIN = 2.0
#: A base this close (inches) to an observer's side line, or to a Zone of Control's
#: reach, is left to the question asked one observer at a time (`Lookouts`).
ARC_MARGIN = 1e-6
#: Points on a convex piece's far arc (its angular span is under 180°, so < 11.25° apart).
ARC_POINTS = math.ceil(math.pi / SHADOW_ARC_STEP) + 2

T = TypeVar("T")
K = TypeVar("K")
R = TypeVar("R")


class ListMemo(Generic[T, K, R]):
    """Memoise a function of a list of immutable items (terrain pieces) and a small
    key (the board's size) by the list's identity, checked item by item (identity
    first, so a hit costs a list compare, not a hash of every piece); on a miss, by
    the items' values."""

    def __init__(self, build: Callable[[tuple[T, ...], K], R], size: int = 32) -> None:
        self._build = lru_cache(maxsize=size)(build)
        self._size = size
        self._by_list: OrderedDict[int, tuple[list[T], list[T], K, R]] = OrderedDict()

    def __call__(self, items: list[T], key: K) -> R:
        entry = self._by_list.get(id(items))
        if entry is not None and entry[0] is items and entry[2] == key and entry[1] == items:
            return entry[3]
        result = self._build(tuple(items), key)
        # Keep the list itself, so that its id cannot be reused while it is remembered.
        self._by_list[id(items)] = (items, list(items), key, result)
        while len(self._by_list) > self._size:
            self._by_list.popitem(last=False)
        return result


class Sightlines(Obstacles):
    """Blocking terrain for Line of Fire: the spatial index of `Obstacles`, plus each
    observer's hidden region, built on first use and kept per observer centre (about
    1 ms for 200 pieces: their shadows at once, and an index of them).

    `extent` (min x, min y, max x, max y) is the area questions are asked about (the
    table); shadows reach beyond it, and a question outside it takes the exact path.
    """

    __slots__ = ("_convex", "_extent", "_hidden", "_lookouts", "_pieces", "_reach",
                 "_verdicts")

    def __init__(self, items: Iterable[tuple[str, BaseGeometry]],
                 extent: tuple[float, float, float, float]) -> None:
        super().__init__(items)
        self._pieces = self._array  # the pieces, as the index holds them
        self._convex = np.array([_is_convex(g) for g in self._geoms], dtype=bool)
        bounds = [extent, *(g.bounds for g in self._geoms)]
        self._extent = (min(b[0] for b in bounds), min(b[1] for b in bounds),
                        max(b[2] for b in bounds), max(b[3] for b in bounds))
        x0, y0, x1, y1 = self._extent
        self._reach = 2.0 * math.hypot(x1 - x0, y1 - y0) + 1.0
        self._hidden: OrderedDict[Point2, HiddenRegion | None] = OrderedDict()
        self._verdicts: dict[tuple[Disc, bool, Disc], bool] = {}
        self._lookouts: Bounded[tuple[tuple[int, ...], tuple[bool, ...]],
                                tuple[tuple[Disc | None, ...], Lookouts]] = \
            Bounded(LOOKOUTS_KEPT)

    def lookouts(self, seen_from: tuple[Disc | None, ...],
                 all_round: tuple[bool, ...]) -> Lookouts:
        """The `Lookouts` of these observers (their bases, and whether each sees all
        round), kept: the enemies stand still during an order. Found by the bases'
        identity (a trooper's base is a kept `Disc`), checked by value."""
        key = (tuple(map(id, seen_from)), all_round)
        entry = self._lookouts.get(key)
        if entry is not None and entry[0] == seen_from:
            return entry[1]
        found = Lookouts(self, seen_from, all_round)
        # Keep the bases themselves, so that their ids cannot be reused meanwhile.
        self._lookouts.keep(key, (seen_from, found))
        return found

    def verdict(self, seen_from: Disc, all_round: bool, target: Disc,
                decide: Callable[[], bool]) -> bool:
        """A Line of Fire verdict from `seen_from` (its centre and facing; all round or
        not) to the base `target`, decided once (`decide`) and then remembered: the
        terrain never changes, so the same bases always get the same answer (the
        decision, the board overlay and the ARO answers ask the same questions)."""
        key = (seen_from, all_round, target)
        found = self._verdicts.get(key)
        if found is None:
            found = decide()
            if len(self._verdicts) >= VERDICTS_KEPT:
                self._verdicts.clear()
            self._verdicts[key] = found
        return found

    def hidden_from(self, origin: Point2) -> HiddenRegion | None:
        """The hidden region seen from `origin`, or None when there is no robust one
        (the origin on or inside a piece: the exact path decides)."""
        if origin in self._hidden:
            self._hidden.move_to_end(origin)
            return self._hidden[origin]
        region = self._build(origin)
        self._hidden[origin] = region
        while len(self._hidden) > OBSERVERS_KEPT:
            self._hidden.popitem(last=False)
        return region

    def merged_from(self, origin: Point2) -> BaseGeometry | None:
        """The merged shadows seen from `origin` if they are already built (never builds
        anything: a cold observer is asked one question at a time)."""
        region = self._hidden.get(origin)
        return None if region is None else region.merged_if_built()

    def covers_extent(self, geom: BaseGeometry | Disc) -> bool:
        """Does `geom` (or a base's cover) lie in the area the hidden regions are exact
        for?"""
        if isinstance(geom, Disc):
            r = geom.radius * COVER_GROWTH + COVER_SLACK
            x0, y0, x1, y1 = geom.x - r, geom.y - r, geom.x + r, geom.y + r
        else:
            x0, y0, x1, y1 = (float(v) for v in geom.bounds)
        ex0, ey0, ex1, ey1 = self._extent
        inside: bool = x0 >= ex0 - 1.0 and y0 >= ey0 - 1.0 and x1 <= ex1 + 1.0 and (
            y1 <= ey1 + 1.0)
        return inside

    def _build(self, origin: Point2) -> HiddenRegion | None:
        if len(self._pieces) == 0:
            return HiddenRegion(origin, [], np.zeros(0), np.zeros(0), np.zeros(0), self._extent)
        nearest = shapely.distance(self._pieces, Point(origin))
        if float(nearest.min()) <= 1e3 * EPS:
            return None
        convex = self._pieces[self._convex]
        shadows, centres, halves = _convex_shadows(origin, convex, self._reach)
        others = self._pieces[~self._convex]
        shadows += [shadow(origin, g, self._reach) for g in others]
        centres = np.concatenate([centres, np.zeros(len(others))])
        halves = np.concatenate([halves, np.full(len(others), math.pi)])
        nearest = np.concatenate([nearest[self._convex], nearest[~self._convex]])
        return HiddenRegion(origin, shadows, centres, halves, nearest, self._extent)


class HiddenRegion:
    """What an observer's blocking terrain hides: the union of its pieces' shadows.

    The shadows all fan out from the observer, so each is indexed by the directions it
    covers (a centre angle and a half-width) and by how near it starts; a question
    tries only the shadows in its own directions and reach, as prepared geometries.
    Their union is only formed, locally, when no single shadow settles a question;
    an observer asked `UNION_AFTER` questions gets the whole union (clipped to the
    table) as one prepared polygon, and each later question is one prepared call.
    """

    __slots__ = ("_asked", "_centres", "_clip", "_halves", "_merged", "_nearest", "_origin",
                 "_shadows")

    def __init__(self, origin: Point2, shadows: Sequence[BaseGeometry], centres: np.ndarray,
                 halves: np.ndarray, nearest: np.ndarray,
                 extent: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)) -> None:
        self._origin = origin
        self._shadows = np.array(shadows, dtype=object)
        shapely.prepare(self._shadows)
        self._centres, self._halves, self._nearest = centres, halves, nearest
        x0, y0, x1, y1 = extent
        self._clip = (x0 - CLIP_MARGIN, y0 - CLIP_MARGIN, x1 + CLIP_MARGIN, y1 + CLIP_MARGIN)
        self._asked = 0
        self._merged: BaseGeometry | None = None

    def merged(self) -> BaseGeometry:
        """The union of every shadow, clipped to the table (and `CLIP_MARGIN` about it),
        prepared (`merged_shadows`)."""
        if self._merged is None:
            self._merged = merged_shadows(self._shadows, self._nearest, self._clip)
        return self._merged

    def merged_if_built(self) -> BaseGeometry | None:
        """`merged`, if it has been built."""
        return self._merged

    def _merged_for(self, cover: BaseGeometry, *, count: bool = True) -> BaseGeometry | None:
        """The merged shadows, to judge `cover` by, once built (or due after `UNION_AFTER`
        questions, counted unless `count` is False): None when they are not there or the
        cover reaches beyond their clip."""
        if count:
            self._asked += 1
        if self._merged is None and (not count or self._asked < UNION_AFTER):
            return None
        x0, y0, x1, y1 = cover.bounds
        cx0, cy0, cx1, cy1 = self._clip
        if x0 < cx0 or y0 < cy0 or x1 > cx1 or y1 > cy1:
            return None
        return self.merged()

    @property
    def is_empty(self) -> bool:
        """Does nothing block at all?"""
        return len(self._shadows) == 0

    def _facing(self, cover: BaseGeometry, disc: Disc | None = None) -> np.ndarray:
        """The shadows that may reach `cover`: in its directions, starting within reach.
        `disc`: the base `cover` is drawn around (its directions are then exact). On a
        table of few pieces, all of them (sorting them out would cost more)."""
        if len(self._shadows) <= FEW_PIECES:
            return self._shadows
        centre, half, far = (_directions(self._origin, cover) if disc is None
                             else _disc_directions(self._origin, disc))
        gap = np.abs((self._centres - centre + math.pi) % (2 * math.pi) - math.pi)
        near = (gap <= self._halves + half + 1e-9) & (self._nearest <= far + 1e-9)
        found: np.ndarray = self._shadows[near]
        return found

    def judge(self, cover: BaseGeometry, disc: Disc | None = None) -> bool | None:
        """True if every point of `cover` is outside the hidden region (in plain sight),
        False if every point is inside it, None if it straddles a shadow's edge."""
        if not len(self._shadows):
            return True
        merged = self._merged_for(cover)
        if merged is not None:
            # The union of every shadow: what a local union of the shadows about the
            # cover would tell too.
            if not merged.intersects(cover):
                return True
            return False if merged.contains(cover) else None
        near = self._facing(cover, disc)
        if not len(near):
            return True
        near = near[shapely.intersects(near, cover)]
        if not len(near):
            return True
        if bool(shapely.contains(near, cover).any()):
            return False
        if len(near) > 1:
            # Only the part of each shadow about the cover matters: clipped, the union
            # is of a few small polygons.
            x0, y0, x1, y1 = cover.bounds
            local = shapely.clip_by_rect(near, x0 - 1.0, y0 - 1.0, x1 + 1.0, y1 + 1.0)
            if bool(shapely.union_all(local).contains(cover)):
                return False
        return None

    def hides(self, cover: BaseGeometry) -> bool:
        """Is every point of `cover` inside the hidden region?"""
        return self.judge(cover) is False

    def outside(self, disc: Disc, points: Sequence[Point2]) -> list[bool]:
        """For each point (all of the base `disc`): is it outside the hidden region (a
        candidate clear line)?"""
        cover = disc_cover(disc)
        dots = shapely.points(np.asarray(points, dtype=float))
        merged = self._merged_for(cover, count=False)
        if merged is not None:
            return [not hidden for hidden in shapely.intersects(merged, dots).tolist()]
        near = self._facing(cover, disc)
        if not len(near):
            return [True] * len(points)
        inside = shapely.intersects(near[:, None], dots[None, :]).any(axis=0)
        return [not hidden for hidden in inside.tolist()]


class Lookouts:
    """Observers that stand still (the enemies during the active trooper's order), asked
    together about one base: the front arc of all of them at once (numpy), then, for
    those whose shadows are merged, one vectorised prepared `intersects` and `contains`.

    Answers are given only where they are certain, exactly as `HiddenRegion.judge`
    gives them for one observer (RULINGS LoF: a base seen, in the closed front arc, or
    wholly hidden); a base within `ARC_MARGIN` of a side line, an observer without
    merged shadows, and a base on a shadow's edge get None: ask that observer alone.
    Kept per terrain set and observers (`Sightlines.lookouts`), with its answers.
    """

    __slots__ = ("_all_round", "_answers", "_centres", "_hx", "_hy", "_merged", "_on_table",
                 "_pending", "_radius", "_sightlines", "_x", "_y")

    def __init__(self, sightlines: Sightlines | None, seen_from: Sequence[Disc | None],
                 all_round: Sequence[bool]) -> None:
        self._sightlines = sightlines
        bases = [disc or Disc(0.0, 0.0, 1.0) for disc in seen_from]
        headings = [heading_vector(disc.facing) for disc in bases]
        self._centres = [None if disc is None else disc.centre for disc in seen_from]
        self._x = np.array([disc.x for disc in bases], dtype=float)
        self._y = np.array([disc.y for disc in bases], dtype=float)
        self._radius = np.array([disc.radius for disc in bases], dtype=float)
        self._hx = np.array([h[0] for h in headings], dtype=float)
        self._hy = np.array([h[1] for h in headings], dtype=float)
        self._on_table = np.array([disc is not None for disc in seen_from], dtype=bool)
        self._all_round = np.array(all_round, dtype=bool)
        self._merged = np.full(len(bases), None, dtype=object)
        self._pending = [i for i, centre in enumerate(self._centres)
                         if centre is not None and sightlines is not None]
        self._answers: dict[Disc, list[bool | None]] = {}

    def __len__(self) -> int:
        return len(self._x)

    def _refresh(self) -> None:
        """Take up the merged shadows built since (`HiddenRegion.merged`); an answer left
        open before may now be certain, so the remembered answers are dropped."""
        if self._sightlines is None or not self._pending:
            return
        pending = []
        for i in self._pending:
            centre = self._centres[i]
            merged = None if centre is None else self._sightlines.merged_from(centre)
            if merged is None:
                pending.append(i)
            else:
                self._merged[i] = merged
        if len(pending) < len(self._pending):
            self._answers.clear()
        self._pending = pending

    def sees(self, target: Disc) -> list[bool | None]:
        """For each observer: does it see some point of `target` (True), none (False), or
        is that to be asked of it alone (None)? Remembered per target."""
        self._refresh()
        found = self._answers.get(target)
        if found is None:
            found = self._judge(target)
            if len(self._answers) >= ANSWERS_KEPT:
                self._answers.clear()
            self._answers[target] = found
        return found

    def _judge(self, target: Disc) -> list[bool | None]:
        answers: list[bool | None] = [None] * len(self)
        ahead = (target.x - self._x) * self._hx + (target.y - self._y) * self._hy
        front, back = ahead + target.radius, ahead - target.radius
        arc = ~self._all_round
        behind = ~self._on_table | (arc & (front < -EPS - ARC_MARGIN))
        whole = self._on_table & (~arc | (back >= -EPS + ARC_MARGIN))
        # Straddling the side line; seen only with a good part in front (as
        # `domain.infinity.sight.is_well_in_front` asks).
        partly = self._on_table & arc & (back < -EPS - ARC_MARGIN) & (
            front >= -EPS + ARC_MARGIN)
        well = whole | (partly & (front >= 0.05 * target.radius + ARC_MARGIN))
        for i in np.flatnonzero(behind).tolist():
            answers[i] = False
        asked = np.flatnonzero((whole | partly) & (self._merged != None))  # noqa: E711
        if not len(asked) or self._sightlines is None or not self._sightlines.covers_extent(
                target):
            return answers
        cover = disc_cover(target)
        meets = shapely.intersects(self._merged[asked], cover)
        for i in asked[~meets & well[asked]].tolist():
            answers[i] = True
        touched = asked[meets]
        inside = shapely.contains(self._merged[touched], cover)
        for i in touched[inside].tolist():
            answers[i] = False
        for i in self._edge_seen(target, touched[~inside & whole[touched]]):
            answers[i] = True
        return answers

    def _edge_seen(self, target: Disc, straddling: np.ndarray) -> list[int]:
        """Of the observers whose merged shadows straddle the base `target` (it lies wholly
        in their front arc, or they see all round): those for which one of its sample
        points (`target_samples`, the points the exact path tries first) lies farther
        than `SAMPLE_MARGIN` from every shadow, so a clear line reaches it beyond doubt."""
        if not len(straddling):
            return []
        rows = straddling.tolist()
        samples = [target_samples(self._centres[i] or (0.0, 0.0), target) for i in rows]
        counts = [len(points) for points in samples]
        dots = shapely.points(np.array([p for points in samples for p in points], dtype=float))
        near = shapely.dwithin(np.repeat(self._merged[straddling], counts), dots,
                               SAMPLE_MARGIN)
        ends = np.cumsum(counts)
        return [i for i, end, count in zip(rows, ends.tolist(), counts, strict=True)
                if not near[end - count:end].all()]

    def may_reach(self, target: Disc, reach: float) -> list[bool]:
        """For each observer: may `target` lie within `reach` of its base, edge to edge
        (False only where it is farther beyond doubt; the exact distance decides)?"""
        gap = np.hypot(target.x - self._x, target.y - self._y) - self._radius - target.radius
        near: list[bool] = (self._on_table & (gap <= reach + EPS + ARC_MARGIN)).tolist()
        return near


def merged_shadows(shadows: np.ndarray, nearest: np.ndarray,
                   clip: tuple[float, float, float, float]) -> BaseGeometry:
    """The union of `shadows` (each cast by a piece `nearest` away from the observer)
    within the box `clip`, prepared. A shadow lying within a nearer one (or an equal,
    earlier one) adds nothing and is left out of the union."""
    if not len(shadows):
        return shapely.Polygon()
    clipped = shapely.intersection(shadows, shapely.box(*clip))
    rank = np.empty(len(shadows), dtype=int)
    rank[np.lexsort((np.arange(len(shadows)), nearest))] = np.arange(len(shadows))
    inner, outer = shapely.STRtree(clipped).query(clipped, predicate="within")
    behind = np.zeros(len(shadows), dtype=bool)
    behind[inner[rank[outer] < rank[inner]]] = True
    union: BaseGeometry = shapely.union_all(clipped[~behind])
    shapely.prepare(union)
    return union


def _disc_directions(origin: Point2, disc: Disc) -> tuple[float, float, float]:
    """`_directions` of a base's cover, from its centre and radius."""
    dx, dy = disc.x - origin[0], disc.y - origin[1]
    gap = math.hypot(dx, dy)
    reach = disc.radius * COVER_GROWTH + COVER_SLACK
    if gap <= 1.5 * reach:
        return 0.0, math.pi, gap + reach
    return math.atan2(dy, dx), math.asin(reach / gap) * 1.01, gap + reach


def _directions(origin: Point2, cover: BaseGeometry) -> tuple[float, float, float]:
    """The directions `cover` spans seen from `origin` (centre angle, half-width) and how
    far its farthest point is. All round (half-width π) when it is close about the
    origin or spans a wide angle."""
    xy = shapely.get_coordinates(cover) - np.asarray(origin, dtype=float)
    far = float(np.hypot(xy[:, 0], xy[:, 1]).max())
    middle = xy.mean(axis=0)
    centre = math.atan2(float(middle[1]), float(middle[0]))
    angles = (np.arctan2(xy[:, 1], xy[:, 0]) - centre + math.pi) % (2 * math.pi) - math.pi
    half = float(np.abs(angles).max())
    if half > 0.4 * math.pi or shapely.intersects_xy(cover, *origin):
        return 0.0, math.pi, far
    return centre, half, far


def _is_convex(piece: BaseGeometry) -> bool:
    """A simple polygon without holes whose every turn has the same sense."""
    if piece.geom_type != "Polygon" or len(piece.interiors) or piece.area <= 0.0:
        return False
    ring = shapely.get_coordinates(piece.exterior)[:-1]
    if len(ring) < 3:
        return False
    edges = np.roll(ring, -1, axis=0) - ring
    turns = edges[:, 0] * np.roll(edges[:, 1], -1) - edges[:, 1] * np.roll(edges[:, 0], -1)
    return bool((turns >= 0).all() or (turns <= 0).all())


def _convex_shadows(origin: Point2, pieces: np.ndarray,
                    reach: float) -> tuple[list[BaseGeometry], np.ndarray, np.ndarray]:
    """Shadows of convex pieces, all at once: the convex hull of each piece's corners
    and of points on the circle of radius `reach` across the angle it spans; with the
    centre angle and half-width of each."""
    if len(pieces) == 0:
        return [], np.zeros(0), np.zeros(0)
    xy, idx = shapely.get_coordinates(shapely.get_exterior_ring(pieces), return_index=True)
    o = np.asarray(origin, dtype=float)
    rel = xy - o
    centre = shapely.get_coordinates(shapely.centroid(pieces)) - o
    base = np.arctan2(centre[:, 1], centre[:, 0])
    angle = (np.arctan2(rel[:, 1], rel[:, 0]) - base[idx] + np.pi) % (2 * np.pi) - np.pi
    lo = np.full(len(pieces), np.inf)
    hi = np.full(len(pieces), -np.inf)
    np.minimum.at(lo, idx, angle)
    np.maximum.at(hi, idx, angle)
    steps = np.linspace(0.0, 1.0, ARC_POINTS)
    theta = base[:, None] + lo[:, None] + (hi - lo)[:, None] * steps[None, :]
    arc = o + reach * np.stack([np.cos(theta), np.sin(theta)], axis=2)
    points = np.concatenate([xy, arc.reshape(-1, 2)])
    owner = np.concatenate([idx, np.repeat(np.arange(len(pieces)), ARC_POINTS)])
    order = np.argsort(owner, kind="stable")
    hulls = shapely.convex_hull(shapely.linestrings(points[order], indices=owner[order]))
    return list(hulls), base + (lo + hi) / 2.0, (hi - lo) / 2.0


@lru_cache(maxsize=1)
def _cover_ring() -> np.ndarray:
    """The corners of a regular 32-gon about the unit circle (closed): its inner radius
    is cos(π/32) > 0.995, so grown by `COVER_GROWTH` it still holds the whole circle.
    (Made on first use: importing this module loads no numpy, `domain.deferred`.)"""
    return np.stack([np.cos(np.linspace(0.0, 2 * np.pi, 33)),
                     np.sin(np.linspace(0.0, 2 * np.pi, 33))], axis=1)


@lru_cache(maxsize=4096)
def disc_cover(disc: Disc) -> BaseGeometry:
    """A polygon around the whole true circle of a base, with a margin (a 32-gon,
    placed by numpy: a buffer costs several times as much)."""
    ring = _cover_ring() * (disc.radius * COVER_GROWTH + COVER_SLACK) + (disc.x, disc.y)
    cover: BaseGeometry = shapely.polygons(ring)
    return cover


@lru_cache(maxsize=1024)
def swept_cover(path: tuple[Point2, ...], radius: float) -> BaseGeometry:
    """The ground a round base of `radius` covers moving along `path` (the path
    buffered by the radius), with a margin."""
    width = radius * COVER_GROWTH + COVER_SLACK
    line = Point(path[0]) if len(set(path)) == 1 else LineString(path)
    cover: BaseGeometry = line.buffer(width, quad_segs=8)
    return cover


def front_cover(seen_from: Disc, cover: BaseGeometry, reach: float) -> BaseGeometry:
    """The part of `cover` in the observer's closed front arc, with a margin behind its
    side line."""
    hx, hy = heading_vector(seen_from.facing)
    back = Disc(seen_from.x - hx * ARC_SLACK, seen_from.y - hy * ARC_SLACK,
                seen_from.diameter, seen_from.facing)
    part: BaseGeometry = cover.intersection(front_arc_polygon(back, reach))
    return part

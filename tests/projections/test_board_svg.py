"""Board pictures people can read: the board fills the frame (a check zooms to its
part), a grid and scale bar, labels that never overlap, players and terrain named in
a legend in words, overlays in named layers, clipped to the frame."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from itertools import combinations

from shapely.geometry import Point

from domain.ruleset import Setup
from domain.state import GameState
from projections.board_svg import Overlay, board_svg
from projections.render import Frame, LabelPlacer, text_box
from replay.service import GameService

SVG = "{http://www.w3.org/2000/svg}"
SETUP = Setup(ruleset="w40k-10", board={"width": 20, "height": 10}, players=("red", "blue"),
              terrain=({"id": "wall", "kind": "blocking",
                        "polygon": ((5, 5), (6, 5), (6, 6))},),
              units=({"id": "a", "owner": "red", "x": 3, "y": 3, "facing": 90},))


def state_of(setup: Setup = SETUP) -> GameState:
    service = GameService(":memory:")
    return service.load(service.start(setup)).state


def picture(overlays: list[Overlay], state: GameState | None = None) -> ET.Element:
    return ET.fromstring(board_svg(state or state_of(), overlays))


def size(svg: ET.Element) -> tuple[float, float]:
    return float(svg.attrib["width"]), float(svg.attrib["height"])


def texts(svg: ET.Element) -> list[str]:
    return [t.text or "" for t in svg.iter(f"{SVG}text")]


def test_the_board_fills_the_frame_and_overlays_off_it_are_clipped() -> None:
    plain = size(picture([]))

    grown = size(picture([Overlay(Point(10, 0).buffer(30), stroke="#f00")]))

    assert grown[0] == plain[0]  # the frame is the board (and its margin), not the overlay
    assert abs(plain[0] - (20 + 2 * 1.4) * 16) < 1


def test_a_check_in_one_corner_of_a_large_board_is_drawn_zoomed_in() -> None:
    big = Setup(ruleset="w40k-10", board={"width": 72, "height": 48}, players=("red", "blue"),
                units=({"id": "a", "owner": "red", "x": 3, "y": 3, "facing": 90},))
    state = state_of(big)

    whole = ET.fromstring(board_svg(state, [], whole_board=True))
    zoomed = picture([Overlay(Point(66, 4).buffer(2), stroke="#f00")], state)

    # The zoomed picture shows about 24" across, at a larger scale, and leaves out the
    # unit 60" away.
    assert size(zoomed)[0] >= 900
    assert "a" not in texts(zoomed) and "a" in texts(whole)


def test_notes_are_printed_under_the_board_wrapped() -> None:
    note = "ILLEGAL AMB-13: " + "far " * 60

    svg = picture([Overlay((0.0, 0.0), label=note, note=True)])

    lines = texts(svg)
    assert any(t.startswith("ILLEGAL AMB-13") for t in lines)
    assert sum("far" in t for t in lines) >= 2  # wrapped onto more than one line


def test_the_caption_is_words_and_the_legend_names_players_and_terrain() -> None:
    svg = picture([])

    lines = texts(svg)
    assert "Round 1: red's command phase" in lines or any(t.startswith("Round ") for t in lines)
    assert {"red", "blue", "blocking terrain (blocks sight)"} <= set(lines)
    assert not any(re.fullmatch(r".*#[0-9a-f]{6}.*", t) for t in lines)  # no hex codes


def test_terrain_and_units_are_drawn_with_their_names_and_a_scale_bar() -> None:
    svg = picture([])

    lines = texts(svg)
    assert "wall" in lines or any("wall" in (t.text or "") for t in svg.iter(f"{SVG}title"))
    assert "a" in lines
    assert any(t.startswith("6″") for t in lines)
    assert {"0", "6", "12", "18"} <= set(lines)  # the grid's inch numbers


def test_labels_of_crowded_points_never_overlap() -> None:
    frame = Frame(20, 10)
    placer = LabelPlacer(frame)

    spots = [placer.place((5.0, 5.0), f"label-{i}", 0.5) for i in range(12)]

    boxes = [text_box(x, y, f"label-{i}", 0.62, side)
             for i, spot in enumerate(spots) if spot is not None for x, y, side in [spot]]
    assert len(boxes) >= 8
    assert all(not a.intersects(b) for a, b in combinations(boxes, 2))


def test_a_label_with_no_room_becomes_a_numbered_marker_in_the_legend() -> None:
    crowd = Setup(ruleset="w40k-10", board={"width": 6, "height": 4}, players=("red", "blue"),
                  units=tuple({"id": f"unit-with-a-long-name-{i}", "owner": "red",
                               "x": 1 + i % 4, "y": 1 + i // 4 * 1.5, "facing": 0,
                               "base": 1.0}  # bases touching, not overlapping
                              for i in range(8)))
    svg = picture([], state_of(crowd))

    lines = texts(svg)
    markers = [t for t in lines if re.fullmatch(r"\d+: unit-with-a-long-name-\d", t)]
    on_board = [t for t in lines if re.fullmatch(r"unit-with-a-long-name-\d", t)]
    assert markers and len(markers) + len(on_board) == 8


def test_overlays_go_in_named_layers_with_their_owner() -> None:
    svg = picture([Overlay(Point(5, 5).buffer(2), stroke="#f00", layer="lof", group="a",
                           label="a's Line of Fire")])

    layers = [g for g in svg.iter(f"{SVG}g") if g.attrib.get("data-layer") == "lof"]
    assert layers and layers[0].attrib["data-group"] == "a"
    assert "a's Line of Fire" in texts(svg)  # a shape's long label goes to the legend


def test_a_blocked_path_is_marked_where_the_base_first_meets_the_terrain() -> None:
    from projections.overlays import path_blocked

    setup = Setup(ruleset="infinity-n4", board={"width": 24, "height": 24},
                  players=("panoceania", "nomads"),
                  terrain=({"id": "wall", "kind": "blocking",
                            "polygon": ((10, 0), (11, 0), (11, 20), (10, 20))},),
                  units=({"id": "f", "owner": "panoceania", "x": 5, "y": 10, "facing": 0,
                          "mov": [4, 4], "base": 1, "type": "LI"},
                         {"id": "z", "owner": "nomads", "x": 20, "y": 22, "facing": 0,
                          "mov": [4, 4], "base": 1, "type": "LI"}))
    state = state_of(setup)

    drawn = path_blocked(state, {"do": "move", "trooper": "f", "path": [[15, 10]]})

    cross, note = drawn
    assert cross.label == "the base meets wall (blocking) here"
    assert note.note and "4.50\" along, at (9.50, 10.00)" in note.label  # radius 0.5 short
    assert path_blocked(state, {"do": "move", "trooper": "f", "path": [[8, 10]]}) == []

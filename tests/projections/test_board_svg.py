"""Board pictures: the canvas holds every overlay, notes go under the board,
labels of units on one spot do not overprint."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from shapely.geometry import Point

from domain.ruleset import Setup
from projections.board_svg import Overlay, board_svg, label_spot
from replay.service import GameService

SETUP = Setup(ruleset="w40k-10", board={"width": 20, "height": 10}, players=("red", "blue"),
              terrain=({"id": "wall", "kind": "blocking",
                        "polygon": ((5, 5), (6, 5), (6, 6))},),
              units=({"id": "a", "owner": "red", "x": 3, "y": 3, "facing": 90},))


def picture(overlays: list[Overlay]) -> ET.Element:
    service = GameService(":memory:")
    state = service.load(service.start(SETUP)).state
    return ET.fromstring(board_svg(state, overlays))


def size(svg: ET.Element) -> tuple[float, float]:
    return float(svg.attrib["width"]), float(svg.attrib["height"])


def test_the_canvas_grows_to_hold_an_overlay_off_the_board() -> None:
    plain = size(picture([]))

    grown = size(picture([Overlay(Point(10, 0).buffer(6), stroke="#f00")]))

    assert grown[1] > plain[1] + 5 * 12  # 6" below the board edge, 12 px per inch
    assert grown[0] == plain[0]


def test_notes_are_printed_under_the_board_wrapped() -> None:
    note = "ILLEGAL AMB-13: " + "far " * 60

    svg = picture([Overlay((0.0, 0.0), label=note, note=True)])

    texts = [t.text or "" for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    assert any(t.startswith("ILLEGAL AMB-13") for t in texts)
    assert sum("far" in t for t in texts) >= 2  # wrapped onto more than one line


def test_terrain_and_units_are_drawn_with_their_names() -> None:
    svg = picture([])

    text = ET.tostring(svg, encoding="unicode")
    assert "wall (blocking)" in text and re.search(r">a<", text)


def test_labels_on_one_spot_are_stacked() -> None:
    taken: dict[tuple[float, float], int] = {}

    first = label_spot((3.0, 3.0), taken)
    second = label_spot((3.0, 3.0), taken)
    elsewhere = label_spot((8.0, 3.0), taken)

    assert first != second and first[0] == second[0] and second[1] < first[1]
    assert elsewhere == (8.3, 3.3)

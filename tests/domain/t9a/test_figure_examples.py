"""The Ambush figure (AMB-29…34) as three placement scripts, and its board pictures.

Source: seeds/ambush.es.txt, figure caption: "La unidad con la marca amarilla está
colocada en una posición válida, mientras que las dos unidades con cruces rojas no lo
están" (A-AMB-19: the image is missing, so the layout is ours).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from uuid import UUID

import pytest

from projections.board_svg import board_svg
from projections.overlays import overlays_for
from replay.service import GameService
from warledger.script import check_expectations, load_script, run_script

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
FIGURE = {
    # file: (clause the example illustrates, expected rule of the arrive step)
    "t9a-ambush-legal.yaml": ("AMB-31", None),
    "t9a-ambush-blocked.yaml": ("AMB-33", "AMB-16"),
    "t9a-ambush-too-far.yaml": ("AMB-34", "AMB-13"),
}
SVG = "{http://www.w3.org/2000/svg}"


def run_until_arrival(service: GameService, name: str) -> tuple[dict, dict, object]:
    """Run the example up to its `arrive` step: (that step's outcome, its command, state)."""
    script = load_script(EXAMPLES / name)
    index = next(i for i, s in enumerate(script.steps) if s["do"] == "arrive")
    result = run_script(service, script.model_copy(update={"steps": script.steps[: index + 1]}))
    command = {k: v for k, v in script.steps[index].items() if k != "dice"}
    return result["steps"][index], command, service.load(UUID(result["game_id"])).state


@pytest.mark.parametrize("name", sorted(FIGURE))
def test_amb_29_and_amb_30_each_figure_example_gives_its_stated_outcome(name, service):
    """AMB-30: the unit has Ambush (Board Edge) in every example."""
    script = load_script(EXAMPLES / name)

    result = run_script(service, script)

    assert check_expectations(script, result) == []
    assert script.units[0]["rules"] == {"ambush": "Board Edge"}


def test_amb_31_the_unit_with_the_yellow_mark_is_placed_legally(service):
    """AMB-31: the yellow-marked unit's placement is legal."""
    outcome, _, state = run_until_arrival(service, "t9a-ambush-legal.yaml")

    assert outcome["accepted"] and state.units["red-scouts"].status == "on_table"


def test_amb_32_and_amb_33_the_left_red_cross_has_impassable_terrain_in_between(service):
    """AMB-32, AMB-33: the left unit with a red cross breaks AMB-16."""
    outcome, _, state = run_until_arrival(service, "t9a-ambush-blocked.yaml")

    assert (outcome["accepted"], outcome["rule"]) == (False, "AMB-16")
    assert "impassable rock" in outcome["message"]
    assert state.units["red-scouts"].status == "reserve"


def test_amb_32_and_amb_34_the_right_red_cross_has_parts_more_than_6_inches_away(service):
    """AMB-32, AMB-34: the right unit with a red cross breaks AMB-13 (A-AMB-08)."""
    outcome, _, _ = run_until_arrival(service, "t9a-ambush-too-far.yaml")

    assert (outcome["accepted"], outcome["rule"]) == (False, "AMB-13")
    assert "only 2 of the unit's 4 corners" in outcome["message"]


@pytest.mark.parametrize("name", sorted(FIGURE))
def test_amb_13_and_amb_16_the_board_picture_shows_the_circle_corners_and_hull(
    name, service, tmp_path
):
    clause, rule = FIGURE[name]
    _, command, state = run_until_arrival(service, name)
    path = tmp_path / name.replace(".yaml", ".svg")

    path.write_text(board_svg(state, overlays_for(state, command)), encoding="utf-8")

    root = ET.parse(path).getroot()
    titles = [t.text or "" for t in root.iter(f"{SVG}title")]
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert root.tag == f"{SVG}svg", clause
    assert any(t.startswith('6" circle') for t in titles)
    assert any(t.startswith("hull of footprint and point") for t in titles)
    assert sum(t.startswith("c") and ('" in' in t or '" OUT' in t) for t in texts) == 4
    verdict = next(t for t in texts if t.startswith(("legal", "ILLEGAL")))
    assert verdict.startswith("legal") if rule is None else verdict.startswith(f"ILLEGAL {rule}")

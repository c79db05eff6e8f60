"""The Ambush figure (AMB-29…34) as three placement scripts, and its board pictures.

Source: seeds/ambush.es.txt, figure caption: "La unidad con la marca amarilla está
colocada en una posición válida, mientras que las dos unidades con cruces rojas no lo
están" (A-AMB-19: the image is missing, so the layout is ours).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain.state import GameState
from projections.board_svg import board_svg
from projections.overlays import overlays_for
from replay.service import GameService
from warledger.cli import main
from warledger.script import check_expectations, load_script, run_script

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
FIGURE = {
    # file: (clause the example illustrates, expected rule of the arrive step)
    "t9a-ambush-legal.yaml": ("AMB-31", None),
    "t9a-ambush-blocked.yaml": ("AMB-33", "AMB-16"),
    "t9a-ambush-too-far.yaml": ("AMB-34", "AMB-13"),
}
SVG = "{http://www.w3.org/2000/svg}"


def run_until_arrival(
    service: GameService, name: str
) -> tuple[dict[str, Any], dict[str, Any], GameState]:
    """Run the example up to its `arrive` step: (that step's outcome, its command, state)."""
    script = load_script(EXAMPLES / name)
    index = next(i for i, s in enumerate(script.steps) if s["do"] == "arrive")
    result = run_script(service, script.model_copy(update={"steps": script.steps[: index + 1]}))
    command = {k: v for k, v in script.steps[index].items() if k != "dice"}
    return result["steps"][index], command, service.load(UUID(result["game_id"])).state


@pytest.mark.parametrize("name", sorted(FIGURE))
def test_amb_29_and_amb_30_each_figure_example_gives_its_stated_outcome(
    name: str, service: GameService
) -> None:
    """AMB-30: the unit has Ambush (Board Edge) in every example."""
    script = load_script(EXAMPLES / name)

    result = run_script(service, script)

    assert check_expectations(script, result) == []
    assert script.units[0]["rules"] == {"ambush": "Board Edge"}


def test_amb_31_the_unit_with_the_yellow_mark_is_placed_legally(service: GameService) -> None:
    """AMB-31: the yellow-marked unit's placement is legal."""
    outcome, _, state = run_until_arrival(service, "t9a-ambush-legal.yaml")

    assert outcome["accepted"] and outcome["rule"] == "AMB-18"
    scouts = state.units["red-scouts"]
    assert (scouts.status, scouts.x, scouts.y, scouts.facing) == ("on_table", 36.0, 2.5, 90.0)


def test_amb_32_and_amb_33_the_left_red_cross_has_impassable_terrain_in_between(
    service: GameService,
) -> None:
    """AMB-32, AMB-33: the left unit with a red cross breaks AMB-16."""
    outcome, _, state = run_until_arrival(service, "t9a-ambush-blocked.yaml")

    assert (outcome["accepted"], outcome["rule"]) == (False, "AMB-16")
    assert "impassable rock" in outcome["message"]
    assert state.units["red-scouts"].status == "reserve"


def test_amb_32_and_amb_34_the_right_red_cross_has_parts_more_than_6_inches_away(
    service: GameService,
) -> None:
    """AMB-32, AMB-34: the right unit with a red cross breaks AMB-13 (A-AMB-08)."""
    outcome, _, _ = run_until_arrival(service, "t9a-ambush-too-far.yaml")

    assert (outcome["accepted"], outcome["rule"]) == (False, "AMB-13")
    assert "only 2 of the unit's 4 corners" in outcome["message"]
    assert "(corner distances: 7.28\", 7.28\", 5.39\", 5.39\")" in outcome["message"]


@pytest.mark.parametrize("name", sorted(FIGURE))
def test_amb_13_and_amb_16_the_board_picture_shows_the_circle_corners_and_hull(
    name: str, service: GameService, tmp_path: Path
) -> None:
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


def test_amb_16_warledger_board_draws_a_refused_placement_at_an_event(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The judge's view of the left red cross (AMB-33): `warledger board DB GAME --at N
    --svg FILE --command ARRIVE` draws the rock that blocks the hull, and the verdict."""
    db, svg = str(tmp_path / "w.db"), tmp_path / "blocked.svg"
    script = load_script(EXAMPLES / "t9a-ambush-blocked.yaml")
    command = next(s for s in script.steps if s["do"] == "arrive")
    assert main(["run", str(EXAMPLES / "t9a-ambush-blocked.yaml"), "--db", db]) == 0

    code = main(["board", db, "last", "--at", "20", "--svg", str(svg),
                 "--command", json.dumps(command)])

    assert code == 0 and "at event 20" in capsys.readouterr().out
    root = ET.parse(svg).getroot()
    titles = [t.text or "" for t in root.iter(f"{SVG}title")]
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert "impassable rock blocks (AMB-16)" in titles
    assert "ILLEGAL AMB-16: impassable rock lies between red-scouts's footprint and the chosen " \
        "point (12, 0)" in texts
    assert "Round 2: red's movement phase" in texts

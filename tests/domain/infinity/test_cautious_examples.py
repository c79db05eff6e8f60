"""The seed's worked example, CAU-22 … CAU-24, as the scripts in examples/, and the
per-player view of a Hidden Deployment trooper."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from uuid import UUID

import orjson

from domain.geometry import Obstacles, in_front_arc
from domain.infinity.cautious import aro_verdict, watchers_at
from domain.infinity.sight import blocking_terrain, has_lof
from domain.infinity.state import InfinityState
from projections.state_view import state_view
from replay.export import export_lines
from replay.service import GameService
from warledger.script import check_expectations, load_script, run_script

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def run(service: GameService, name: str) -> tuple[dict[str, Any], InfinityState]:
    script = load_script(EXAMPLES / name)
    result = run_script(service, script)
    assert check_expectations(script, result) == []
    state = service.load(UUID(result["game_id"])).state
    assert isinstance(state, InfinityState)
    return result, state


def test_cau_22_the_fusilier_starts_behind_the_tall_building_out_of_every_nomad_lof(
        service: GameService) -> None:
    """CAU-22: the Fusilier starts in Total Cover, out of every Nomad's LoF (CAU-11)."""
    _, state = run(service, "infinity-cautious-no-aro.yaml")

    fusilier = state.trooper("fusilier")
    start = fusilier.base_at((10.0, 11.0))
    obstacles = blocking_terrain(state)
    nomads = [t for t in state.troopers() if t.owner == "nomads"]
    assert {t.id for t in nomads if t.marker == "camouflage"} == {"camo"}
    # Each Nomad faces the Fusilier's start, or sees all around (the marker): only the
    # tall building and the container hide it.
    assert all(n.id == "camo" or in_front_arc(n.base_at(n.position), start) for n in nomads)
    assert not any(has_lof(n, start, obstacles) for n in nomads)
    assert has_lof(state.trooper("camo"), start, Obstacles([]))
    assert watchers_at(state, fusilier, (10.0, 11.0)) == []


def test_cau_23_the_fusilier_moves_part_of_his_first_mov_to_behind_the_container(
        service: GameService) -> None:
    """CAU-23: part of his first MOV, to behind a container, still unseen (CAU-12)."""
    result, state = run(service, "infinity-cautious-no-aro.yaml")

    fusilier = state.trooper("fusilier")
    assert result["steps"][1]["accepted"]
    assert state.last_paths == [[(10.0, 11.0), (13.5, 11.0)]]  # 3.5" of MOV 4
    assert watchers_at(state, fusilier, (13.5, 11.0)) == []
    # the fusilier now stands at its end: the verdict on the path it took is CAU-10
    assert aro_verdict(state, fusilier, [(10.0, 11.0), (13.5, 11.0)]).rule == "CAU-10"


def test_cau_24_no_nomad_not_even_the_camouflage_marker_can_declare_an_aro(
        service: GameService) -> None:
    """CAU-24: no Nomad, the Camouflage Marker included, can declare an ARO."""
    result, _ = run(service, "infinity-cautious-no-aro.yaml")

    assert result["steps"][1]["rule"] == "CAU-10"
    assert "ReactionWindowOpened" not in result["steps"][1]["events"]
    assert [s["rule"] for s in result["steps"][2:]] == ["CORE-NO-WINDOW"] * 2


def test_cau_13_counterpart_ending_in_a_nomad_zoc_generates_aros(
        service: GameService) -> None:
    """CAU-13: the same move ending in a Nomad's ZoC generates AROs; CAU-21 refuses the
    Hidden Deployment trooper."""
    result, state = run(service, "infinity-cautious-aro.yaml")

    assert result["steps"][1]["rule"] == "CAU-13"
    assert result["steps"][1]["message"].endswith("it ends inside zero's ZoC (7.50\" away)")
    assert result["steps"][2]["rule"] == "CAU-21"
    assert result["steps"][5]["rule"] == "CORE-ARO-LOF"
    assert result["steps"][6]["accepted"]
    assert state.trooper("fusilier").x == 13.5


def test_cau_20_no_fact_shows_the_hidden_trooper_to_its_opponent(
        service: GameService) -> None:
    """CAU-20, CAU-21: the Hidden Deployment trooper's refused ARO writes nothing, and no
    fact in PanOceania's export names it or gives its position."""
    result, state = run(service, "infinity-cautious-aro.yaml")

    lines = export_lines(service.stored_events(UUID(result["game_id"])), "panoceania")
    text = "\n".join(orjson.dumps(line).decode() for line in lines)
    assert result["steps"][2]["events"] == []
    assert "hidden-hacker" not in text
    assert "hidden-hacker" in state.units


def test_cau_20_hidden_deployment_is_hidden_from_the_opponents_view(
        service: GameService) -> None:
    """CAU-20: the Hidden Deployment trooper is not shown to its opponent."""
    _, state = run(service, "infinity-cautious-aro.yaml")

    assert "hidden-hacker" in state_view(state)["units"]
    assert "hidden-hacker" in state_view(state, "nomads")["units"]
    assert "hidden-hacker" not in state_view(state, "panoceania")["units"]

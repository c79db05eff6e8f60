"""The examples conform to docs/CONTRACT.md, checked against the document itself: the
result and step fields of section 3, the refusal rules it allows, and the state view
fields, unit statuses and window kinds of section 4 are read from its text."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson
import pytest

from warledger.cli import main

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = (ROOT / "docs" / "CONTRACT.md").read_text(encoding="utf-8")
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))


def section(number: int) -> str:
    """The text of `## N.` up to the next section."""
    return re.split(r"^## ", CONTRACT, flags=re.M)[number]


def json_blocks(text: str) -> list[Any]:
    return [orjson.loads(block.replace("{ }", "{}").replace("…", ""))
            for block in re.findall(r"```json\n(.*?)```", text, flags=re.S)]


RESULT = json_blocks(section(3))[0]
STATE = json_blocks(section(4))[0]
STATUSES = re.findall(r"`(\w+)`", re.search(r"`status` is one of:([^.]*)\.", section(4))[1])
KINDS = re.findall(r'"(\w+)"', re.search(r'"kind": ([^,]*),', section(4))[1])
CLAUSE_IDS = set(re.findall(r"^\| ([A-Z]+-\d+) \|", (ROOT / "seeds" / "CLAUSES.md").read_text(),
                            flags=re.M))
CORE_IDS = set(re.findall(r"^\| (CORE-[A-Z-]+) \|",
                          (ROOT / "seeds" / "INTERPRETATIONS.md").read_text(), flags=re.M))


def test_the_contract_is_read_as_expected() -> None:
    assert set(RESULT) == {"game_id", "steps", "state"}
    assert STATUSES == ["reserve", "on_table", "removed"]
    assert {"aro", "stratagem", "undo"} <= set(KINDS)
    assert "AMB-13" in CLAUSE_IDS and "CORE-PHASE" in CORE_IDS


def check_state(state: dict[str, Any]) -> None:
    assert set(STATE) <= set(state)
    for field in ("round",):
        assert isinstance(state[field], int)
    assert isinstance(state["finished"], bool)
    assert re.fullmatch(r"[a-z][a-z0-9_]*", state["phase"]), "phase in lower snake case"
    assert state["active_player"] in state["players"]
    assert all(isinstance(p["cp"], int) for p in state["players"].values())
    unit_fields = set(next(iter(STATE["units"].values())))
    for unit_id, unit in state["units"].items():
        assert unit["status"] in STATUSES, unit_id
        assert unit["owner"] in state["players"], unit_id
        if unit["status"] == "on_table":
            assert unit_fields <= set(unit), unit_id
            assert all(isinstance(unit[k], float | int) for k in ("x", "y", "facing")), unit_id
    window = state["reaction_window"]
    if window is not None:
        assert window["kind"] in KINDS and isinstance(window["eligible"], list)
        assert isinstance(window["declared"], dict)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_an_example_run_follows_the_contract(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["run", str(path), "--json"])
    result = orjson.loads(capsys.readouterr().out)

    assert code == 0 and set(result) == set(RESULT)
    step_fields = set(RESULT["steps"][0])
    for index, step in enumerate(result["steps"]):
        assert set(step) == step_fields and step["index"] == index
        assert all(isinstance(e, str) for e in step["events"])
        if not step["accepted"]:
            assert step["events"] == [] and isinstance(step["message"], str)
            assert step["rule"] in CLAUSE_IDS | CORE_IDS | {"INPUT"}, step["rule"]
        elif step["rule"] is not None:
            assert step["rule"] in CLAUSE_IDS | CORE_IDS, step["rule"]
    check_state(result["state"])

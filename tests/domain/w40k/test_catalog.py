"""Stratagems as data: each states CP (STR-03), WHEN (STR-04), TARGET (STR-05),
EFFECT (STR-06) and RESTRICTIONS (STR-07); the core catalog (STR-18, RULINGS
over A-STR-01) and codex catalogs (STR-20), validated by one schema."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from domain.errors import ScriptError
from domain.w40k.catalog import Catalog, catalog_json_schema, core_catalog, validate_catalogs
from warledger.script import load_script

from .conftest import Run
from .helpers import SHOOT_B1, TO_RED_SHOOTING, codex, proactive, step

CODEX_FILE = Path(__file__).parent / "data" / "codex-test.yaml"

#: RULINGS.md (40k), "Stratagems are data".
RULINGS_COSTS = {
    "command-re-roll": 1, "epic-challenge": 1, "insane-bravery": 1, "grenade": 1,
    "tank-shock": 1, "rapid-ingress": 1, "fire-overwatch": 1, "go-to-ground": 1,
    "smokescreen": 1, "counter-offensive": 2, "heroic-intervention": 2,
}


def test_str_18_the_core_catalog_ships_the_11_core_stratagems_with_their_cp() -> None:
    assert {s.id: s.cp for s in core_catalog().stratagems} == RULINGS_COSTS


@pytest.mark.parametrize(("clause", "section"), [
    ("STR-03", "cp"), ("STR-04", "when"), ("STR-05", "target"), ("STR-06", "effect"),
])
def test_str_03_to_06_a_stratagem_without_its_section_is_not_a_valid_entry(
    clause: str, section: str
) -> None:
    entry = proactive("bolter-drill")
    del entry[section]

    with pytest.raises(ScriptError, match=section):
        validate_catalogs([codex(entry)])


def test_str_07_restrictions_are_data_and_default_to_none() -> None:
    entry = Catalog.model_validate(codex(proactive("bolter-drill"))).stratagems[0]

    assert entry.restrictions.once_per is None
    assert core_catalog().stratagems[3].restrictions.once_per == "battle"  # Insane Bravery


def test_str_20_a_codex_catalog_file_adds_stratagems_players_can_use(run: Run) -> None:
    contempt = {"by": "blue", "do": "use_stratagem", "stratagem": "armour-of-contempt",
                "targets": ["b1"]}

    result = run([*TO_RED_SHOOTING, SHOOT_B1, contempt], catalogs=[str(CODEX_FILE)])

    assert step(result, 4)["accepted"], step(result, 4)
    assert "armour_of_contempt" in result["state"]["units"]["b1"]["conditions"]


def test_str_20_codex_files_are_inlined_so_a_replay_reads_no_file() -> None:
    inlined = validate_catalogs([str(CODEX_FILE)])

    assert inlined[0]["source"] == "Codex: Test Marines"
    assert inlined[0]["stratagems"][0]["id"] == "armour-of-contempt"


@pytest.mark.parametrize(("catalog", "message"), [
    (codex({**proactive("x"), "cp": -1}), r"stratagems\.0\.cp: Input should be greater"),
    (codex({**proactive("x"), "category": "trick"}), r"stratagems\.0\.category"),
    (codex({**proactive("x"), "effect": {"kind": "teleport"}}), r"effect"),
    (codex(proactive("grenade")), r"'grenade' is already defined by Core Rules"),
    (codex(proactive("x"), proactive("x")), r"appears twice"),
    ("no/such/codex.yaml", r"cannot read catalog"),
    ({"stratagems": []}, r"source: Field required"),
    (codex({**proactive("x"), "sections": [{"id": "a", "cp": 1}, {"id": "a", "cp": 5}]}),
     r"section id 'a' is used twice in 'x'"),
    (codex({**proactive("x"), "effect": {"kind": "mortal_wounds", "dice": 20_000_000,
                                         "success": 4}}), r"dice"),
])
def test_str_20_a_wrong_codex_catalog_gets_a_clear_error(catalog: Any, message: str) -> None:
    with pytest.raises(ScriptError, match=message):
        validate_catalogs([catalog])


def test_str_20_a_script_with_a_wrong_catalog_is_malformed(run: Run) -> None:
    with pytest.raises(ScriptError, match=r"options\.catalogs\[0\]"):
        run([], catalogs=[codex({**proactive("x"), "cp": "lots"})])


def test_the_catalog_json_schema_is_exported() -> None:
    schema = catalog_json_schema()

    assert schema["title"] == "Catalog"
    assert {"cp", "when", "target", "effect"} <= set(schema["$defs"]["Stratagem"]["required"])


def test_str_20_a_catalog_file_must_hold_a_catalog_not_a_path_or_text(
    tmp_path: Path,
) -> None:
    """A file holding a bare string is neither followed as a path nor quoted back."""
    secret = tmp_path / "secret.txt"
    secret.write_text("the contents of a private file\n")
    (tmp_path / "pointer.yaml").write_text("secret.txt\n")
    script_file = tmp_path / "game.yaml"
    script_file.write_text(
        "ruleset: w40k-10\nboard: {width: 48, height: 48}\nplayers: [red, blue]\n"
        "options: {catalogs: [pointer.yaml, secret.txt]}\n")

    with pytest.raises(ScriptError) as refused:
        load_script(script_file).setup()

    assert str(refused.value).endswith("options.catalogs[0]: pointer.yaml holds str, not a "
                                       "mapping")
    assert "private" not in str(refused.value)

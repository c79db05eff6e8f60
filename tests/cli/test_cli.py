"""The command line: CONTRACT output, exit codes, and clear one-line errors."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.cli_helpers import run_cli, stored_game

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"




@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    return stored_game(tmp_path, capsys)


def test_run_json_follows_the_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "run", str(EXAMPLES / "t9a-turns.yaml"), "--json")

    result = orjson.loads(out)
    assert code == 0
    assert set(result) == {"game_id", "steps", "state"}
    assert result["steps"][2] == {
        "index": 2, "accepted": False, "events": [], "rule": "CORE-NOT-YOUR-TURN",
        "message": "it is red's turn; blue cannot next_phase"}
    assert {"ruleset", "round", "active_player", "phase", "players", "units",
            "reaction_window", "finished"} <= set(result["state"])


#: Seven YAML anchors, each ten of the one before: 10**7 values from a few lines.
ANCHOR_BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{name}: &{name} [{', '.join(['*' + before] * 10)}]\n"
    for before, name in zip("abcdef", "bcdefg", strict=True))


@pytest.mark.parametrize("text, fragment", [
    ("ruleset: [", "not valid YAML/JSON"),
    ("- 1\n- 2\n", "must be a mapping"),
    ("ruleset: chess\nboard: {width: 1, height: 1}\nplayers: [a]\n", "unknown ruleset"),
    ("ruleset: t9a\nboard: {width: -1, height: 1}\nplayers: [a]\n", "board.width"),
    ("ruleset: t9a\nboard: {width: 9, height: 9}\nplayers: [a, a]\n", "distinct"),
    ("ruleset: t9a\nboard: {width: 9, height: 9}\nplayers: [a]\nunits: [{id: u, owner: z}]\n",
     "owner 'z' is not a player"),
    ("ruleset: t9a\nboard: {width: 9, height: 9}\nplayers: [a]\ncolour: red\n", "colour"),
    ("ruleset: t9a\nboard: {width: .inf, height: 9}\nplayers: [a]\n", "finite number"),
    ("ruleset: t9a\nboard: {width: 9, height: 9}\nplayers: [a]\n"
     "units: [{id: u, owner: a, x: .nan}]\n", "finite number"),
    ("ruleset: t9a\nruleset: w40k-10\nboard: {width: 9, height: 9}\nplayers: [a]\n",
     "the key 'ruleset' is given twice in one mapping"),
    ("ruleset: t9a\nboard: {width: 9, height: 9}\nplayers: [a]\n"
     "steps: [{by: a, by: b, do: end_turn}]\n", "the key 'by' is given twice"),
    ("ruleset: t9a\nseed: true\nboard: {width: 9, height: 9}\nplayers: [a]\n",
     "seed: Input should be a valid integer"),
    ("ruleset: t9a\nboard: {width: \"72\", height: true}\nplayers: [a]\n",
     "board.width: Input should be a valid number"),
    ("ruleset: t9a\nboard: {width: 9, height: 9}\nplayers: [a]\n"
     "units: [{id: u, owner: a, x: \"2\", y: 2}]\n", "x: Input should be a valid number"),
    ("ruleset: infinity-n4\nboard: {width: 48, height: 48}\nplayers: [a]\nterrain:\n"
     "  - {id: bow, kind: blocking, polygon: [[10, 10], [30, 20], [30, 10], [10, 20]]}\n",
     "terrain[0] (bow): its outline is not a simple polygon (Self-intersection"),
    ("ruleset: t9a\nboard: {width: 9, height: 9}\nplayers: [a]\nterrain:\n"
     "  - {id: line, kind: impassable, polygon: [[1, 1], [2, 2], [3, 3]]}\n",
     "terrain[0] (line): its outline is not a simple polygon"),
    ("ruleset: t9a\nboard: {width: 9, height: 9}\nplayers: [a]\nsteps: 3\n",
     "steps: a list of steps, not int"),
    ("a: &a [*a]\n", "a value contains itself (a YAML anchor used inside itself)"),
    ("ruleset: t9a\nboard: {width: 9, height: 9}\nplayers: ['', b]\n",
     "players: a player id cannot be empty"),
    ("ruleset: t9a\nboard: {width: 9, height: 9}\nplayers: [a]\nterrain:\n"
     "  - {id: rock, kind: impassable, polygon: [[1, 1], [2, 1], [2, 2]]}\n"
     "  - {id: rock, kind: impassable, polygon: [[5, 5], [6, 5], [6, 6]]}\n",
     "terrain[1]: the id 'rock' is used twice"),
    ("ruleset: t9a\nboard: {width: 9, height: 9}\nplayers: [a]\n"
     "units: [{id: u, owner: a, x: 1000001, y: 1}]\n", "units[0].x = 1000001 is out of range"),
    ("ruleset: t9a\nboard: {width: 9, height: 9}\nplayers: [a]\n"
     "units: [{id: u, owner: a, x: 1000000.0000001, y: 1}]\n",
     "units[0].x = 1000000.0000001 is out of range"),
    ("ruleset: t9a\nboard: {width: 9, height: 9}\nplayers: [a]\nunits: " + "[" * 80
     + "]" * 80 + "\n", "nested more than 64 deep"),
    (ANCHOR_BOMB, "more than 1,000,000 values: too large for a game"),
])
def test_a_malformed_script_exits_2_with_one_line(
    text: str, fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "bad.yaml"
    script.write_text(text)

    code, out, err = run_cli(capsys, "run", str(script), "--json")

    assert code == 2 and out == ""
    assert fragment in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_missing_script_file_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "run", "/no/such/file.yaml")

    assert code == 2 and "cannot read" in err


def test_malformed_steps_are_refused_with_input_and_the_run_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "steps.yaml"
    script.write_text(
        "ruleset: w40k-10\nboard: {width: 44, height: 60}\nplayers: [a, b]\n"
        "steps:\n  - 7\n  - {by: a, do: teleport}\n  - {by: nobody, do: end_turn}\n"
        "  - {by: a, do: end_turn, dice: [x]}\n  - {by: a, do: end_turn}\n")

    code, out, _ = run_cli(capsys, "run", str(script), "--json")

    steps = orjson.loads(out)["steps"]
    assert code == 0
    assert [s["rule"] for s in steps[:4]] == ["INPUT"] * 4
    assert "unknown command 'teleport'" in steps[1]["message"]
    assert steps[4]["accepted"] is True


def test_replay_at_n_gives_the_state_after_event_n(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Events 1-4 set the game up; 5 is step 0's StepTaken, 6 its PhaseStarted.
    code, out, _ = run_cli(capsys, "replay", db, "last", "--at", "5", "--json")
    assert code == 0 and orjson.loads(out)["phase"] == "deployment"

    code, out, _ = run_cli(capsys, "replay", db, "last", "--at", "6", "--json")
    assert code == 0 and orjson.loads(out)["phase"] == "charge"


def test_replay_at_an_impossible_event_is_a_clear_error(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli(capsys, "replay", db, "last", "--at", "999")

    assert code == 2 and "--at must be between 1 and" in err


def test_an_unknown_game_or_database_is_a_clear_error(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(capsys, "replay", db, "0000")[0] == 2
    code, _, err = run_cli(capsys, "verify", str(tmp_path / "none.db"), "last")
    assert code == 2 and "no database file" in err


def test_verify_and_reveal_pass_on_an_honest_game(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(capsys, "verify", db, "last")[0] == 0
    code, out, err = run_cli(capsys, "reveal", db, "last", "--in-progress")  # not over yet
    assert code == 0 and "seed: 7" in out and "matches" in out
    assert "warning: this game is still in progress" in err


@pytest.mark.parametrize("what", ["script", "events", "catalog"])
def test_schema_prints_json_schema(what: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "schema", what)

    schema = orjson.loads(out)
    assert code == 0 and ("properties" in schema or "oneOf" in schema or "$defs" in schema)


def test_the_events_schema_lists_every_fact(capsys: pytest.CaptureFixture[str]) -> None:
    run_cli(capsys, "schema", "events")
    from events.base import FACT_TYPES

    _, out, _ = run_cli(capsys, "schema", "events")

    assert set(FACT_TYPES) <= set(orjson.loads(out)["$defs"])


@pytest.mark.parametrize("ruleset", ["t9a", "infinity-n4", "mageknight-2", "w40k-10"])
def test_diagram_prints_mermaid(ruleset: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "diagram", ruleset)

    assert code == 0 and "stateDiagram-v2" in out and "end_turn" in out


def test_board_writes_an_svg(db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    svg = tmp_path / "b.svg"

    code, _, _ = run_cli(capsys, "board", db, "last", "--svg", str(svg))

    assert code == 0 and svg.read_text().startswith("<svg")


def test_views_projects_the_database(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "views", db)

    assert code == 0 and "projected" in out


def test_run_can_draw_every_step_for_judges(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, _ = run_cli(capsys, "run", str(EXAMPLES / "t9a-ambush-too-far.yaml"),
                         "--svg-dir", str(tmp_path / "pictures"))

    pictures = sorted((tmp_path / "pictures").glob("*.svg"))
    # Named in the log's steps: steps 1-6, and the arrival refused after step 6.
    assert code == 0 and [p.name for p in pictures] == [
        "refused-after-step-6.svg", *(f"step-{n}.svg" for n in range(1, 7))]
    refused = (tmp_path / "pictures" / "refused-after-step-6.svg").read_text()
    assert "AMB-13" in refused and "<circle" in refused
    assert "refused after step 6: red arrive red-scouts" in refused
    before = (tmp_path / "pictures" / "step-6.svg").read_text()
    assert "before step 6: red roll for Ambush" in before


def test_catalog_files_are_read_beside_the_script_not_the_working_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    codex = Path(__file__).resolve().parents[1] / "domain" / "w40k" / "data" / "codex-test.yaml"
    (folder / "codex.yaml").write_text(codex.read_text())
    (folder / "game.yaml").write_text(
        "ruleset: w40k-10\nboard: {width: 44, height: 60}\nplayers: [red, blue]\n"
        "options: {catalogs: [codex.yaml]}\n")
    (folder / "broken.yaml").write_text(
        "ruleset: w40k-10\nboard: {width: 44, height: 60}\nplayers: [red, blue]\n"
        "options: {catalogs: [nowhere.yaml]}\n")
    monkeypatch.chdir(tmp_path)

    code, _, err = run_cli(capsys, "run", str(folder / "game.yaml"), "--json")
    broken, _, why = run_cli(capsys, "run", str(folder / "broken.yaml"))

    assert code == 0, err
    assert broken == 2 and "cannot read catalogs" in why and "nowhere.yaml" in why


def test_unstorable_values_are_refused_with_input_and_leave_the_game_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "values.yaml"
    db = str(tmp_path / "values.db")
    script.write_text(
        "ruleset: w40k-10\nboard: {width: 44, height: 60}\nplayers: [a, b]\n"
        "steps:\n  - {by: a, do: request_undo, steps: 1180591620717411303424}\n"
        "  - {by: a, do: move, unit: u, x: .nan, y: 1}\n"
        "  - {by: a, do: end_turn}\n")

    code, out, _ = run_cli(capsys, "run", str(script), "--json", "--db", db)

    steps = orjson.loads(out)["steps"]
    assert code == 0 and [s["rule"] for s in steps[:2]] == ["INPUT", "INPUT"]
    assert steps[0]["message"].startswith("request_undo.steps = 1180591620717411303424 is out")
    assert steps[2]["accepted"] is True
    assert run_cli(capsys, "verify", db, "last")[0] == 0


@pytest.mark.parametrize("at", ["0", "999", "-3"])
def test_board_at_an_event_that_does_not_exist_is_a_clear_error(
    db: str, at: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli(capsys, "board", db, "last", "--at", at, "--svg",
                           str(tmp_path / "b.svg"))

    assert code == 2 and "--at must be between 1 and" in err


@pytest.mark.parametrize("command,verdict", [
    ('{"by":"red","do":"arrive","unit":"red-scouts","point":[60,0],"x":60,"y":6,"facing":90}',
     "the command would be refused: AMB-13: only 2 of the unit's 4 corners"),
    ('{"by":"red","do":"arrive","unit":"red-scouts","point":[60,0],"x":60,"y":2.5,'
     '"facing":90}', "the command would be accepted"),
    ('{"by":"blue","do":"end_turn"}', "the command would be refused: CORE-NOT-YOUR-TURN"),
])
def test_board_previews_a_command_with_the_verdict_the_rules_would_give(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, verdict: str
) -> None:
    """A judge's picture of a proposed step says what deciding it would answer (the
    refusal's clause included), and writes nothing."""
    db = str(tmp_path / "g.db")
    assert run_cli(capsys, "run", str(EXAMPLES / "t9a-ambush-too-far.yaml"), "--db", db)[0] == 0

    code, out, _ = run_cli(capsys, "board", db, "last", "--svg", str(tmp_path / "p.svg"),
                           "--command", command)
    _, events, _ = run_cli(capsys, "export", db, "last")

    assert code == 0 and verdict in out
    picture = (tmp_path / "p.svg").read_text()
    assert all(part in picture for part in verdict.removeprefix("the command ").split(": ")[:2])
    assert "UnitArrived" not in events and "T9AUnitArrived" not in events


def test_board_does_not_preview_dice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A preview never shows a die not yet rolled: it would let a player fish."""
    db = str(tmp_path / "g.db")
    assert run_cli(capsys, "run", str(EXAMPLES / "t9a-ambush-too-far.yaml"), "--db", db,
                   )[0] == 0

    code, out, _ = run_cli(capsys, "board", db, "last", "--at", "15", "--svg",
                           str(tmp_path / "p.svg"), "--command",
                           '{"by":"red","do":"roll_ambush"}')

    assert code == 0 and "would roll dice: a preview does not roll them" in out


def test_steps_of_the_wrong_kind_are_input_not_read_as_something_else(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`accept: "no"` is not a refusal (a refusal is final, CORE-UNDO-REFUSED), and
    `steps: true` is not 1."""
    script = tmp_path / "kinds.yaml"
    script.write_text(
        "ruleset: t9a\nboard: {width: 72, height: 48}\nplayers: [a, b]\nsteps:\n"
        "  - {by: a, do: next_phase}\n  - {by: a, do: request_undo, steps: true}\n"
        "  - {by: a, do: request_undo}\n  - {by: b, do: consent, accept: 'no'}\n"
        "  - {by: b, do: consent, accept: true}\n")

    code, out, _ = run_cli(capsys, "run", str(script), "--json")

    steps = orjson.loads(out)["steps"]
    assert code == 0 and [s["rule"] for s in steps[1:4:2]] == ["INPUT", "INPUT"]
    assert steps[1]["message"] == "bad request_undo step: steps: Input should be a valid integer"
    assert steps[4]["accepted"] and "StepsUndone" in steps[4]["events"]


def test_a_script_with_empty_steps_runs_no_step(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "empty.yaml"
    script.write_text("ruleset: t9a\nboard: {width: 72, height: 48}\nplayers: [a, b]\nsteps:\n")

    code, out, _ = run_cli(capsys, "run", str(script), "--json")

    assert code == 0 and orjson.loads(out)["steps"] == []


HUGE_ARRIVE = ('{"by":"red","do":"arrive","unit":"red-scouts","point":[1e308,0],"x":1e308,'
               '"y":2.5,"facing":90}')


def test_a_picture_of_a_malformed_command_shows_its_input_verdict_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "g.db")
    assert run_cli(capsys, "run", str(EXAMPLES / "t9a-ambush-too-far.yaml"), "--db", db)[0] == 0

    code, out, err = run_cli(capsys, "board", db, "last", "--svg", str(tmp_path / "p.svg"),
                             "--command", HUGE_ARRIVE)

    assert code == 0 and err == ""
    assert "would be refused: INPUT: arrive.point[0] = 1e+308 is out of range" in out


def test_run_draws_a_malformed_step_without_crashing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "huge.yaml"
    text = (EXAMPLES / "t9a-ambush-too-far.yaml").read_text()
    script.write_text(text.replace("x: 60, y: 6,", "x: 1.0e+308, y: 6,"))

    code, out, err = run_cli(capsys, "run", str(script), "--json", "--svg-dir",
                             str(tmp_path / "pictures"))

    assert code == 0 and err == ""
    assert orjson.loads(out)["steps"][6]["rule"] == "INPUT"
    assert (tmp_path / "pictures" / "step-6.svg").exists()


@pytest.mark.parametrize("make_db,message", [
    (lambda p: str(p), "cannot use the game database"),
    (lambda p: "mysql://host/db", "cannot use mysql:// databases"),
    (lambda p: (p / "notes.txt").write_text("not sqlite") and str(p / "notes.txt"),
     "cannot use the game database"),
])
def test_a_database_that_cannot_be_used_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make_db: object, message: str
) -> None:
    db = make_db(tmp_path)  # type: ignore[operator]

    code, _, err = run_cli(capsys, "games", db)

    assert code == 2 and message in err and err.count("\n") == 1 and "unexpected" not in err


def test_every_exported_fact_of_every_example_fits_the_events_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`schema events` describes facts as they are stored and exported: every field a
    fact carries (its `class_version` included) is in its schema, and every required
    one is there."""
    code, schema, _ = run_cli(capsys, "schema", "events")
    defs = orjson.loads(schema)["$defs"]
    assert code == 0
    by_type = {d["properties"]["type"]["const"]: d for d in defs.values()
               if "type" in d.get("properties", {}) and "const" in d["properties"]["type"]}
    for example in sorted(EXAMPLES.glob("*.yaml")):
        db = str(tmp_path / f"{example.stem}.db")
        assert run_cli(capsys, "run", str(example), "--db", db)[0] == 0
        _, out, _ = run_cli(capsys, "export", db, "last")
        for line in out.splitlines():
            fact = orjson.loads(line)["fact"]
            definition = by_type[fact["type"]]
            assert set(fact) <= set(definition["properties"]), (example.name, fact["type"])
            assert set(definition.get("required", [])) <= set(fact), (example.name, fact["type"])


def test_board_previews_a_consent_and_a_step_with_physical_dice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A consent needs the game's history; a step may bring its own dice (CONTRACT
    section 1), which a preview uses (it rolls no digital die)."""
    db = str(tmp_path / "g.db")
    assert run_cli(capsys, "run", str(EXAMPLES / "t9a-ambush-too-far.yaml"), "--db", db)[0] == 0
    svg = str(tmp_path / "p.svg")
    dice_out = run_cli(capsys, "board", db, "last", "--at", "15", "--svg", svg, "--command",
                       '{"by":"red","do":"roll_ambush","dice":[4]}')[1]
    run_cli(capsys, "step", db, "last", '{"by":"red","do":"request_undo"}')

    consent_out = run_cli(capsys, "board", db, "last", "--svg", svg, "--command",
                          '{"by":"blue","do":"consent","accept":true}')[1]

    assert "the command would be accepted" in dice_out
    assert "the command would be accepted" in consent_out


def test_a_step_given_a_key_twice_is_refused_before_anything_is_written(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    before = run_cli(capsys, "export", db, "last")[1]

    code, _, err = run_cli(capsys, "step", db, "last",
                           '{"by":"red","do":"next_phase","do":"end_turn"}')

    assert code == 2 and "the key 'do' is given twice in one mapping" in err
    assert run_cli(capsys, "export", db, "last")[1] == before


def test_a_picture_that_cannot_be_written_is_one_clear_line(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli(capsys, "board", db, "last", "--svg", "/no/such/dir/p.svg")

    assert code == 2
    assert err == "warledger: cannot write /no/such/dir/p.svg: No such file or directory\n"

"""Secrets stay secret, tested as independence: no output for a player depends on the
value of a fact hidden from them (principle 5).

For every example, and a game of every rule set, two games are built that differ
only in hidden values: the dice seed (every die given physically, so play is the
same), and in Infinity the id, position and facing of each trooper in Hidden
Deployment. Every `--as PLAYER` output of the first must be byte-identical to the
second's: replay (text, with its hash, and JSON, after every step), export, audit
(text and JSON, folded or not), board SVG, and the receipts of that player's steps.
The judge's outputs must differ, so each variation is real.

The one deliberate exception is the seed's commitment in `GameStarted`: a public
hash of the seed by design (commit-reveal, seeds/INTERPRETATIONS.md CORE-DICE),
masked here, and nothing else.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
import yaml

from domain.dice import seed_commitment
from replay.receipts import step_result
from replay.service import GameService
from warledger.cli import main
from warledger.script import Script, parse_script, split_step

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
GAME_ID = UUID("00000000-0000-4000-8000-00000000000a")
NOON = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
SEEDS = (23, 987654321987)

#: One small game per rule set beyond the examples (each has its seed varied).
EXTRA: dict[str, dict[str, Any]] = {
    "infinity-hidden-deployment": {
        "ruleset": "infinity-n4", "seed": 5, "board": {"width": 48, "height": 48},
        "players": ["pano", "nomads"],
        "units": [
            {"id": "fusilier", "owner": "pano", "x": 10, "y": 10, "facing": 90},
            {"id": "sniper-hd", "owner": "nomads", "x": 31.25, "y": 37.75, "facing": 270,
             "conditions": ["hidden_deployment"]},
            {"id": "zero", "owner": "nomads", "x": 40, "y": 40, "facing": 270},
        ],
        "steps": [
            {"by": "pano", "do": "next_phase"},
            # a probe: a hidden id, and in the other game no unit of that id at all
            {"by": "pano", "do": "move", "trooper": "sniper-hd", "path": [[30, 30]]},
            {"by": "pano", "do": "move", "trooper": "ghost", "path": [[30, 30]]},
            {"by": "pano", "do": "move", "trooper": "fusilier", "path": [[10, 14]]},
            {"by": "nomads", "do": "pass", "trooper": "zero"},
            {"by": "nomads", "do": "move", "trooper": "sniper-hd", "path": [[30, 30]]},
            {"by": "pano", "do": "idle"},
            {"by": "pano", "do": "request_undo", "steps": 1},
            {"by": "nomads", "do": "consent", "accept": False},
            {"by": "pano", "do": "end_turn"},
        ],
    },
}

Outputs = dict[str, str]


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """One command's stdout and stderr (and exit code), as one text."""
    code = main(list(argv))
    out = capsys.readouterr()
    return f"exit {code}\n{out.out}\n{out.err}"


def play(script: Script, db: Path) -> tuple[GameService, Outcomes]:
    """Run a script step by step with a fixed game id and clock; each player's receipts."""
    service = GameService(str(db), clock=lambda: NOON)
    service.start(script.setup(), game_id=GAME_ID)
    receipts: Outcomes = {}
    for step in script.steps:
        data, dice, _ = split_step(step)
        if data is None:
            continue
        outcome = service.handle(GAME_ID, data, dice)
        by = str(data.get("by"))
        receipts.setdefault(by, []).append(step_result(service, GAME_ID, outcome, by))
    return service, receipts


Outcomes = dict[str, list[dict[str, Any]]]


def outputs_for(
    capsys: pytest.CaptureFixture[str], db: Path, player: str | None, receipts: Outcomes,
    svg: Path, *, every_step: bool = True,
) -> Outputs:
    """Every output of a stored game for `player` (None: the judge)."""
    gid = str(GAME_ID)
    who = ["--as", player] if player else []
    service = GameService(str(db))
    last_step = service.stored_events(GAME_ID)[-1].step
    service.close()
    out: Outputs = {}
    out["export"] = cli(capsys, "export", str(db), gid, *who)
    if player is None:
        return out
    # Every step where a hidden unit is varied; where only the seed is, a few (the suite
    # runs on two cores; the seed reaches no state view, so any step shows a leak).
    steps = range(last_step + 1) if every_step else sorted({0, last_step // 2, last_step})
    for step in steps:  # the text shows the view's hash: its JSON too
        out[f"replay --step {step}"] = cli(capsys, "replay", str(db), gid, "--step", str(step),
                                           *who)
    out["replay --json"] = cli(capsys, "replay", str(db), gid, "--json", *who)
    out["replay --at 3"] = cli(capsys, "replay", str(db), gid, "--at", "3", *who)
    out["replay --at 10**6"] = cli(capsys, "replay", str(db), gid, "--at", "1000000", *who)
    for extra in ([], ["--fold"], ["--json"], ["--fold", "--json", "--lang"]):
        out[f"audit {extra}"] = cli(capsys, "audit", str(db), gid, *extra, *who)
    board = cli(capsys, "board", str(db), gid, "--svg", str(svg), *who)
    out["board"] = board + svg.read_text()
    out["receipts"] = repr(receipts.get(player or "", []))
    return out


def vary_seed(data: dict[str, Any], base: Path) -> Iterator[dict[str, Any]]:
    """The script twice, with two seeds and every die physical (what the first seed
    rolled), so play is identical and only the seed differs."""
    script = as_script(data, base)
    with_dice = copy.deepcopy(data)
    service = GameService(":memory:")
    gid = service.start(script.setup())
    for index, step in enumerate(script.steps):
        command, dice, _ = split_step(step)
        if command is None:
            continue
        outcome = service.handle(gid, command, dice)
        if outcome.accepted and dice is None:
            rolled = [v for e in service.stored_events(gid)[outcome.version - len(outcome.events):]
                      if e.fact.type == "DiceRolled" for v in e.fact.values]  # type: ignore[attr-defined]
            if rolled:
                with_dice["steps"][index]["dice"] = rolled
    service.close()
    for seed in SEEDS:
        yield {**with_dice, "seed": seed}


def vary_hidden(data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The script twice: each trooper in Hidden Deployment with another id, position
    and facing (nudged to a spot as legal as the first)."""
    hidden = [u for u in data["units"] if "hidden_deployment" in u.get("conditions", [])]
    if not hidden:
        return
    yield data
    other = copy.deepcopy(data)
    for unit in other["units"]:
        if "hidden_deployment" in unit.get("conditions", []):
            old_id, new_id = unit["id"], f"{unit['id']}-b"
            unit.update(id=new_id, x=unit["x"] + 0.375, y=unit["y"] - 0.25,
                        facing=(unit["facing"] + 90) % 360)
            # Its owner's steps name it by its new id; its opponents' steps stay as they
            # are (a probe for the old id now names no unit at all).
            other["steps"] = [renamed(step, old_id, new_id) if step.get("by") == unit["owner"]
                              else step for step in other["steps"]]
    yield other


def renamed(step: dict[str, Any], old_id: str, new_id: str) -> dict[str, Any]:
    """A step with a unit id replaced wherever it is a whole value."""
    text = yaml.safe_dump(step)
    return dict(yaml.safe_load(text.replace(f" {old_id}\n", f" {new_id}\n")))


def as_script(data: dict[str, Any], base: Path) -> Script:
    script = parse_script(copy.deepcopy(data))
    script._base_dir = base
    return script


def secret_free(outputs: Outputs, seed: int) -> Outputs:
    """The outputs with the seed's public commitment masked (the one exception)."""
    commitment = seed_commitment(seed)
    return {k: v.replace(commitment, "<commitment>") for k, v in outputs.items()}


def check_independent(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, variants: list[dict[str, Any]],
    base: Path, players: Callable[[Script], list[str]], *, every_step: bool = True,
) -> None:
    runs = []
    for number, data in enumerate(variants):
        script = as_script(data, base)
        db = tmp_path / f"v{number}.db"
        service, receipts = play(script, db)
        service.close()
        runs.append((script, db, receipts))
    (first, db_a, rec_a), (_, db_b, rec_b) = runs
    judge_a = outputs_for(capsys, db_a, None, rec_a, tmp_path / "a.svg")
    judge_b = outputs_for(capsys, db_b, None, rec_b, tmp_path / "a.svg")
    assert judge_a["export"] != judge_b["export"], "the variation changed nothing"
    for player in players(first):
        a = secret_free(outputs_for(capsys, db_a, player, rec_a, tmp_path / "a.svg",
                                    every_step=every_step), runs[0][0].seed)
        b = secret_free(outputs_for(capsys, db_b, player, rec_b, tmp_path / "a.svg",
                                    every_step=every_step), runs[1][0].seed)
        for name in a:
            assert a[name] == b[name], f"{player}'s `{name}` depends on a hidden value"


def example_data(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def opponents_of_hidden(script: Script) -> list[str]:
    owners = {u["owner"] for u in script.units if "hidden_deployment" in u.get("conditions", [])}
    return [p for p in script.players if p not in owners]


CASES = [(p.stem, example_data(p), p.parent) for p in EXAMPLES] + [
    (name, data, ROOT / "examples") for name, data in EXTRA.items()]


@pytest.mark.parametrize(("name", "data", "base"), CASES, ids=[c[0] for c in CASES])
def test_no_player_output_depends_on_the_seed(
    name: str, data: dict[str, Any], base: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    check_independent(capsys, tmp_path, list(vary_seed(data, base)), base,
                      lambda script: list(script.players), every_step=False)


HIDDEN_CASES = [c for c in CASES if list(vary_hidden(c[1]))]


@pytest.mark.parametrize(("name", "data", "base"), HIDDEN_CASES, ids=[c[0] for c in HIDDEN_CASES])
def test_no_opponent_output_depends_on_a_hidden_troopers_id_position_or_facing(
    name: str, data: dict[str, Any], base: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    check_independent(capsys, tmp_path, list(vary_hidden(data)), base, opponents_of_hidden)


def test_every_rule_set_is_covered() -> None:
    covered = {data["ruleset"] for _, data, _ in CASES}
    assert covered == {"t9a", "infinity-n4", "mageknight-2", "w40k-10"}
    assert len(HIDDEN_CASES) >= 2


def test_naming_a_hidden_enemy_is_refused_exactly_as_naming_no_unit(service: GameService) -> None:
    """CORE-OWNER would confirm that the id exists: it must read as INPUT, word for word."""
    script = as_script(EXTRA["infinity-hidden-deployment"], ROOT)
    game_id = service.start(script.setup())
    assert service.handle(game_id, {"by": "pano", "do": "next_phase"}).accepted

    hidden = service.handle(game_id, {"by": "pano", "do": "move", "trooper": "sniper-hd",
                                      "path": [[30, 30]]})
    unknown = service.handle(game_id, {"by": "pano", "do": "move", "trooper": "sniper-hx",
                                       "path": [[30, 30]]})
    own = service.handle(game_id, {"by": "pano", "do": "move", "trooper": "zero",
                                   "path": [[30, 30]]})

    assert (hidden.rule, unknown.rule) == ("INPUT", "INPUT")
    assert hidden.message == "there is no unit 'sniper-hd' in this game"
    assert unknown.message == "there is no unit 'sniper-hx' in this game"
    assert (own.rule, own.message) == ("CORE-OWNER", "zero belongs to nomads; pano cannot order it")


def test_a_timestamp_tells_when_a_command_came_not_how_long_deciding_took(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """How long a decision takes can depend on hidden units (geometry against them): a
    timestamp read after deciding would carry it into every player's export."""
    import replay.service

    now = [NOON]
    service = GameService(":memory:", clock=lambda: now[0])
    game_id = service.start(as_script(EXTRA["infinity-hidden-deployment"], ROOT).setup())
    real_decide = replay.service.settle

    def slow_decide(*args: Any, **kwargs: Any) -> Any:
        now[0] = now[0].replace(minute=5)  # deciding took five minutes
        return real_decide(*args, **kwargs)

    monkeypatch.setattr(replay.service, "settle", slow_decide)
    assert service.handle(game_id, {"by": "pano", "do": "next_phase"}).accepted

    assert service.stored_events(game_id)[-1].timestamp == NOON

"""Forged logs whose hash chains are RECOMPUTED after the edit: only re-deciding can tell.

Each forgery starts from a pinned log (tests/fixtures/pinned), edits its facts
the way someone with the database file and the hash function would, rebuilds
every `prev_hash` and `hash` so the chain is whole again, and stores it in a
fresh SQLite file. `warledger verify` must exit 1 and name the first bad event.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain.dice import seed_commitment
from events.envelope import GENESIS_HASH, chain_hash, hashed_body
from replay.service import GameService
from replay.verify import verify_game
from tests.pinned import FOLDER, load_rows, read_fixture
from warledger.cli import main

Rows = list[dict[str, Any]]


def pinned(name: str) -> dict[str, Any]:
    return copy.deepcopy(read_fixture(FOLDER / f"{name}.json"))


def rechain(fixture: dict[str, Any]) -> None:
    """Renumber the rows 1, 2, … and recompute every link and hash, as a forger would."""
    prev = GENESIS_HASH
    for version, row in enumerate(fixture["events"], start=1):
        body = row["body"]
        row["version"] = version
        body["prev_hash"] = prev
        body["hash"] = chain_hash(hashed_body(UUID(fixture["game_id"]), version,
                                              body["timestamp"], body["step"], prev,
                                              body["fact"]))
        prev = body["hash"]


def store(fixture: dict[str, Any], tmp_path: Path) -> tuple[str, UUID]:
    db = str(tmp_path / "forged.db")
    service = GameService(db)
    game_id = load_rows(service, fixture)
    service.close()
    return db, game_id


def fact(fixture: dict[str, Any], version: int) -> dict[str, Any]:
    row = fixture["events"][version - 1]
    assert row["version"] == version
    result: dict[str, Any] = row["body"]["fact"]
    return result


def verify_cli(db: str, game_id: UUID, capsys: pytest.CaptureFixture[str],
               *extra: str) -> tuple[int, str]:
    code = main(["verify", db, str(game_id), *extra])
    return code, capsys.readouterr().out


# -- the forgeries: (pinned log, edit, first bad event, words of the reason) --------
def change_digital_die(f: dict[str, Any]) -> None:
    """The second roll of the dice game was a digital 2; the forger makes it a 6."""
    fact(f, 7)["values"] = [6]
    fact(f, 8)["message"] = "rolled 6"


def change_physical_die_in_its_roll_only(f: dict[str, Any]) -> None:
    """The grenade's dice as recorded by the roll differ from the step's physical dice."""
    fact(f, 31)["values"] = [6, 6, 6, 6, 6, 6]
    fact(f, 32)["values"] = [6, 6, 6, 6, 6, 6]


def change_move_coordinate(f: dict[str, Any]) -> None:
    """r2 moved to (20, 14); the log now says (20, 15)."""
    fact(f, 13)["y"] = 15.0


def change_move_to_an_illegal_one(f: dict[str, Any]) -> None:
    """The charge move and its command both moved to where no charge can end."""
    fact(f, 55)["command"].update(x=40.0, y=40.0)
    fact(f, 56).update(x=40.0, y=40.0)


def add_a_fact_inside_a_step(f: dict[str, Any]) -> None:
    f["events"].insert(13, copy.deepcopy(f["events"][7]))  # a CP gain after UnitMoved
    f["events"][13]["body"]["step"] = 2


def add_a_fact_after_a_step(f: dict[str, Any]) -> None:
    extra = copy.deepcopy(f["events"][6])  # ClauseApplied of step 1
    extra["body"]["step"] = 6
    f["events"].insert(32, extra)  # after MortalWoundsRolled, the end of step 6


def leave_out_a_fact(f: dict[str, Any]) -> None:
    del f["events"][29]  # CommandPointsSpent of the grenade: it was never paid


def leave_out_the_last_fact_of_a_step(f: dict[str, Any]) -> None:
    del f["events"][31]  # MortalWoundsRolled, the grenade's last fact


def reorder_two_steps(f: dict[str, Any]) -> None:
    """Steps 2 (roll, events 6-8) and 3 (next_phase, 9-10) of the dice game swapped."""
    rows = f["events"]
    roll, phase = rows[5:8], rows[8:10]
    for row in phase:
        row["body"]["step"] = 2
    fact_of(phase[0])["step"] = 2
    for row in roll:
        row["body"]["step"] = 3
    fact_of(roll[0])["step"] = 3
    rows[5:10] = [*phase, *roll]


def fact_of(row: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = row["body"]["fact"]
    return result


def seal_another_seed(f: dict[str, Any]) -> None:
    fact(f, 2)["seed"] = 20261204  # its first die is also a 2: only the commitment tells


def seal_another_seed_and_commit_to_it(f: dict[str, Any]) -> None:
    """A new seed with a matching commitment: the digital dice no longer follow."""
    fact(f, 1)["seed_commitment"] = seed_commitment(20261202)
    fact(f, 2)["seed"] = 20261202


FORGERIES: list[tuple[str, Callable[[dict[str, Any]], None], int, str]] = [
    ("test-dice-undo-redo", change_digital_die, 7, "DiceRolled"),
    ("w40k-battle-round", change_physical_die_in_its_roll_only, 31, "DiceRolled"),
    ("w40k-battle-round", change_move_coordinate, 13, "UnitMoved"),
    ("w40k-battle-round", change_move_to_an_illegal_one, 55, "refused on re-decision"),
    ("w40k-battle-round", add_a_fact_inside_a_step, 14, "CommandPointsGained"),
    ("w40k-battle-round", add_a_fact_after_a_step, 33, "do not produce this event"),
    ("w40k-battle-round", leave_out_a_fact, 30, "CommandPointsSpent"),
    ("w40k-battle-round", leave_out_the_last_fact_of_a_step, 32, "MortalWoundsRolled is missing"),
    ("test-dice-undo-redo", reorder_two_steps, 8, "refused on re-decision"),
    ("test-dice-undo-redo", seal_another_seed, 2, "commit"),
    ("test-dice-undo-redo", seal_another_seed_and_commit_to_it, 4, "DiceRolled"),
]


@pytest.mark.parametrize(("name", "edit", "bad", "words"), FORGERIES,
                         ids=[edit.__name__ for _, edit, _, _ in FORGERIES])
def test_a_forgery_with_a_recomputed_chain_is_named_at_its_first_bad_event(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
    name: str, edit: Callable[[dict[str, Any]], None], bad: int, words: str,
) -> None:
    fixture = pinned(name)
    edit(fixture)
    rechain(fixture)
    db, game_id = store(fixture, tmp_path)

    verdict = verify_game(GameService(db), game_id)
    code, out = verify_cli(db, game_id, capsys)

    assert (verdict.ok, verdict.bad_version) == (False, bad), verdict.line()
    assert words in verdict.reason
    assert code == 1 and out.startswith(f"BAD event {bad}:")


def test_the_unforged_copy_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The forger's own rechaining changes nothing when nothing was edited."""
    fixture = pinned("w40k-battle-round")
    rechain(fixture)
    assert fixture == pinned("w40k-battle-round")
    db, game_id = store(fixture, tmp_path)

    assert verify_cli(db, game_id, capsys)[0] == 0


def edit_snapshot(f: dict[str, Any], reseal: bool) -> int:
    snapshot = f["snapshots"][-1]
    state = snapshot["body"]["state"]
    state["round"] = 7
    if reseal:
        state["__state_hash__"] = chain_hash(
            {k: v for k, v in state.items() if not k.startswith("__")})
    return int(snapshot["version"])


@pytest.mark.parametrize("reseal", [True, False], ids=["resealed", "seal-left-as-is"])
def test_a_snapshot_that_disagrees_with_the_log_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], reseal: bool,
) -> None:
    fixture = pinned("test-dice-undo-redo")
    version = edit_snapshot(fixture, reseal)
    db, game_id = store(fixture, tmp_path)

    code, out = verify_cli(db, game_id, capsys)

    assert code == 1 and out.startswith(f"BAD event {version}:") and "snapshot" in out


def test_an_honest_game_with_snapshots_undos_and_redos_verifies_with_its_receipt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    fixture = pinned("test-dice-undo-redo")
    types = [row["body"]["fact"]["type"] for row in fixture["events"]]
    assert {"StepsUndone", "StepsRedone"} <= set(types) and len(fixture["snapshots"]) >= 5
    db, game_id = store(fixture, tmp_path)

    code, out = verify_cli(db, game_id, capsys, "--expect-head", fixture["head_hash"])
    wrong, _ = verify_cli(db, game_id, capsys, "--expect-head", "e" * 64)

    assert code == 0 and out.startswith("ok: 36 events, 12 steps")
    assert fixture["head_hash"] in out
    assert wrong == 1


@pytest.mark.parametrize("seal", [{"__state_hash__": "0" * 64}, {"__version__": 3}])
def test_a_snapshot_whose_seal_was_altered_is_named_though_its_state_is_right(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seal: dict[str, Any],
) -> None:
    fixture = pinned("test-dice-undo-redo")
    snapshot = fixture["snapshots"][0]
    snapshot["body"]["state"].update(seal)
    db, game_id = store(fixture, tmp_path)

    code, out = verify_cli(db, game_id, capsys)

    assert code == 1 and out.startswith(f"BAD event {snapshot['version']}:")
    assert "does not match its seal" in out


def test_a_set_up_event_relabelled_as_a_step_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    fixture = pinned("w40k-battle-round")
    fixture["events"][2]["body"]["step"] = 1  # event 3, a UnitFielded of the set-up
    rechain(fixture)
    db, game_id = store(fixture, tmp_path)

    code, out = verify_cli(db, game_id, capsys)

    assert code == 1 and out.startswith("BAD event 3: it is labelled step [1]")


def test_an_old_snapshot_without_a_seal_still_verifies_when_it_agrees(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    fixture = pinned("test-dice-undo-redo")
    for snapshot in fixture["snapshots"]:
        snapshot["body"]["state"].pop("__version__")
        snapshot["body"]["state"].pop("__state_hash__")
    db, game_id = store(fixture, tmp_path)

    assert verify_cli(db, game_id, capsys)[0] == 0


def test_a_snapshot_with_half_a_seal_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    fixture = pinned("test-dice-undo-redo")
    snapshot = fixture["snapshots"][0]
    snapshot["body"]["state"].pop("__version__")
    db, game_id = store(fixture, tmp_path)

    code, out = verify_cli(db, game_id, capsys)

    assert code == 1 and out.startswith(f"BAD event {snapshot['version']}:")


def test_a_step_event_relabelled_with_another_step_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    fixture = pinned("w40k-battle-round")
    fixture["events"][12]["body"]["step"] = 3  # event 13, UnitMoved of step 2
    rechain(fixture)
    db, game_id = store(fixture, tmp_path)

    code, out = verify_cli(db, game_id, capsys)

    assert code == 1 and out.startswith("BAD event 13: it is labelled step [3]")


def test_a_snapshot_moved_into_the_middle_of_a_step_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    fixture = pinned("test-dice-undo-redo")
    snapshot = fixture["snapshots"][0]
    assert 7 not in {s["version"] for s in fixture["snapshots"]}
    snapshot["version"] = 7  # inside step 2 (events 6-8); its seal agrees
    snapshot["body"]["state"]["__version__"] = 7
    db, game_id = store(fixture, tmp_path)

    code, out = verify_cli(db, game_id, capsys)

    assert code == 1 and out.startswith("BAD event 7: a stored snapshot stands at an event")


def test_redecide_all_takes_no_snapshots_by_default() -> None:
    from replay.mapper import decode_event
    from replay.verify import redecide_all

    fixture = pinned("test-dice-undo-redo")
    game_id = UUID(fixture["game_id"])
    events = [decode_event(game_id, row["version"], row["body"]) for row in fixture["events"]]

    assert redecide_all(events) == 12


def test_a_log_that_does_not_begin_with_its_game_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    fixture = pinned("test-dice-undo-redo")
    fixture["events"][0]["body"]["step"] = 1  # GameStarted, labelled as a step
    rechain(fixture)
    db, game_id = store(fixture, tmp_path)

    code, out = verify_cli(db, game_id, capsys)

    assert code == 1 and out.startswith("BAD event 1: the log does not begin with GameStarted")


def test_a_log_with_its_sealed_seed_left_out_is_named_where_the_seed_belongs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    fixture = pinned("test-dice-undo-redo")
    del fixture["events"][1]  # SeedSealed
    rechain(fixture)
    db, game_id = store(fixture, tmp_path)

    code, out = verify_cli(db, game_id, capsys)

    assert code == 1 and out.startswith("BAD event 2: the sealed seed does not match")


def test_a_game_with_seed_0_and_digital_dice_verifies(tmp_path: Path) -> None:
    from domain.ruleset import Setup
    from tests.accepting import accept

    service = GameService(str(tmp_path / "zero.db"))
    game_id = service.start(Setup(ruleset="test-dice", board={"width": 10, "height": 10},
                                  players=("red", "blue"), seed=0))
    for _ in range(3):
        accept(service, game_id, {"do": "roll", "by": "red"})

    verdict = verify_game(service, game_id)

    assert verdict.ok, verdict.line()


def test_a_step_whose_own_number_disagrees_with_its_label_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    fixture = pinned("w40k-battle-round")
    fact(fixture, 12)["step"] = 5  # the StepTaken of step 2 says it is step 5
    rechain(fixture)
    db, game_id = store(fixture, tmp_path)

    code, out = verify_cli(db, game_id, capsys)

    assert code == 1 and out.startswith("BAD event 12: it is labelled step [2, 5]")

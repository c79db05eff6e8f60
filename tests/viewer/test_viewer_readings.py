"""What a reader of the viewer takes from it: whose units are whose, which steps the
"skip undone branches" box hides, and where a refusal and a step happened."""

from __future__ import annotations

import re
from typing import Any
from uuid import UUID

from projections.render import PLAYER_COLOURS, player_colours
from projections.viewer import viewer_game, with_refusals
from replay.audit import audit_entries, fold_entries, step_positions
from replay.service import GameService
from tests.domain.test_results import T9A, WIN

from .conftest import ROOT, store_example

RED, BLUE = PLAYER_COLOURS[0], PLAYER_COLOURS[1]


def test_a_player_named_after_a_colour_is_drawn_in_it_whatever_the_seat_order() -> None:
    assert player_colours(["red", "blue"]) == {"red": RED, "blue": BLUE}
    assert player_colours(["blue", "red"]) == {"blue": BLUE, "red": RED}
    assert player_colours(["Blue", "ann"]) == {"Blue": BLUE, "ann": RED}
    assert player_colours(["ann", "bo"]) == {"ann": RED, "bo": BLUE}


def test_blue_going_first_keeps_blue_units_blue() -> None:
    setup = T9A.model_copy(update={"players": ("blue", "red"), "metadata": None})
    service = GameService(":memory:")
    game = viewer_game(service.stored_events(service.start(setup)))
    legend = {item["text"]: item["colour"] for item in game.legend}
    blue_units = game.frames[0]["units"]["blue-knights"]
    assert BLUE in blue_units and RED not in blue_units
    assert any(colour == BLUE and "blue" in text for text, colour in legend.items()), legend


def confirmed_after_an_undo(service: GameService) -> UUID:
    """red moves on, the move is undone by consent, and the game ends with a result
    that blue confirms."""
    game_id = service.start(T9A)
    for command in ({"by": "red", "do": "next_phase"},
                    {"by": "red", "do": "request_undo", "steps": 1},
                    {"by": "blue", "do": "consent", "accept": True},
                    {"by": "red", "do": "end_game", "reason": "time", "result": WIN},
                    {"by": "blue", "do": "consent", "accept": True}):
        outcome = service.handle(game_id, command)
        assert outcome.accepted, (command, outcome)
    return game_id


def test_skipping_undone_branches_hides_what_audit_fold_leaves_out_and_no_more() -> None:
    service = GameService(":memory:")
    events = service.stored_events(confirmed_after_an_undo(service))
    frames = viewer_game(events).frames

    hidden = {f["step"] for f in frames if f["undone"] or f["talk"]}
    kept = {e.step for e in fold_entries(audit_entries(events))}
    assert hidden == {f["step"] for f in frames} - kept
    assert hidden == {1, 2, 3}  # the move, its request and the consent that undid it
    confirmation = frames[-1]
    assert confirmation["do"] == "consent" and not confirmation["talk"]


def test_a_refusal_frame_carries_no_branch_note_of_the_step_before() -> None:
    service = GameService(":memory:")
    frames = viewer_game(service.stored_events(confirmed_after_an_undo(service))).frames
    undone_at = next(i for i, f in enumerate(frames) if f["branch"])
    after = frames[undone_at]["step"]
    attempt = {"seat": "red", "at": "t", "after_step": after,
               "label": f"refused after step {after}",
               "command": {"by": "red", "do": "next_phase"},
               "rule": "CORE-NOT-YOUR-TURN", "message": "not now"}

    shown = with_refusals(frames, [attempt])

    refusal = next(f for f in shown if f.get("attempt"))
    assert refusal["branch"] == [] and refusal["undone"] is False
    assert frames[undone_at]["branch"]  # the step before keeps its own


def test_every_players_file_names_the_round_and_phase_the_command_was_given_in() -> None:
    service = GameService(":memory:")
    game_id = store_example(service, ROOT / "examples" / "infinity-cautious-aro.yaml")
    events = service.stored_events(game_id)
    where = step_positions(events)

    files: dict[str, dict[int, Any]] = {}
    for viewer in (None, "red", "blue"):
        frames = viewer_game(events, viewer).frames
        files[str(viewer)] = {f["step"]: (f["round"], f["phase"]) for f in frames}
    for name, rows in files.items():
        assert rows == {step: where[step] for step in rows}, name


def test_a_move_is_drawn_from_where_the_unit_stood_in_every_file() -> None:
    """The frame's "before" is the state before the step, not the same state object
    changed in place by applying it (the judge's file drew no move at all)."""
    service = GameService(":memory:")
    events = service.stored_events(
        store_example(service, ROOT / "examples" / "w40k-battle-round.yaml"))
    for viewer in (None, "red", "blue"):
        moved = [f for f in viewer_game(events, viewer).frames if f["do"] == "move"]
        assert moved and all("paths" in f["layers"] for f in moved), viewer
        assert all("r2 moved" in f["layers"]["paths"] for f in moved), viewer


def test_an_infinity_movement_draws_only_the_observers_its_check_asked_about() -> None:
    """CAU-13: the Cautious Movement ends inside zero's Zone of Control: zero's LoF
    and ZoC are drawn, with the part of the path inside them; the other observers'
    are not, and no Line of Fire tints the table."""
    service = GameService(":memory:")
    events = service.stored_events(
        store_example(service, ROOT / "examples" / "infinity-cautious-aro.yaml"))
    frame = next(f for f in viewer_game(events).frames if f["do"] == "cautious_move")
    drawn = frame["layers"]["lof"] + frame["layers"]["zoc"]
    assert 'data-group="zero"' in drawn
    for other in ("moderator", "alguacil", "camo"):
        assert f'data-group="{other}"' not in drawn
    assert set(re.findall(r'fill="([^"]*)"', frame["layers"]["lof"])) == {"none"}
    assert any("zero" in item["text"] for item in frame["legend"])


def test_a_refusal_frame_draws_the_check_that_refused_it_where_it_was_given() -> None:
    """The example's point: the refused `arrive` (AMB-13) is kept by `run`, and its
    frame draws the Ambush check on the board as it stood, labelled where it happened,
    with the command said as a player says it."""
    service = GameService(":memory:")
    game_id = store_example(service, ROOT / "examples" / "t9a-ambush-too-far.yaml")
    attempts = [a.as_json() for a in service.attempts(game_id)]
    assert [a["rule"] for a in attempts] == ["AMB-13"]

    frames = viewer_game(service.stored_events(game_id), attempts=attempts).frames

    refusal = next(f for f in frames if f.get("attempt"))
    assert refusal["label"] == f"refused after step {attempts[0]['after_step']}"
    assert refusal["layers"] and "ambush" in "".join(refusal["layers"]).lower()
    assert (refusal["round"], refusal["phase"]) == (2, "movement")
    assert refusal["text"].startswith("red arrive red-scouts")
    assert not set("{}[]") & set(refusal["text"]), refusal["text"]
    assert refusal["units"] == {} and refusal["events"] == []


def test_a_refusal_of_a_command_too_malformed_to_draw_still_has_its_frame() -> None:
    service = GameService(":memory:")
    game_id = store_example(service, ROOT / "examples" / "t9a-turns.yaml")
    bad = {"seat": "red", "at": "t", "after_step": 1, "label": "refused after step 1",
           "command": {"by": "red", "do": "arrive", "unit": "red-scouts", "point": "north",
                       "x": "far"},
           "rule": "INPUT", "message": "point: not a point"}

    frames = viewer_game(service.stored_events(game_id), attempts=[bad]).frames

    refusal = next(f for f in frames if f.get("attempt"))
    assert refusal["outcome"] == "refused: INPUT: point: not a point"


def test_a_refused_aro_draws_the_named_troopers_check_not_the_windows() -> None:
    """CORE-ARO-ELIGIBLE: moderator is not in the window (no LoF, far from its ZoC):
    the refusal's frame draws moderator's Line of Fire and Zone of Control against
    the path, not zero's (the trooper the window was opened for)."""
    service = GameService(":memory:")
    game_id = store_example(service, ROOT / "examples" / "infinity-cautious-aro.yaml")
    after = 2
    attempt = {"seat": "nomads", "at": "t", "after_step": after,
               "label": f"refused after step {after}",
               "command": {"by": "nomads", "do": "aro", "trooper": "moderator",
                           "skill": "shoot"},
               "rule": "CORE-ARO-ELIGIBLE", "message": "moderator may not react"}

    frames = viewer_game(service.stored_events(game_id), attempts=[attempt]).frames

    refusal = next(f for f in frames if f.get("attempt"))
    drawn = "".join(refusal["layers"].values())
    assert 'data-group="moderator"' in drawn and 'data-group="zero"' not in drawn
    assert "movement path" in drawn

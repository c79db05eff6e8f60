"""Refused attempts in the viewer: a frame each, marked "refusal", changing no unit."""

from __future__ import annotations

from projections.viewer import viewer_game, viewer_html, with_refusals
from replay.attempts import Attempt
from replay.service import GameService

from .conftest import ROOT, store_example


def test_refused_attempts_become_frames_before_the_step_they_were_made_at() -> None:
    service = GameService(":memory:")
    game_id = store_example(service, ROOT / "examples" / "t9a-turns.yaml")
    frames = viewer_game(service.stored_events(game_id)).frames
    attempts = [
        Attempt("blue", "t1", 1, {"by": "blue", "do": "next_phase"}, "CORE-NOT-YOUR-TURN",
                "it is red's Player Turn").as_json(),
        Attempt("blue", "t2", 1, {"by": "blue", "do": "end_turn"}, "CORE-NOT-YOUR-TURN",
                "still red's").as_json(),
    ]

    shown = with_refusals(frames, attempts)

    assert len(shown) == len(frames) + 2
    at = next(i for i, f in enumerate(shown) if f.get("attempt"))
    assert shown[at - 1] is frames[at - 1] and shown[at - 1]["step"] < 2
    assert [shown[at]["do"], shown[at + 1]["do"]] == ["next_phase", "end_turn"]
    assert shown[at]["outcome"] == "refused: CORE-NOT-YOUR-TURN: it is red's Player Turn"
    assert shown[at]["label"] == "refused after step 1"  # the log's steps, as audit's
    assert shown[at]["text"] == "blue next phase"  # as the viewer says its steps
    assert shown[at]["markers"] == ["refusal"] and shown[at]["units"] == {}
    assert shown[at]["events"] == [] and shown[at]["player"] == "blue"
    assert [f for f in shown if not f.get("attempt")] == frames  # the game's frames stay

    html = viewer_html(service.stored_events(game_id), attempts=attempts)
    assert html.count('"attempt":true') == 2
    assert '"outcome":"refused: CORE-NOT-YOUR-TURN: still red\'s"' in html

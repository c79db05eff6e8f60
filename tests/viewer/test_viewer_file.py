"""The viewer file: self-contained, small, escaped, and holding nothing a player may not
know (searched for in the file's bytes)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from projections.viewer import viewer_game, viewer_html
from replay.service import GameService
from warledger.cli import main
from warledger.script import load_script, run_script

from .conftest import EXAMPLES, ROOT, example_db, store_example


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_makes_a_viewer_with_a_frame_per_logged_step(path: Path) -> None:
    service = GameService(":memory:")
    game_id = store_example(service, path)
    events = service.stored_events(game_id)

    game = viewer_game(events)

    steps = sorted({e.step for e in events})
    assert [f["step"] for f in game.frames] == steps
    assert game.frames[-1]["events"][1] == events[-1].originator_version
    html = viewer_html(events)
    # Offline: no address but the SVG namespace.
    assert set(re.findall(r"https?://[\w./-]+", html)) <= {"http://www.w3.org/2000/svg"}


def infinity_game() -> tuple[GameService, list]:
    service = GameService(":memory:")
    game_id = store_example(service, ROOT / "examples" / "infinity-cautious-aro.yaml")
    return service, service.stored_events(game_id)


def test_a_players_file_holds_no_hidden_trooper_its_id_or_its_place() -> None:
    _, events = infinity_game()

    full = viewer_html(events).encode()
    seen = viewer_html(events, as_player="panoceania").encode()

    assert b"hidden-hacker" in full  # the judge's view has it ...
    assert b"hidden-hacker" not in seen  # ... panoceania's has neither its id
    hacker = b'data-x=\\"12\\" data-y=\\"4\\"'  # as the page's JSON holds it
    assert hacker in full and hacker not in seen  # ... nor its place
    assert b"SeedSealed" not in seen and b"seed" not in seen.lower().replace(b"seeds", b"")


def test_a_players_file_does_not_change_with_a_hidden_value(tmp_path: Path) -> None:
    """Moving the hidden trooper elsewhere leaves the opponent's file byte-identical:
    nothing in it (counts, numbers, layout) depends on the hidden value."""
    text = (ROOT / "examples" / "infinity-cautious-aro.yaml").read_text()
    moved = text.replace("{id: hidden-hacker, owner: nomads, x: 12, y: 4,",
                         "{id: hidden-hacker, owner: nomads, x: 30, y: 6,")
    assert moved != text

    files = []
    for number, source in enumerate((text, moved)):
        service = GameService(":memory:")
        (tmp_path / f"{number}.yaml").write_text(source)
        result = run_script(service, load_script(tmp_path / f"{number}.yaml"))
        events = service.stored_events(__import__("uuid").UUID(result["game_id"]))
        html = viewer_html(events, as_player="panoceania")
        files.append(re.sub(r"\d{4}-\d\d-\d\dT[\d:.+]+", "T", html))
    assert files[0] == files[1]


def test_text_from_a_script_is_escaped_in_the_page(tmp_path: Path) -> None:
    service = GameService(":memory:")
    text = (ROOT / "examples" / "t9a-ambush-legal.yaml").read_text()
    assert "blue-guard" in text
    (tmp_path / "t9a.yaml").write_text(text.replace("blue-guard", "<script>alert(1)</script>"))
    result = run_script(service, load_script(tmp_path / "t9a.yaml"))
    game_id = __import__("uuid").UUID(result["game_id"])
    outcome = service.handle(game_id, {"by": "judge", "do": "ruling",
                                       "text": "</script><script>alert(2)</script>"})
    assert outcome.accepted, outcome

    html = viewer_html(service.stored_events(game_id))

    assert "<script>alert" not in html and "</script><script>" not in html
    assert html.count("<script") == 2  # the data block and the page's own script


def test_a_2000_event_game_makes_a_file_under_2_mb(long_game_events: list[Any]) -> None:
    events = long_game_events

    html = viewer_html(events)

    assert len(events) >= 2000
    assert len(html.encode()) <= 2_000_000


def test_bad_input_is_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = example_db(tmp_path, "t9a-turns.yaml")

    cases = {
        ("viewer", str(tmp_path / "none.db"), "last"): "no database file",
        ("viewer", str(db), "ffffffff"): "no game 'ffffffff'",
        ("viewer", str(db), "last", "--as", "green"): "'green' is not a player",
    }
    for argv, words in cases.items():
        assert main([*argv, "-o", str(tmp_path / "x.html")]) == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "x.html").exists()


def test_after_an_infinity_game_ends_every_player_sees_the_full_game() -> None:
    """CORE-PRIVATE-AT-END: Infinity's Private Information opens at game end."""
    service = GameService(":memory:")
    game_id = store_example(service, ROOT / "examples" / "infinity-cautious-aro.yaml")
    before = viewer_html(service.stored_events(game_id), as_player="panoceania")
    outcome = service.handle(game_id, {"by": "judge", "do": "end_game"})
    assert outcome.accepted, outcome

    after = viewer_html(service.stored_events(game_id), as_player="panoceania")

    assert "hidden-hacker" not in before
    assert "hidden-hacker" in after and "Private Information is open" in after


def test_a_t9a_player_still_sees_only_their_view_after_the_game_ends() -> None:
    service = GameService(":memory:")
    game_id = store_example(service, ROOT / "examples" / "t9a-ambush-legal.yaml")
    assert service.handle(game_id, {"by": "judge", "do": "end_game"}).accepted

    html = viewer_html(service.stored_events(game_id), as_player="blue")

    assert "as seen by blue" in html or '"viewer":"blue"' in html


def test_the_line_after_a_players_file_counts_only_their_events(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Principle 5: `viewer --as` says how many events the player's file holds, as
    their export numbers them, not how many the log holds (CAU hidden troopers)."""
    db = example_db(tmp_path, "infinity-cautious-aro.yaml")
    out = tmp_path / "x.html"
    assert main(["viewer", str(db), "last", "-o", str(out)]) == 0
    full = int(re.findall(r"(\d+) events", capsys.readouterr().out)[0])
    assert main(["export", str(db), "last", "--as", "nomads"]) == 0
    theirs = len(capsys.readouterr().out.splitlines())
    assert theirs < full
    assert main(["viewer", str(db), "last", "-o", str(out), "--as", "nomads"]) == 0
    assert f"as nomads may see it, {theirs} events" in capsys.readouterr().out


def test_as_judge_points_to_the_full_view(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """The judge is a reserved seat, not a player: `--as judge` is one clear line
    that says the judge's view is the one without `--as`."""
    db = example_db(tmp_path, "t9a-turns.yaml")
    for argv in (["export", str(db), "last"], ["audit", str(db), "last"],
                 ["viewer", str(db), "last", "-o", str(tmp_path / "x.html")]):
        assert main([*argv, "--as", "judge"]) == 2
        err = capsys.readouterr().err
        assert "leave out --as for the judge's view" in err and err.count("\n") == 1


def test_after_an_infinity_game_ends_the_line_counts_the_players_events(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CORE-PRIVATE-AT-END: once the game is over the player's file shows every unit
    from the end on, and is still built from their own events: the line after it
    counts what their export counts."""
    db = example_db(tmp_path, "infinity-turns.yaml")
    out = tmp_path / "x.html"
    assert main(["export", str(db), "last", "--as", "red"]) == 0
    theirs = len(capsys.readouterr().out.splitlines())
    assert main(["viewer", str(db), "last", "-o", str(out), "--as", "red"]) == 0
    assert f"as red may see it, {theirs} events" in capsys.readouterr().out

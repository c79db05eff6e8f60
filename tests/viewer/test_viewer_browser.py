"""The viewer in a real browser (Debian's Chromium, driven by Playwright): stepping with
keys and buttons, deep links, layers, undone branches, the dice panel, seek time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from projections.viewer import viewer_html
from replay.service import GameService

from .conftest import EXAMPLES, ROOT, Page, long_game, store_example


def write_viewer(tmp_path: Path, example: str, as_player: str | None = None) -> Path:
    service = GameService(":memory:")
    game_id = store_example(service, ROOT / "examples" / f"{example}.yaml")
    path = tmp_path / f"{example}.html"
    path.write_text(viewer_html(service.stored_events(game_id), as_player), encoding="utf-8")
    return path


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_steps_from_first_to_last_with_the_keyboard(
    tmp_path: Path, page: Page, path: Path
) -> None:
    html = write_viewer(tmp_path, path.stem)
    page.open(html)
    steps = int(page.page.evaluate("document.querySelectorAll('#log li').length"))

    seen = [page.step()]
    for _ in range(steps - 1):
        page.page.keyboard.press("ArrowRight")
        seen.append(page.step())

    assert seen == sorted(set(seen)) and len(seen) == steps
    page.page.keyboard.press("Home")
    assert page.step() == 0
    page.page.keyboard.press("End")
    assert page.step() == seen[-1]


def test_t9a_ambush_arrival_shows_the_check_the_unit_and_the_verdict(
    tmp_path: Path, page: Page
) -> None:
    page.open(write_viewer(tmp_path, "t9a-ambush-legal"), "#step=7")

    assert page.step() == 7
    assert "red arrive" in page.current_row() and "AMB-18" in page.current_row()
    unit = page.page.locator('#units g[data-unit="red-scouts"]')
    assert unit.get_attribute("data-x") == "36" and unit.get_attribute("data-y") == "2.5"
    assert page.page.locator("#overlays g.layer-ambush").count() == 1
    assert "6\" circle around the chosen point" in page.page.inner_text("#legend")
    page.page.keyboard.press("ArrowLeft")
    assert page.page.locator('#units g[data-unit="red-scouts"]').count() == 0  # in reserve
    page.open(write_viewer(tmp_path, "t9a-ambush-legal"), "#step=7")
    whole = page.page.get_attribute("#board", "viewBox")
    page.page.check("#zoom")
    zoomed = page.page.get_attribute("#board", "viewBox")
    assert zoomed != whole and float(zoomed.split()[2]) < float(whole.split()[2]) / 2
    page.shot("t9a-ambush-arrival")


def test_infinity_aro_layers_toggle_per_observer(tmp_path: Path, page: Page) -> None:
    """Step 2's check asked about zero only (the Cautious Movement ends in its ZoC:
    CAU-13): zero's Line of Fire and Zone of Control are drawn, the other observers'
    are not, and each layer and observer toggles."""
    page.open(write_viewer(tmp_path, "infinity-cautious-aro"), "#step=2")
    lof = page.page.locator('#overlays g.layer-lof[data-group="zero"]')
    zoc = page.page.locator('#overlays g.layer-zoc[data-group="zero"]')
    assert lof.count() == 1 and lof.is_visible() and zoc.is_visible()
    for other in ("moderator", "alguacil", "camo"):
        assert page.page.locator(f'#overlays g[data-group="{other}"]').count() == 0

    page.page.locator('#layers input[data-layer="lof"][data-group="zero"]').uncheck()
    assert not lof.is_visible() and zoc.is_visible()
    page.page.locator('#layers input[data-layer="lof"][data-group="zero"]').check()
    page.page.locator('#layers input[data-layer="zoc"]:not([data-group])').uncheck()
    assert not zoc.is_visible() and lof.is_visible()
    page.page.locator('#layers input[data-layer="zoc"]:not([data-group])').check()
    assert "CAU-13" in page.current_row()
    page.shot("infinity-aro")


def test_deep_links_open_at_a_step_or_an_event(tmp_path: Path, page: Page) -> None:
    html = write_viewer(tmp_path, "t9a-ambush-legal")

    page.open(html, "#step=6")
    assert page.step() == 6 and "roll for Ambush" in page.current_row()
    page.open(html, "#event=15")
    row = page.current_row()
    assert "events 14–15" in row or "event 15" in row
    assert page.page.evaluate("location.hash") == f"#step={page.step()}"


def test_undone_branches_can_be_skipped_and_dice_are_counted_as_you_step(
    tmp_path: Path, page: Page
) -> None:
    service = GameService(":memory:")
    game_id = service.start(__import__("warledger.script", fromlist=["load_script"])
                            .load_script(ROOT / "examples" / "t9a-ambush-legal.yaml").setup())
    script = [{"by": "red", "do": "ambush", "unit": "red-scouts"},
              {"by": "red", "do": "next_phase"}, {"by": "red", "do": "end_turn"},
              {"by": "blue", "do": "end_turn"}, {"by": "red", "do": "next_phase"},
              {"by": "red", "do": "roll_ambush"},
              {"by": "red", "do": "request_undo", "steps": 1},
              {"by": "blue", "do": "consent", "accept": True},
              {"by": "red", "do": "roll_ambush"}]
    for command in script:
        outcome = service.handle(game_id, command)
        assert outcome.accepted, (command, outcome)
    html = tmp_path / "undo.html"
    html.write_text(viewer_html(service.stored_events(game_id)), encoding="utf-8")

    page.open(html, "#step=5")
    page.page.keyboard.press("ArrowRight")
    assert page.step() == 6 and "undone" in page.current_row()
    page.page.check("#hide-undone")
    assert page.step() == 5  # the undone roll is skipped ...
    page.page.keyboard.press("ArrowRight")
    assert page.step() == 9  # ... and so are the request and the consent about it
    dice = page.page.inner_text("#dice")
    assert "red · d6 · reused (1)" in dice or "(1)" in dice
    page.page.uncheck("#hide-undone")
    page.page.keyboard.press("Home")
    assert "no dice yet" in page.page.inner_text("#dice")


def test_jump_buttons_go_to_the_next_phase_and_undo(tmp_path: Path, page: Page) -> None:
    service = GameService(":memory:")
    game_id = long_game(service, 60)
    html = tmp_path / "long.html"
    html.write_text(viewer_html(service.stored_events(game_id)), encoding="utf-8")

    page.open(html)
    page.page.click("#next-undo")
    assert "consent" in page.current_row() and "undid steps" in page.current_row()
    page.page.click("#first")
    page.page.click("#next-phase")
    assert page.step() == 1


def test_seek_to_any_step_of_a_2000_event_game_takes_at_most_100_ms(
    tmp_path: Path, page: Page, long_game_events: list[Any]
) -> None:
    html = tmp_path / "long.html"
    html.write_text(viewer_html(long_game_events), encoding="utf-8")
    page.open(html)

    timings: list[Any] = page.page.evaluate("""() => {
        const n = document.querySelectorAll('#log li').length, out = [];
        for (const i of [n - 1, 0, Math.floor(n / 2), 7, n - 2, Math.floor(n / 3)]) {
            const t = performance.now(); window.warledgerSeek(i); out.push(performance.now() - t);
        }
        return out;
    }""")

    assert max(timings) <= 100, timings
    page.page.keyboard.press("End")
    page.shot("long-game-end")


def test_a_simulated_40k_game_opens_steps_and_seeks_to_any_step(tmp_path: Path, page: Page) -> None:
    """The viewer on `warledger simulate` output: a complete, random, legal game (its
    moves, stratagems, undos and result), stepped to the end and seeked at random:
    each seek shows the row it was sent to. (How fast is a benchmark's question,
    not a unit test's.)"""
    from warledger.simulate import simulate_game

    service = GameService(":memory:")
    game_id = simulate_game(service, "w40k-10", 7, 0, steps=900)
    events = service.stored_events(game_id)
    html = tmp_path / "simulated.html"
    html.write_text(viewer_html(events), encoding="utf-8")
    assert len(events) > 1000

    page.open(html)
    page.page.keyboard.press("End")
    assert page.step() == events[-1].step
    landed: list[Any] = page.page.evaluate("""() => {
        const rows = [...document.querySelectorAll('#log li')], out = [];
        for (let k = 0; k < 20; k++) {
            const i = (k * 7919) % rows.length;
            window.warledgerSeek(i);
            out.push([i, rows.indexOf(document.querySelector('#log li.current'))]);
        }
        return out;
    }""")
    assert len({sent for sent, _ in landed}) == 20
    assert all(sent == shown for sent, shown in landed), landed
    assert not page.errors, page.errors
    assert page.page.locator("#timeline .mark.stratagem").count() > 0


def test_zooming_to_the_step_keeps_labels_their_size_on_the_screen(tmp_path: Path,
                                                                   page: Page) -> None:
    """The zoomed board shows a third of the table: its labels and grid numbers
    are drawn a third the size, so they read the same on the screen (they were
    three times as tall, and covered the check)."""
    page.open(write_viewer(tmp_path, "t9a-ambush-legal"), "#step=7")
    heights = """() => ['#overlays text.label', '#board .grid-numbers text'].map(
        (s) => document.querySelector(s).getBoundingClientRect().height)"""
    whole = page.page.evaluate(heights)
    page.page.check("#zoom")
    zoomed = page.page.evaluate(heights)
    assert all(0.6 <= z / w <= 1.6 for z, w in zip(zoomed, whole, strict=True)), (whole, zoomed)
    page.page.uncheck("#zoom")
    assert page.page.evaluate(heights) == whole

"""The window machine (issue 11, item 4): ARO, stratagem and undo windows and the
game's end share one transitions table; the gate and undo ask it."""

from __future__ import annotations

from itertools import product

import pytest

from domain.commands import Command
from domain.errors import RuleViolation
from domain.state import GameState, ReactionWindow
from domain.windows import GAME_OVER, PLAY, WINDOW_KINDS, WINDOWS

KINDS = [row.kind for row in WINDOW_KINDS]


def before_the_machine(state: GameState, command: Command) -> str | None:
    """The gate's if-chain the machine replaced (the refusing rule, or None)."""
    if state.finished and not command.after_game_over:
        return "CORE-GAME-OVER"
    window = state.reaction_window
    ignored = command.ignores_undo_window if window is not None and window.kind == "undo" \
        else command.ignores_windows
    if window is not None and window.kind not in command.answers and not ignored:
        return "CORE-WINDOW-OPEN"
    if command.answers and (window is None or window.kind not in command.answers):
        return "CORE-NO-WINDOW"
    return None


def command_type(answers: tuple[str, ...], ignores: bool, ignores_undo: bool,
                 after: bool) -> type[Command]:
    class Probe(Command):
        pass

    Probe.answers, Probe.ignores_windows = answers, ignores
    Probe.ignores_undo_window, Probe.after_game_over = ignores_undo, after
    return Probe


def state_at(window: str | None, finished: bool) -> GameState:
    return GameState(ruleset="t", board={"width": 10, "height": 10}, players=["red", "blue"],
                     active_player="red", phase="p", finished=finished,
                     reaction_window=None if window is None else ReactionWindow(
                         kind=window, eligible=["blue"]))  # type: ignore[arg-type]


ANSWERS: list[tuple[str, ...]] = [(), ("aro",), ("stratagem",), ("undo",), ("aro", "stratagem"),
                                  ("undo", "result")]


def test_the_machine_gives_the_verdicts_of_the_if_chain_it_replaced() -> None:
    """Every position (play, each window, game over, a window after the game) and
    every kind of command: the same rule refuses, or none."""
    checked = 0
    for window, finished, answers, ignores, ignores_undo, after in product(
            [None, *KINDS], [False, True], ANSWERS, *[[False, True]] * 3):
        state = state_at(window, finished)
        command = command_type(answers, ignores, ignores_undo, after)(do="probe", by="red")
        try:
            WINDOWS.check_issue(state, command)
            got = None
        except RuleViolation as refusal:
            got = refusal.rule
        assert got == before_the_machine(state, command), (window, finished, answers)
        checked += 1
    assert checked == (1 + len(KINDS)) * 2 * len(ANSWERS) * 8


@pytest.mark.parametrize(("window", "finished", "where"), [
    (None, False, PLAY), (None, True, GAME_OVER), ("aro", False, "aro"),
    ("undo", True, "undo")])
def test_the_machine_stands_where_the_state_says(window: str | None, finished: bool,
                                                 where: str) -> None:
    assert WINDOWS.position(state_at(window, finished)) == where


def test_an_undo_window_suspends_others_and_none_opens_over_itself() -> None:
    """CORE-UNDO-PENDING: no undo window over an undo window; an undo request may
    suspend an ARO or stratagem window, and may be made after the game."""
    assert not WINDOWS.may_open(state_at("undo", False), "undo")
    assert all(WINDOWS.may_open(state_at(k, False), "undo") for k in ("aro", "stratagem"))
    assert WINDOWS.may_open(state_at(None, True), "undo")
    assert not WINDOWS.may_open(state_at(None, True), "stratagem")
    assert not WINDOWS.may_open(state_at("undo", False), "stratagem")


def test_the_diagram_shows_every_kind_and_the_game_over_state() -> None:
    drawing = WINDOWS.mermaid()
    for state in (PLAY, GAME_OVER, *KINDS):
        assert f'state "{state}"' in drawing
    assert "suspend_for_undo" in drawing and "resume" in drawing



"""The window machine: ARO, stratagem and undo windows and the
game's end share one transitions table; the gate and undo ask it."""

from __future__ import annotations

from itertools import product

import pytest

from domain.commands import Command
from domain.decision import Decision
from domain.dice import DiceSource
from domain.errors import RuleViolation
from domain.state import GameState, ReactionWindow
from domain.windows import (
    GAME_OVER,
    PLAY,
    WINDOW_KINDS,
    WINDOWS,
    WindowKind,
    WindowMachine,
    open_window,
)
from events.core import ReactionWindowClosed, ReactionWindowOpened
from tests.dice_game import DICE

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


@pytest.fixture(params=["built at import", "built afresh"])
def machine(request: pytest.FixtureRequest) -> WindowMachine:
    """The machine the gate asks, and one built from `WINDOW_KINDS` now (its table
    is built once, at import: a test must build it to see how it is built)."""
    return WINDOWS if request.param == "built at import" else WindowMachine()


def test_the_machine_gives_the_verdicts_of_the_if_chain_it_replaced(
        machine: WindowMachine) -> None:
    """Every position (play, each window, game over, a window after the game) and
    every kind of command: the same rule refuses, or none."""
    checked = 0
    for window, finished, answers, ignores, ignores_undo, after in product(
            [None, *KINDS], [False, True], ANSWERS, *[[False, True]] * 3):
        state = state_at(window, finished)
        command = command_type(answers, ignores, ignores_undo, after)(do="probe", by="red")
        try:
            machine.check_issue(state, command)
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


def test_an_undo_window_suspends_others_and_none_opens_over_itself(
        machine: WindowMachine) -> None:
    """CORE-UNDO-PENDING: no undo window over an undo window; an undo request may
    suspend an ARO or stratagem window, and may be made after the game."""
    assert not machine.may_open(state_at("undo", False), "undo")
    assert all(machine.may_open(state_at(k, False), "undo") for k in ("aro", "stratagem"))
    assert machine.may_open(state_at(None, True), "undo")
    assert not machine.may_open(state_at(None, True), "stratagem")
    assert not machine.may_open(state_at("undo", False), "stratagem")


@pytest.mark.parametrize("kind", ["aro", "stratagem", "undo", "result"])
def test_every_window_opens_in_play_and_only_some_after_the_game(
        machine: WindowMachine, kind: str) -> None:
    """An undo request and a proposed result may be made after the game
    (docs/results.md); an ARO or stratagem window may not."""
    assert machine.may_open(state_at(None, False), kind)
    assert machine.may_open(state_at(None, True), kind) == (kind in ("undo", "result"))


@pytest.mark.parametrize(("open_", "kind"), [
    ("aro", "stratagem"), ("stratagem", "aro"), ("aro", "aro"), ("aro", "result"),
    ("result", "aro")])
def test_a_window_that_does_not_suspend_replaces_another_but_not_an_undo_request(
        machine: WindowMachine, open_: str, kind: str) -> None:
    """Only an undo request suspends the window open beneath it; the others may
    replace an open window (closing it), but never an undo request's."""
    assert machine.may_open(state_at(open_, False), kind)
    assert not machine.allows(state_at(open_, False), f"suspend_for_{kind}")
    assert not machine.may_open(state_at("undo", False), kind)


@pytest.mark.parametrize("open_", ["aro", "stratagem", "result"])
def test_an_undo_request_suspends_the_open_window_and_resumes_it(
        machine: WindowMachine, open_: str) -> None:
    assert machine.allows(state_at(open_, False), "suspend_for_undo")
    assert machine.allows(state_at("undo", False), "resume")
    assert not machine.allows(state_at(open_, False), "resume")


def test_the_diagram_shows_every_kind_and_the_game_over_state() -> None:
    drawing = WINDOWS.mermaid()
    for state in (PLAY, GAME_OVER, *KINDS):
        assert f'state "{state}"' in drawing
    assert "suspend_for_undo" in drawing and "resume" in drawing




def opening(open_: str | None, kind: WindowKind) -> list[object]:
    """The facts `open_window` emits for a `kind` window while `open_` is open."""
    d = Decision(DICE, state_at(open_, False), DiceSource(0, 0))
    open_window(d, kind, ["blue"], {"why": "test"})
    return list(d.facts)


def test_a_window_opened_in_play_is_one_fact() -> None:
    assert opening(None, "aro") == [
        ReactionWindowOpened(kind="aro", eligible=("blue",), context={"why": "test"})]


@pytest.mark.parametrize(("open_", "kind"), [("aro", "stratagem"), ("stratagem", "aro"),
                                             ("aro", "aro")])
def test_a_window_replacing_an_open_one_closes_it_first(open_: str, kind: WindowKind) -> None:
    facts = opening(open_, kind)

    assert facts == [ReactionWindowClosed(kind=open_),  # type: ignore[arg-type]
                     ReactionWindowOpened(kind=kind, eligible=("blue",),
                                          context={"why": "test"})]


def test_an_undo_request_leaves_the_open_window_open_beneath_it() -> None:
    """The undo window suspends the ARO window (no close): it reopens when the
    request is answered."""
    d = Decision(DICE, state_at("aro", False), DiceSource(0, 0))
    open_window(d, "undo", ["blue"], {})

    assert [type(f) for f in d.facts] == [ReactionWindowOpened]
    window = d.state.reaction_window
    assert window is not None and window.kind == "undo"
    assert window.suspended is not None and window.suspended.kind == "aro"

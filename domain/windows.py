"""Reaction windows: one machine for every kind (ARO, stratagem, undo), and the
game's end, in the manner of boardgame.io's stages.

Play stands in `play`; a window puts the game in the window's own state, where
only the players it names may act (they `declare`), until it closes; an undo
request `suspend`s the window open beneath it, which is `resume`d when the
request is answered; `end_game` leads to `game_over`, where only contested-move
commands and rulings are still heard. Each kind of window is one row of
`WINDOW_KINDS`; the transitions table is built from it, and `warledger diagram`
draws it. The machine's position is read from the state (the open window's
kind, else whether the game is over), as for the turn machines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

from domain.commands import Command
from domain.decision import Decision
from domain.errors import RuleViolation
from domain.machine import GAME_OVER, Cursor, Row, TurnMachine, mermaid
from domain.state import GameState
from events.core import ReactionWindowClosed, ReactionWindowOpened

WindowKind = Literal["aro", "stratagem", "undo", "result"]
PLAY = "play"


@dataclass(frozen=True)
class WindowRow:
    """One kind of reaction window."""

    kind: str
    #: Opening it puts the open window aside until it closes (an undo request);
    #: otherwise a window open before it is closed first.
    suspends: bool = False
    #: The `Command` flag that lets a command be issued while it is open.
    lets_through: str = "ignores_windows"
    #: It may open after the game has ended (contested moves may be asked for then).
    after_game_over: bool = False


#: Every kind of window: a new kind is one row.
WINDOW_KINDS: tuple[WindowRow, ...] = (
    WindowRow("aro"),
    WindowRow("stratagem"),
    WindowRow("undo", suspends=True, lets_through="ignores_undo_window", after_game_over=True),
    # A proposed result (docs/results.md) waits for consent like an undo request.
    WindowRow("result", after_game_over=True),
)
KINDS = {row.kind: row for row in WINDOW_KINDS}


class WindowCursor(Cursor):
    """What the window machine's conditions read: the state and the command."""

    game: GameState
    command: Command

    def answers_it(self) -> bool:
        """The command answers the open window's kind."""
        window = self.game.reaction_window
        return window is not None and window.kind in self.command.answers

    def is_let_through(self) -> bool:
        """The command may be issued while this kind of window is open."""
        window = self.game.reaction_window
        return window is not None and bool(
            getattr(self.command, KINDS[window.kind].lets_through))

    def answers_a_window(self) -> bool:
        return bool(self.command.answers)

    def is_over_for_it(self) -> bool:
        """The game is over and the command is not one heard after it."""
        return self.game.finished and not self.command.after_game_over

    def answers_it_or_is_let_through(self) -> bool:
        """It answers the open window, or is let through and answers no window."""
        return self.answers_it() or (self.is_let_through() and not self.answers_a_window())


def window_rows() -> list[Row]:
    """The transitions table, built from `WINDOW_KINDS`."""
    kinds = [row.kind for row in WINDOW_KINDS]
    rows: list[Row] = [
        {"trigger": "issue", "source": PLAY, "dest": None, "unless": ["answers_a_window"]},
        {"trigger": "issue", "source": GAME_OVER, "dest": None,
         "unless": ["is_over_for_it", "answers_a_window"]},
        {"trigger": "end_game", "source": PLAY, "dest": GAME_OVER},
    ]
    for row in WINDOW_KINDS:
        kind = row.kind
        rows += [
            {"trigger": "issue", "source": kind, "dest": None,
             "conditions": ["answers_it_or_is_let_through"], "unless": ["is_over_for_it"]},
            {"trigger": f"open_{kind}", "source": PLAY, "dest": kind},
            {"trigger": "declare", "source": kind, "dest": None},
            {"trigger": "close", "source": kind, "dest": PLAY},
        ]
        if row.after_game_over:
            rows += [{"trigger": f"open_{kind}", "source": GAME_OVER, "dest": kind},
                     {"trigger": "close", "source": kind, "dest": GAME_OVER}]
        for other in kinds:
            if row.suspends and other != kind:
                # suspend the open window, and resume it when this one closes
                rows.append({"trigger": f"suspend_for_{kind}", "source": other, "dest": kind})
                rows.append({"trigger": "resume", "source": kind, "dest": other})
            elif not row.suspends and not KINDS[other].suspends:
                rows.append({"trigger": f"open_{kind}", "source": other, "dest": kind})
    return rows


class WindowMachine(TurnMachine):
    """The one machine of reaction windows and the game's end."""

    def __init__(self) -> None:
        kinds = [row.kind for row in WINDOW_KINDS]
        super().__init__("windows", (PLAY, *kinds), window_rows(),
                         cursor_type=WindowCursor)

    def position(self, state: GameState) -> str:
        """The open window's kind; else `game_over` or `play`."""
        window = state.reaction_window
        if window is not None:
            return window.kind
        return GAME_OVER if state.finished else PLAY

    def check_issue(self, state: GameState, command: Command) -> None:
        """CORE-GAME-OVER, CORE-WINDOW-OPEN, CORE-NO-WINDOW: may this command be
        issued where the game stands?"""
        cursor = cast(WindowCursor, self.standing(state, command))
        if self.row_taken(cursor, "issue") is not None:
            return
        over, open_ = cursor.is_over_for_it(), not (
            cursor.answers_it() or cursor.is_let_through())
        window = state.reaction_window
        if over:
            raise RuleViolation("CORE-GAME-OVER", "the game is over; no more commands")
        if window is not None and open_:
            raise RuleViolation(
                "CORE-WINDOW-OPEN",
                f"a reaction window ({window.kind}) is open; it must be answered first "
                f"(waiting for: "
                f"{', '.join(w for w in window.eligible if w not in window.declared)})",
            )
        raise RuleViolation(
            "CORE-NO-WINDOW", f"{command.do!r} answers a reaction window, and none is open")

    def may_open(self, state: GameState, kind: str) -> bool:
        """May a window of this kind open where the game stands (opened, or
        suspending the open one)?"""
        return self.allows(state, f"open_{kind}") or self.allows(state, f"suspend_for_{kind}")

    def mermaid(self) -> str:
        """The windows machine drawn as a Mermaid state diagram."""
        return mermaid(self.states, self.rows, title="reaction windows and game over")


WINDOWS = WindowMachine()


def open_window(
    d: Decision, kind: WindowKind, eligible: Sequence[str], context: dict[str, Any]
) -> None:
    """Open a reaction window. A kind that suspends (an undo request) puts the open
    window aside, to reopen when it closes; any other replaces it, so the open one
    is closed first."""
    current = d.state.reaction_window
    if current is not None and not KINDS[kind].suspends:
        d.emit(ReactionWindowClosed(kind=current.kind))
    d.emit(ReactionWindowOpened(kind=kind, eligible=tuple(eligible), context=context))

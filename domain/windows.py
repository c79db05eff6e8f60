"""Reaction windows every rule set shares: opening one decides what becomes of
the window open before it (issue 11: the applier only assigns)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from domain.decision import Decision
from events.core import ReactionWindowClosed, ReactionWindowOpened

WindowKind = Literal["aro", "stratagem", "undo"]


def open_window(
    d: Decision, kind: WindowKind, eligible: Sequence[str], context: dict[str, Any]
) -> None:
    """Open a reaction window. An undo request suspends the window open now (it
    reopens when the request is answered); any other window replaces it, so the
    open one is closed first."""
    current = d.state.reaction_window
    if current is not None and kind != "undo":
        d.emit(ReactionWindowClosed(kind=current.kind))
    d.emit(ReactionWindowOpened(kind=kind, eligible=tuple(eligible), context=context))

"""Rule-set overlays for board pictures, found by rule-set name.

A rule set's projection module registers a function that, given the state and
optionally a command (the step just taken, or a proposed one a judge wants to
see checked), returns the overlays explaining it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

from domain.state import GameState
from projections.board_svg import Overlay

OverlayFunc = Callable[[GameState, dict[str, Any] | None], Sequence[Overlay]]
OVERLAYS: dict[str, OverlayFunc] = {}

#: Modules that register overlays (missing ones are skipped).
OVERLAY_MODULES = ("projections.t9a", "projections.infinity", "projections.mageknight",
                   "projections.w40k")


def overlay(ruleset: str) -> Callable[[OverlayFunc], OverlayFunc]:
    """Decorator: register the overlay function of a rule set."""

    def register(func: OverlayFunc) -> OverlayFunc:
        OVERLAYS[ruleset] = func
        return func

    return register


def overlays_for(state: GameState, command: dict[str, Any] | None) -> Sequence[Overlay]:
    """The overlays the state's rule set draws for this state and command."""
    for module in OVERLAY_MODULES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as missing:
            if missing.name != module:
                raise
    func = OVERLAYS.get(state.ruleset)
    return func(state, command) if func else ()

"""Fixtures for the 40k tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from domain.game import Game
from domain.w40k.state import W40KState

from .helpers import script

Run = Callable[..., dict[str, Any]]


@pytest.fixture
def run(play: Callable[[dict[str, Any]], dict[str, Any]]) -> Run:
    """Run steps on the standard army; the CONTRACT result."""

    def go(steps: list[dict[str, Any]], **kwargs: Any) -> dict[str, Any]:
        return play(script(steps, **kwargs))

    return go


@pytest.fixture
def state_of(game_of: Callable[[dict[str, Any]], Game]) -> Callable[[dict[str, Any]], W40KState]:
    """The live 40k state of a result."""

    def get(result: dict[str, Any]) -> W40KState:
        state = game_of(result).state
        assert isinstance(state, W40KState)
        return state

    return get

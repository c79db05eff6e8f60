"""The `run` fixture: play a Mage Knight script, get the result and the state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest

from domain.game import Game
from domain.mageknight.state import MageKnightState
from replay.service import GameService

from .builders import Result, Script, script

Run = Callable[..., tuple[Result, MageKnightState]]


@pytest.fixture
def run(play: Callable[[Script], Result], game_of: Callable[[Result], Game]) -> Run:
    """Play a script; the CONTRACT result and the final Mage Knight state."""

    def go(units: list[Script], steps: list[Script], **kw: Any) -> tuple[Result, MageKnightState]:
        result = play(script(units, steps, **kw))
        state = game_of(result).state
        assert isinstance(state, MageKnightState)
        return result, state

    return go


Facts = Callable[[Result, str], list[Any]]


@pytest.fixture
def facts(service: GameService) -> Facts:
    """The stored facts of a played game with this type name, in order."""

    def of_type(result: Result, name: str) -> list[Any]:
        stored = service.stored_events(UUID(result["game_id"]))
        return [e.fact for e in stored if e.fact.type == name]

    return of_type

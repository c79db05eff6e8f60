"""Fixtures of the Infinity N4 tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from n4_scene import Scene, Steps, script


@pytest.fixture
def n4(play: Callable[[dict[str, Any]], dict[str, Any]]) -> Scene:
    """Run a scene: units, steps (after red's `next_phase` into orders), options."""

    def run(units: Sequence[dict[str, Any]], steps: Steps, **kwargs: Any) -> dict[str, Any]:
        return play(script(units, steps, **kwargs))

    return run

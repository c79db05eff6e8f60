"""Fixtures of the T9A Ambush tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from t9a_scene import Scene, Step, script


@pytest.fixture
def t9a(play: Callable[[dict[str, Any]], dict[str, Any]]) -> Scene:
    """Run a scene: units and steps (from the start of Deployment)."""

    def run(
        units: Sequence[dict[str, Any]], steps: Sequence[Step], **kwargs: Any
    ) -> dict[str, Any]:
        return play(script(units, steps, **kwargs))

    return run

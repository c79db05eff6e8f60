"""Board overlays: units affected by stratagems (STR-24), battle-shock, windows,
and the ranges a use checks (Grenade 8", Rapid Ingress 9")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.w40k.state import W40KState
from projections.board_svg import board_svg
from projections.overlays import overlays_for

from .conftest import Run
from .helpers import GROUND_B1, NEXT, SHOOT_B1, TO_RED_SHOOTING


def test_str_24_affected_units_and_the_open_window_are_drawn(
    run: Run, state_of: Callable[[dict[str, Any]], W40KState]
) -> None:
    state = state_of(run([*TO_RED_SHOOTING, SHOOT_B1, GROUND_B1, ]))
    window_state = state_of(run([*TO_RED_SHOOTING, SHOOT_B1]))

    labels = [o.label for o in overlays_for(state, None)]
    window_labels = [o.label for o in overlays_for(window_state, None)]

    assert "go-to-ground" in labels
    assert "window: shooting_target_selected" in window_labels
    assert "go-to-ground" in board_svg(state, overlays_for(state, None))


def test_rapid_ingress_draws_the_9_inch_zones_and_the_chosen_point(
    run: Run, state_of: Callable[[dict[str, Any]], W40KState]
) -> None:
    state = state_of(run([NEXT, NEXT]))
    proposed = {"do": "use_stratagem", "stratagem": "rapid-ingress", "targets": ["b2"],
                "at": [40, 40]}

    labels = [o.label for o in overlays_for(state, proposed)]

    # One per red unit on the battlefield.
    assert sum(label.startswith('9" exclusion zone') for label in labels) == 3
    assert "b2 arrives" in labels

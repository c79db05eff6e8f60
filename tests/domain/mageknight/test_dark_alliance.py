"""Dark Alliance, the Dark Riders' sub-faction ability (MNT-126 … MNT-129)."""

from __future__ import annotations

import pytest

from domain.errors import ScriptError
from domain.mageknight.dial import healed_click
from domain.mageknight.state import Figure

from .builders import TO_ACTION, message, refused
from .conftest import Run
from .test_dark_riders import dark_riders

ALLIANCE = {"by": "red", "do": "dark_alliance", "figure": "dr"}


def test_mnt_126_dark_alliance_is_optional(run: Run) -> None:
    """MNT-126."""
    _, state = run(dark_riders(click=2), [TO_ACTION])

    assert state.units["dr"].click == 0 and state.units["dm"].click == 2


def test_mnt_127_mnt_128_one_pushing_damage_to_the_rider_one_heal_to_the_mount(
    run: Run,
) -> None:
    """MNT-127, MNT-128."""
    result, state = run(dark_riders(click=2), [ALLIANCE])

    assert result["steps"][0]["events"][1:] == ["DarkAllianceUsed", "FigureHealed",
                                                 "FigureDamaged"]
    assert state.units["dr"].click == 1 and state.units["dm"].click == 1


def test_mnt_128_the_heal_never_passes_the_starting_click(run: Run) -> None:
    """MNT-128."""
    _, state = run(dark_riders(start_click=1, click=1), [ALLIANCE])

    assert state.units["dm"].click == 1


def test_mnt_129_once_per_command_phase(run: Run) -> None:
    """MNT-129."""
    steps = [ALLIANCE, ALLIANCE, TO_ACTION, ALLIANCE]

    result, state = run(dark_riders(click=3), steps)

    assert refused(result, "MNT-129", 1)
    assert refused(result, "CORE-PHASE", 3), "only at the start of the turn"
    assert state.units["dm"].click == 2


def test_mnt_129_the_limit_may_be_per_player(run: Run) -> None:
    """MNT-129."""
    units = [*dark_riders(), *dark_riders("122b", "122a", x=20)]
    for unit in units[2:]:
        unit["id"] = {"dm": "dm2", "dr": "dr2"}[unit["id"]]
    units[2]["rider"] = "dr2"
    steps = [ALLIANCE, {"by": "red", "do": "dark_alliance", "figure": "dm2"}]

    result, state = run(units, steps, options={"dark_alliance_once_per": "player"})

    assert refused(result, "MNT-129")
    assert message(result) == "Dark Alliance was already used by dm in this command phase"
    assert state.units["dr2"].click == 0


@pytest.mark.parametrize(("start", "now", "clicks", "healed"),
                         [(2, 3, 1, 2), (2, 2, 1, 2), (0, 3, 5, 0), (2, 0, 1, 0)])
def test_mnt_128_a_heal_never_passes_the_starting_click_nor_turns_forward(
    start: int, now: int, clicks: int, healed: int
) -> None:
    """MNT-128, A-MNT-35: healing turns back toward the starting click, never past
    it; a dial before it (no game reaches that, set-up refuses it) stays put."""
    fig = Figure(id="dm", owner="red", start_click=start, click=max(start, now))
    fig.click = now

    assert healed_click(fig, clicks) == healed


def test_mnt_128_a_dial_cannot_be_fielded_before_its_starting_click(run: Run) -> None:
    """MNT-128: the Dark Alliance heal of the report (start_click 2, click 0)
    cannot arise: set-up refuses the dial."""
    with pytest.raises(ScriptError, match="click 0 is before start_click 2"):
        run(dark_riders(start_click=2, click=0), [ALLIANCE])

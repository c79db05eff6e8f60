"""Cavalry units and formations (MNT-52 … MNT-54), on the core formation rule."""

from __future__ import annotations

from .builders import TO_ACTION, cavalry, message, refused, warrior
from .conftest import Run


def formation(*figures: str) -> dict[str, object]:
    """A red formation declaration."""
    return {"by": "red", "do": "declare_formation", "figures": list(figures)}


def test_mnt_52_cavalry_forms_formations_only_with_cavalry(run: Run) -> None:
    """MNT-52."""
    units = [*cavalry(), warrior("w1", x=11.125, y=10)]

    result, state = run(units, [TO_ACTION, formation("m1", "w1")])

    assert refused(result, "MNT-52")
    assert message(result) == "cavalry unit m1 cannot form a formation with w1"
    assert state.formations == []


def test_mnt_53_riders_in_a_cavalry_formation_share_a_faction(run: Run) -> None:
    """MNT-53."""
    units = [*cavalry(), *cavalry("m2", "r2", x=11.25, rider_extra={"faction": "elementals"})]

    result, state = run(units, [TO_ACTION, formation("m1", "m2")])

    assert refused(result, "MNT-53")
    assert message(result) == "a formation needs one faction; these are atlantis, elementals"
    assert state.formations == []


def test_mnt_54_the_mounts_factions_do_not_matter(run: Run) -> None:
    """MNT-54."""
    units = [*cavalry(faction="orcs"), *cavalry("m2", "r2", x=11.25, faction="draconum")]

    result, state = run(units, [TO_ACTION, formation("r1", "m2")])

    assert result["steps"][-1]["accepted"]
    assert state.formations == [["m1", "m2"]]


def test_core_formation_figures_must_be_in_base_contact(run: Run) -> None:
    units = [*cavalry(), *cavalry("m2", "r2", x=14)]

    result, _ = run(units, [TO_ACTION, formation("m1", "m2")])

    assert refused(result, "CORE-MK-FORMATION")

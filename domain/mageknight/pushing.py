"""Who takes a cavalry unit's pushing damage (MNT-51)."""

from __future__ import annotations

from domain.decision import Decision
from domain.errors import RuleViolation
from domain.mageknight.actions import check_controls
from domain.mageknight.commands import ChoosePushing
from domain.mageknight.dial import mk_state
from domain.mageknight.figures import is_cavalry, on_table, unit_of
from events.mageknight import PushingChoiceMade


def decide_choose_pushing(d: Decision, cmd: ChoosePushing) -> None:
    """MNT-51: the unit's controller (A-MNT-10) chooses whether the rider or the
    mount takes its pushing damage; the choice stands until changed."""
    state = mk_state(d)
    fig = on_table(state, cmd.figure)
    if not is_cavalry(fig):
        raise RuleViolation(
            "MNT-51", f"{fig.id} is not a cavalry unit; its pushing damage is its own"
        )
    unit = unit_of(state, fig)
    check_controls(unit, cmd.by)
    d.emit(PushingChoiceMade(mount=unit.id, takes=cmd.takes))

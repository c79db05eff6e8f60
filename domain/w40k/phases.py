"""End of a phase: the stratagems used in it stop affecting their targets (STR-24)."""

from __future__ import annotations

from domain.decision import Decision
from domain.w40k.state import game
from events.w40k import StratagemEffectsEnded


def end_stratagem_effects(d: Decision) -> None:
    """STR-24: a target is affected by a stratagem while its effect lasts — until
    the end of the phase it was used in; conditions it gave end with it."""
    state = game(d)
    ending = [u for u in state.uses if u.active]
    if not ending:
        return
    removed: dict[str, set[str]] = {}
    for use in ending:
        for unit, conditions in use.conditions.items():
            removed.setdefault(unit, set()).update(conditions)
    d.emit(StratagemEffectsEnded(
        uses=tuple(u.use for u in ending),
        conditions_removed={u: tuple(sorted(c)) for u, c in sorted(removed.items())},
    ))

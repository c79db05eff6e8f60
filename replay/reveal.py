"""Reveal a game's dice seed and show that every digital roll follows from it."""

from __future__ import annotations

from collections.abc import Sequence

from domain.dice import digital_die, seed_commitment
from events.core import DiceRolled, GameStarted, SeedSealed
from events.envelope import GameEvent


def reveal_lines(events: Sequence[GameEvent]) -> tuple[bool, list[str]]:
    """Check the commitment and re-derive each digital roll; (ok, report lines)."""
    started = next(e.fact for e in events if isinstance(e.fact, GameStarted))
    sealed = next((e.fact for e in events if isinstance(e.fact, SeedSealed)), None)
    if sealed is None:
        return False, ["no sealed seed in this game"]
    assert isinstance(started, GameStarted) and isinstance(sealed, SeedSealed)
    ok = seed_commitment(sealed.seed) == started.seed_commitment
    lines = [
        f"seed: {sealed.seed}",
        f"commitment: {started.seed_commitment} "
        + ("(matches sha256 of the seed)" if ok else "(DOES NOT MATCH)"),
    ]
    for event in events:
        roll = event.fact
        if not isinstance(roll, DiceRolled):
            continue
        if roll.source == "digital" and roll.first_index is not None:
            derived = tuple(
                digital_die(sealed.seed, roll.first_index + i, roll.sides)
                for i in range(len(roll.values))
            )
            good = derived == roll.values
            ok = ok and good
            verdict = "derived from the seed" if good else f"MISMATCH (seed gives {derived})"
            lines.append(
                f"event {event.originator_version}: {roll.purpose}: {list(roll.values)} "
                f"(dice #{roll.first_index}..) {verdict}"
            )
        else:
            lines.append(
                f"event {event.originator_version}: {roll.purpose}: {list(roll.values)} "
                f"({roll.source} dice)"
            )
    lines.append("all digital rolls follow from the seed" if ok else "CHECK FAILED")
    return ok, lines

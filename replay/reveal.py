"""Reveal a game's dice seed and show that every digital roll follows from it.

The seed foresees every digital die still to come (CORE-DICE), so revealing it before
the game is over hands every future roll to whoever reads it: `warledger reveal`
refuses a game still in progress unless told `--in-progress`, and warns on stderr for
a game whose result is not confirmed (`mid_game_warning`).
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.dice import digital_die, seed_commitment
from domain.game import Game
from domain.state import GameState
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
    game = Game.from_first_event(events[0])
    for event in events:
        if event is not events[0]:
            roll = event.fact
            if isinstance(roll, DiceRolled):
                good, verdict = check_roll(roll, sealed.seed, game.state)
                ok = ok and good
                lines.append(f"event {event.originator_version}: {roll.purpose}: "
                             f"{list(roll.values)} {verdict}")
            game.apply_event(event)
    lines.append("all digital rolls follow from the seed, in order, and reused dice are the "
                 "undone ones" if ok else "CHECK FAILED")
    lines.append("(the hash chain and every decision are checked by `warledger verify`)")
    return ok, lines


def check_roll(roll: DiceRolled, seed: int, state: GameState) -> tuple[bool, str]:
    """Does this roll follow from the game so far? Digital dice come from the seed at
    the game's next die index (none skipped, CORE-DICE); reused dice are the undone
    dice queued first (CORE-UNDO-DICE); physical dice are as the players gave them."""
    count = len(roll.values)
    if roll.source == "digital" and roll.first_index is not None:
        if roll.first_index != state.dice_index:
            return False, (f"(dice #{roll.first_index}..) SKIPS: the next die was "
                           f"#{state.dice_index}")
        derived = tuple(digital_die(seed, roll.first_index + i, roll.sides) for i in range(count))
        if derived != roll.values:
            return False, f"(dice #{roll.first_index}..) MISMATCH (seed gives {derived})"
        return True, f"(dice #{roll.first_index}..) derived from the seed"
    if roll.source == "reused":
        queued = tuple(state.reusable_dice[:count])
        if queued != roll.values:
            return False, f"(reused dice) MISMATCH (the undone dice queued were {list(queued)})"
        return True, "(reused dice: the undone ones, in order)"
    return True, f"({roll.source} dice)"


def mid_game_warning(state: GameState) -> str | None:
    """Why revealing this game's seed now gives away dice still to come: a game in
    progress, or one ended with no confirmed result (an undo by consent may resume it);
    None once its result is confirmed (docs/results.md)."""
    if state.result is not None:
        return None
    if not state.finished:
        return (f"this game is still in progress (round {state.round}, {state.phase} "
                "phase): its seed foresees every digital die still to come (CORE-DICE); "
                "whoever reads it can predict the rest of the game's rolls")
    return ("this game's result is not confirmed: an undo by consent may resume it, and "
            "its seed foresees every digital die still to come (CORE-DICE)")

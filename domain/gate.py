"""The decision gate: three questions, three kinds of answer.

1. Is the step well formed? (`INPUT`)
2. Is it allowed now: game over, reaction window, turn, ownership, phase? (`CORE-*`)
3. Is it legal with these arguments? (the rule set's handler; a clause ID)

`decide` returns the facts of an accepted command, starting with `StepTaken`,
or raises `RuleViolation`. It works on the state it is given, which the caller
must discard if the command is refused.
"""

from __future__ import annotations

from typing import Any

import orjson

from domain.commands import JUDGE, Command
from domain.decision import Decision
from domain.dice import DiceSource, Draw
from domain.errors import InputError, RuleViolation
from domain.history import History
from domain.limits import first_out_of_range, out_of_range_message
from domain.ruleset import Handler, Ruleset
from domain.state import GameState
from domain.turns import CORE_HANDLERS
from events.base import Fact
from events.core import StepTaken


def decide(
    ruleset: Ruleset,
    state: GameState,
    command: Command,
    dice: DiceSource,
    history: History | None = None,
) -> list[Fact]:
    """Decide one command: the facts it produces, or a `RuleViolation`."""
    check_storable(command)
    check_allowed_now(ruleset, state, command)
    d = Decision(ruleset, state, dice, history)
    d.emit(
        StepTaken(
            step=state.step + 1,
            by=command.by,
            command=command.record(),
            dice=tuple(dice.physical) if dice.physical is not None else None,
        )
    )
    d.dest = state.phase if state.finished else ruleset.machine.fire(state, command.do, command)
    handler: Handler | None = CORE_HANDLERS.get(type(command)) or ruleset.handlers.get(
        type(command)
    )
    if handler is None:
        raise RuleViolation("CORE-PHASE", f"{command.do!r} has no rules yet in {ruleset.name}")
    handler(d, command)
    dice.check_all_used()
    return d.facts


def check_storable(command: Command) -> None:
    """Gate 1 (INPUT): every value of the command can be stored and hashed as JSON
    (whole numbers fit in 64 bits; no infinities or NaN), and no length or angle
    is beyond what a table holds (`domain.limits`)."""
    record = command.record()
    try:
        orjson.dumps(record)
    except orjson.JSONEncodeError as error:
        raise InputError(f"a value of this {command.do} step cannot be recorded: {error}") from None
    found = first_out_of_range(record, command.do)
    if found:
        raise InputError(out_of_range_message(found))


def check_allowed_now(ruleset: Ruleset, state: GameState, command: Command) -> None:
    """Gate 2: the command may be issued now, by this player, for these units."""
    if command.by not in state.players and command.by != JUDGE:
        raise InputError(f"{command.by!r} is not a player in this game")
    if command.by == JUDGE and not command.judge_may:
        raise RuleViolation(
            "CORE-JUDGE",
            f"a judge records rulings, answers undo requests and may end the game; it cannot "
            f"{command.do}",
        )
    if state.finished and not command.after_game_over:
        raise RuleViolation("CORE-GAME-OVER", "the game is over; no more commands")
    window = state.reaction_window
    ignored = command.ignores_undo_window if window is not None and window.kind == "undo" \
        else command.ignores_windows
    if window is not None and window.kind not in command.answers and not ignored:
        raise RuleViolation(
            "CORE-WINDOW-OPEN",
            f"a reaction window ({window.kind}) is open; it must be answered first "
            f"(waiting for: {', '.join(w for w in window.eligible if w not in window.declared)})",
        )
    if command.answers and (window is None or window.kind not in command.answers):
        raise RuleViolation(
            "CORE-NO-WINDOW", f"{command.do!r} answers a reaction window, and none is open"
        )
    if command.who == "active" and command.by != state.active_player:
        raise RuleViolation(
            "CORE-NOT-YOUR-TURN",
            f"it is {state.active_player}'s turn; {command.by} cannot {command.do}",
        )
    for unit_id in command.ordered_units():
        unit = state.unit_known_to(unit_id, command.by)
        if unit.owner != command.by:
            raise RuleViolation(
                "CORE-OWNER", f"{unit_id} belongs to {unit.owner}; {command.by} cannot order it"
            )


class _NoDice(DiceSource):
    """Dice for a preview: none. A preview must not show dice not yet rolled."""

    def draw(self, count: int, sides: int) -> list[Draw]:
        raise _PreviewRolls


class _PreviewRolls(Exception):
    """The previewed command would roll dice."""


def preview(
    ruleset: Ruleset,
    state: GameState,
    data: dict[str, Any],
    dice: list[int] | None = None,
    history: History | None = None,
) -> tuple[str | None, str]:
    """What deciding `data` now would answer, without writing anything (judges'
    pictures: `warledger board --command`): the refusing rule (None if not
    refused) and one line. Physical `dice` given with the step are used; digital
    dice are never rolled, so a preview cannot show a die before it is cast."""
    source = _NoDice(0, state.dice_index) if dice is None else DiceSource(
        0, state.dice_index, physical=dice, reusable=state.reusable_dice)
    try:
        command = ruleset.parse_command(data)
        decide(ruleset, state.model_copy(deep=True), command, source, history)
    except RuleViolation as refusal:
        return refusal.rule, f"would be refused: {refusal.rule}: {refusal.message}"
    except _PreviewRolls:
        return None, "would roll dice: a preview does not roll them"
    return None, "would be accepted"

"""The decision gate: three gates, passed in order, then facts.

1. INPUT: is the step well formed? Its values can be stored, its player and
   units exist, its physical dice can be dice (`check_input`).
2. CORE: is it allowed now? Game over, reaction window, turn, ownership, and
   the rule set's machine (`check_core`; `CORE-*`).
3. The clauses: the rule set's handler checks them (a clause ID) and emits the
   facts, each applied at once to a working copy of the state that the gate
   owns.

`decide` never changes its caller's state: a refused command writes nothing,
and an accepted one's facts lead to `settle(...).state`, a new state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from domain import rules_version
from domain.commands import JUDGE, Command
from domain.datafile import is_plain
from domain.decision import Decision
from domain.dice import DiceSource, Draw
from domain.errors import InputError, RuleViolation
from domain.history import History
from domain.limits import first_out_of_range, out_of_range_message
from domain.ruleset import Handler, Ruleset, private_opened
from domain.state import GameState
from domain.turns import CORE_HANDLERS
from domain.undo import keep_undo_depth
from domain.windows import WINDOWS
from events.base import Fact
from events.core import RulesVersionChanged, StepTaken


@dataclass(frozen=True)
class Decided:
    """An accepted command: its facts, and the new state they lead to."""

    facts: list[Fact]
    state: GameState


def decide(
    ruleset: Ruleset,
    state: GameState,
    command: Command,
    dice: DiceSource,
    history: History | None = None,
) -> list[Fact]:
    """Decide one command: the facts it produces, or a `RuleViolation`.

    `state` is only read; `settle` also gives the state the facts lead to."""
    return settle(ruleset, state, command, dice, history).facts


def settle(
    ruleset: Ruleset,
    state: GameState,
    command: Command,
    dice: DiceSource,
    history: History | None = None,
    rules: dict[str, int] | None = None,
) -> Decided:
    """Pass the three gates in order; then the facts, applied to a working copy.

    `rules`: the rules versions play continues under (default: today's,
    `domain.rules_version.current`; `verify` gives those that decided the step)."""
    record = command.record()  # as stored in `StepTaken`, made once
    check_input(state, command, dice, record, opened=private_opened(ruleset, state))
    dest, handler = check_core(ruleset, state, command)
    d = Decision(ruleset, state.working_copy(), dice, history)
    d.dest = dest
    d.emit(
        StepTaken(
            step=state.step + 1,
            by=command.by,
            command=record,
            dice=tuple(dice.physical) if dice.physical is not None else None,
        )
    )
    keep_undo_depth(d, command)
    keep_rules_version(d, rules if rules is not None else rules_version.current(ruleset))
    handler(d, command)
    dice.check_all_used()
    return Decided(d.facts, d.state)


def keep_rules_version(d: Decision, versions: dict[str, int]) -> None:
    """Play continues under `versions` from the first step taken with no reaction
    window open, which records `RulesVersionChanged` (CONTRACT "Rules versions"):
    a window opened under one version closes under it, so no rule meets a half
    made by another version's."""
    was = rules_version.decided_under(d.state)
    if was != versions and d.state.reaction_window is None:
        d.emit(RulesVersionChanged(was=was, versions=versions))


def check_input(state: GameState, command: Command, dice: DiceSource,
                record: dict[str, Any], *, opened: bool = False) -> None:
    """Gate 1 (INPUT): the values can be stored, the player exists, every unit named
    is one they may know of, and the physical dice given can be dice. `record`: the
    command as stored (`Command.record`, made once per decision).

    Units are resolved here, before any CORE rule (window, turn, ownership) or
    clause is asked: a unit hidden from the player (CORE-OWNER, principle 5) is
    then refused exactly as an id no unit has, by every command in every position,
    and no later rule can tell the two apart. Once the game's end has opened what
    players kept private (`opened`, CORE-PRIVATE-AT-END), every unit is known to
    everyone, and a command naming one is answered as it is shown to them."""
    check_storable(command, record)
    if command.by not in state.players and command.by != JUDGE:
        raise InputError(f"{command.by!r} is not a player in this game")
    seer = None if command.by == JUDGE or opened else command.by
    for unit_id in command.named_units():
        state.unit_known_to(unit_id, seer)
    dice.check_fit()


def check_storable(command: Command, record: dict[str, Any]) -> None:
    """INPUT: every value of the command, as stored (`record`), can be stored and
    hashed as JSON (whole numbers fit in 64 bits; no infinities or NaN), and no
    length or angle is beyond what a table holds (`domain.limits`)."""
    if is_plain(record, tuples=True):  # the common case, in one pass
        return
    try:
        orjson.dumps(record)
    except orjson.JSONEncodeError as error:
        raise InputError(f"a value of this {command.do} step cannot be recorded: {error}") from None
    found = first_out_of_range(record, command.do)
    if found:
        raise InputError(out_of_range_message(found))


def check_core(ruleset: Ruleset, state: GameState, command: Command) -> tuple[str, Handler]:
    """Gate 2 (CORE): the command may be issued now, by this player, for these
    units, and the machine allows it. Returns the phase it leads to and the
    handler that checks its clauses."""
    check_allowed_now(ruleset, state, command)
    dest = state.phase if state.finished else ruleset.machine.fire(state, command.do, command)
    handler: Handler | None = CORE_HANDLERS.get(type(command)) or ruleset.handlers.get(
        type(command)
    )
    if handler is None:
        raise RuleViolation("CORE-PHASE", f"{command.do!r} has no rules yet in {ruleset.name}")
    return dest, handler


def check_allowed_now(ruleset: Ruleset, state: GameState, command: Command) -> None:
    """CORE: judge, game over and reaction windows (the window machine,
    `domain.windows`), turn, ownership (INPUT passed)."""
    if command.by == JUDGE and not command.judge_may:
        raise RuleViolation(
            "CORE-JUDGE",
            f"a judge records rulings, answers undo requests and may end the game; it cannot "
            f"{command.do}",
        )
    WINDOWS.check_issue(state, command)
    if command.who == "active" and command.by != state.active_player:
        raise RuleViolation(
            "CORE-NOT-YOUR-TURN",
            f"it is {state.active_player}'s turn; {command.by} cannot {command.do}",
        )
    for unit_id in command.ordered_units():
        unit = state.unit(unit_id)  # one the player may know of (INPUT passed)
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
        decide(ruleset, state, command, source, history)
    except RuleViolation as refusal:
        return refusal.rule, f"would be refused: {refusal.rule}: {refusal.message}"
    except _PreviewRolls:
        return None, "would roll dice: a preview does not roll them"
    return None, "would be accepted"

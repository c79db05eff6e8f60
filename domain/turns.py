"""Turn flow shared by every rule set: phases, player turns, rounds, game end.

The machine says whether a phase change is allowed; these functions work out
which player and round come next and emit `PhaseStarted` / `GameEnded`, with
the rule set's start-of-phase and end-of-phase hooks around them.
"""

from __future__ import annotations

from domain import undo
from domain.commands import Command, EndGame, EndTurn, NextPhase
from domain.decision import Decision
from domain.errors import RuleViolation
from domain.results import check_result_open, propose_result
from domain.ruleset import Handler
from events.core import GameEnded, PhaseStarted


def decide_next_phase(d: Decision, command: NextPhase) -> None:
    """Leave the current phase for the machine's next one (CORE-PHASE)."""
    state = d.state
    d.ruleset.on_phase_end(d)
    if state.phase in d.ruleset.machine.before and d.dest == d.ruleset.machine.phases[0]:
        start_phase(d, 1, state.players[0], d.dest)
    else:
        start_phase(d, state.round, state.active_player, d.dest)


def decide_end_turn(d: Decision, command: EndTurn) -> None:
    """End the active player's turn. After the last player of the last round,
    the game ends (RULINGS: "when the last turn of the rule set ends")."""
    state = d.state
    d.ruleset.on_phase_end(d)
    d.ruleset.on_turn_end(d)
    order = state.players
    position = order.index(state.active_player)
    if position + 1 < len(order):
        start_phase(d, state.round, order[position + 1], d.ruleset.machine.phases[0])
    elif state.round < d.ruleset.last_round:
        start_phase(d, state.round + 1, order[0], d.ruleset.machine.phases[0])
    else:
        end_game(d, f"round {state.round} was the last round")
    if command.result is not None:
        if not state.finished:
            raise RuleViolation("CORE-RESULT-EARLY", "a result is given with the step that ends "
                                "the game; this turn does not end it")
        propose_result(d, command.by, command.result, state.end_reason)


def decide_end_game(d: Decision, command: EndGame) -> None:
    """End the game by command, proposing its result if the command carries one;
    once the game is over, `end_game` only proposes a result (CORE-GAME-OVER
    without one, CORE-RESULT-FINAL once one stands)."""
    if d.state.finished and command.result is None:
        raise RuleViolation("CORE-GAME-OVER", "the game is over; no more commands")
    if command.result is not None:
        check_result_open(d.state)
    if not d.state.finished:
        end_game(d, command.reason)
    if command.result is not None:
        propose_result(d, command.by, command.result, command.reason)


def start_phase(d: Decision, round_: int, player: str, phase: str) -> None:
    """Emit the start of a phase, then run the rule set's start-of-phase hook."""
    d.emit(PhaseStarted(round=round_, active_player=player, phase=phase))
    d.ruleset.on_phase_start(d)


def end_game(d: Decision, reason: str) -> None:
    """Apply the rule set's end-of-game rules, then end the game."""
    d.ruleset.on_game_end(d)
    d.emit(GameEnded(reason=reason))


CORE_HANDLERS: dict[type[Command], Handler] = {
    NextPhase: decide_next_phase,
    EndTurn: decide_end_turn,
    EndGame: decide_end_game,
    undo.RequestUndo: undo.decide_request_undo,
    undo.RequestRedo: undo.decide_request_redo,
    undo.Consent: undo.decide_consent,
    undo.Ruling: undo.decide_ruling,
}

"""Command points (RULINGS 40k, A-STR-12): gained in every Command phase, and at
most 1 more per battle round from every other source together (CORE-CP-CAP)."""

from __future__ import annotations

from domain.decision import Decision
from domain.w40k.commands import GainCp
from domain.w40k.state import W40KState, game
from events.w40k import CommandPointsGained

#: CORE-CP-CAP: CP a player may gain per battle round from sources other than
#: the Command phase.
EXTRA_CP_PER_ROUND = 1


def gain_command_phase_cp(d: Decision) -> None:
    """RULINGS 40k: at the start of every Command phase, both players gain 1 CP."""
    state = game(d)
    for player in state.players:
        d.emit(CommandPointsGained(
            player=player, amount=1, source=f"Command phase ({state.active_player}'s turn)",
            kind="command_phase", balance=state.player_state[player].cp + 1,
        ))


def extra_cp_gained(state: W40KState, player: str) -> int:
    """CP the player gained this battle round from sources other than the Command phase."""
    return sum(e.change for e in state.cp_ledger
               if e.player == player and e.kind == "other" and e.round == state.round)


def decide_gain_cp(d: Decision, cmd: GainCp) -> None:
    """CORE-CP-CAP: at most 1 CP per battle round from all other sources together;
    the excess is lost, and the fact shows the loss."""
    state = game(d)
    room = max(0, EXTRA_CP_PER_ROUND - extra_cp_gained(state, cmd.by))
    gained = min(cmd.amount, room)
    lost = cmd.amount - gained
    d.emit(CommandPointsGained(
        player=cmd.by, amount=gained, lost=lost, source=cmd.source, kind="other",
        balance=state.player_state[cmd.by].cp + gained,
    ))
    if lost:
        d.cite("CORE-CP-CAP", f"{cmd.by} gains {gained}CP from {cmd.source}; {lost}CP lost "
                              f"(at most {EXTRA_CP_PER_ROUND} extra CP per battle round)")

"""The limits on using stratagems (STR-07…10), keyed as A-STR-02 says.

STR-08: a player may use the same stratagem many times in a battle; only
the per-phase limits below and a stratagem's own RESTRICTIONS stop them.
A phase is one occurrence: (battle round, whose turn, phase), per player.
"""

from __future__ import annotations

from domain.errors import RuleViolation
from domain.w40k.catalog import Stratagem
from domain.w40k.state import StratagemUse, W40KState
from domain.w40k.timing import Moment


def used_this_phase(state: W40KState, player: str, moment: Moment) -> list[StratagemUse]:
    """The player's uses in the phase occurrence of `moment` (A-STR-02)."""
    return [u for u in state.uses if u.player == player and u.phase_key == moment.key]


def check_once_per_phase(
    state: W40KState, player: str, stratagem: Stratagem, moment: Moment
) -> None:
    """STR-09: a player cannot use the same stratagem more than once in the same phase
    (STR-08: in another phase they may use it again)."""
    for use in used_this_phase(state, player, moment):
        if use.stratagem == stratagem.id:
            raise RuleViolation(
                "STR-09",
                f"{player} already used {stratagem.name} in this phase ({use.use}: "
                f"{moment.turn}'s {moment.phase} phase, battle round {moment.round})",
            )


def targeted_this_phase(
    state: W40KState, player: str, unit_id: str, moment: Moment
) -> StratagemUse | None:
    """STR-10: the player's earlier use this phase that targeted the unit, if any."""
    for use in used_this_phase(state, player, moment):
        if unit_id in use.targets:
            return use
    return None


def may_target(state: W40KState, player: str, stratagem: Stratagem, unit_id: str,
               moment: Moment) -> bool:
    """STR-10: may the player's stratagem target this unit, as far as STR-10 goes?

    A-STR-04: a stratagem that says otherwise may target a unit already targeted;
    its own use still counts against a later stratagem that does not say so.
    """
    return (stratagem.restrictions.may_target_unit_already_targeted
            or targeted_this_phase(state, player, unit_id, moment) is None)


def check_one_stratagem_per_unit(
    state: W40KState, player: str, stratagem: Stratagem, targets: tuple[str, ...],
    moment: Moment,
) -> None:
    """STR-10: unless otherwise stated, a player cannot target the same unit with more
    than one stratagem in the same phase (A-STR-03: per player, any unit)."""
    if stratagem.restrictions.may_target_unit_already_targeted:
        return
    for unit_id in targets:
        earlier = targeted_this_phase(state, player, unit_id, moment)
        if earlier is not None:
            raise RuleViolation(
                "STR-10",
                f"{player} already targeted {unit_id} with {earlier.name} in this phase "
                f"({earlier.use}); one stratagem per unit per phase",
            )


def check_restrictions(
    state: W40KState, player: str, stratagem: Stratagem, moment: Moment
) -> None:
    """STR-07: the stratagem's own RESTRICTIONS (once per turn, round or battle)."""
    once = stratagem.restrictions.once_per
    if once is None:
        return
    for use in state.uses:
        if use.player != player or use.stratagem != stratagem.id:
            continue
        same = {
            "battle": True,
            "round": use.round == moment.round,
            "turn": (use.round, use.turn) == (moment.round, moment.turn),
        }[once]
        if same:
            raise RuleViolation(
                "STR-07",
                f"{stratagem.name} can be used once per {once}; {player} used it in "
                f"battle round {use.round} ({use.use})",
            )


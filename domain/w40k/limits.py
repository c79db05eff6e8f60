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
    state: W40KState, player: str, unit_id: str, moment: Moment,
    exempt: frozenset[str] = frozenset(),
) -> StratagemUse | None:
    """STR-10: the player's earlier use this phase that targeted the unit, if any.

    Uses of stratagems in `exempt` (A-STR-04: they say otherwise) do not count.
    """
    for use in used_this_phase(state, player, moment):
        if unit_id in use.targets and use.stratagem not in exempt:
            return use
    return None


def check_one_stratagem_per_unit(
    state: W40KState, player: str, stratagem: Stratagem, targets: tuple[str, ...],
    moment: Moment, exempt: frozenset[str],
) -> None:
    """STR-10: unless otherwise stated, a player cannot target the same unit with more
    than one stratagem in the same phase (A-STR-03: per player, any unit)."""
    if stratagem.id in exempt:
        return
    for unit_id in targets:
        earlier = targeted_this_phase(state, player, unit_id, moment, exempt)
        if earlier is not None:
            raise RuleViolation(
                "STR-10",
                f"{player} already targeted {unit_id} with {earlier.stratagem} in this phase "
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


def exempt_stratagems(catalog: dict[str, Stratagem]) -> frozenset[str]:
    """A-STR-04: the stratagems whose RESTRICTIONS exempt them from STR-10."""
    return frozenset(
        s.id for s in catalog.values() if s.restrictions.may_target_unit_already_targeted
    )

"""Step 2 of a use: what it costs and whether the player can pay (STR-13…15, STR-21…23)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.decision import Decision
from domain.errors import InputError, RuleViolation
from domain.w40k.catalog import Stratagem, stratagems_of
from domain.w40k.commands import ModifyStratagemCost
from domain.w40k.state import CostModifier, W40KState, game
from domain.w40k.timing import Moment
from events.w40k import CostModifierGranted


@dataclass(frozen=True)
class Cost:
    """The CP cost of one use, with its parts (A-STR-07)."""

    base: int
    sections: int
    modifiers: tuple[str, ...]
    modifier_total: int

    @property
    def total(self) -> int:
        """STR-22: base + sections + modifiers, never below 0 CP."""
        return final_cost(self.base, self.sections, self.modifier_total)


def final_cost(base: int, sections: int, modifiers: int) -> int:
    """STR-22: the CP cost of a use can never be modified below 0CP (A-STR-07)."""
    return max(0, base + sections + modifiers)


def section_cost(stratagem: Stratagem, chosen: tuple[str, ...]) -> int:
    """STR-14: each chosen section with an additional CP cost adds that cost.

    Raises STR-14 for a section the stratagem does not have, or one chosen twice.
    """
    by_id = {s.id: s for s in stratagem.sections}
    for section in chosen:
        if section not in by_id:
            known = ", ".join(by_id) or "none"
            raise RuleViolation(
                "STR-14", f"{stratagem.name} has no section {section!r} (its sections: {known})"
            )
    if len(set(chosen)) != len(chosen):
        raise RuleViolation("STR-14", f"a section of {stratagem.name} is chosen twice")
    return sum(by_id[s].cp for s in chosen)


def is_in_force(modifier: CostModifier, player: str, stratagem: str, moment: Moment) -> bool:
    """STR-23: is this modifier in force for `player`'s use of `stratagem` now?

    One with no duration lasts for one use (A-STR-08); others last for the
    phase, turn, round or battle in which they were granted.
    """
    if modifier.used or modifier.player != player:
        return False
    if modifier.stratagem is not None and modifier.stratagem != stratagem:
        return False
    return modifier.lasts_into(moment.round, moment.turn, moment.phase)


def cost_of(
    state: W40KState, player: str, stratagem: Stratagem, sections: tuple[str, ...],
    moment: Moment,
) -> Cost:
    """STR-13, STR-14, STR-21: the cost of this use, with the modifiers it takes."""
    modifiers = [
        m for m in state.cost_modifiers if is_in_force(m, player, stratagem.id, moment)
    ]
    return Cost(
        base=stratagem.cp,
        sections=section_cost(stratagem, sections),
        modifiers=tuple(m.id for m in modifiers),
        modifier_total=sum(m.amount for m in modifiers),
    )


def check_can_pay(state: W40KState, player: str, stratagem: Stratagem, cost: Cost) -> None:
    """STR-15: with fewer CP than the cost, the stratagem cannot be used."""
    have = state.player_state[player].cp
    if have < cost.total:
        parts = f"{cost.base} base"
        if cost.sections:
            parts += f" + {cost.sections} for sections"
        if cost.modifier_total:
            parts += f" {cost.modifier_total:+d} modifiers"
        raise RuleViolation(
            "STR-15",
            f"{stratagem.name} costs {cost.total}CP ({parts}); {player} has {have}CP",
        )


def decide_modify_stratagem_cost(d: Decision, cmd: ModifyStratagemCost) -> None:
    """STR-21: a rule modifies the cost of the player's stratagem(s); the modifier
    is kept until its duration ends, or for the next use only (STR-23)."""
    state = game(d)
    if cmd.stratagem is not None and cmd.stratagem not in stratagems_of(state.options):
        raise InputError(f"there is no stratagem {cmd.stratagem!r} in the catalog")
    if cmd.amount == 0:
        raise InputError("a cost modifier of 0CP changes nothing")
    d.emit(
        CostModifierGranted(
            id=f"M{len(state.cost_modifiers) + 1}",
            player=cmd.by,
            stratagem=cmd.stratagem,
            amount=cmd.amount,
            source=cmd.source,
            duration=cmd.duration,
        )
    )
    lasts = cmd.duration or "the next use only (STR-23)"
    d.cite("STR-21", f"{cmd.by}'s {cmd.stratagem or 'stratagems'} cost {cmd.amount:+d}CP "
           f"for {lasts}")

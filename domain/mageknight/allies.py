"""Wylden army ability, Allies of Nature (MNT-130 … MNT-133): its line of fire
and its targets ignore difficult (hindering, A-MNT-38) terrain, and it gets +1
defense standing in it. It is a sub-faction ability, so a cavalry unit does not
have it (MNT-31, A-MNT-37)."""

from __future__ import annotations

from domain.mageknight.figures import terrain_of
from domain.mageknight.restrictions import may_use_sub_faction_abilities
from domain.mageknight.state import Figure, MageKnightState

WYLDEN = "wylden"
DIFFICULT = "hindering"


def has_allies_of_nature(fig: Figure) -> bool:
    """MNT-130: a Wylden warrior has Allies of Nature, unless it is in a cavalry unit."""
    return fig.sub_faction == WYLDEN and may_use_sub_faction_abilities(fig)


def lof_ignores_difficult_terrain(attacker: Figure) -> bool:
    """MNT-131: this warrior's line of fire is not affected by difficult terrain."""
    return has_allies_of_nature(attacker)


def target_treats_difficult_as_clear(attacker: Figure, kind: str) -> bool:
    """MNT-132: during its ranged attack, its targets treat difficult terrain as clear."""
    return kind != "close" and has_allies_of_nature(attacker)


def difficult_terrain_defense(
    state: MageKnightState, target: Figure, attacker: Figure, kind: str
) -> int:
    """MNT-133: +1 defense while in difficult terrain (none if MNT-132 makes it clear)."""
    if not has_allies_of_nature(target) or DIFFICULT not in terrain_of(state, target):
        return 0
    return 0 if target_treats_difficult_as_clear(attacker, kind) else 1

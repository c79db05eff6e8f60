"""40k board overlays: which units stratagems affect, and the ranges a use checks.

Always: a ring round each unit affected by a stratagem (STR-24), labelled with
the stratagems; a red cross on battle-shocked units; the open stratagem
window's trigger unit. For a `use_stratagem` command (the step just taken or
a proposed one): the effect's range round the target (Grenade 8″), the
Rapid Ingress exclusion zones (9″ round each enemy) and the chosen point.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shapely.geometry import LineString, Point

from domain.state import GameState
from domain.w40k.catalog import ArriveEffect, MortalWoundsEffect, stratagems_of
from domain.w40k.state import W40KState, W40KUnit
from projections.board_svg import Overlay

AFFECTED = "#6a1b9a"
SHOCKED = "#c62828"
TRIGGER = "#ef6c00"
RANGE = "#1565c0"
EXCLUDED = "#c62828"


def w40k_overlays(state: GameState, command: dict[str, Any] | None) -> Sequence[Overlay]:
    """The overlays for a 40k state and (optionally) a stratagem use."""
    if not isinstance(state, W40KState):
        return ()
    out = [*affected_rings(state), *shocked_marks(state), *window_trigger(state)]
    if command and command.get("do") == "use_stratagem":
        out += use_overlays(state, command)
    return out


def ring(unit: W40KUnit, margin: float, colour: str, label: str,
         dashed: bool = True, layer: str = "stratagems") -> Overlay | None:
    """A circle `margin` inches outside the unit's base."""
    shape = unit.footprint()
    if shape is None:
        return None
    circle = Point(shape.centre).buffer(shape.radius + margin, quad_segs=32)
    return Overlay(circle, stroke=colour, label=label, dashed=dashed, layer=layer)


def affected_rings(state: W40KState) -> list[Overlay]:
    """STR-24: each unit affected by a stratagem, with the stratagems' names."""
    names = {u.use: u.stratagem for u in state.uses}
    out = []
    for unit in state.units.values():
        if unit.affected_by:
            label = ", ".join(names.get(a, a) for a in unit.affected_by)
            drawn = ring(unit, 0.4, AFFECTED, label)
            if drawn is not None:
                out.append(drawn)
    return out


def shocked_marks(state: W40KState) -> list[Overlay]:
    """A cross over each battle-shocked unit."""
    out = []
    for unit in state.units.values():
        shape = unit.footprint()
        if shape is not None and "battle_shocked" in unit.conditions:
            (x, y), r = shape.centre, shape.radius
            out.append(Overlay(LineString([(x - r, y - r), (x + r, y + r)]), stroke=SHOCKED,
                               layer="status"))
            out.append(Overlay(LineString([(x - r, y + r), (x + r, y - r)]), stroke=SHOCKED,
                               label="battle-shocked", layer="status"))
    return out


def window_trigger(state: W40KState) -> list[Overlay]:
    """The unit whose action opened the stratagem window."""
    window = state.reaction_window
    if window is None or window.kind != "stratagem" or not window.context.get("unit"):
        return []
    unit = state.units.get(str(window.context["unit"]))
    if unit is None:
        return []
    drawn = ring(unit, 0.8, TRIGGER, f"window: {window.context['trigger']}", dashed=False)
    return [drawn] if drawn is not None else []


def use_overlays(state: W40KState, command: dict[str, Any]) -> list[Overlay]:
    """The ranges a stratagem use checks, drawn round its target or chosen point."""
    stratagem = stratagems_of(state.options).get(str(command.get("stratagem")))
    targets = [state.units[t] for t in command.get("targets", []) if t in state.units]
    if stratagem is None or not targets:
        return []
    effect = stratagem.effect
    out: list[Overlay] = []
    if isinstance(effect, MortalWoundsEffect) and effect.enemy_within is not None:
        drawn = ring(targets[0], effect.enemy_within, RANGE,
                     f"{stratagem.name}: enemy within {effect.enemy_within:g}\"")
        out += [drawn] if drawn is not None else []
    if isinstance(effect, ArriveEffect):
        player = targets[0].owner
        for enemy in state.units.values():
            if enemy.owner != player:
                drawn = ring(enemy, effect.more_than, EXCLUDED,
                             f"{effect.more_than:g}\" exclusion zone round {enemy.id}",
                             layer="exclusion")
                out += [drawn] if drawn is not None else []
        at = command.get("at")
        if isinstance(at, list | tuple) and len(at) == 2:
            out.append(Overlay((float(at[0]), float(at[1])), stroke=AFFECTED,
                               label=f"{targets[0].id} arrives", layer="stratagems"))
    return out


"""Applying Mage Knight facts: assignment only (no checks, no dice, no clock)."""

from __future__ import annotations

from domain.apply import ApplierTable
from domain.mageknight.state import CAPTURED_BY, REMOVED_FROM_GAME, MageKnightState
from events.mageknight import (
    AbilityUsed,
    ActionAssigned,
    AllegianceChanged,
    AttackResolved,
    DarkAllianceUsed,
    DialReset,
    FacingChanged,
    FigureCaptured,
    FigureDamaged,
    FigureEliminated,
    FigureHealed,
    FigureMoved,
    FigureMovedV1,
    FigureRemovedFromGame,
    FormationDeclared,
    ItemDropped,
    ItemEquipped,
    ItemPickedUp,
    PlayerTurnEnded,
    PoisonUsed,
    PushingChoiceMade,
    RiderCarried,
    RiderDismounted,
    RiderLost,
    RiderMounted,
    RiderMountedV1,
    RiderTokensRemoved,
    TokensRemoved,
)

#: The appliers of this rule set's facts (named by its wiring table in `rules.py`).
APPLIERS = ApplierTable()
applies = APPLIERS.on


@applies(ActionAssigned)
def _action_assigned(state: MageKnightState, fact: ActionAssigned) -> None:
    fig = state.units[fact.figure]
    fig.acted = True
    fig.given_action = True
    if fact.token:
        fig.tokens += 1
    state.actions_used += 1


@applies(TokensRemoved)
def _tokens_removed(state: MageKnightState, fact: TokensRemoved) -> None:
    for figure_id in fact.figures:
        state.units[figure_id].tokens = 0


@applies(PlayerTurnEnded)
def _player_turn_ended(state: MageKnightState, fact: PlayerTurnEnded) -> None:
    state.actions_used = 0
    state.formations = []
    state.poisoned = []
    # only the figures that acted are assigned (and so copied by a working copy)
    for key in [key for key, f in dict.items(state.units) if f.acted or f.given_action]:
        fig = state.units[key]
        fig.acted = False
        fig.given_action = False


@applies(FigureMoved)
def _figure_moved(state: MageKnightState, fact: FigureMoved) -> None:
    fig = state.units[fact.figure]
    fig.x, fig.y, fig.facing = fact.x, fact.y, fact.facing


@applies(RiderCarried)
def _rider_carried(state: MageKnightState, fact: RiderCarried) -> None:
    rider = state.units[fact.rider]
    rider.x, rider.y, rider.facing = fact.x, fact.y, fact.facing


@applies(FigureMovedV1)
def _figure_moved_v1(state: MageKnightState, fact: FigureMovedV1) -> None:
    """v1 logs (class_version 1): the applier also moved a mount's rider (kept exactly;
    new logs say it with `RiderCarried`)."""
    _figure_moved(state, fact)
    fig = state.units[fact.figure]
    if fig.rider is not None:
        rider = state.units[fig.rider]
        rider.x, rider.y, rider.facing = fact.x, fact.y, fact.facing


@applies(FacingChanged)
def _facing_changed(state: MageKnightState, fact: FacingChanged) -> None:
    state.units[fact.figure].facing = fact.facing


@applies(AttackResolved)
def _attack_resolved(state: MageKnightState, fact: AttackResolved) -> None:
    """The numbers are on record; the damage follows as its own fact."""


DialTurned = FigureDamaged | FigureHealed | DialReset


def _dial_turned(state: MageKnightState, fact: DialTurned) -> None:
    """Damage, healing and a Dark Riders reset all leave the dial on `click`."""
    state.units[fact.figure].click = fact.click


applies(FigureDamaged)(_dial_turned)
applies(FigureHealed)(_dial_turned)
applies(DialReset)(_dial_turned)


def _take_off(state: MageKnightState, figure_id: str, condition: str | None = None) -> None:
    """The figure leaves the table, with its tokens, and notes how."""
    fig = state.units[figure_id]
    fig.status = "removed"
    fig.tokens = 0
    fig.removed_in_turn_of = state.active_player
    if condition is not None and condition not in fig.conditions:
        fig.conditions.append(condition)


@applies(FigureEliminated)
def _figure_eliminated(state: MageKnightState, fact: FigureEliminated) -> None:
    _take_off(state, fact.figure)


@applies(FigureRemovedFromGame)
def _figure_removed(state: MageKnightState, fact: FigureRemovedFromGame) -> None:
    _take_off(state, fact.figure, REMOVED_FROM_GAME)


@applies(RiderDismounted)
def _rider_dismounted(state: MageKnightState, fact: RiderDismounted) -> None:
    rider, mount = state.units[fact.rider], state.units[fact.mount]
    rider.mount = None
    mount.rider = None
    rider.x, rider.y, rider.facing = fact.x, fact.y, fact.facing
    if fact.fresh:
        rider.acted = False
        mount.acted = False


@applies(RiderMounted)
def _rider_mounted(state: MageKnightState, fact: RiderMounted) -> None:
    rider, mount = state.units[fact.rider], state.units[fact.mount]
    rider.mount = mount.id
    mount.rider = rider.id
    rider.x, rider.y, rider.facing = mount.x, mount.y, mount.facing
    mount.tokens = fact.tokens
    rider.acted = False
    mount.acted = False
    mount.given_action = True


@applies(RiderTokensRemoved)
def _rider_tokens_removed(state: MageKnightState, fact: RiderTokensRemoved) -> None:
    state.units[fact.rider].tokens = 0


@applies(RiderMountedV1)
def _rider_mounted_v1(state: MageKnightState, fact: RiderMountedV1) -> None:
    """v1 logs (class_version 1): the applier also took the rider's tokens off (kept
    exactly; new logs say it with `RiderTokensRemoved`)."""
    _rider_mounted(state, fact)
    state.units[fact.rider].tokens = 0


@applies(RiderLost)
def _rider_lost(state: MageKnightState, fact: RiderLost) -> None:
    mount, rider = state.units[fact.mount], state.units[fact.rider]
    mount.rider = None
    rider.mount = None
    mount.saddle_figure = fact.rider if fact.in_saddle else None


@applies(AllegianceChanged)
def _allegiance_changed(state: MageKnightState, fact: AllegianceChanged) -> None:
    state.units[fact.figure].controller = fact.controller


@applies(PushingChoiceMade)
def _pushing_choice(state: MageKnightState, fact: PushingChoiceMade) -> None:
    state.units[fact.mount].pushing_to = fact.takes


@applies(ItemDropped)
def _item_dropped(state: MageKnightState, fact: ItemDropped) -> None:
    item = state.items[fact.item]
    item.carried_by, item.x, item.y = None, fact.x, fact.y
    state.units[fact.figure].items.remove(fact.item)


@applies(ItemPickedUp)
def _item_picked_up(state: MageKnightState, fact: ItemPickedUp) -> None:
    item = state.items[fact.item]
    item.carried_by, item.x, item.y = fact.figure, None, None
    state.units[fact.figure].items.append(fact.item)


@applies(ItemEquipped)
def _item_equipped(state: MageKnightState, fact: ItemEquipped) -> None:
    item = state.items[fact.item]
    item.carried_by, item.x, item.y = fact.figure, None, None


@applies(FigureCaptured)
def _figure_captured(state: MageKnightState, fact: FigureCaptured) -> None:
    _take_off(state, fact.figure, f"{CAPTURED_BY}{fact.by}")


@applies(AbilityUsed)
def _ability_used(state: MageKnightState, fact: AbilityUsed) -> None:
    """A use on record; its effect (if any) follows as its own fact."""


@applies(FormationDeclared)
def _formation_declared(state: MageKnightState, fact: FormationDeclared) -> None:
    state.formations.append(list(fact.figures))


@applies(DarkAllianceUsed)
def _dark_alliance_used(state: MageKnightState, fact: DarkAllianceUsed) -> None:
    state.dark_alliance[fact.mount] = f"{fact.round}:{fact.player}"


@applies(PoisonUsed)
def _poison_used(state: MageKnightState, fact: PoisonUsed) -> None:
    state.poisoned.append(fact.figure)

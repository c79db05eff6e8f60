"""What simulated players try: set-ups and candidate commands per rule set
(`warledger.simulate` plays them; docs/simulate.md).

A sampler proposes, the engine decides: the arguments are plausible, not
clever, and a refused candidate writes nothing.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar
from uuid import UUID

from domain.ruleset import Ruleset, Setup
from domain.state import GameState, UnitState
from events.results import GameMetadata
from replay.service import GameService

Step = dict[str, Any]
#: How many candidates one sampling round tries before it moves play on.
TRIES = 6


class SimulationClock:
    """The simulation's clock: a fixed start, one second on for each command the
    simulation gives (`tick`); reading it never moves it, so a log's timestamps
    do not depend on when the service reads the clock (snapshots)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def tick(self) -> None:
        self.now += timedelta(seconds=1)

    def __call__(self) -> datetime:
        return self.now


def tick(service: GameService) -> None:
    """One second on, before the next command (a simulation's clock only)."""
    if isinstance(service.clock, SimulationClock):
        service.clock.tick()


@dataclass
class Play:
    """One simulated game in progress: its service, id, random draws and budget."""

    service: GameService
    game_id: UUID
    rng: random.Random
    ruleset: Ruleset
    steps: int | None
    accepted: int = 0

    @property
    def state(self) -> GameState:
        """The game's current state (the service's cached copy: read, never change)."""
        return self.service.working_copy(self.game_id).state

    def attempt(self, step: Step) -> bool:
        """Give the engine one command; whether it was accepted."""
        tick(self.service)
        outcome = self.service.handle(self.game_id, step)
        if outcome.accepted:
            self.accepted += 1
        return outcome.accepted

    def first_accepted(self, candidates: list[Step]) -> bool:
        """Try candidates in order until one is accepted (at most `TRIES`)."""
        return any(self.attempt(step) for step in candidates[:TRIES])


# -- set-ups -------------------------------------------------------------------------------
#: Factions (or armies) and missions the simulated players bring, per rule set.
FACTIONS = {
    "t9a": ("Highborn Elves", "Dwarven Holds", "Orcs and Goblins", "Empire of Sonnstahl"),
    "infinity-n4": ("PanOceania", "Yu Jing", "Nomads", "Haqqislam"),
    "mageknight-2": ("Atlantean Empire", "Black Powder Rebels", "Draconum", "Elemental League"),
    "w40k-10": ("Space Marines", "Orks", "Aeldari", "Necrons"),
}
MISSIONS = {
    "t9a": ("Hold the Ground", "Breakthrough", "Spoils of War"),
    "infinity-n4": ("Frontline", "Supplies", "Firefight"),
    "mageknight-2": ("Domination", "Capture the Flag"),
    "w40k-10": ("Take and Hold", "Supply Drop", "Purge the Foe"),
}


def table_for(setup: Setup, rng: random.Random) -> Setup:
    """The set-up with a random first player and the game's metadata: factions,
    mission, table, who deployed first (docs/results.md)."""
    players = setup.players if rng.random() < 0.5 else tuple(reversed(setup.players))
    metadata = GameMetadata.model_validate({
        "event": "warledger simulate",
        "table": str(rng.randint(1, 20)),
        "mission": rng.choice(MISSIONS[setup.ruleset]),
        "deployed_first": rng.choice(players),
        "players": {p: {"name": f"{p.title()} Player",
                        "faction": rng.choice(FACTIONS[setup.ruleset])} for p in players},
    })
    return setup.model_copy(update={"players": players, "metadata": metadata})


def line_up(owner: str, count: int, y: float, facing: float, width: float,
            extra: Callable[[int], dict[str, Any]]) -> list[dict[str, Any]]:
    """`count` units of one player in a line across the board at height `y`."""
    gap = width / (count + 1)
    return [{"id": f"{owner}-{i + 1}", "owner": owner, "x": round(gap * (i + 1), 3), "y": y,
             "facing": facing, **extra(i)} for i in range(count)]


def t9a_setup(rng: random.Random, size: int) -> Setup:
    """Two T9A armies facing each other across a 72" x 48" table, one unit of each
    side in Ambush (Board Edge)."""
    units = [*line_up("red", size, 6.0, 90.0, 72, lambda i: {"files": 5, "ranks": 2}),
             *line_up("blue", size, 42.0, 270.0, 72, lambda i: {"files": 5, "ranks": 2})]
    for owner in ("red", "blue"):
        units.append({"id": f"{owner}-ambushers", "owner": owner, "status": "reserve",
                      "files": 4, "ranks": 2, "rules": {"ambush": "Board Edge"}})
    return Setup(ruleset="t9a", board={"width": 72, "height": 48}, players=("red", "blue"),
                 units=tuple(units), seed=rng.getrandbits(62))


def infinity_setup(rng: random.Random, size: int) -> Setup:
    """Two Infinity fire teams on a 48" table with a building in the middle."""
    units = [*line_up("red", size, 6.0, 90.0, 48, lambda i: {"mov": [4, 2]}),
             *line_up("blue", size, 42.0, 270.0, 48, lambda i: {"mov": [4, 4]})]
    terrain = [{"id": "building", "kind": "blocking",
                "polygon": [[20, 20], [28, 20], [28, 28], [20, 28]]}]
    return Setup(ruleset="infinity-n4", board={"width": 48, "height": 48},
                 players=("red", "blue"), units=tuple(units), terrain=tuple(terrain),
                 seed=rng.getrandbits(62))


def mageknight_setup(rng: random.Random, size: int) -> Setup:
    """Two Mage Knight warbands on a 36" table, close enough to clash; a bigger
    warband assigns more actions a turn (CORE-MK-ACTIONS-PER-TURN)."""
    units = [*line_up("red", size, 14.0, 90.0, 36, lambda i: {"points": 20 + 10 * (i % 3)}),
             *line_up("blue", size, 22.0, 270.0, 36, lambda i: {"points": 20 + 10 * (i % 3)})]
    return Setup(ruleset="mageknight-2", board={"width": 36, "height": 36},
                 players=("red", "blue"), units=tuple(units), seed=rng.getrandbits(62),
                 options={"actions_per_turn": max(3, size)})


def w40k_setup(rng: random.Random, size: int) -> Setup:
    """Two 40k armies 12" apart on a 48" table, with command points to spend; every
    other squad has GRENADES."""
    def squad(i: int) -> dict[str, Any]:
        return {"models": 5, "keywords": ["infantry", *(["grenades"] if i % 2 else [])]}

    units = [*line_up("red", size, 16.0, 90.0, 48, squad),
             *line_up("blue", size, 30.0, 270.0, 48, squad)]
    return Setup(ruleset="w40k-10", board={"width": 48, "height": 48}, players=("red", "blue"),
                 units=tuple(units), options={"cp": 3}, seed=rng.getrandbits(62))


# -- what a player may try ---------------------------------------------------------------------
def own_units(state: GameState, player: str) -> list[UnitState]:
    """The player's units on the table, in id order."""
    return [u for _, u in sorted(state.units.items())
            if u.owner == player and u.status == "on_table"]


def enemy_units(state: GameState, player: str) -> list[UnitState]:
    """The opponents' units on the table, in id order."""
    return [u for _, u in sorted(state.units.items())
            if u.owner != player and u.status == "on_table"]


U = TypeVar("U", bound=UnitState)


def nearest(unit: UnitState, others: list[U]) -> U | None:
    """The unit of `others` nearest to `unit`."""
    return min(others, key=lambda o: distance(unit, o), default=None)


def distance(a: UnitState, b: UnitState) -> float:
    return math.hypot((a.x or 0.0) - (b.x or 0.0), (a.y or 0.0) - (b.y or 0.0))


def towards(unit: UnitState, target: UnitState, length: float,
            exact: bool = False) -> tuple[float, float]:
    """The point `length` inches from `unit` towards `target` (not past it), to
    the thousandth of an inch unless `exact` (base contact needs it exact)."""
    gap = distance(unit, target)
    share = min(1.0, length / gap) if gap > 0 else 0.0
    x = (unit.x or 0.0) + ((target.x or 0.0) - (unit.x or 0.0)) * share
    y = (unit.y or 0.0) + ((target.y or 0.0) - (unit.y or 0.0)) * share
    return (x, y) if exact else (round(x, 3), round(y, 3))


def step_off(rng: random.Random, unit: UnitState, length: float,
             state: GameState) -> tuple[float, float]:
    """A point up to `length` inches from `unit` in a random direction, on the board."""
    angle = rng.uniform(0, 2 * math.pi)
    reach = rng.uniform(0.3, 1.0) * length
    x = min(max((unit.x or 0.0) + reach * math.cos(angle), 1.0), state.board.width - 1.0)
    y = min(max((unit.y or 0.0) + reach * math.sin(angle), 1.0), state.board.height - 1.0)
    return round(x, 3), round(y, 3)


def t9a_plays(play: Play, player: str) -> list[Step]:
    """T9A: Ambush in deployment; Ambush rolls, arrivals, Moves in the Movement Phase."""
    state, rng = play.state, play.rng
    units = [u for _, u in sorted(state.units.items()) if u.owner == player]
    if state.phase == "deployment":
        return [{"by": player, "do": "ambush", "unit": u.id} for u in units
                if u.status == "reserve" and "ambush" not in u.conditions]
    if state.phase != "movement":
        return []
    steps: list[Step] = []
    waiting = [u for u in units if u.status == "reserve" and "ambush" in u.conditions]
    rolled = getattr(state, "ambush_rolled", {})
    if waiting and state.round >= 2 and rolled.get(player) != state.round:
        steps.append({"by": player, "do": "roll_ambush"})
    for unit in waiting:
        if getattr(unit, "arrival_ready", False):
            steps += [arrival(rng, state, unit.id) for _ in range(3)]
    movers = [u for u in own_units(state, player) if getattr(u, "moved", None) is None]
    rng.shuffle(movers)
    for unit in movers[:TRIES]:
        kind = rng.choice(("advance", "advance", "march", "reform"))
        if kind == "reform":
            steps.append({"by": player, "do": "reform", "unit": unit.id,
                          "facing": float(rng.choice((0, 90, 180, 270)))})
        else:
            rate = getattr(unit, f"{kind}_rate", 4.0)
            steps.append({"by": player, "do": kind, "unit": unit.id,
                          "distance": round(rng.uniform(0.5, rate), 2)})
    return steps


def arrival(rng: random.Random, state: GameState, unit_id: str) -> Step:
    """An arrival from Ambush at a random point of the bottom or top board edge."""
    x = round(rng.uniform(8, state.board.width - 8), 2)
    bottom = rng.random() < 0.5
    point = (x, 0.0) if bottom else (x, state.board.height)
    y = 2.5 if bottom else state.board.height - 2.5
    return {"by": state.active_player, "do": "arrive", "unit": unit_id, "point": list(point),
            "x": x, "y": y, "facing": 90.0 if bottom else 270.0}


def infinity_plays(play: Play, player: str) -> list[Step]:
    """Infinity: spend orders on Moves and Cautious Movements; second skills."""
    state, rng = play.state, play.rng
    if state.phase != "orders":
        return []
    order = getattr(state, "order", None)
    troopers = own_units(state, player)
    if order is not None:
        trooper = state.units.get(order.trooper)
        if order.stage != "second_skill" or trooper is None:
            return []
        second: list[Step] = [{"by": player, "do": "idle"}]
        if rng.random() < 0.6:
            second.insert(0, {"by": player, "do": "move", "trooper": trooper.id,
                              "path": [list(step_off(rng, trooper, 2.0, state))]})
        return second
    if getattr(state, "orders", {}).get(player, 0) < 1 or not troopers:
        return []
    steps: list[Step] = []
    for trooper in rng.sample(troopers, min(TRIES, len(troopers))):
        kind = "cautious_move" if rng.random() < 0.25 else "move"
        steps.append({"by": player, "do": kind, "trooper": trooper.id,
                      "path": [list(step_off(rng, trooper, 3.5, state))]})
    return steps


def still_to_answer(state: GameState) -> list[str]:
    """Who (players or troopers) may still answer the open window."""
    window = state.reaction_window
    assert window is not None
    return [e for e in window.eligible if e not in window.declared]


def infinity_answers(play: Play) -> list[Step]:
    """Infinity: an eligible enemy trooper declares an ARO or passes."""
    state, rng = play.state, play.rng
    steps: list[Step] = []
    for trooper_id in still_to_answer(state):
        if trooper_id not in state.units:
            continue
        owner = state.units[trooper_id].owner
        skill = rng.choice(("shoot", "dodge", "pass", "pass"))
        if skill == "pass":
            steps.append({"by": owner, "do": "pass", "trooper": trooper_id})
        else:
            steps.append({"by": owner, "do": "aro", "trooper": trooper_id, "skill": skill})
        steps.append({"by": owner, "do": "pass", "trooper": trooper_id})
    return steps


def mageknight_plays(play: Play, player: str) -> list[Step]:
    """Mage Knight: close attacks on figures in base contact, and moves towards the
    nearest enemy, for figures that may still be given an action this turn."""
    from domain.mageknight.figures import in_contact
    from domain.mageknight.state import Figure, MageKnightState

    state, rng = play.state, play.rng
    if state.phase != "action" or not isinstance(state, MageKnightState):
        return []
    steps: list[Step] = []
    figures = [f for f in own_units(state, player)
               if isinstance(f, Figure) and not f.acted and f.tokens < 2]
    enemies = [e for e in enemy_units(state, player) if isinstance(e, Figure)]
    for figure in rng.sample(figures, min(TRIES, len(figures))):
        touching = [e for e in enemies if in_contact(state, figure, e)]
        target = nearest(figure, enemies)
        if touching:
            steps.append({"by": player, "do": "close_attack", "figure": figure.id,
                          "targets": [rng.choice(touching).id]})
        elif target is not None and rng.random() < 0.7:
            gap = distance(figure, target) - figure.base / 2 - target.base / 2
            steps.append({"by": player, "do": "move", "figure": figure.id,
                          "path": [list(towards(figure, target, min(gap, 6.0), exact=True))]})
        else:
            steps.append({"by": player, "do": "move", "figure": figure.id,
                          "path": [list(step_off(rng, figure, 4.0, state))]})
    return steps


def w40k_plays(play: Play, player: str) -> list[Step]:
    """40k: moves, shooting, charges and fights, and now and then a stratagem."""
    from domain.w40k.state import W40KState

    state, rng = play.state, play.rng
    units = own_units(state, player)
    enemies = enemy_units(state, player)
    steps: list[Step] = []
    grenadiers = [u for u in units if "grenades" in getattr(u, "keywords", [])]
    if state.phase == "shooting" and rng.random() < 0.2 and grenadiers and enemies:
        steps.append(grenade(rng, player, grenadiers, enemies))
    acting = rng.sample(units, min(TRIES, len(units)))
    for unit in acting:
        target = nearest(unit, enemies)
        if target is None:
            continue
        key = state.key() if isinstance(state, W40KState) else ""
        acted = {a for a, when in getattr(unit, "acted", {}).items() if when == key}
        if state.phase == "movement" and "moved" not in acted:
            steps.append({"by": player, "do": "move", "unit": unit.id,
                          **dict(zip("xy", step_off(rng, unit, 5.5, state), strict=True))})
        elif state.phase == "shooting" and "shot" not in acted:
            steps.append({"by": player, "do": "shoot", "unit": unit.id, "target": target.id})
        elif state.phase == "charge" and isinstance(state, W40KState):
            steps += charge(unit, target, player, acted, charge_roll(state, unit.id))
        elif state.phase == "fight" and "fought" not in acted and distance(
                unit, target) <= ENGAGED:
            steps.append({"by": player, "do": "fight", "unit": unit.id, "target": target.id})
    return steps


#: Centre to centre, 40k bases of 1.25" are within Engagement Range (1") up to here.
ENGAGED = 2.2


def charge(unit: UnitState, target: UnitState, player: str, acted: set[str],
           rolled: int | None) -> list[Step]:
    """Declare a charge on the nearest enemy, then, if the charge roll goes far
    enough, make the charge move to it."""
    if distance(unit, target) > 12 or distance(unit, target) <= ENGAGED:
        return []
    length = max(distance(unit, target) - 1.8, 0.0)
    x, y = towards(unit, target, length)
    move: Step = {"by": player, "do": "charge_move", "unit": unit.id, "x": x, "y": y}
    if "declared a charge" in acted:
        return [move] if rolled is not None and rolled >= length else []
    return [{"by": player, "do": "declare_charge", "unit": unit.id, "targets": [target.id]}, move]


def charge_roll(state: Any, unit_id: str) -> int | None:
    """The unit's charge roll in this phase (2D6), if it made one."""
    rolls = [r for r in state.rolls if r.unit == unit_id and r.purpose == "charge"
             and (r.round, r.turn, r.phase) == (state.round, state.active_player, state.phase)]
    return sum(rolls[-1].values) if rolls else None


def grenade(rng: random.Random, player: str, units: list[UnitState],
            enemies: list[UnitState]) -> Step:
    """The proactive Grenade stratagem on the enemy nearest a random unit (the
    engine judges range, keywords, CP and once per phase)."""
    unit = rng.choice(units)
    enemy = nearest(unit, enemies) or enemies[0]
    return {"by": player, "do": "use_stratagem", "stratagem": "grenade", "targets": [unit.id],
            "enemy": enemy.id}


def w40k_answers(play: Play) -> list[Step]:
    """40k: an eligible player answers the stratagem window with a stratagem that
    answers it now (on a target it may select), or passes."""
    state, rng = play.state, play.rng
    steps: list[Step] = []
    for player in still_to_answer(state):
        if player not in state.players:
            continue
        if rng.random() < 0.6 and state.reaction_window is not None:
            steps += usable_stratagems(play, player, state.reaction_window.context)[:2]
        steps.append({"by": player, "do": "pass_stratagem"})
    return steps


def usable_stratagems(play: Play, player: str, context: dict[str, Any]) -> list[Step]:
    """Stratagems `player` could use in the window of `context`, with targets."""
    from domain.w40k.catalog import (
        ArriveEffect,
        MortalWoundsEffect,
        RecordEffect,
        RerollEffect,
        stratagems_of,
    )
    from domain.w40k.limits import may_target
    from domain.w40k.state import W40KState
    from domain.w40k.targets import target_problem
    from domain.w40k.timing import Moment
    from domain.w40k.windows import can_use

    state, rng = play.state, play.rng
    assert isinstance(state, W40KState)
    moment = Moment(int(context["round"]), str(context["turn"]), str(context["phase"]),
                    context.get("trigger"), context.get("unit"), context.get("target"))
    steps: list[Step] = []
    for stratagem in stratagems_of(state.options).values():
        effect = stratagem.effect
        if isinstance(effect, ArriveEffect | RerollEffect) or not can_use(
                state, player, stratagem, moment):
            continue
        targets = [u.id for _, u in sorted(state.units.items())
                   if target_problem(state, player, stratagem, u, moment) is None
                   and may_target(state, player, stratagem, u.id, moment)]
        step: Step = {"by": player, "do": "use_stratagem", "stratagem": stratagem.id,
                      "targets": rng.sample(targets, stratagem.target.count)}
        enemies = enemy_units(state, player)
        wants_enemy = isinstance(effect, MortalWoundsEffect) or (
            isinstance(effect, RecordEffect) and effect.needs_enemy)
        if wants_enemy and enemies and step["targets"]:
            near = nearest(state.units[step["targets"][0]], enemies)
            step["enemy"] = near.id if near is not None else enemies[0].id
        steps.append(step)
    rng.shuffle(steps)
    return steps


@dataclass(frozen=True)
class Sampler:
    """How a rule set's games are set up and what its players try."""

    setup: Callable[[random.Random, int], Setup]
    plays: Callable[[Play, str], list[Step]]
    answers: Callable[[Play], list[Step]] | None = None


SAMPLERS: dict[str, Sampler] = {
    "t9a": Sampler(t9a_setup, t9a_plays),
    "infinity-n4": Sampler(infinity_setup, infinity_plays, infinity_answers),
    "mageknight-2": Sampler(mageknight_setup, mageknight_plays),
    "w40k-10": Sampler(w40k_setup, w40k_plays, w40k_answers),
}

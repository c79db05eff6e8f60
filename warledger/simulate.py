"""Simulated games: data to analyse (issue 13 item 6, docs/simulate.md).

`simulate` plays complete, legal games of a rule set: it builds a set-up, then
repeatedly samples candidate commands from the current state (the rule set's
commands with plausible arguments, AROs and stratagems, undo requests with
consent or refusal, `next_phase` / `end_turn`) and keeps the first one the
engine accepts (a refusal writes nothing), until the game ends with a result
that is confirmed. Everything is drawn from one `random.Random` per game, seeded
from the simulation's seed and the game's number, and the service's clock is a
counter, so the same seed gives identical logs, hashes and states.

The sampler only proposes; the engine decides. Its arguments are plausible,
not clever: many are refused, and that is how the rules are explored.
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.application import ProcessingEvent
from eventsourcing.persistence import RecordConflictError

from domain.commands import JUDGE
from domain.errors import ScriptError
from domain.ruleset import Ruleset, Setup, find_ruleset
from domain.state import GameState, UnitState
from events.envelope import GameEvent
from replay.service import GameService

Step = dict[str, Any]
#: How many candidates one sampling round tries before it moves play on.
TRIES = 6
#: Chances per accepted step of play: an undo request, and a redo after an undo.
UNDO_CHANCE = 0.03
REDO_CHANCE = 0.3
#: Chance that an answer accepts (undo; result), and that the judge answers a result.
UNDO_ACCEPT = 0.6
RESULT_ACCEPT = 0.85
JUDGE_ANSWERS = 0.1
#: A game ends by `end_game` after this many accepted steps, if not before.
MAX_STEPS = 5_000
#: Chance that a player tries a command of play before moving the phase on (always,
#: for games with a length in steps: each phase is played out before it ends).
PLAY_CHANCE = 0.75
#: Sampling rounds in a row without an accepted step before a game counts as stuck.
STALL_LIMIT = 50


class SimulationClock:
    """A clock that ticks one second per reading, from a fixed start: logs repeat."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


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
        outcome = self.service.handle(self.game_id, step)
        if outcome.accepted:
            self.accepted += 1
        return outcome.accepted

    def first_accepted(self, candidates: list[Step]) -> bool:
        """Try candidates in order until one is accepted (at most `TRIES`)."""
        return any(self.attempt(step) for step in candidates[:TRIES])


# -- set-ups -------------------------------------------------------------------------------
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
    """Two 40k armies 12" apart on a 48" table, with command points to spend."""
    units = [*line_up("red", size, 16.0, 90.0, 48,
                      lambda i: {"models": 5, "keywords": ["infantry"]}),
             *line_up("blue", size, 30.0, 270.0, 48,
                      lambda i: {"models": 5, "keywords": ["infantry"]})]
    return Setup(ruleset="w40k-10", board={"width": 48, "height": 48}, players=("red", "blue"),
                 units=tuple(units), options={"cp": 3}, seed=rng.getrandbits(62))


SETUPS: dict[str, Callable[[random.Random, int], Setup]] = {
    "t9a": t9a_setup,
    "infinity-n4": infinity_setup,
    "mageknight-2": mageknight_setup,
    "w40k-10": w40k_setup,
}


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


def infinity_answers(play: Play) -> list[Step]:
    """Infinity: an eligible enemy trooper declares an ARO or passes."""
    state, rng = play.state, play.rng
    window = state.reaction_window
    assert window is not None
    steps: list[Step] = []
    for trooper_id in window.eligible:
        if trooper_id in window.declared or trooper_id not in state.units:
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
    if state.phase == "shooting" and rng.random() < 0.2 and units and enemies:
        steps.append(grenade(rng, player, units, enemies))
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
        elif state.phase == "charge":
            steps += charge(unit, target, player, acted)
        elif state.phase == "fight" and distance(unit, target) <= ENGAGED:
            steps.append({"by": player, "do": "fight", "unit": unit.id, "target": target.id})
    return steps


#: Centre to centre, 40k bases of 1.25" are within Engagement Range (1") up to here.
ENGAGED = 2.2


def charge(unit: UnitState, target: UnitState, player: str, acted: set[str]) -> list[Step]:
    """Declare a charge on the nearest enemy, then make the charge move to it."""
    if distance(unit, target) > 12 or distance(unit, target) <= ENGAGED:
        return []
    x, y = towards(unit, target, max(distance(unit, target) - 1.8, 0.0))
    move: Step = {"by": player, "do": "charge_move", "unit": unit.id, "x": x, "y": y}
    if "declared a charge" in acted:
        return [move]
    return [{"by": player, "do": "declare_charge", "unit": unit.id, "targets": [target.id]}, move]


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
    window = state.reaction_window
    assert window is not None
    steps: list[Step] = []
    for player in window.eligible:
        if player in window.declared or player not in state.players:
            continue
        if rng.random() < 0.6:
            steps += usable_stratagems(play, player, window.context)[:2]
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


# -- the game loop ----------------------------------------------------------------------------
def proposed_result(play: Play) -> dict[str, Any]:
    """A result for the game: the rules' points where they score it, else drawn."""
    state = play.state
    scored = play.ruleset.result_points(state)
    top = min(play.ruleset.result_points_max, 100)
    points = scored if scored is not None else {
        p: play.rng.randint(0, top) for p in state.players}
    best = max(points.values())
    leaders = [p for p, v in points.items() if v == best]
    result: dict[str, Any] = {"winner": leaders[0] if len(leaders) == 1 else None,
                              "draw": len(leaders) > 1}
    if scored is None:
        result["points"] = points
    return result


def answer_result(play: Play) -> None:
    """The opponent (or now and then the judge) confirms or refuses the result."""
    window = play.state.reaction_window
    assert window is not None
    players = [p for p in window.eligible if p != JUDGE and p not in window.declared]
    by = JUDGE if play.rng.random() < JUDGE_ANSWERS or not players else players[0]
    accept = play.rng.random() < RESULT_ACCEPT
    if not play.attempt({"by": by, "do": "consent", "accept": accept}):
        raise SimulationError(f"the result's answer by {by} was refused")


def answer_undo(play: Play) -> None:
    """An undo or redo request is answered by the opponent or the judge."""
    window = play.state.reaction_window
    assert window is not None
    requester = window.context.get("requested_by")
    by = next(p for p in window.eligible if p != requester)
    if play.rng.random() < 0.2:
        by = JUDGE
    accept = play.rng.random() < UNDO_ACCEPT
    if not play.attempt({"by": by, "do": "consent", "accept": accept}):
        raise SimulationError(f"the undo answer by {by} was refused")


def maybe_contest(play: Play) -> None:
    """Now and then, the player whose step it was asks to undo it (or to redo)."""
    state, rng = play.state, play.rng
    if state.redo_stack and rng.random() < REDO_CHANCE:
        by = state.redo_stack[-1][0].by
        play.attempt({"by": by, "do": "request_redo"})
    elif state.live_steps and rng.random() < UNDO_CHANCE:
        by = state.live_steps[-1].by
        play.attempt({"by": by, "do": "request_undo", "steps": 1})


def move_on(play: Play) -> bool:
    """End the phase or the turn (the last turn of the last round with a result)."""
    state, rng = play.state, play.rng
    by = state.active_player
    phases = play.ruleset.machine.phases
    last = state.round >= play.ruleset.last_round and by == state.players[-1]
    if state.phase in phases and (state.phase == phases[-1] or rng.random() < 0.08):
        step: Step = {"by": by, "do": "end_turn"}
        if last:
            step["result"] = proposed_result(play)
        return play.attempt(step)
    return play.attempt({"by": by, "do": "next_phase"})


def play_one_step(play: Play, sampler: Sampler) -> None:
    """Sample and try commands until one is accepted."""
    state = play.state
    if state.reaction_window is not None:
        answer_window(play, sampler)
    elif state.finished:
        by = play.rng.choice(state.players)
        play.attempt({"by": by, "do": "end_game", "result": proposed_result(play)})
    elif (play.steps is not None and play.accepted >= play.steps) or play.accepted >= MAX_STEPS:
        by = play.rng.choice(state.players)
        play.attempt({"by": by, "do": "end_game", "reason": "time",
                      "result": proposed_result(play)})
    elif (play.steps is not None or play.rng.random() < PLAY_CHANCE) and play.first_accepted(
            sampler.plays(play, state.active_player)):
        maybe_contest(play)
    elif not move_on(play) and not play.first_accepted(sampler.plays(play, state.active_player)):
        # Neither play nor the phase can move on (an order waiting): the game ends.
        play.attempt({"by": state.active_player, "do": "end_game", "reason": "stuck",
                      "result": proposed_result(play)})


def answer_window(play: Play, sampler: Sampler) -> None:
    """Answer the open window: undo and result windows alike in every rule set,
    AROs and stratagem windows as the rule set's sampler does."""
    window = play.state.reaction_window
    assert window is not None
    if window.kind == "undo":
        answer_undo(play)
    elif window.kind == "result":
        answer_result(play)
    elif sampler.answers is None or not play.first_accepted(sampler.answers(play)):
        raise SimulationError(f"no answer to the {window.kind} window was accepted")


class SimulationError(RuntimeError):
    """The sampler could not move a game on (a bug in the sampler or the rules)."""


def simulate_game(service: GameService, ruleset: str, seed: int, index: int,
                  steps: int | None = None) -> UUID:
    """Play one complete game of `ruleset`; its id."""
    rng = random.Random(f"warledger-simulate:{ruleset}:{seed}:{index}")
    sampler = SAMPLERS[ruleset]
    size = 3 if steps is None else max(3, min(10, steps // 40))
    game_id = service.start(sampler.setup(rng, size), UUID(int=rng.getrandbits(128), version=4))
    play = Play(service, game_id, rng, find_ruleset(ruleset), steps)
    stalled = 0
    while play.state.result is None:
        before = play.accepted
        play_one_step(play, sampler)
        stalled = 0 if play.accepted > before else stalled + 1
        if stalled > STALL_LIMIT:
            raise SimulationError(f"game {index} of {ruleset} is stuck at step "
                                  f"{play.state.step} (phase {play.state.phase})")
    return game_id


def simulate(ruleset: str, games: int, seed: int, db: str, progress: bool = False,
             steps: int | None = None) -> list[UUID]:
    """Play `games` complete games of `ruleset` into the store `db`; their ids.

    The same arguments give the same games: the same logs, head hashes and states.
    `steps` sets a game's length in accepted steps (None: to the rules' last round).
    """
    return simulate_games(ruleset, games, seed, db, progress, steps).game_ids


@dataclass
class SimulationRun:
    """What a simulation stored: the games' ids and how many events they have."""

    game_ids: list[UUID]
    events: int = 0


def simulate_games(ruleset: str, games: int, seed: int, db: str, progress: bool = False,
                   steps: int | None = None) -> SimulationRun:
    """`simulate`, with the number of events stored."""
    name = find_ruleset(ruleset).name
    clock = SimulationClock()
    store = GameService(db, clock=clock)
    run = SimulationRun([])
    try:
        for index in progressing(range(games), progress, f"simulating {name}"):
            game_id, events = store_game(store, clock, name, seed, index, steps)
            run.game_ids.append(game_id)
            run.events += events
    finally:
        store.close()
    return run


def store_game(store: GameService, clock: SimulationClock, ruleset: str, seed: int, index: int,
               steps: int | None) -> tuple[UUID, int]:
    """Play one game in memory, then store its events (and snapshots) in one
    transaction: the same log as playing it in the store, without a commit per
    step. The game's id and its number of events."""
    memory = SimulationService(":memory:", clock=clock)
    try:
        game_id = simulate_game(memory, ruleset, seed, index, steps)
        events = memory.saved
        if len(events) != memory.load(game_id).version:
            events = memory.stored_events(game_id)  # the hook did not see them all
        try:
            save_events(store, events)
        except RecordConflictError:
            raise ScriptError(f"the database already holds game {index} of this simulation "
                              f"({ruleset}, seed {seed}); choose another --seed or database"
                              ) from None
        if memory.snapshots is not None and store.snapshots is not None:
            store.snapshots.put(list(memory.snapshots.get(game_id)))
    finally:
        memory.close()
    return game_id, len(events)


class SimulationService(GameService):
    """An in-memory service that keeps the events it saves, in order, so that a
    finished game is stored without reading it back."""

    def __init__(self, db: str, *, clock: SimulationClock) -> None:
        super().__init__(db, clock=clock)
        self.saved: list[GameEvent] = []

    def notify(self, new_events: Sequence[object]) -> None:
        """The library's hook after each save: keep the game's new events."""
        self.saved.extend(e for e in new_events if isinstance(e, GameEvent))


def save_events(store: GameService, events: list[GameEvent]) -> None:
    """Append a whole game's events in one transaction, as `GameService._store` does
    (without the library's per-event protocol checks in `Application.save`)."""
    processing: ProcessingEvent[UUID] = ProcessingEvent()
    processing.events.extend(events)
    store._record(processing)


def progressing(items: range, show: bool, title: str) -> Iterator[int]:
    """The items, with a Rich progress bar on stderr when `show` (a plain count on
    stderr where Rich is not installed: it comes with the `analytics` extra)."""
    if not show:
        yield from items
        return
    try:
        from rich.console import Console
        from rich.progress import Progress
    except ModuleNotFoundError:
        for done, item in enumerate(items, start=1):
            yield item
            print(f"\r{title}: {done}/{len(items)}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        return

    with Progress(console=Console(stderr=True)) as bar:
        task = bar.add_task(title, total=len(items))
        for item in items:
            yield item
            bar.advance(task)

"""Simulated games: data to analyse (docs/simulate.md).

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

import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar
from uuid import UUID

from eventsourcing.application import ProcessingEvent
from eventsourcing.persistence import RecordConflictError

from domain.commands import JUDGE
from domain.errors import ScriptError
from domain.ruleset import find_ruleset
from events.envelope import GameEvent
from replay.service import GameService
from warledger.sampling import (
    SAMPLERS,
    Play,
    Sampler,
    SimulationClock,
    Step,
    still_to_answer,
    table_for,
    tick,
)

#: Chances per accepted step of play: an undo request, and a redo after an undo.
UNDO_CHANCE = 0.03
REDO_CHANCE = 0.3
#: Chance that an answer accepts (undo; result), and that the judge answers a result.
UNDO_ACCEPT = 0.6
RESULT_ACCEPT = 0.85
JUDGE_ANSWERS = 0.1
JUDGE_ANSWERS_UNDO = 0.2
#: A game ends by `end_game` after this many accepted steps, if not before.
MAX_STEPS = 5_000
#: Chance that a player tries a command of play before moving the phase on (always,
#: for games with a length in steps: each phase is played out before it ends).
PLAY_CHANCE = 0.75
#: Sampling rounds in a row without an accepted step before a game counts as stuck.
STALL_LIMIT = 50


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
    players = [p for p in still_to_answer(play.state) if p != JUDGE]
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
    if play.rng.random() < JUDGE_ANSWERS_UNDO:
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
    """End the turn (its last turn with a result) from its last phase, and now and
    then early; otherwise, or if the turn cannot end yet (a phase with something
    that must be done, e.g. AMB-07's rolls), go on to the next phase."""
    state, rng = play.state, play.rng
    by = state.active_player
    phases = play.ruleset.machine.phases
    in_last_phase = state.phase == phases[-1]
    if state.phase in phases and (in_last_phase or rng.random() < 0.08):
        step: Step = {"by": by, "do": "end_turn"}
        if state.round >= play.ruleset.last_round and by == state.players[-1]:
            step["result"] = proposed_result(play)
        accepted = play.attempt(step)
        if accepted or in_last_phase:
            return accepted
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
    elif not move_on(play) and not play.first_accepted(
            sampler.plays(play, play.state.active_player)):
        # Neither play nor the phase can move on: the game ends. (`play.state`, read
        # afresh: a refused command's working state is thrown away.)
        play.attempt({"by": play.state.active_player, "do": "end_game", "reason": "stuck",
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
    setup = table_for(sampler.setup(rng, size), rng)
    tick(service)
    game_id = service.start(setup, UUID(int=rng.getrandbits(128), version=4))
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
    store = GameService(db, clock=clock, keep_attempts=False)
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
            store.snapshots.put(store_snapshots(list(memory.snapshots.get(game_id))))
    finally:
        memory.close()
    return game_id, len(events)


class SimulationService(GameService):
    """An in-memory service that keeps the events it saves, in order, so that a
    finished game is stored without reading it back. It snapshots more often than
    a store does, so that reading a game back after a refused candidate is quick."""

    snapshot_interval: ClassVar[int] = GameService.snapshot_interval // 8

    def __init__(self, db: str, *, clock: SimulationClock) -> None:
        super().__init__(db, clock=clock, keep_attempts=False)
        self.saved: list[GameEvent] = []

    def notify(self, new_events: Sequence[object]) -> None:
        """The library's hook after each save: keep the game's new events."""
        self.saved.extend(e for e in new_events if isinstance(e, GameEvent))


def store_snapshots(taken: list[Any]) -> list[Any]:
    """Of the simulation's snapshots, those a store would have taken
    (`replay.service.snapshot_due`): the first after each multiple of its interval
    (the simulation's interval divides it, so the save that crossed it took one),
    and every one taken once the result was confirmed (each such save took one)."""
    interval = GameService.snapshot_interval
    kept, previous = [], 0
    for snapshot in sorted(taken, key=lambda s: s.originator_version):
        if (snapshot.originator_version // interval > previous // interval
                or snapshot.state.get("result") is not None):
            kept.append(snapshot)
        previous = snapshot.originator_version
    return kept


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

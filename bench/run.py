"""warledger benchmarks: decide-and-append, full replay, and time travel.

    python -m bench.run            # 1k and 10k time travel (10 to 20 s)
    python -m bench.run --full     # adds 100k events (a few minutes)

Prints a Markdown table; docs/performance.md records a run and how to read it.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

from domain.game import project_game
from domain.ruleset import Setup, register
from domain.w40k import W40K
from replay.service import GameService


class Endless(W40K):
    """The 40k turn structure without a last round, so a benchmark never ends."""

    name = "bench-endless"
    last_round = 10**9


register(Endless())

SETUP = Setup(
    ruleset="bench-endless",
    board={"width": 44, "height": 60},
    players=("red", "blue"),
    units=tuple({"id": f"u{i}", "owner": ("red", "blue")[i % 2], "x": 5.0 + 2 * i, "y": 10.0,
                 "facing": 90.0} for i in range(10)),
)


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def timed(func: Callable[[], Any]) -> float:
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


# -- 1. decide-and-append versus a bare save -------------------------------------
T9A_SETUP = Setup(
    ruleset="t9a",
    board={"width": 72, "height": 48},
    terrain=({"id": "rock", "kind": "impassable",
              "polygon": ((30, 20), (34, 20), (34, 24), (30, 24))},),
    players=("red", "blue"),
    units=(
        {"id": "red-spears", "owner": "red", "x": 20, "y": 6, "facing": 90, "files": 5,
         "ranks": 2},
        {"id": "blue-guard", "owner": "blue", "x": 50, "y": 40, "facing": 270, "files": 5,
         "ranks": 2},
    ),
)
UNIT_OF = {"red": "red-spears", "blue": "blue-guard"}


def t9a_turn(player: str) -> list[dict[str, Any]]:
    """A typical T9A Player Turn: into the movement phase, a 1\" advance, end."""
    return [{"do": "next_phase", "by": player},
            {"do": "advance", "by": player, "unit": UNIT_OF[player], "distance": 1.0},
            {"do": "end_turn", "by": player}]


def typical_commands(service: GameService, count: int) -> Iterator[tuple[UUID, dict[str, Any]]]:
    """T9A games of real rule commands (phases, a geometry-checked move), as many as needed."""
    while True:
        game_id = service.start(T9A_SETUP)
        yield game_id, {"do": "next_phase", "by": "red"}  # out of deployment
        for _ in range(5):
            for player in ("red", "blue"):
                for command in t9a_turn(player):
                    yield game_id, command


def bench_append(folder: Path, commands: int) -> dict[str, float]:
    service = GameService(str(folder / "append.db"))
    decided: list[float] = []
    by_kind: dict[str, list[float]] = {}
    games: list[UUID] = []
    for _, (game_id, command) in zip(range(commands), typical_commands(service, commands),
                                     strict=False):
        if not games or games[-1] != game_id:
            games.append(game_id)
        start = time.perf_counter()
        outcome = service.handle(game_id, command)
        decided.append(time.perf_counter() - start)
        by_kind.setdefault(command["do"], []).append(decided[-1])
        assert outcome.accepted, outcome
    # The same events, saved bare by a plain application with the same mapper.
    bare_app = GameService(str(folder / "bare.db"))
    bare: list[float] = []
    for game_id in games:
        new_id = uuid4()
        steps: dict[int, list[Any]] = {}
        for e in service.stored_events(game_id):
            steps.setdefault(e.step, []).append(replace(e, originator_id=new_id))
        for step, events in sorted(steps.items()):
            if step == 0:
                Application.save(bare_app, *events)
            else:
                bare.append(timed(lambda s=events: Application.save(bare_app, *s)))
    service.close()
    bare_app.close()
    return {
        **{f"p50_ms {kind}": statistics.median(v) * 1e3 for kind, v in by_kind.items()},
        "decide_p50_ms": statistics.median(decided) * 1e3,
        "decide_p99_ms": percentile(decided, 0.99) * 1e3,
        "bare_p50_ms": statistics.median(bare) * 1e3,
        "bare_p99_ms": percentile(bare, 0.99) * 1e3,
    }


# -- 2. full replay versus the library's default replay ---------------------------
class Counter(Aggregate):
    """A library-default aggregate with events of a similar size, for comparison."""

    def __init__(self) -> None:
        self.round = 0
        self.phase = "command"
        self.player = "red"

    @event("PhaseStarted")
    def start_phase(self, round_: int, player: str, phase: str) -> None:
        self.round, self.player, self.phase = round_, player, phase


def build_long_game(db: str, commands: int) -> tuple[GameService, UUID]:
    """A game of `commands` end_turn/next_phase steps (2 events each), fast."""
    service = GameService(db)
    game_id = service.start(SETUP)
    for _ in range(commands):
        state = service.load(game_id).state
        if state.finished:
            break
        command = "next_phase" if state.phase != "fight" else "end_turn"
        if command == "end_turn" and state.round == 5 and state.active_player == "blue":
            command = "next_phase"
        service.handle(game_id, {"do": command, "by": state.active_player})
    return service, game_id


def bench_replay(folder: Path, events: int) -> dict[str, float]:
    service = GameService(str(folder / "replay.db"), env={"IS_SNAPSHOTTING_ENABLED": "n"})
    game_id = service.start(SETUP)
    game = service.load(game_id)
    now = datetime.now(UTC)
    from events.core import PhaseStarted, StepTaken

    while game.version < events:
        facts = [StepTaken(step=game.state.step + 1, by="red", command={"do": "x", "by": "red"}),
                 PhaseStarted(round=1, active_player="red", phase="command")]
        for fact in facts:
            from domain.apply import apply

            apply(game.state, fact)
        game.record(facts, now, step=game.state.step)
        service.save(game)
    ours = min(timed(lambda: service.repository.get(game_id, projector_func=project_game))
               for _ in range(7))
    baseline_app: Application[UUID] = Application(env={
        "PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(folder / "lib.db")})
    counter = Counter()
    for i in range(game.version - 1):
        counter.start_phase(1, "red", "command" if i % 2 else "movement")
        if i % 100 == 99:
            baseline_app.save(counter)
    baseline_app.save(counter)
    theirs = min(timed(lambda: baseline_app.repository.get(counter.id)) for _ in range(7))
    return {"events": float(game.version), "ours_eps": game.version / ours,
            "library_eps": counter.version / theirs}


# -- 3. time travel ---------------------------------------------------------------
def grow_game(service: GameService, game_id: UUID, events: int) -> None:
    """Record plain steps (a `next_phase` that leaves the phase as it is) until the game
    has `events` events, snapshots taken as usual: a long game cheaply. Each step
    carries the undo-depth bookkeeping a decided step would (`keep_undo_depth`), so
    the state stays the size a real game's does."""
    from domain.commands import Command
    from domain.decision import Decision
    from domain.dice import DiceSource
    from domain.undo import keep_undo_depth
    from events.core import PhaseStarted, StepTaken

    game = service.load(game_id)
    now = datetime.now(UTC)
    while game.version < events:
        player = game.state.active_player
        d = Decision(game.ruleset, game.state, DiceSource(seed=0, next_index=0))
        d.emit(StepTaken(step=game.state.step + 1, by=player,
                         command={"do": "next_phase", "by": player}))
        keep_undo_depth(d, Command(do="next_phase", by=player))
        d.emit(PhaseStarted(round=game.state.round, active_player=player,
                            phase=game.state.phase))
        game.record(d.facts, now, step=game.state.step)
        first = game.pending[0].originator_version
        service.save(game)
        service._snapshot_if_due(game, first)


def bench_time_travel(folder: Path, sizes: list[int]) -> dict[int, float]:
    service = GameService(str(folder / "travel.db"))
    game_id = service.start(SETUP)
    results = {}
    for size in sizes:
        grow_game(service, game_id, size)
        samples = [timed(lambda v=v: service.game_at(game_id, version=v))
                   for v in range(size - 150, size, 3)]
        results[size] = statistics.median(samples) * 1e3
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--full", action="store_true", help="include 100k events")
    parser.add_argument("--commands", type=int, default=1000)
    args = parser.parse_args()
    sizes = [1_000, 10_000, *([100_000] if args.full else [])]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        append = bench_append(folder, args.commands)
        replay = bench_replay(folder, 20_000)
        travel = bench_time_travel(folder, sizes)
    print("| measure | value |\n|---|---|")
    print(f"| decide-and-append p50 / p99 (ms) | {append['decide_p50_ms']:.3f} / "
          f"{append['decide_p99_ms']:.3f} |")
    print(f"| bare `app.save` of the same events p50 / p99 (ms) | {append['bare_p50_ms']:.3f} / "
          f"{append['bare_p99_ms']:.3f} |")
    print(f"| ratio p50 / p99 | {append['decide_p50_ms'] / append['bare_p50_ms']:.2f}x / "
          f"{append['decide_p99_ms'] / append['bare_p99_ms']:.2f}x |")
    for key, value in append.items():
        if key.startswith("p50_ms "):
            kind = key.split(" ", 1)[1]
            print(f"| decide-and-append p50, `{kind}` only (ms) | {value:.3f} "
                  f"({value / append['bare_p50_ms']:.2f}x bare) |")
    print(f"| full replay, {int(replay['events'])} events (events/s) | {replay['ours_eps']:,.0f} |")
    print(f"| library default replay (events/s) | {replay['library_eps']:,.0f} |")
    print(f"| replay speed ratio | {replay['ours_eps'] / replay['library_eps']:.2f}x |")
    for size, ms in travel.items():
        print(f"| `replay --at N`, N = {size:,} (ms, median) | {ms:.2f} |")


if __name__ == "__main__":
    main()

"""How fast `warledger simulate` plays and stores games (docs/simulate.md).

    python -m bench.simulate                       # 20 games per rule set
    python -m bench.simulate --games 1000          # the analytics data set
    python -m bench.simulate --games 50 --steps 400 --rulesets w40k-10   # ~1,000 events a game

For each rule set: games/s and events/s into a fresh SQLite file, and, as the
baseline in the same run, the same games played step by step straight into a
SQLite file (`--baseline N` games: one commit per step, as `warledger step`
does). The simulation plays each game in memory and stores its events in one
transaction; both give identical logs.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from domain.ruleset import load_rulesets
from replay.service import GameService
from warledger.simulate import SAMPLERS, SimulationClock, simulate_game, simulate_games


def measure(ruleset: str, games: int, steps: int | None,
            folder: Path) -> tuple[float, float, int]:
    """Wall and CPU seconds, and events, for `games` simulated games into a fresh
    SQLite file (on a shared machine, CPU seconds show what the work costs)."""
    started, cpu = time.perf_counter(), time.process_time()
    run = simulate_games(ruleset, games, 0, str(folder / f"{ruleset}.db"), steps=steps)
    return time.perf_counter() - started, time.process_time() - cpu, run.events


def baseline(ruleset: str, games: int, steps: int | None, folder: Path) -> tuple[float, int]:
    """The same games played straight into SQLite, one commit per step."""
    service = GameService(str(folder / f"{ruleset}-direct.db"), clock=SimulationClock())
    started = time.perf_counter()
    events = 0
    for index in range(games):
        game_id = simulate_game(service, ruleset, 0, index, steps)
        events += service.load(game_id).version
    seconds = time.perf_counter() - started
    service.close()
    return seconds, events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--baseline", type=int, default=3, help="games for the baseline")
    parser.add_argument("--steps", type=int, default=None)
    parser.add_argument("--rulesets", nargs="*", default=sorted(SAMPLERS))
    args = parser.parse_args()
    load_rulesets()
    print("| rule set | games | events/game | games/s | events/s | games per CPU-s | "
          "events per CPU-s | baseline events/s | ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for ruleset in args.rulesets:
            seconds, cpu, events = measure(ruleset, args.games, args.steps, folder)
            base_seconds, base_events = baseline(ruleset, args.baseline, args.steps, folder)
            rate, base_rate = events / seconds, base_events / base_seconds
            print(f"| {ruleset} | {args.games} | {events / args.games:.0f} | "
                  f"{args.games / seconds:.1f} | {rate:.0f} | {args.games / cpu:.1f} | "
                  f"{events / cpu:.0f} | {base_rate:.0f} | {rate / base_rate:.1f}x |",
                  flush=True)


if __name__ == "__main__":
    main()

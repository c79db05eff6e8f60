"""An accepted undo at 1k, 10k and 50k events, and the CLI's cold start.

    python -m bench.undo            # undo at 1k / 10k / 50k events, CLI start

Undo: a 40k game grown to N events by recorded steps (with the service's
snapshots), then `request_undo` of the last step and the `consent` that accepts
it; the consent is timed (it reads the past and records the restored state).
The goal is flat in N: the 50k figure within 1.5x of the 1k one.

CLI: `warledger --help` as a whole process (python start-up included), best and
median of several runs, next to a bare `python -c pass` of the same interpreter.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from uuid import UUID

from bench.run import SETUP, grow_game
from replay.service import GameService


def timed_undo(service: GameService, game_id: UUID) -> float:
    """Ask for the last step to be undone, and time the consent that accepts it."""
    state = service.load(game_id).state
    asker = state.live_steps[-1].by
    other = next(p for p in state.players if p != asker)
    asked = service.handle(game_id, {"do": "request_undo", "by": asker, "steps": 1})
    assert asked.accepted, asked
    start = time.perf_counter()
    answered = service.handle(game_id, {"do": "consent", "by": other, "accept": True})
    took = time.perf_counter() - start
    assert answered.accepted, answered
    return took


def bench_undo(folder: Path, sizes: list[int], repeat: int = 7) -> dict[int, list[float]]:
    service = GameService(str(folder / "undo.db"))
    game_id = service.start(SETUP)
    found: dict[int, list[float]] = {}
    for size in sizes:
        samples = []
        for i in range(repeat):
            grow_game(service, game_id, size + 10 * i)
            service._cache.clear()
            samples.append(timed_undo(service, game_id))
        found[size] = samples
    service.close()
    return found


def bench_cli(runs: int = 7) -> dict[str, list[float]]:
    """Whole-process start-up times (s)."""
    def run(*argv: str) -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, *argv], check=True, capture_output=True)
        return time.perf_counter() - start

    return {"python -c pass": [run("-c", "pass") for _ in range(runs)],
            "warledger --help": [run("-m", "warledger.cli", "--help") for _ in range(runs)]}


def main() -> None:
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}\n")
    with tempfile.TemporaryDirectory() as tmp:
        undo = bench_undo(Path(tmp), [1_000, 10_000, 50_000])
    print("| measure | median (ms) | min…max (ms) |\n|---|---|---|")
    for size, samples in undo.items():
        print(f"| accepted undo at {size:,} events | {statistics.median(samples) * 1e3:.2f} | "
              f"{min(samples) * 1e3:.2f}…{max(samples) * 1e3:.2f} |")
    for name, times in bench_cli().items():
        print(f"| `{name}`, whole process | {statistics.median(times) * 1e3:.0f} | "
              f"{min(times) * 1e3:.0f}…{max(times) * 1e3:.0f} |")


if __name__ == "__main__":
    main()

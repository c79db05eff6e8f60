"""The CLI's cold start as whole processes (issue 12 item 3).

    python -m bench.cli                 # builds a 100k-event game in a temp folder
    python -m bench.cli --db big.db     # keeps (or reuses) the database there

Times, as whole processes started from nothing (python start-up included):
`python -c pass` (the floor), `warledger --help`, and `warledger replay DB GAME
--at N --json` on a database of one 40k game grown to 100k events by
`bench.run.grow_game` (snapshots taken as usual), with the game named by its
full id, by a prefix and by `last`. Each is run several times, interleaved;
the median and the minimum are printed with the load average before and after.
Goals: `--help` <= 0.25 s, `replay --at` <= 0.5 s.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def warledger() -> list[str]:
    """The console script beside this interpreter (as users run it), else `-m`."""
    script = Path(sys.executable).with_name("warledger")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "warledger.cli"]


def build_database(db: Path, events: int) -> str:
    """A database holding one 40k game of `events` events; its id. Reused if present."""
    from bench.run import SETUP, grow_game
    from replay.service import GameService

    service = GameService(str(db))
    ids = service.game_ids() if db.stat().st_size else []
    if ids and service.load(ids[-1]).version >= events:
        service.close()
        return str(ids[-1])
    game_id = service.start(SETUP.model_copy(update={"ruleset": "w40k-10"}))
    grow_game(service, game_id, events)
    service.close()
    return str(game_id)


def timed(argv: list[str]) -> float:
    """Seconds one whole process takes (it must succeed)."""
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.perf_counter() - start


def bench(db: str, game: str, at: int, runs: int) -> dict[str, list[float]]:
    """Each measure's samples, interleaved run by run."""
    cli = warledger()
    measures = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "warledger --help": [*cli, "--help"],
        "replay DB ID --at N --json": [*cli, "replay", db, game, "--at", str(at), "--json"],
        "replay DB PREFIX --at N --json": [*cli, "replay", db, game[:8], "--at", str(at),
                                           "--json"],
        "replay DB last --at N --json": [*cli, "replay", db, "last", "--at", str(at), "--json"],
    }
    for argv in measures.values():  # once each first: the page cache warm, as users see it
        timed(argv)
    found: dict[str, list[float]] = {name: [] for name in measures}
    for _ in range(runs):
        for name, argv in measures.items():
            found[name].append(timed(argv))
    return found


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", help="keep the database here (reused when it holds the game)")
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-cli-"))
    try:
        db = Path(args.db) if args.db else folder / "big.db"
        db.touch()
        game = build_database(db, args.events)
        at = args.events // 2 + 1
        before = load()
        found = bench(str(db), game, at, args.runs)
        after = load()
    finally:
        shutil.rmtree(folder)
    print(f"{args.events:,}-event game, --at {at:,}; load average {before} before, "
          f"{after} after; {args.runs} runs each\n")
    print("| whole process | median (ms) | min (ms) |\n|---|---|---|")
    for name, samples in found.items():
        print(f"| `{name}` | {statistics.median(samples) * 1e3:.0f} | {min(samples) * 1e3:.0f} |")


if __name__ == "__main__":
    main()

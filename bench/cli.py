"""The CLI's cold start as whole processes (docs/performance.md, cold start).

    python -m bench.cli                 # builds a 100k-event game in a temp folder
    python -m bench.cli --db big.db     # keeps (or reuses) the database there
    python -m bench.cli --baseline DIR  # also times another checkout (e.g. `git archive`
                                        # of the commit before), interleaved in the same run
    python -m bench.cli --stats DB      # also `warledger stats DB --ruleset w40k-10 --json`
                                        # (DB: a store whose analytic views are built)

Times, as whole processes started from nothing (python start-up included):
`python -c pass` (the floor), `warledger --help`, and `warledger replay DB GAME
--at N --json` on a database of one 40k game grown to 100k events by
`bench.run.grow_game` (snapshots taken as usual), with the game named by its
full id, by a prefix and by `last`. Each is run several times, interleaved;
the median and the minimum are printed with the load average before and after.
Goals: `--help` <= 0.25 s, `replay --at` <= 0.5 s.

Byte code is cached as an installed copy has it (PYTHONDONTWRITEBYTECODE is
dropped for the processes timed, and one untimed run of each writes it).
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


def timed(argv: list[str], env: dict[str, str]) -> float:
    """Seconds one whole process takes (it must succeed), started outside any checkout
    (a current folder holding the code would come first on `sys.path`)."""
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                   cwd=tempfile.gettempdir())
    return time.perf_counter() - start


def measures(db: str, game: str, at: int, stats: str | None = None) -> dict[str, list[str]]:
    """What is timed: each a command line."""
    cli = warledger()
    found = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "warledger --help": [*cli, "--help"],
        "replay DB ID --at N --json": [*cli, "replay", db, game, "--at", str(at), "--json"],
        "replay DB PREFIX --at N --json": [*cli, "replay", db, game[:8], "--at", str(at),
                                           "--json"],
        "replay DB last --at N --json": [*cli, "replay", db, "last", "--at", str(at), "--json"],
    }
    if stats is not None:
        found["stats DB --ruleset w40k-10 --json"] = [*cli, "stats", stats, "--ruleset",
                                                      "w40k-10", "--json"]
    return found


def environments(baseline: str | None) -> dict[str, dict[str, str]]:
    """This checkout's environment, and the baseline's (its code first on the path)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    found = {"this": env}
    if baseline is not None:
        found["baseline"] = {**env, "PYTHONPATH": str(Path(baseline).resolve())}
    return found


def bench(commands: dict[str, list[str]], envs: dict[str, dict[str, str]],
          runs: int) -> dict[tuple[str, str], list[float]]:
    """Each (code, measure)'s samples, interleaved run by run."""
    for env in envs.values():  # once each first: byte code written, the page cache warm
        for argv in commands.values():
            timed(argv, env)
    found: dict[tuple[str, str], list[float]] = {}
    for _ in range(runs):
        for name, argv in commands.items():
            for code, env in envs.items():
                found.setdefault((code, name), []).append(timed(argv, env))
    return found


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", help="keep the database here (reused when it holds the game)")
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--baseline", help="a checkout of other code to time alongside")
    parser.add_argument("--stats", help="also time `stats` on this store (views built)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-cli-"))
    try:
        db = Path(args.db).resolve() if args.db else folder / "big.db"
        db.touch()
        game = build_database(db, args.events)
        at = args.events // 2 + 1
        envs = environments(args.baseline)
        before = load()
        found = bench(measures(str(db), game, at, args.stats and str(Path(args.stats).resolve())),
                      envs, args.runs)
        after = load()
    finally:
        shutil.rmtree(folder)
    print(f"{args.events:,}-event game, --at {at:,}; load average {before} before, "
          f"{after} after; {args.runs} runs each, interleaved\n")
    header = " | ".join(f"{code} median / min (ms)" for code in envs)
    print(f"| whole process | {header} |" + (" ratio of medians |" if len(envs) > 1 else ""))
    print("|---" * (len(envs) + 1 + (len(envs) > 1)) + "|")
    for name in dict.fromkeys(n for _, n in found):
        medians = [statistics.median(found[code, name]) for code in envs]
        cells = " | ".join(f"{m * 1e3:.0f} / {min(found[code, name]) * 1e3:.0f}"
                           for m, code in zip(medians, envs, strict=True))
        ratio = f" {medians[0] / medians[1]:.2f} |" if len(envs) > 1 else ""
        print(f"| `{name}` | {cells} |{ratio}")


if __name__ == "__main__":
    main()

"""Bytes per event, snapshots included, for a long game of each rule set.

    python -m bench.storage [--events 20000]

For each rule set, its largest example is played, then the game grows to
`--events` events by recorded steps (a `StepTaken` and a `PhaseStarted` each,
about the size of a plain turn command) with the service's snapshots. The
stored bytes are summed from the SQLite file's own tables: event bodies and
snapshot bodies. The state keeps the size the example left it at, so a rule set
whose state grows with play (40k's ledgers) stores larger snapshots late in a
real game than here; the last column gives the snapshot's raw JSON size for
comparison (what it was before compression).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import tempfile
import zlib
from pathlib import Path
from uuid import UUID

import yaml

from bench.commands import EXAMPLES
from bench.run import grow_game
from replay.service import GameService
from warledger.script import parse_script, run_script


def largest_examples() -> dict[str, Path]:
    """The largest example script of each rule set."""
    found: dict[str, Path] = {}
    for path in sorted(EXAMPLES.glob("*.yaml")):
        ruleset = str(yaml.safe_load(path.read_text())["ruleset"])
        if ruleset not in found or path.stat().st_size > found[ruleset].stat().st_size:
            found[ruleset] = path
    return found


def grown_game(db: Path, script_path: Path, events: int) -> None:
    service = GameService(str(db))
    result = run_script(service, parse_script(yaml.safe_load(script_path.read_text())))
    grow_game(service, UUID(result["game_id"]), events)
    service.close()


def measure(db: Path) -> tuple[int, int, int, int, int]:
    """Events, event bytes, snapshots, snapshot bytes, last snapshot's raw JSON bytes."""
    with sqlite3.connect(db) as con:
        count, event_bytes = con.execute(
            "select count(*), sum(length(state)) from stored_events").fetchone()
        snaps, snap_bytes = con.execute(
            "select count(*), coalesce(sum(length(state)), 0) from stored_snapshots").fetchone()
        last = con.execute("select topic, state from stored_snapshots "
                           "order by originator_version desc limit 1").fetchone()
    raw = len(zlib.decompress(last[1])) if last and last[0].endswith("+zlib") else (
        len(last[1]) if last else 0)
    return count, event_bytes, snaps, snap_bytes, raw


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=20_000)
    args = parser.parse_args()
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}\n")
    print("| rule set (example) | events | bytes/event, events only | snapshots | "
          "bytes/event, all | snapshot (stored / raw JSON) |\n|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for ruleset, path in largest_examples().items():
            db = Path(tmp) / f"{ruleset}.db"
            grown_game(db, path, args.events)
            count, event_bytes, snaps, snap_bytes, raw = measure(db)
            last = snap_bytes // max(1, snaps)
            print(f"| {ruleset} ({path.stem}) | {count:,} | {event_bytes / count:.0f} | {snaps} "
                  f"| {(event_bytes + snap_bytes) / count:.0f} | {last:,} / {raw:,} B |")


if __name__ == "__main__":
    main()

"""Every command type of every rule set against a bare save of its own events.

    python -m bench.commands [--rounds 30] [--dir /dev/shm]

Each example script (examples/*.yaml) is played `rounds` times. Right after each
accepted command, the very events it stored are saved again, bare, into a second
store: the same mapper and the same library write path the service uses
(`Application._record`, no decision, no hashing, no runtime-protocol dispatch).
The bare save reuses the facts' JSON the real path already made (`stored_fact`),
so it is not slowed by serialising them again. Real and bare alternate, command
by command, so the machine's load falls on both alike. Run once on disk (a
temporary folder) and once on tmpfs (`--dir /dev/shm`).

`--clock cpu` times with the process's CPU clock instead of the wall clock: on a
machine other programs load, waiting for a core is then left out of both timings
(and so is waiting for the disk, which a bare save on disk mostly is: use it on
tmpfs).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any
from uuid import uuid4

from eventsourcing.application import ProcessingEvent

from events.envelope import GameEvent
from replay.service import GameService
from warledger.script import Script, parse_script, split_step

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def example_scripts() -> Iterator[tuple[str, Script]]:
    """Every example, parsed (its file name, its script)."""
    import yaml

    for path in sorted(EXAMPLES.glob("*.yaml")):
        yield path.stem, parse_script(yaml.safe_load(path.read_text()))


class Recorded(GameService):
    """A service that keeps a copy of the events of its last save."""

    last: list[GameEvent]

    def _record(self, processing_event: ProcessingEvent[Any]) -> Any:
        self.last = list(processing_event.events)  # type: ignore[arg-type]
        return super()._record(processing_event)


#: The clock both timings read (`--clock`).
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
clock = CLOCKS["wall"]


def bare_save(app: GameService, events: list[GameEvent]) -> float:
    """Save `events` (under a new game id) the way the service does, timed."""
    new_id = uuid4()
    copies = [replace(e, originator_id=new_id) for e in events]
    processing: ProcessingEvent[Any] = ProcessingEvent()
    processing.events.extend(copies)
    start = clock()
    app._record(processing)
    return clock() - start


def measure(folder: Path, rounds: int) -> dict[tuple[str, str], tuple[list[float], list[float]]]:
    """For each (rule set, command): the real and bare timings, interleaved."""
    service = Recorded(str(folder / "real.db"))
    bare = GameService(str(folder / "bare.db"))
    found: dict[tuple[str, str], tuple[list[float], list[float]]] = {}
    try:
        scripts = list(example_scripts())
        for _ in range(rounds):
            for _name, script in scripts:
                setup = script.setup()
                game_id = service.start(setup)
                refused = False
                for step in script.steps:
                    data, dice, _problem = split_step(step)
                    if data is None:
                        continue
                    start = clock()
                    outcome = service.handle(game_id, data, dice)
                    took = clock() - start
                    after, refused = refused, not outcome.accepted
                    if refused:
                        continue
                    # A refusal drops the service's cached game (its working state may be
                    # half changed): the next command reads it back from the store.
                    kind = str(data["do"]) + (" (after a refusal)" if after else "")
                    real, base = found.setdefault((setup.ruleset, kind), ([], []))
                    real.append(took)
                    base.append(bare_save(bare, service.last))
    finally:
        service.close()
        bare.close()
    return found


def table(found: dict[tuple[str, str], tuple[list[float], list[float]]], where: str) -> str:
    load = os.getloadavg()
    lines = [f"{where}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", "",
             "| rule set | command | n | real p50 (ms) | bare p50 (ms) | ratio p50 | "
             "ratio p90 |", "|---|---|---|---|---|---|---|"]
    for (ruleset, command), (real, base) in sorted(found.items()):
        ratio = sorted(r / b for r, b in zip(real, base, strict=True))
        lines.append(
            f"| {ruleset} | `{command}` | {len(real)} | {statistics.median(real) * 1e3:.3f} "
            f"| {statistics.median(base) * 1e3:.3f} | "
            f"{statistics.median(real) / statistics.median(base):.2f}x | "
            f"{ratio[int(0.9 * (len(ratio) - 1))]:.2f}x |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--dir", default=None, help="where the stores go (e.g. /dev/shm)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="wall time (the goal's), or the process's CPU time")
    args = parser.parse_args()
    global clock
    clock = CLOCKS[args.clock]
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        found = measure(Path(tmp), args.rounds)
    print(table(found, f"stores in {args.dir or tempfile.gettempdir()}, {args.clock} clock"))


if __name__ == "__main__":
    main()

"""Mage Knight's own decisions, without the store: each accepted command of the
Mage Knight examples decided again and again on the state it met.

    python -m bench.mageknight [--repeat 200]

Each example is played once through a service; before every accepted command
the state it met is kept. Then each command is decided (`domain.gate.settle`:
the gates, the working copy, the rule set's handler) `repeat` times on that
state, with the same dice, and the median is taken. `next_phase` and `end_turn`
show the common floor (the copy and the gates); what a command costs above it
is Mage Knight's own geometry and rules. To time another tree with this file:

    cd OTHER_TREE && python /path/to/bench/mageknight.py
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __name__ == "__main__" and __package__ in (None, ""):
    sys.path.insert(0, os.getcwd())  # time the tree we are run from


def states_met(folder: Path) -> list[tuple[str, Any, Any, Any, list[int] | None]]:
    """(command, ruleset, state, parsed command, physical dice) before each
    accepted command of every Mage Knight example."""
    import yaml

    from replay.service import GameService
    from warledger.script import parse_script, split_step

    examples = Path(os.getcwd()) / "examples"
    service = GameService(str(folder / "mk.db"))
    met: list[tuple[str, Any, Any, Any, list[int] | None]] = []
    try:
        for path in sorted(examples.glob("mageknight*.yaml")):
            script = parse_script(yaml.safe_load(path.read_text()))
            game_id = service.start(script.setup())
            for step in script.steps:
                data, dice, _problem = split_step(step)
                if data is None:
                    continue
                game = service.decision_copy(game_id)
                state = game.state.working_copy()
                parsed = game.ruleset.parse_command(data)
                if service.handle(game_id, data, dice).accepted:
                    met.append((str(data["do"]), game.ruleset, state, parsed, dice))
    finally:
        service.close()
    return met


def time_decision(ruleset: Any, state: Any, command: Any, dice: list[int] | None,
                  repeat: int) -> float:
    """The median time of deciding `command` on `state` (seconds)."""
    from domain.dice import DiceSource
    from domain.gate import settle

    took: list[float] = []
    for _ in range(repeat):
        source = DiceSource(seed=state.seed if state.seed is not None else 0,
                            next_index=state.dice_index, physical=dice,
                            reusable=state.reusable_dice)
        start = time.perf_counter()
        settle(ruleset, state, command, source)
        took.append(time.perf_counter() - start)
    return statistics.median(took)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        met = states_met(Path(tmp))
    found: dict[str, list[float]] = {}
    for do, ruleset, state, command, dice in met:
        found.setdefault(do, []).append(time_decision(ruleset, state, command, dice,
                                                      args.repeat))
    load = os.getloadavg()
    print(f"tree {os.getcwd()}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}\n")
    print("| command | n | decide p50 (µs), median over the commands |")
    print("|---|---|---|")
    for do, times in sorted(found.items()):
        print(f"| `{do}` | {len(times)} | {statistics.median(times) * 1e6:.0f} |")


if __name__ == "__main__":
    main()

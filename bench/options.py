"""`options` for a seat against one `decide` of the same position, in the same run.

    python -m bench.options [--repeat 30]

Every example script (examples/*.yaml) is played; before each of its steps, the
options of the step's seat are asked (`domain.options.options`), and the step itself
is decided once (`domain.gate.settle`, its real dice), alternately, `repeat` times
each, so the machine's load falls on both alike. Per rule set: the median time of
each, and their ratio; options with a geometric value (a region computed) and those
without are told apart. The goal (docs/performance.md, "Options"): ≤ 2 ms for an
answer with no region, ≤ 20 ms with regions.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import time
from collections import defaultdict
from functools import partial
from typing import Any

from bench.commands import example_scripts
from domain.dice import DiceSource
from domain.errors import InputError, RuleViolation
from domain.gate import settle
from domain.options import options
from replay.service import GameService
from warledger.script import split_step


def positions(repeat: int) -> dict[str, list[tuple[float, float, bool]]]:
    """Per rule set: (options seconds, decide seconds, has regions) at each position."""
    found: dict[str, list[tuple[float, float, bool]]] = defaultdict(list)
    for _name, script in example_scripts():
        service = GameService(":memory:")
        game_id = service.start(script.setup())
        for step in script.steps:
            data, dice, _ = split_step(step)
            if data is None:
                continue
            game = service.working_copy(game_id)
            history = service.history(game_id, game.head_hash)
            seat = str(data.get("by", ""))
            answer = options(game.ruleset, game.state, seat, history)
            regions = any(o.geometric is not None and o.geometric.region is not None
                          for o in answer.options)
            ask, decide = timed(repeat, partial(options, game.ruleset, game.state, seat,
                                                history),
                                partial(decide_once, game, data, dice, history))
            found[game.ruleset.name].append((ask, decide, regions))
            service.handle(game_id, data, dice)
    return found


def decide_once(game: Any, data: dict[str, Any], dice: list[int] | None, history: Any) -> None:
    state = game.state
    source = DiceSource(state.seed or 0, state.dice_index, physical=dice,
                        reusable=state.reusable_dice)
    with contextlib.suppress(RuleViolation, InputError):  # a refusal is timed too
        settle(game.ruleset, state, game.ruleset.parse_command(data), source, history)


def timed(repeat: int, a: Any, b: Any) -> tuple[float, float]:
    """The medians of `a` and `b`, run alternately."""
    ta: list[float] = []
    tb: list[float] = []
    for _ in range(repeat):
        for run, into in ((a, ta), (b, tb)):
            start = time.perf_counter()
            run()
            into.append(time.perf_counter() - start)
    return statistics.median(ta), statistics.median(tb)


def table(found: dict[str, list[tuple[float, float, bool]]]) -> str:
    lines = ["| rule set | regions | positions | options (median ms) | options p90 ms "
             "| decide (median ms) | ratio |", "|---|---|---:|---:|---:|---:|---:|"]
    for name in sorted(found):
        for regions in (False, True):
            rows = [r for r in found[name] if r[2] == regions]
            if not rows:
                continue
            ask = [r[0] * 1000 for r in rows]
            dec = [r[1] * 1000 for r in rows]
            p90 = sorted(ask)[int(0.9 * (len(ask) - 1))]
            lines.append(f"| {name} | {'yes' if regions else 'no'} | {len(rows)} | "
                         f"{statistics.median(ask):.2f} | {p90:.2f} | "
                         f"{statistics.median(dec):.3f} | "
                         f"{statistics.median(ask) / statistics.median(dec):.1f}x |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    print(table(positions(args.repeat)))


if __name__ == "__main__":
    main()

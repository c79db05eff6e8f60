"""Geometry micro-benchmarks: the checks that used to dominate a command.

    python -m bench.geometry            # prints a Markdown table
    python -m bench.geometry --before DIR [--no-exact]   # also an older tree, interleaved

* Cautious Movement check (CAU-10 … CAU-13): LoF and ZoC of 30 enemies at both ends
  of a movement, among 200 blocking pieces; then ARO eligibility (LoF to the whole
  path). "cold" builds every observer's hidden region (first question after the
  enemies moved); "warm" is every later one (the enemies stand still during an
  order). The baseline is the exact path alone (`exact_has_lof`), in the same run.
* Ambush placement check (AMB-13 … AMB-16): 30 units and 200 Impassable pieces.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, NamedTuple
from uuid import uuid4

from domain import shadows
from domain.game import Game
from domain.geometry import Obstacles, polygon_from_points
from domain.infinity import aro, cautious, sight
from domain.infinity.aro import aro_eligible
from domain.infinity.cautious import aro_verdict
from domain.infinity.state import InfinityState
from domain.ruleset import Setup
from domain.t9a.arrival import PLACEMENT_CHECKS, Arrival, arrival_breaches
from domain.t9a.units import T9AState

BOARD = 48.0


def _pieces(rng: random.Random, count: int, kind: str, width: float, height: float,
            keep_clear: list[tuple[float, float, float]]) -> list[dict[str, Any]]:
    """`count` small rectangles that keep `clearance` from the given circles."""
    pieces: list[dict[str, Any]] = []
    while len(pieces) < count:
        x, y = rng.uniform(1, width - 3), rng.uniform(1, height - 3)
        w, h = rng.uniform(0.3, 2.0), rng.uniform(0.3, 2.0)
        if any(x - r <= cx <= x + w + r and y - r <= cy <= y + h + r
               for cx, cy, r in keep_clear):
            continue
        pieces.append({"id": f"{kind}-{len(pieces)}", "kind": kind,
                       "polygon": [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]})
    return pieces


def infinity_scene(enemies: int = 30, terrain: int = 200, seed: int = 7) -> InfinityState:
    """An N4 table: a red mover at (24, 4) and `enemies` blue troopers, among blocking
    pieces."""
    rng = random.Random(seed)
    spots = [(24.0, 4.0)] + [(rng.uniform(2, 46), rng.uniform(14, 46)) for _ in range(enemies)]
    units: list[dict[str, Any]] = [{"id": "mover", "owner": "red", "x": 24.0, "y": 4.0,
                                    "facing": 90.0, "mov": [4, 4], "base": 1, "type": "LI"}]
    units += [{"id": f"e{i}", "owner": "blue", "x": x, "y": y,
               "facing": rng.choice([0.0, 90.0, 180.0, 270.0, 225.0]),
               "mov": [4, 4], "base": 1, "type": "LI",
               **({"marker": "camouflage"} if i % 7 == 0 else {})}
              for i, (x, y) in enumerate(spots[1:])]
    clear = [(x, y, 1.5) for x, y in spots] + [(24.0, 6.0, 3.0)]
    setup = Setup(ruleset="infinity-n4", board={"width": BOARD, "height": BOARD},
                  terrain=tuple(_pieces(rng, terrain, "blocking", BOARD, BOARD, clear)),
                  players=("red", "blue"), units=tuple(units))
    state = Game.start(uuid4(), setup, datetime.now(UTC)).state
    assert isinstance(state, InfinityState)
    return state


def t9a_scene(units: int = 30, terrain: int = 200, seed: int = 7) -> tuple[T9AState, Arrival]:
    """A T9A table: `units` other units and Impassable pieces, and an arrival that
    passes every placement check."""
    rng = random.Random(seed)
    spots = [(6.0 + (i % 10) * 6.5, 14.0 + (i // 10) * 10.0) for i in range(units)]
    fielded: list[dict[str, Any]] = [
        {"id": f"u{i}", "owner": ("red", "blue")[i % 2], "x": x, "y": y, "facing": 90.0,
         "files": 2, "ranks": 1} for i, (x, y) in enumerate(spots)]
    fielded.append({"id": "scouts", "owner": "red", "status": "reserve", "files": 4,
                    "ranks": 2, "base": [1, 1], "rules": {"ambush": "Board Edge"}})
    clear = [(x, y, 3.0) for x, y in spots] + [(36.0, 2.5, 6.0)]
    setup = Setup(ruleset="t9a", board={"width": 72, "height": 48},
                  terrain=tuple(_pieces(rng, terrain, "impassable", 72, 48, clear)),
                  players=("red", "blue"), units=tuple(fielded))
    state = Game.start(uuid4(), setup, datetime.now(UTC)).state
    assert isinstance(state, T9AState)
    unit = state.t9a_unit("scouts")
    return state, Arrival(unit, (36.0, 0.0), 36.0, 2.5, 90.0, None, None)


class Timing(NamedTuple):
    """Median wall time, its spread (p10…p90 width) and median CPU time of the
    process's thread (`time.thread_time`: not counting time slices lost to other
    processes, which a loaded machine's wall times are full of), in ms."""

    median: float
    spread: float
    cpu: float

    def show(self, digits: int = 3) -> str:
        return (f"{self.median:.{digits}f} ms ±{self.spread:.{digits}f} "
                f"(CPU {self.cpu:.{digits}f})")


def timing(samples: list[tuple[float, float]]) -> Timing:
    """The `Timing` of (wall, CPU) samples in ms."""
    walls = sorted(wall for wall, _ in samples)
    return Timing(statistics.median(walls), walls[int(0.9 * len(walls))]
                  - walls[int(0.1 * len(walls))], statistics.median(cpu for _, cpu in samples))


def median_ms(func: Callable[[], Any], repeat: int) -> Timing:
    """The `Timing` of `repeat` calls."""
    samples = []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.thread_time()
        func()
        samples.append(((time.perf_counter() - start) * 1e3, (time.thread_time() - cpu) * 1e3))
    return timing(samples)


#: The modules that ask for blocking terrain by name.
USERS = (cautious, aro)


def exact_only(func: Callable[[], Any], state: InfinityState) -> Callable[[], Any]:
    """`func` with Line of Fire decided by the exact geometry alone (the old path):
    blocking terrain as a plain `Obstacles` index, without hidden regions."""
    plain = Obstacles((piece.id, polygon_from_points(piece.polygon))
                      for piece in state.terrain if piece.kind == "blocking")

    def run() -> Any:
        saved = [getattr(module, "blocking_terrain") for module in USERS]  # noqa: B009
        for module in USERS:
            setattr(module, "blocking_terrain", lambda _: plain)  # noqa: B010
        try:
            return func()
        finally:
            for module, fast in zip(USERS, saved, strict=True):
                setattr(module, "blocking_terrain", fast)  # noqa: B010
    return run


def cautious_rows(repeat: int, exact: bool = True) -> list[tuple[str, str]]:
    """The Cautious Movement check and ARO eligibility rows; `exact`: also time the exact
    path alone (the old baseline, seconds per sample under load)."""
    state = infinity_scene()
    mover = state.trooper("mover")
    path = [(24.0, 4.0), (24.0, 7.5)]
    hidden = sight.blocking_terrain(state)
    ends = iter([(24.0 + 0.003 * i, 7.5 - 0.002 * i) for i in range(1, 4 * repeat)])

    def forget(merged: bool = False) -> None:
        hidden._hidden.clear()
        for kept in ("_verdicts", "_lookouts"):  # (also runs on older trees, for "before")
            getattr(hidden, kept, {}).clear()
        if merged:
            check()
            for region in hidden._hidden.values():
                if region is not None and hasattr(region, "merged"):
                    region.merged()

    def cold_check() -> Any:
        forget()
        return aro_verdict(state, mover, path)

    def check() -> Any:
        return aro_verdict(state, mover, path)

    def new_end() -> Any:
        return aro_verdict(state, mover, [path[0], next(ends)])

    def eligibility() -> Any:
        return aro_eligible(state, mover, path)

    assert check() == exact_only(check, state)()
    assert eligibility() == exact_only(eligibility, state)()
    rows = []
    if exact:
        old = median_ms(exact_only(check, state), max(3, repeat // 20))
        rows.append(("Cautious Movement check, 30 enemies + 200 pieces, exact path (before)",
                     old.show(2)))
    cold = median_ms(cold_check, max(3, repeat // 20))
    forget()
    warm = median_ms(check, repeat)
    forget()
    check()
    saved, shadows.UNION_AFTER = getattr(shadows, "UNION_AFTER", 0), 10**9
    try:
        fresh = median_ms(new_end, repeat // 4)
    finally:
        shadows.UNION_AFTER = saved
    forget(merged=True)
    merged = median_ms(new_end, repeat)
    rows.append(("… hidden regions built (cold: first check after the enemies moved)",
                 cold.show(2)))
    rows.append(("… warm, the same movement asked again (target ≤ 0.3 ms)",
                 warm.show()))
    rows.append(("… warm, a new end point each time, shadows one by one",
                 fresh.show()))
    rows.append(("… warm, a new end point each time, shadows merged",
                 merged.show()))
    forget()
    if exact:
        old_e = median_ms(exact_only(eligibility, state), max(3, repeat // 20))
        rows.append(("ARO eligibility of the same movement, exact path (before)",
                     old_e.show(2)))
    first_e = median_ms(
        lambda: ([getattr(hidden, kept, {}).clear() for kept in ("_verdicts", "_lookouts")],
                 eligibility()), repeat // 4)
    warm_e = median_ms(eligibility, repeat)
    rows.append(("… warm, verdicts not yet known", first_e.show()))
    rows.append(("… warm, asked again", warm_e.show()))
    return rows


def decision_rows(repeat: int) -> list[tuple[str, str]]:
    """A whole `cautious_move` decision of examples/infinity-cautious-aro.yaml (CAU-13,
    an ARO window for its observers), on a copy of the state after its first step; the
    first one after the game is loaded ("cold") and later ones."""
    from pathlib import Path

    from domain.dice import DiceSource
    from domain.gate import decide
    from warledger.script import load_script

    script = load_script(Path(__file__).resolve().parent.parent / "examples"
                         / "infinity-cautious-aro.yaml")
    game = Game.start(uuid4(), script.setup(), datetime.now(UTC))
    steps = [dict(step) for step in script.steps[:2]]
    first = game.ruleset.parse_command(steps[0])
    try:
        from domain.gate import settle
    except ImportError:  # an older tree (`--before`): decide applied the facts itself
        game.record(decide(game.ruleset, game.state, first, DiceSource(script.seed, 0)),
                    datetime.now(UTC), step=game.state.step)
    else:
        game.state = settle(game.ruleset, game.state, first, DiceSource(script.seed, 0)).state
    command = game.ruleset.parse_command(steps[1])

    def one(forget: bool) -> Callable[[], Any]:
        def run() -> Any:
            if forget:
                assert isinstance(game.state, InfinityState)
                terrain = sight.blocking_terrain(game.state)
                terrain._hidden.clear()
                for kept in ("_verdicts", "_lookouts"):
                    getattr(terrain, kept, {}).clear()
            state = game.state.model_copy(deep=True)
            start, cpu = time.perf_counter(), time.thread_time()
            decide(game.ruleset, state, command, DiceSource(script.seed, state.dice_index))
            return (time.perf_counter() - start) * 1e3, (time.thread_time() - cpu) * 1e3
        return run

    cold = timing([one(True)() for _ in range(repeat)])
    warm = timing([one(False)() for _ in range(repeat)])
    return [("`cautious_move` decision, the example's observers, cold (target ≤ 2 ms)",
             cold.show()),
            ("… asked again (a retry, the viewer's overlay)", warm.show())]


def ambush_rows(repeat: int) -> list[tuple[str, str]]:
    state, arrival = t9a_scene()
    unit = state.t9a_unit("scouts")

    def check() -> Any:
        fresh = Arrival(unit, arrival.point, arrival.rect.x, arrival.rect.y,
                        arrival.rect.facing, None, None)
        return arrival_breaches(state, unit, fresh, PLACEMENT_CHECKS)

    assert check() == [], check()
    return [("Ambush placement check, 30 units + 200 pieces (target ≤ 0.2 ms)",
             median_ms(check, repeat).show())]


def main() -> None:
    """Print the table; `--before DIR` also runs it on the tree in DIR (an older commit,
    e.g. from `git worktree add` or `git archive`), interleaved, in the same run."""
    import os
    import subprocess
    import sys

    exact = "--no-exact" not in sys.argv  # leave out the exact path's (slow) rows
    args = [arg for arg in sys.argv[1:] if arg != "--no-exact"]
    if len(args) > 1 and args[0] == "--before":
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        for label, tree in (("before", args[1]), ("after", here), ("before", args[1]),
                            ("after", here)):
            print(f"\n#### {label} ({tree})", flush=True)
            subprocess.run([sys.executable, os.path.abspath(__file__),
                            *([] if exact else ["--no-exact"])], cwd=tree, check=True,
                           env={**os.environ, "PYTHONPATH": tree})
        return
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}\n")
    print("| measure | median ± p10…p90 width (median CPU) |\n|---|---|")
    for name, value in [*cautious_rows(400, exact), *decision_rows(200), *ambush_rows(400)]:
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    main()

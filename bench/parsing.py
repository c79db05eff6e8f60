"""Reading a script: libyaml's C parser against PyYAML's pure-Python one.

    python -m bench.parsing [--steps N]

Both parse the same generated script (N steps, default 5,000, about 0.3 MB)
under warledger's YAML 1.2 constructor and checks; the table gives seconds per
MB and the ratio to the pure-Python baseline of the same run.
"""

from __future__ import annotations

import argparse
import time

from domain import datafile


def script_text(steps: int) -> str:
    """A T9A-like script of `steps` flow-mapping steps."""
    return "ruleset: t9a\nboard: {width: 72, height: 48}\nplayers: [red, blue]\nsteps:\n" + "".join(
        f"  - {{by: red, do: move, unit: u{i % 40}, x: {i % 70}.5, y: 3, note: 'step {i}'}}\n"
        for i in range(steps))


def best_of(runs: int, text: str, loader: type | None) -> float:
    """The fastest of `runs` parses, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        datafile.parse_yaml(text, loader)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=5_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    text = script_text(args.steps)
    megabytes = len(text.encode()) / 1e6
    baseline = best_of(args.runs, text, datafile.PurePythonYaml12Loader)
    default = best_of(args.runs, text, None)
    print(f"| parser ({args.steps:,} steps, {megabytes:.2f} MB) | s/MB | ratio |")
    print("|---|---|---|")
    print(f"| pure Python (baseline) | {baseline / megabytes:.2f} | 1.00 |")
    print(f"| default ({datafile._Yaml12Loader.__mro__[2].__name__}) | "
          f"{default / megabytes:.2f} | {default / baseline:.2f} |")


if __name__ == "__main__":
    main()

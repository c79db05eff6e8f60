"""`warledger simulate RULESET --games N --seed S --db DB`: play simulated games
(`warledger.simulate`, docs/simulate.md)."""

from __future__ import annotations

import argparse
import sys
import time


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the `simulate` subcommand."""
    parser = sub.add_parser(
        "simulate", help="play complete, legal simulated games (seeded, reproducible)")
    parser.add_argument("ruleset", help="the rule set's name (an unknown name lists every one)")
    parser.add_argument("--games", type=int, default=1, help="how many games (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="the simulation's seed (default 0)")
    parser.add_argument("--db", required=True, help="SQLite path or postgresql:// URL")
    parser.add_argument("--steps", type=int, default=None,
                        help="a game's length in accepted steps (default: to the last round); "
                        "about 400 makes games of about 1,000 events")
    parser.add_argument("--progress", action="store_true",
                        help="show a progress bar on stderr (default: when stderr is a terminal)")
    parser.add_argument("--json", action="store_true",
                        help="print the game ids and figures as JSON")
    parser.set_defaults(handler=cmd_simulate)


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play the games; print how many, how many events, and how fast."""
    import orjson

    from domain.errors import ScriptError
    from warledger.simulate import simulate_games

    if args.games < 1:
        raise ScriptError(f"--games must be at least 1, not {args.games}")
    if args.steps is not None and args.steps < 1:
        raise ScriptError(f"--steps must be at least 1, not {args.steps}")
    if not -(2**63) <= args.seed < 2**63:
        raise ScriptError("--seed must fit in 64 bits")
    started = time.perf_counter()
    run = simulate_games(args.ruleset, args.games, args.seed, args.db,
                         progress=args.progress or sys.stderr.isatty(), steps=args.steps)
    seconds = max(time.perf_counter() - started, 1e-9)
    ids, events = run.game_ids, run.events
    figures = {"ruleset": args.ruleset, "games": len(ids), "events": events,
               "seconds": round(seconds, 3), "games_per_s": round(len(ids) / seconds, 2),
               "events_per_s": round(events / seconds, 1)}
    if args.json:
        print(orjson.dumps({**figures, "game_ids": [str(i) for i in ids]}).decode())
    else:
        print(f"simulated {len(ids)} {args.ruleset} game(s), {events} events, in "
              f"{seconds:.2f} s ({figures['games_per_s']} games/s, "
              f"{figures['events_per_s']:.0f} events/s)")
    return 0

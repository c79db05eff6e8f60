"""Benchmark: the throughput cost of a PostgreSQL notification log in commit order.

    .venv/bin/python -m bench.pg_order --postgres URL            # 8 writers, 3 rounds
    .venv/bin/python -m bench.pg_order --postgres URL --writers 8 --batches 300 --rounds 5

Eight writer processes each save `--batches` commands of three events (one
transaction each, as a roll is saved), while one reader tails the notification
log from where it stands (asking again every `POLL` s when it found nothing).
Three configurations of the same recorder, each on its own table, run one after
another in every round (the order turns each round):

- `unordered`: the library's insert function with no lock (the configuration
  before `replay.postgres`); the baseline of every ratio. Its reader may miss events.
- `commit order`: warledger's configuration (`replay.postgres`): the insert
  function takes its transaction id first and draws its ids under a short lock;
  the reader holds back to the safe point.
- `table lock`: the library's SQL insert (`POSTGRES_ENABLE_DB_FUNCTIONS` off),
  which locks the table until commit: writers wait on each other.

Printed per configuration: events per second written (median of the rounds, and
its ratio to `unordered` in the same round, with the middle half of the rounds'
ratios: the machine's speed drifts between rounds), the reader's median time per page,
and the events the reader missed (summed over the rounds). A ratio below 1 is a
cost. Results depend on the server's commit cost: say whether it runs with
`fsync` (`SHOW fsync` is printed). Use a throwaway server: the library's insert
function is one per schema, and `unordered` re-creates it for its own table.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import threading
import time
from typing import Any
from uuid import uuid4

CONFIGS = ("unordered", "commit order", "table lock")
#: How often the tailing reader asks again when it found nothing (a server's poll).
POLL = 0.01
#: A stored body the size of a roll's events (bytes).
BODY = b"{" + b'"x": "' + b"r" * 300 + b'"}'


def env_of(config: str, url: str) -> dict[str, str]:
    from replay.storage import COMMIT_ORDER, postgres_env

    env = postgres_env(url)
    if config != "commit order":
        for key in COMMIT_ORDER:
            env.pop(key, None)
    if config == "table lock":
        env.pop("POSTGRES_ENABLE_DB_FUNCTIONS", None)
    env["POSTGRES_POOL_SIZE"], env["POSTGRES_MAX_OVERFLOW"] = "1", "2"
    return env


def table_of(config: str) -> str:
    return "bench_" + config.replace(" ", "_")


def recorder_of(config: str, url: str, create: bool = True) -> Any:
    """The configuration's recorder; `create`: set up its table and function."""
    from eventsourcing.persistence import InfrastructureFactory
    from eventsourcing.utils import Environment

    env = {**env_of(config, url), "CREATE_TABLE": "y" if create else "n"}
    factory = InfrastructureFactory.construct(Environment(table_of(config), env))
    return factory.application_recorder()


def write(config: str, url: str, batches: int, start: Any, done: Any) -> None:
    """One writer process: `batches` saves of three events of its own game."""
    from eventsourcing.persistence import StoredEvent

    recorder = recorder_of(config, url, create=False)  # the reader set it up
    game = uuid4()
    start.wait()
    for batch in range(batches):
        recorder.insert_events([StoredEvent(game, 3 * batch + i + 1, "bench", BODY)
                                for i in range(3)])
    done.put(True)


def drop(url: str, config: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"drop table if exists {table_of(config)}_events")


def run_once(config: str, url: str, writers: int, batches: int) -> dict[str, float]:
    """One configuration once: events/s written, reader's s per page, events missed."""
    drop(url, config)
    reader = recorder_of(config, url)  # creates the table and function
    context = multiprocessing.get_context("spawn")
    start, done = context.Event(), context.Queue()
    procs = [context.Process(target=write, args=(config, url, batches, start, done))
             for _ in range(writers)]
    for proc in procs:
        proc.start()
    time.sleep(2.0)  # every writer connected and waiting (spawned interpreters)
    seen: list[int] = []
    pages: list[float] = []
    writing = threading.Event()
    writing.set()

    def tail() -> None:
        position = 0
        while True:
            last_round = not writing.is_set()
            began = time.perf_counter()
            page = reader.select_notifications(position, 500, inclusive_of_start=False)
            pages.append(time.perf_counter() - began)
            seen.extend(n.id for n in page)
            position = page[-1].id if page else position
            if last_round and not page:
                return
            if not page:
                time.sleep(POLL)

    tailer = threading.Thread(target=tail)
    tailer.start()
    began = time.perf_counter()
    start.set()
    for _ in procs:
        done.get(timeout=600)
    took = time.perf_counter() - began
    writing.clear()
    tailer.join()
    for proc in procs:
        proc.join()
    total = writers * batches * 3
    committed = [n.id for n in reader.select_notifications(0, total + 10)]
    reader.datastore.close()
    drop(url, config)
    return {"rate": total / took, "page": statistics.median(pages),
            "missed": float(len(set(committed) - set(seen)))}


def server_settings(url: str) -> str:
    import psycopg

    with psycopg.connect(url) as conn:
        fsync = conn.execute("show fsync").fetchone()
        sync = conn.execute("show synchronous_commit").fetchone()
    return f"fsync={fsync[0] if fsync else '?'}, synchronous_commit={sync[0] if sync else '?'}"


def spread(values: list[float]) -> str:
    """The middle half of the rounds' values (all of them, under 4 rounds)."""
    if len(values) < 4:
        return f"{min(values):.2f}–{max(values):.2f}"
    quartiles = statistics.quantiles(values, n=4)
    return f"{quartiles[0]:.2f}–{quartiles[2]:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", required=True, help="postgresql:// URL of a test server")
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--batches", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    results: dict[str, list[dict[str, float]]] = {c: [] for c in CONFIGS}
    for round_no in range(args.rounds):
        order = CONFIGS[round_no % 3:] + CONFIGS[:round_no % 3]
        for config in order:
            results[config].append(run_once(config, args.postgres, args.writers, args.batches))
    print(f"{args.writers} writers × {args.batches} saves of 3 events, {args.rounds} rounds; "
          f"server {server_settings(args.postgres)}")
    print("| configuration | events/s written | ratio to unordered (same round) | "
          "reader, ms per page | events the reader missed |")
    print("|---|---|---|---|---|")
    for config in CONFIGS:
        runs = results[config]
        ratios = [r["rate"] / b["rate"] for r, b in zip(runs, results["unordered"], strict=True)]
        print(f"| {config} | {statistics.median(r['rate'] for r in runs):,.0f} | "
              f"{statistics.median(ratios):.2f} ({spread(ratios)}) | "
              f"{1000 * statistics.median(r['page'] for r in runs):.2f} | "
              f"{sum(r['missed'] for r in runs):.0f} of "
              f"{args.rounds * args.writers * args.batches * 3:,} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

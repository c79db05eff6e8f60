"""Benchmark of the views: rebuild, catch-up, stats.

    .venv/bin/python -m bench.views                     # 1,000 games, ≈1M events
    .venv/bin/python -m bench.views --games 200         # smaller
    .venv/bin/python -m bench.views --postgres URL --pg-games 100

Data: a few long Warhammer 40,000 games (20 units, five battle rounds of
moves, shooting and Grenade stratagems, ≈940 events each, snapshots every
200 events) are played for real, then copied under new game ids until there
are `--games` games, stored either one game after another (`sequential`) or
with every game's events interleaved, as if all were played at the same time.
Copies keep their snapshots; their hash chains are not re-computed (nothing
here verifies them).

Measured, in the same run: the rebuild from scratch (wall time and peak RSS,
each in its own process), the same log with games half as long (memory must
not grow with game length), the previous rebuild (`game_at` for every game a
batch touches) and the library's way of decoding every event (its mapper, as
a `ProjectionRunner` subscription does) on a prefix, extrapolated; the
incremental catch-up after one accepted step (warm, in process, and the whole
`warledger views` process); `stats` over all games (in process, and as a
process).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

from domain.ruleset import Setup

TEMPLATES = 6


def w40k_setup(seed: int) -> Setup:
    units = [{"id": f"{p[0]}{i}", "owner": p, "x": 4.0 + i * 4, "y": 18.0 if p == "red" else 26.0,
              "models": 5, "keywords": ["infantry", "grenades", "smoke"]}
             for p in ("red", "blue") for i in range(10)]
    return Setup(ruleset="w40k-10", board={"width": 48, "height": 48}, players=("red", "blue"),
                 units=tuple(units), seed=seed, options={"cp": 3})


def play_template(service: Any, seed: int) -> UUID:
    """One long, legal 40k game: every unit moves and shoots each turn, a Grenade
    stratagem now and then; any reaction window is passed."""
    game_id: UUID = service.start(w40k_setup(seed))

    def do(command: dict[str, Any]) -> None:
        service.handle(game_id, command)
        state = service.load(game_id).state
        while state.reaction_window is not None:
            window = state.reaction_window
            who = window.eligible[0] if window.eligible else state.active_player
            if not service.handle(game_id, {"do": "pass_stratagem", "by": who}).accepted:
                break
            state = service.load(game_id).state

    for round_ in range(5):
        for player in ("red", "blue"):
            state = service.load(game_id).state
            if state.finished:
                return game_id
            enemy = "blue" if player == "red" else "red"
            do({"do": "next_phase", "by": player})
            for i in range(10):
                unit = state.units[f"{player[0]}{i}"]
                step = 1.0 if (round_ % 2 == 0) == (player == "red") else -1.0
                do({"do": "move", "by": player, "unit": unit.id, "x": unit.x,
                    "y": (unit.y or 0) + step})
            do({"do": "next_phase", "by": player})
            do({"do": "use_stratagem", "by": player, "stratagem": "grenade",
                "targets": [f"{player[0]}{round_}"], "enemy": f"{enemy[0]}{round_}"})
            for i in range(10):
                do({"do": "shoot", "by": player, "unit": f"{player[0]}{i}",
                    "target": f"{enemy[0]}{i}"})
            do({"do": "next_phase", "by": player})
            do({"do": "next_phase", "by": player})
            do({"do": "end_turn", "by": player})
    return game_id


def templates(folder: Path) -> Path:
    """Play the template games into an SQLite store (once per folder)."""
    from replay.service import GameService

    path = folder / "templates.db"
    if not path.exists():
        service = GameService(str(path))
        for seed in range(TEMPLATES):
            play_template(service, seed)
        service.close()
    return path


def build_store(template_db: Path, db: Path, games: int, layout: str,
                cut: int | None = None) -> int:
    """Copy the template games into `db` until it holds `games` games."""
    source = sqlite3.connect(template_db)
    ids = [r[0] for r in source.execute(
        "select originator_id from stored_events where originator_version = 1 order by rowid")]
    logs = {i: source.execute("select originator_version, topic, state from stored_events where "
                              "originator_id = ? order by originator_version", (i,)).fetchall()
            for i in ids}
    snaps = {i: source.execute("select originator_version, topic, state from stored_snapshots "
                               "where originator_id = ?", (i,)).fetchall() for i in ids}
    if cut is not None:
        logs = {i: rows[:cut] for i, rows in logs.items()}
        snaps = {i: [s for s in rows if s[0] <= cut] for i, rows in snaps.items()}
    db.unlink(missing_ok=True)
    from replay.service import GameService

    GameService(str(db)).close()  # the library's schema
    target = sqlite3.connect(db)
    copies = [(uuid4().hex, ids[k % len(ids)]) for k in range(games)]
    events = 0
    with target:
        if layout == "sequential":
            for new, old in copies:
                target.executemany("insert into stored_events values (?, ?, ?, ?)",
                                   [(new, *row) for row in logs[old]])
                events += len(logs[old])
        else:
            longest = max(len(rows) for rows in logs.values())
            for position in range(longest):
                batch = [(new, *logs[old][position]) for new, old in copies
                         if position < len(logs[old])]
                target.executemany("insert into stored_events values (?, ?, ?, ?)", batch)
                events += len(batch)
        for new, old in copies:
            target.executemany("insert into stored_snapshots values (?, ?, ?, ?)",
                               [(new, *row) for row in snaps[old]])
    target.close()
    return events


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(mode: str, db: str, budget: float) -> dict[str, Any]:
    """One measurement in this (fresh) process."""
    from domain.ruleset import load_rulesets
    from replay.service import GameService
    from replay.views import Views

    load_rulesets()  # imports are not what is measured
    service = GameService(db)
    views_file = f"{db}.{mode}.views"
    Path(views_file).unlink(missing_ok=True)
    base_rss = peak_rss_mb()
    start = time.perf_counter()
    if mode == "rebuild":
        views = Views(service, views_file)
        events = views.run()
        views.close()
    elif mode == "previous":
        events = previous_rebuild(service, views_file, budget)
    elif mode == "library-decode":
        events = library_decode(service, budget)
    else:
        raise SystemExit(f"unknown mode {mode}")
    seconds = time.perf_counter() - start
    helper = resource.getrusage(resource.RUSAGE_CHILDREN)  # the state views' helper, if any
    return {"events": events, "seconds": seconds, "events_per_s": events / seconds,
            "cpu_s": time.process_time(), "helper_cpu_s": helper.ru_utime + helper.ru_stime,
            "peak_rss_mb": peak_rss_mb(), "helper_peak_rss_mb": helper.ru_maxrss / 1024,
            "rss_before_mb": base_rss, "load_average": os.getloadavg()}


def previous_rebuild(service: Any, path: str, budget: float) -> int:
    """The rebuild before this change: `game_at` for every game each batch of 500
    touches, stopped after `budget` seconds (the caller extrapolates)."""
    from projections.state_view import canonical_json, state_view

    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("create table if not exists state_views (game_id text primary key, "
                 "version integer, state text)")
    start, processed, began = 0, 0, time.perf_counter()
    while time.perf_counter() - began < budget:
        batch = service.recorder.select_notifications(start, 500, inclusive_of_start=False)
        if not batch:
            break
        latest: dict[UUID, int] = {}
        for n in batch:
            latest[UUID(str(n.originator_id))] = n.originator_version
        rows = [(str(g), v, canonical_json(state_view(service.game_at(g, version=v).state))
                 .decode()) for g, v in latest.items()]
        conn.execute("begin")
        conn.executemany("insert or replace into state_views values (?, ?, ?)", rows)
        conn.execute("commit")
        start = batch[-1].id
        processed += len(batch)
    return processed


def library_decode(service: Any, budget: float) -> int:
    """What a `ProjectionRunner` subscription does per event: the library's mapper
    decodes (and pydantic validates) each one; no rows are even written."""
    start, processed, began = 0, 0, time.perf_counter()
    while time.perf_counter() - began < budget:
        batch = service.recorder.select_notifications(start, 500, inclusive_of_start=False)
        if not batch:
            break
        for n in batch:
            service.mapper.to_domain_event(n)
        start = batch[-1].id
        processed += len(batch)
    return processed


def in_child(mode: str, db: Path, budget: float = 0.0) -> dict[str, Any]:
    out = subprocess.run([sys.executable, "-m", "bench.views", "--child", mode, str(db),
                          "--budget", str(budget)], capture_output=True, text=True, check=True)
    return dict(json.loads(out.stdout.splitlines()[-1]))


def catch_up(db: Path) -> dict[str, float]:
    """One accepted step (a judge's ruling: two events), then the views catch up."""
    from replay.service import GameService
    from replay.stats import Filters, Source, figure
    from replay.views import Views

    service = GameService(str(db))
    Path(f"{db}.warm.views").unlink(missing_ok=True)
    views = Views(service, f"{db}.warm.views")
    views.run()
    ids = [UUID(r[0]) for r in sqlite3.connect(db).execute(
        "select originator_id from stored_events where originator_version = 1 limit 20")]
    warm = []
    for k in range(40):
        game_id = ids[k % len(ids)]
        outcome = service.handle(game_id, {"do": "ruling", "by": "judge", "clause": "CORE-DICE",
                                           "text": f"ruling {k}"})
        assert outcome.accepted, outcome
        began = time.perf_counter()
        assert views.run() == 2
        warm.append(time.perf_counter() - began)
    views.close()
    source = Source(sqlite3.connect(f"{db}.warm.views"))
    stats = []
    names = ("results", "stratagems", "cp", "ambush", "aro", "rules", "mageknight", "dice")
    for _ in range(5):
        began = time.perf_counter()
        for name in names:
            figure(source, name, Filters())
        stats.append(time.perf_counter() - began)
    game_id = ids[0]
    service.handle(game_id, {"do": "ruling", "by": "judge", "clause": "CORE-DICE", "text": "x"})
    service.close()
    cli = Path(sys.executable).parent / "warledger"
    views_copy = Path(f"{db}.views")
    views_copy.write_bytes(Path(f"{db}.warm.views").read_bytes())
    began = time.perf_counter()
    subprocess.run([str(cli), "views", str(db)], check=True, capture_output=True)
    views_process = time.perf_counter() - began
    began = time.perf_counter()
    subprocess.run([str(cli), "stats", str(db), "--json"], check=True, capture_output=True)
    stats_process = time.perf_counter() - began
    return {"catch_up_warm_p50_ms": statistics.median(warm) * 1e3,
            "catch_up_warm_max_ms": max(warm) * 1e3,
            "views_process_s": views_process,
            "stats_all_figures_p50_ms": statistics.median(stats) * 1e3,
            "stats_process_s": stats_process}


def postgres(url: str, template_db: Path, games: int) -> dict[str, Any]:
    """The same kind of log in PostgreSQL (copied in), rebuilt by the ProjectionRunner."""
    import psycopg

    from replay.pg_views import PgViews
    from replay.service import GameService
    from replay.storage import postgres_env

    env = postgres_env(url)
    service = GameService(url)
    conn = psycopg.connect(dbname=env["POSTGRES_DBNAME"], host=env["POSTGRES_HOST"],
                           port=int(env["POSTGRES_PORT"]), user=env["POSTGRES_USER"],
                           password=env["POSTGRES_PASSWORD"], autocommit=True)
    flat = Path(tempfile.mkdtemp()) / "flat.db"
    events = build_store(template_db, flat, games, "interleaved")
    rows = sqlite3.connect(flat).execute(
        "select originator_id, originator_version, topic, state from stored_events order by rowid")
    snaps = sqlite3.connect(flat).execute("select * from stored_snapshots").fetchall()
    with conn.cursor() as curs:
        with curs.copy("copy warledger_events (originator_id, originator_version, topic, state) "
                       "from stdin") as copy:
            for row in rows:
                copy.write_row((UUID(row[0]), row[1], row[2], row[3]))
        with curs.copy("copy warledger_snapshots (originator_id, originator_version, topic, "
                       "state) from stdin") as copy:
            for row in snaps:
                copy.write_row((UUID(row[0]), row[1], row[2], row[3]))
    views = PgViews(url, service)
    views.drop()
    began = time.perf_counter()
    processed = views.run()
    rebuild = time.perf_counter() - began
    head = views.recorder.head()
    some_game = UUID(str(conn.execute(
        "select originator_id from warledger_events where originator_version = 1 "
        "order by notification_id desc limit 1").fetchone()[0]))
    from eventsourcing.projection import ProjectionRunner

    from replay.pg_views import AnalyticsProjection, AnalyticsRecorder, RawGameService

    latencies = []
    with ProjectionRunner(application_class=RawGameService, projection_class=AnalyticsProjection,
                          view_class=AnalyticsRecorder, env=views.env):
        for k in range(20):
            service.handle(some_game, {"do": "ruling", "by": "judge", "clause": "CORE-DICE",
                                       "text": f"pg {k}"})
            target = head + 2 * (k + 1)
            began = time.perf_counter()
            while views.tracked() < target:
                time.sleep(0.0005)
            latencies.append(time.perf_counter() - began)
    conn.close()
    views.close()
    return {"pg_games": games, "pg_events": events, "pg_rebuild_s": rebuild,
            "pg_events_per_s": processed / rebuild,
            "pg_catch_up_after_step_p50_ms": statistics.median(latencies) * 1e3,
            "pg_catch_up_after_step_max_ms": max(latencies) * 1e3}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--budget", type=float, default=20.0,
                        help="seconds for each extrapolated baseline")
    parser.add_argument("--folder", help="keep the stores here (default: a temp folder)")
    parser.add_argument("--postgres", help="also measure on this PostgreSQL database (emptied!)")
    parser.add_argument("--pg-games", type=int, default=100)
    parser.add_argument("--small-games", type=int, default=200,
                        help="games of the catch-up, stats and half-length runs")
    parser.add_argument("--child", nargs=2, metavar=("MODE", "DB"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child[0], args.child[1], args.budget)))
        return
    folder = Path(args.folder or tempfile.mkdtemp(prefix="views-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {"load_average_before": os.getloadavg()}
    began = time.perf_counter()
    template_db = templates(folder)
    report["templates_s"] = time.perf_counter() - began
    def note(key: str, value: Any) -> None:
        report[key] = value
        print(json.dumps({key: value}), file=sys.stderr, flush=True)

    for layout in ("sequential", "interleaved"):
        db = folder / f"{layout}.db"
        note(f"{layout}_events", build_store(template_db, db, args.games, layout))
        note(f"{layout}_rebuild", in_child("rebuild", db))
    db = folder / "interleaved.db"
    events = report["interleaved_events"]
    previous = in_child("previous", db, args.budget)
    previous["extrapolated_s"] = events / previous["events_per_s"]
    note("previous_rebuild_interleaved", previous)
    library = in_child("library-decode", db, args.budget)
    library["extrapolated_s"] = events / library["events_per_s"]
    note("library_decode", library)
    small = folder / "small.db"
    note("small_events", build_store(template_db, small, args.small_games, "interleaved"))
    note("small_rebuild", in_child("rebuild", small))
    half = folder / "half.db"
    note("half_length_events", build_store(template_db, half, args.small_games, "interleaved",
                                           cut=470))
    note("half_length_rebuild", in_child("rebuild", half))
    for key, value in catch_up(small).items():
        note(key, value)
    if args.postgres:
        report.update(postgres(args.postgres, template_db, args.pg_games))
    report["load_average_after"] = os.getloadavg()
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()

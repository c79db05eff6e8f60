"""`warledger stats DB`: figures over the analytic tables, traceable and reproducible.

Rich tables in the terminal, or `--json` / `--csv`; `--explain ROW` lists the
games and event numbers behind a row; `--export DIR` writes every analytic
table as Parquet (pyarrow) or CSV; `--plot FILE.svg|png` draws a figure with
matplotlib. Heavy libraries are imported inside the handler.
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
from pathlib import Path
from typing import Any

FIGURES = ("results", "stratagems", "cp", "ambush", "aro", "rules", "mageknight", "dice")


def register(sub: Any) -> None:
    """Add the `stats` sub-command."""
    stats = sub.add_parser(
        "stats", help="figures over the analytic tables (run `views` first)",
        description="Figures over the analytic tables that `warledger views DB` writes. They "
        "are read as the last `views` run left them (the same figures however often you ask): "
        "when events were stored after it, stats says on stderr how many events and games "
        "the tables are behind, and that `warledger views DB` catches them up.")
    stats.add_argument("db", help="SQLite path or postgresql:// URL")
    stats.add_argument("table", nargs="?", default="all", choices=("all", *FIGURES),
                       help="one figure (default: all of them)")
    out = stats.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true")
    out.add_argument("--csv", action="store_true")
    stats.add_argument("--ruleset", help="only games of this rule set (e.g. w40k-10)")
    stats.add_argument("--event", help="only games of this event (metadata)")
    stats.add_argument("--player", help="only this player (a player id, e.g. red)")
    stats.add_argument("--since", help="only games started on or after this date (YYYY-MM-DD)")
    stats.add_argument("--explain", type=int, metavar="ROW",
                       help="the games and event numbers behind row ROW of the figure")
    stats.add_argument("--export", metavar="DIR",
                       help="write every analytic table to DIR (see --format)")
    stats.add_argument("--format", choices=("parquet", "csv"), default="parquet")
    stats.add_argument("--plot", metavar="FILE", help="draw the figure as FILE.svg or FILE.png")
    stats.set_defaults(handler=cmd_stats)


def cmd_stats(args: argparse.Namespace) -> int:
    from replay.stats import (
        Filters,
        StatsError,
        applying,
        check_filters,
        explain,
        figure,
        rule_sets_in,
    )
    from warledger.cli import CliError

    try:
        source = open_source(args.db)
        warn_if_behind(args.db)
        filters = Filters(args.ruleset, args.event, args.player, args.since)
        check_filters(source, filters)
        names = list(FIGURES) if args.table == "all" else [args.table]
        if args.table == "all" and not (args.json or args.csv):  # the tables a reader sees
            names = applying(names, rule_sets_in(source, filters))
        if args.explain is not None:
            if args.table == "all":
                raise StatsError("--explain needs one figure, e.g. `stats DB dice --explain 1`")
            print_explained(explain(source, args.table, filters, args.explain), args.json)
            return 0
        if args.export:
            try:
                export(source, Path(args.export), args.format)
            except OSError as error:
                raise StatsError(f"cannot write {args.export}: {error.strerror}") from None
        figures = [figure(source, name, filters) for name in names]
        if args.plot:
            if args.table == "all":
                raise StatsError("--plot needs one figure, e.g. `stats DB results --plot r.png`")
            from warledger.stats_plot import plot

            try:
                plot(figures[0], args.plot)
            except OSError as error:
                raise StatsError(f"cannot write {args.plot}: {error.strerror}") from None
    except StatsError as error:
        message = str(error).replace("`warledger views DB`", f"`warledger views {args.db}`")
        raise CliError(message) from None
    if args.json:
        from projections.canonical import canonical_json

        data = {f.spec.name: f.as_json() for f in figures}
        sys.stdout.write(canonical_json(data).decode() + "\n")
    elif args.csv:
        sys.stdout.write(as_csv(figures))
    elif not args.plot and not args.export:
        render(figures)
    if args.plot:
        print(f"wrote {args.plot}")
    if args.export:
        print(f"wrote every analytic table to {args.export} as {args.format}")
    return 0


def open_source(db: str) -> Any:
    """The analytic tables of a store; a clear line (and a hint) when there are none."""
    from replay.sqlite_files import connect
    from replay.stats import Source, StatsError

    hint = f"run `warledger views {db}` first"
    if db.startswith(("postgresql://", "postgres://")):
        import psycopg

        from replay.storage import postgres_env

        env = postgres_env(db)
        conn: Any = psycopg.connect(
            dbname=env["POSTGRES_DBNAME"], host=env["POSTGRES_HOST"],
            port=int(env["POSTGRES_PORT"]), user=env["POSTGRES_USER"],
            password=env["POSTGRES_PASSWORD"], connect_timeout=5, autocommit=True)
        source = Source(conn, "%s")
    else:
        if not Path(db).exists():
            raise StatsError(f"no database file {db}")
        path = Path(f"{db}.views")
        if not path.exists():
            raise StatsError(f"{db} has no analytic tables yet: {hint}")
        source = Source(connect(f"file:{path}?mode=ro", uri=True))
    try:
        source.query("select count(*) as n from games")
    except Exception:
        raise StatsError(f"{db} has no analytic tables yet: {hint}") from None
    return source


def warn_if_behind(db: str) -> None:
    """A line on stderr when events were stored after the last `warledger views DB` run:
    the figures leave them out (stats reads the tables, it does not write them)."""
    events, games = views_behind(db)
    if events:
        from domain.words import counted
        from warledger.cli import warn

        warn(f"the analytic tables are {counted(events, 'event')} ({counted(games, 'game')}) "
             f"behind the log; the figures leave them out: run `warledger views {db}` to "
             "catch up")


def views_behind(db: str) -> tuple[int, int]:
    """(events, games) stored after the analytic tables' last catch-up."""
    if db.startswith(("postgresql://", "postgres://")):
        return postgres_views_behind(db)
    import sqlite3

    from replay.sqlite_files import connect
    from replay.storage import ANALYTICS, APPLICATION  # no service: `--json` loads no model

    views = connect(f"file:{db}.views?mode=ro", uri=True)
    events = connect(f"file:{db}?mode=ro", uri=True)
    try:
        row = views.execute("select notification_id from tracking where application = ?",
                            (f"{APPLICATION}:{ANALYTICS}",)).fetchone()
        found = events.execute("select count(*), count(distinct originator_id) from "
                               "stored_events where rowid > ?", (int(row[0]) if row else 0,))
        behind = found.fetchone()
    except sqlite3.Error:  # an event store of another shape: nothing to compare
        return 0, 0
    finally:
        views.close()
        events.close()
    return int(behind[0]), int(behind[1])


def postgres_views_behind(db: str) -> tuple[int, int]:
    """`views_behind` on PostgreSQL: the analytics projection's tracking against the
    events table (`replay.pg_views`)."""
    from psycopg.sql import SQL

    from replay.pg_views import EVENTS_TABLE, PgViews

    views = PgViews(db)
    try:
        with views.recorder.datastore.transaction(commit=False) as curs:
            curs.execute(SQL(f"select count(*) as n, count(distinct originator_id) as g "
                             f"from {EVENTS_TABLE} where notification_id > %s"),
                         (views.tracked(),))
            row = curs.fetchone()
    finally:
        views.close()
    return (int(row["n"]), int(row["g"])) if row else (0, 0)


def cell(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return " ".join(f"{k}:{v}" for k, v in value.items())
    return "" if value is None else str(value)


def render(figures: list[Any]) -> None:
    """Rich tables in a terminal (cells fold, never cut short); anywhere else, or
    without Rich (the `analytics` extra), plain text tables at full width: output
    that is piped or redirected keeps every digit."""
    try:
        if not sys.stdout.isatty():
            raise ImportError
        from rich.console import Console
    except ImportError:
        for fig in figures:
            sys.stdout.write(plain_table(fig))
        return
    console = Console()
    for fig in figures:
        console.print(fitted(rich_table(fig), console))


def fitted(table: Any, console: Any) -> Any:
    """The table, saying so in its caption when it is wider than the terminal (its
    cells fold onto more lines: every digit is kept, if not on one line)."""
    natural = table.__rich_measure__(console, console.options.update(width=1 << 16))
    if natural.maximum > console.width:
        table.caption = (f"{table.caption}\n" if table.caption else "") + (
            f"(wider than the terminal's {console.width} columns: its cells fold; "
            "widen it, or use --csv)")
    return table


def rich_table(fig: Any) -> Any:
    from rich.table import Table

    table = Table(title=f"{fig.spec.name}: {fig.spec.title}", title_justify="left")
    table.add_column("#", justify="right", style="dim")
    columns = fig.spec.columns(fig.rows)
    for column in columns:
        table.add_column(column, justify="right" if numeric(fig.rows, column) else "left",
                         overflow="fold")
    for index, row in enumerate(fig.rows, start=1):
        table.add_row(str(index), *(cell(row.get(c)) for c in columns))
    table.caption = caption(fig)
    return table


def numeric(rows: list[dict[str, Any]], column: str) -> bool:
    return any(isinstance(r.get(column), int | float) for r in rows)


def caption(fig: Any) -> str:
    return "no rows (no such facts in these games)" if not fig.rows else fig.spec.note


def plain_table(fig: Any) -> str:
    """A figure as a plain text table: every column, every cell whole."""
    columns = fig.spec.columns(fig.rows)
    header = ["#", *columns]
    body = [[str(i), *(cell(row.get(c)) for c in columns)]
            for i, row in enumerate(fig.rows, start=1)]
    widths = [max(len(line[k]) for line in [header, *body]) for k in range(len(header))]
    right = [True, *(numeric(fig.rows, c) for c in columns)]

    def line(cells: list[str]) -> str:
        return "  ".join(text.rjust(width) if r else text.ljust(width)
                         for text, width, r in zip(cells, widths, right, strict=True)).rstrip()

    rule = "  ".join("-" * width for width in widths)
    lines = [f"{fig.spec.name}: {fig.spec.title}", line(header), rule,
             *(line(cells) for cells in body)]
    if note := caption(fig):
        lines.append(note)
    return "\n".join(lines) + "\n\n"


def flat(row: dict[str, Any]) -> dict[str, Any]:
    """A row with its face counts as columns face_1 … face_N (CSV)."""
    out = {k: v for k, v in row.items() if not isinstance(v, dict)}
    for value in row.values():
        if isinstance(value, dict):
            out.update({f"face_{k}": v for k, v in value.items()})
    return out


def as_csv(figures: list[Any]) -> str:
    buffer = io.StringIO()
    for fig in figures:
        rows = [flat(r) for r in fig.rows]
        columns = ["table", *dict.fromkeys(k for r in rows for k in r)]
        writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({"table": fig.spec.name, **row})
    return buffer.getvalue()


def print_explained(found: dict[str, Any], as_json: bool) -> None:
    if as_json:
        from projections.canonical import canonical_json

        sys.stdout.write(canonical_json(found).decode() + "\n")
        return
    key = ", ".join(f"{k}={v}" for k, v in found["key"].items())
    print(f"row {found['row']} of {found['table']} ({key}): {found['facts']} facts "
          f"in {len(found['games'])} games")
    for game_id, events in found["games"].items():
        print(f"  game {game_id}: events {', '.join(map(str, events))}")


def export(source: Any, folder: Path, fmt: str) -> None:
    """Every analytic table, whole (filters do not apply), as Parquet or CSV."""
    from replay.analytics import TABLES
    from replay.stats import StatsError

    folder.mkdir(parents=True, exist_ok=True)
    for table in TABLES:
        rows = source.query(f"select * from {table.name} order by {', '.join(table.key)}")
        columns = table.column_names
        path = folder / f"{table.name}.{fmt}"
        if fmt == "csv":
            with path.open("w", newline="", encoding="utf-8") as handle:
                writer = csv.DictWriter(handle, fieldnames=columns, lineterminator="\n")
                writer.writeheader()
                writer.writerows(rows)
            continue
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            from warledger.extras import install_hint

            raise StatsError(install_hint("analytics", "Parquet export (pyarrow)")
                             + "; or use --format csv") from None
        kinds = {"text": pa.string(), "integer": pa.int64(), "double precision": pa.float64()}
        schema = pa.schema([(name, kinds[kind]) for name, kind in table.columns])
        data = {name: [r[name] for r in rows] for name in columns}
        pq.write_table(pa.table(data, schema=schema), path)

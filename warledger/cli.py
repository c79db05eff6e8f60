"""The `warledger` command line. Thin: parse arguments, call the service, print.

Every expected failure (a malformed script, an unknown game, a bad value, a
database problem) is one line on stderr and exit code 2; `verify` exits 1 for
a tampered game (and, with `WARLEDGER_KEY`, 5 for a game with no signed head; 4
when steps decided under rules versions this code no longer holds were not decided
again), and `step` exits 1 when its step is refused. No tracebacks.

`--as PLAYER` makes an output one player's: it shows, counts, numbers and
hashes only what that player may know (`replay.positions`, `replay.export`).
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse
from uuid import UUID

from replay.storage import DEFAULT_DB, check_reachable, redact
from warledger import cmd_revalidate, cmd_simulate
from warledger.cmd_serve import register as register_serve
from warledger.cmd_stats import register as register_stats
from warledger.cmd_viewer import register as register_viewer

if TYPE_CHECKING:
    from domain.history import History
    from domain.state import GameState
    from replay.positions import Position
    from replay.service import GameService, Outcome
    from replay.verify import Verdict
    from warledger.script import BeforeStep, RunResult, Script

# Building the parser (`warledger --help`) imports only the standard library and
# the small modules above: each handler imports what it needs when it runs, so no
# fact model, rule set, eventsourcing, shapely or numpy is loaded just to parse
# the arguments (docs/performance.md, cold start; tests/cli/test_cold_start.py checks it).


class CliError(Exception):
    """An expected failure: printed as one line, exit code 2."""


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `warledger` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return handler(args)
    except Exception as error:
        return failure(args, error)


def failure(args: argparse.Namespace, error: Exception) -> int:
    """The exit code (and the one line on stderr) for an error a handler raised."""
    if isinstance(error, expected_errors()):
        return fail(str(error))
    if isinstance(error, BrokenPipeError):
        return 0
    if isinstance(error, database_errors()):
        return fail(database_problem(getattr(args, "db", None) or DEFAULT_DB, error))
    from warledger.extras import missing_module_hint

    hint = missing_module_hint(error, f"`warledger {args.command}`")
    if hint is not None:
        return fail(hint)
    # a last resort: never a traceback, one line
    first = str(error).splitlines()[0] if str(error) else ""
    return fail(f"unexpected {type(error).__name__}: {first}")


def expected_errors() -> tuple[type[Exception], ...]:
    """The failures a user can cause (bad input, an unknown game, a lost race): imported
    only once a handler has failed, so the parser stays cheap to build."""
    from domain.errors import ScriptError
    from replay.keyed import TamperedGameError
    from replay.positions import PositionError
    from replay.service import ConcurrentWriteError, GameNotFoundError

    return (ScriptError, CliError, GameNotFoundError, ConcurrentWriteError, PositionError,
            TamperedGameError)


def database_errors() -> tuple[type[Exception], ...]:
    """The failures of the game database itself."""
    import sqlite3

    from eventsourcing.persistence import PersistenceError

    return (PersistenceError, sqlite3.Error)


def fail(message: str) -> int:
    """Print one line on stderr (any database password in it hidden); exit code 2."""
    print(f"warledger: {redact(message)}", file=sys.stderr)
    return 2


def database_problem(db: str, error: Exception) -> str:
    """Why the game database cannot be used, in one line: for PostgreSQL the server's
    own words (the connection pool reports every failure as a timeout)."""
    first = str(error).splitlines()[0] if str(error) else type(error).__name__
    if db.startswith(("postgresql://", "postgres://")):
        first = check_reachable(db) or first
    return f"cannot use the game database {db}: {first}"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="warledger", description="An event-sourced rules engine for tabletop wargames."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    cmd_simulate.register(sub)

    run = sub.add_parser("run", help="run a game script")
    run.add_argument("script")
    run.add_argument("--json", action="store_true", help="print the CONTRACT result JSON")
    run.add_argument(
        "--db",
        help="SQLite path or postgresql:// URL (default: a temp file, or PostgreSQL when "
        "PERSISTENCE_MODULE=eventsourcing.postgres and POSTGRES_* are set)",
    )
    run.add_argument(
        "--svg-dir",
        help="draw each step's checks (accepted or refused) as DIR/step-N.svg, for judges",
    )
    run.set_defaults(handler=cmd_run)

    demo = sub.add_parser("demo", help="play the example games into a database")
    demo.add_argument("--db", help=f"default {DEFAULT_DB}, or PostgreSQL from POSTGRES_*")
    demo.add_argument("--examples", default=str(examples_dir()))
    demo.set_defaults(handler=cmd_demo)

    replay = sub.add_parser("replay", help="the state after event N or step N")
    add_game_args(replay)
    add_position_args(replay)
    replay.add_argument("--json", action="store_true", help="the CONTRACT state view as JSON")
    add_as_arg(replay)
    replay.set_defaults(handler=cmd_replay)

    verify = sub.add_parser("verify", help="check the hash chain and re-decide every command")
    add_game_args(verify)
    verify.add_argument("--expect-head", help="the head hash from a receipt")
    verify.add_argument("--sign-head", metavar="HEAD",
                        help="with WARLEDGER_KEY: once the game verifies and ends at HEAD "
                        "(compare it with a player's receipt first), sign its head, so a "
                        "keyed server decides on it; refused for a game the key's "
                        "signed-games record lists")
    verify.set_defaults(handler=cmd_verify)
    cmd_revalidate.register(sub)

    reveal = sub.add_parser("reveal", help="reveal the dice seed and re-derive every roll")
    add_game_args(reveal)
    reveal.add_argument("--in-progress", action="store_true",
                        help="reveal the seed of a game still in progress (it foresees "
                        "every digital die still to come)")
    reveal.set_defaults(handler=cmd_reveal)

    games = sub.add_parser("games", help="list the games in a database: date, rule set, "
                           "players, events, confirmed result, event/round/table")
    games.add_argument("db")
    games.add_argument("--json", action="store_true", help="one JSON object a line per game")
    games.set_defaults(handler=cmd_games)

    schema = sub.add_parser("schema", help="print a JSON Schema")
    schema.add_argument("what", choices=["script", "events", "catalog"],
                        help="catalog: a 40k stratagem catalog file")
    schema.set_defaults(handler=cmd_schema)

    diagram = sub.add_parser("diagram", help="print a rule set's machine as Mermaid")
    diagram.add_argument("ruleset")
    diagram.set_defaults(handler=cmd_diagram)

    board = sub.add_parser("board", help="draw the board after event N or step N as SVG")
    add_game_args(board)
    add_position_args(board)
    board.add_argument("--svg", required=True, help="output file")
    add_as_arg(board)
    board.add_argument(
        "--command",
        help="a step as JSON to draw its checks without recording it "
        "(default: the last recorded step)",
    )
    board.set_defaults(handler=cmd_board)

    step = sub.add_parser(
        "step", help="issue one command to a stored game (exit 1 when it is refused)")
    add_game_args(step)
    step.add_argument("command", help='the step as JSON, e.g. {"by": "red", "do": "end_turn"}')
    step.add_argument(
        "--expect-event", type=int, metavar="N",
        help="where you decided: the judge's log event number (receipt 'event'), a player's "
        "own event count (receipt 'n'); if the game is elsewhere, nothing is written and "
        "its head is named in the same numbering (exit 3)",
    )
    step.set_defaults(handler=cmd_step)

    options = sub.add_parser(
        "options", help="what a seat may do now: every command it may issue, with the "
        "values each may take (asked of the gate that decides)")
    add_game_args(options)
    options.add_argument("--as", dest="seat", required=True,
                         help="the seat: a player, or 'judge'")
    options.add_argument("--json", action="store_true",
                         help="as JSON (docs/CONTRACT.md, section Options)")
    options.set_defaults(handler=cmd_options)

    audit = sub.add_parser("audit", help="a readable timeline of every step")
    add_game_args(audit)
    audit.add_argument("--fold", action="store_true", help="hide undone branches")
    audit.add_argument("--json", action="store_true")
    audit.add_argument("--lang", action="store_true", help="quote clauses in their source language")
    add_as_arg(audit)
    audit.add_argument("--attempts", action="store_true",
                       help="also list the refused attempts (not facts; every front door "
                       "keeps them); with --json: {entries, attempts}")
    audit.set_defaults(handler=cmd_audit)

    export = sub.add_parser("export", help="the event log as JSON lines")
    add_game_args(export)
    add_as_arg(export)
    export.set_defaults(handler=cmd_export)

    register_viewer(sub)
    register_serve(sub)

    views = sub.add_parser("views", help="bring the state view and analytic tables up to date")
    views.add_argument("db")
    views.add_argument("--rebuild", action="store_true",
                       help="rebuild the views from the first event (a large rebuild "
                       "replaces the old ones only once complete)")
    views.add_argument("--follow", action="store_true",
                       help="PostgreSQL: keep the views current until SIGINT/SIGTERM")
    views.set_defaults(handler=cmd_views)

    register_stats(sub)
    for extra in EXTRA_COMMANDS:
        extra(sub)
    return parser


#: Rule-set and feature modules add sub-commands here (board, audit, export ...).
EXTRA_COMMANDS: list[Callable[[Any], None]] = []


def add_game_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("db", help="SQLite path or postgresql:// URL")
    parser.add_argument("game", help="game id (or a unique prefix, or 'last')")


def add_position_args(parser: argparse.ArgumentParser) -> None:
    """`--at N` (an event number) or `--step N` (a log step, as `audit` lists them)."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--at", type=int, help="after event N (with --as: that player's own "
                       "event N, as their export and audit number them); default: the latest")
    where.add_argument("--step", type=int, help="after log step N (0: the set-up)")


def add_as_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--as", dest="as_player", help="only what this player may know "
                        "(every number, count and hash shown derives from that alone)")


def examples_dir() -> Path:
    return Path(__file__).resolve().parent.parent / "examples"


def uses_postgres_env() -> bool:
    """Did the environment choose PostgreSQL (eventsourcing's own variables)?"""
    return os.environ.get("PERSISTENCE_MODULE", "").endswith("postgres")


def server_key() -> bytes | None:
    """The server key from `WARLEDGER_KEY` (`replay.keyed`), None when unset."""
    from replay.keyed import key_from_env

    return key_from_env()


def open_service(db: str) -> GameService:
    """A service on an existing store; a missing SQLite file is an error."""
    from replay.service import GameService

    if "://" not in db and db != ":memory:" and not Path(db).exists():
        raise CliError(f"no database file {db}")
    service = GameService(db, key=server_key())
    service.warn = warn
    return service


def warn(message: str) -> None:
    """A warning line on stderr (an untrusted snapshot set aside, say); the command goes on."""
    print(f"warledger: warning: {redact(message)}", file=sys.stderr)


def open_game(args: argparse.Namespace) -> tuple[GameService, UUID]:
    """The service and game named by a command's `db` and `game` arguments."""
    service = open_service(args.db)
    return service, resolve_game(service, args.game)


def position_of(service: GameService, game_id: UUID, args: argparse.Namespace) -> Position:
    """The position a command's `--at`/`--step` name, as its `--as` reader numbers it."""
    from replay.positions import find_position

    if args.as_player is not None:
        check_player(service.load(game_id).state, args.as_player)
    return find_position(service, game_id, at=args.at, step=args.step, player=args.as_player)


def resolve_game(service: GameService, text: str) -> UUID:
    """A game id from its full form, a unique prefix, or 'last' (one indexed query on
    SQLite, `GameService.find_game`)."""
    from replay.service import GameNotFoundError

    try:
        return service.find_game(text)
    except GameNotFoundError as error:
        raise CliError(str(error)) from None


def print_json(data: Any) -> None:
    from projections.canonical import canonical_json

    sys.stdout.write(canonical_json(data).decode() + "\n")


# -- sub-commands ---------------------------------------------------------------
def cmd_run(args: argparse.Namespace) -> int:
    from replay.service import GameService
    from warledger.script import load_script, run_script

    script = load_script(args.script)
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or (None if uses_postgres_env() else str(Path(tmp) / "game.db"))
        service = GameService(db, key=server_key())
        result = run_script(service, script, step_pictures(args.svg_dir))
        service.close()
    if args.json:
        print_json(result)
    else:
        print(render_run(script, result))
    return 0


def step_pictures(folder: str | None) -> BeforeStep | None:
    """A hook drawing each step's checks on the board as it stood before the step, named
    in the log's steps: `step-N.svg` for the step a command became, and
    `refused-after-step-N.svg` (`-2`, `-3` for more at the same place) for a refusal."""
    if folder is None:
        return None
    from domain.gate import preview
    from domain.ruleset import find_ruleset
    from projections.overlays import overlays_for
    from projections.render import board_svg
    from projections.wording import refusal_label, say_step
    from warledger.script import AfterStep, split_step

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)

    def draw(index: int, state: GameState, command: dict[str, Any] | None,
             history: History) -> AfterStep:
        data, dice, _ = split_step(command)
        malformed = data is None or preview(
            find_ruleset(state.ruleset), state, data, dice, history)[0] == "INPUT"
        overlays = overlays_for(state, None if malformed else command)

        def name(outcome: Outcome) -> None:
            said = say_step(state.step + 1, str((data or {}).get("by", "?")), data)
            if outcome.accepted:
                caption, file = f"before {said}", f"step-{outcome.step}.svg"
            else:
                caption = f"{refusal_label(outcome.step)}: {said.split(': ', 1)[1]}"
                file = free_name(out, f"refused-after-step-{outcome.step}")
            (out / file).write_text(board_svg(state, overlays, caption=caption),
                                    encoding="utf-8")
        return name

    return draw


def free_name(folder: Path, stem: str) -> str:
    """`stem.svg`, or `stem-2.svg`, `stem-3.svg` ... when taken."""
    name, number = f"{stem}.svg", 1
    while (folder / name).exists():
        number += 1
        name = f"{stem}-{number}.svg"
    return name


def render_run(script: Script, result: RunResult) -> str:
    """A readable account of a script run, in the log's steps: each accepted command
    as the step it became, each refusal as the step it came after."""
    from projections.wording import refusal_label, say_command

    lines = [f"game {result['game_id']} ({script.ruleset})"]
    for step, outcome in zip(script.steps, result.outcomes, strict=True):
        who = str(step.get("by", "?")) if isinstance(step, dict) else "?"
        said = f"{who} {say_command(step)}" if isinstance(step, dict) else "(not a step)"
        if outcome.accepted:
            note = f"  [{outcome.rule}: {outcome.message}]" if outcome.rule else ""
            lines.append(f"  step {outcome.step}: {said} -> {', '.join(outcome.events)}{note}")
        else:
            lines.append(f"  {refusal_label(outcome.step)}: {said} -> REFUSED "
                         f"{outcome.rule}: {outcome.message}")
    state = result["state"]
    lines.append(
        f"  now: round {state['round']}, {state['active_player']}'s {state['phase']} phase"
        + (" (game over)" if state["finished"] else "")
    )
    return "\n".join(lines)


def cmd_demo(args: argparse.Namespace) -> int:
    from replay.service import GameService
    from replay.verify import verify_game
    from warledger.script import load_script, run_script

    scripts = sorted(Path(args.examples).glob("*.yaml"))
    if not scripts:
        raise CliError(f"no example scripts in {args.examples}")
    db = args.db or (None if uses_postgres_env() else DEFAULT_DB)
    if args.db is None and db is not None:
        fresh_sqlite(db)  # the default demo database starts fresh on every run
    service = GameService(db, key=server_key())
    for path in scripts:
        script = load_script(path)
        result = run_script(service, script)
        print(f"== {path.name}")
        print(render_run(script, result))
        verdict = verify_game(service, UUID(result["game_id"]))
        print(f"  verify: {verdict.line()}")
    where = redact(db) if db else "the PostgreSQL database of POSTGRES_*"
    stored = len(service.game_ids())
    held = "" if stored == len(scripts) else f"; it holds {stored} games in all"
    print(f"\n{len(scripts)} games played into {where}{held}. Try:")
    prog, target = program(), shlex.quote(redact(db)) if db else "postgresql://..."
    for hint in ("games {db}", "audit {db} last", "replay {db} last", "verify {db} last"):
        print(f"  {prog} {hint.format(db=target)}")
    service.close()
    return 0


def fresh_sqlite(db: str) -> None:
    """Remove an SQLite file (and its state views) from an earlier run."""
    for path in (Path(db), Path(f"{db}.views")):
        if path.is_file():
            path.unlink()


def program() -> str:
    """This program as a shell in the current folder runs it (the demo's hints):
    `warledger` when that is on PATH, else its path (e.g. `.venv/bin/warledger`)."""
    argv0 = Path(sys.argv[0])
    if argv0.name == "warledger" and argv0.is_file():
        on_path = shutil.which("warledger")
        if on_path and Path(on_path).resolve() == argv0.resolve():
            return "warledger"
        relative = os.path.relpath(argv0)
        return relative if "/" in relative else f"./{relative}"
    return f"{sys.executable} -m warledger.cli"


def cmd_replay(args: argparse.Namespace) -> int:
    from projections.state_text import render_state
    from projections.state_view import state_hash, state_view

    service, game_id = open_game(args)
    where = position_of(service, game_id, args)
    view = state_view(where.game.state, args.as_player)
    if args.json:
        print_json(view)
        return 0
    whose = f" as {args.as_player} may know it" if args.as_player else ""
    print(f"game {game_id}{whose} at {event_label(where, args.as_player)} "
          f"(step {where.step}): state hash {state_hash(where.game.state, args.as_player)}")
    print(render_state(view))
    return 0


def event_label(where: Position, player: str | None) -> str:
    """'event 12 of 40', or for a player 'your event 7 of 20' (their own numbering)."""
    return f"{'your ' if player else ''}event {where.event} of {where.last}"


def cmd_board(args: argparse.Namespace) -> int:
    from domain.gate import preview
    from projections.board_svg import Overlay, board_svg
    from projections.overlays import overlays_for
    from projections.state_view import seen_state
    from warledger.script import split_step

    service, game_id = open_game(args)
    where = position_of(service, game_id, args)
    game, seen = where.game, seen_state(where.game.state, args.as_player)
    command = json_object(args.command, "--command") if args.command else where.last_command()
    rule, verdict = None, ""
    if args.command:
        data, dice, problem = split_step(command)
        # The verdict is the one `step` would give: refusals write nothing, and naming a
        # unit hidden from the player is refused as an unknown id is.
        rule, verdict = ("INPUT", f"would be refused: INPUT: {problem}") if data is None \
            else preview(game.ruleset, game.state, data, dice, service.history(game_id))
    # A malformed command (INPUT) has nothing sound to draw: only its verdict is shown.
    overlays = overlays_for(seen, None if rule == "INPUT" else command)
    if verdict and command is not None:
        overlays = [*overlays, Overlay((0.0, 0.0), label=f"{command.get('do')} {verdict}",
                                       note=True)]
    write_text(args.svg, board_svg(seen, overlays))
    whose = f" as {args.as_player} may know it" if args.as_player else ""
    print(f"wrote {args.svg} (game {game_id}{whose} at {event_label(where, args.as_player)})")
    if verdict:
        print(f"the command {verdict}")
    return 0


def json_object(text: str, what: str) -> dict[str, Any]:
    """A command line's JSON object (a key given twice is an error), or a `CliError`."""
    from domain.datafile import parse_json

    try:
        data = parse_json(text)
    except ValueError as error:
        raise CliError(f"{what} is not sound JSON: {error}") from None
    if not isinstance(data, dict):
        raise CliError(f"{what} must be a JSON object")
    return data


def write_text(path: str, text: str) -> None:
    """Write an output file, or a `CliError` saying why it cannot be written."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise CliError(f"cannot write {path}: {error.strerror}") from None


def cmd_verify(args: argparse.Namespace) -> int:
    from replay.verify import verify_game

    service, game_id = open_game(args)
    adopting = args.sign_head is not None
    if adopting:
        check_adoptable(service, game_id, args.sign_head, args.expect_head)
    verdict = verify_game(service, game_id, args.sign_head or args.expect_head,
                          signed_heads=not adopting)
    for note in verdict.notes:
        warn(note)
    adopt = f"warledger verify {shlex.quote(redact(args.db))} {game_id} --sign-head"
    print(verdict.line(adopt=adopt))
    if verdict.ok and adopting:
        sign_head(service, game_id, verdict)
    if verdict.unsigned:
        return VERIFY_UNSIGNED
    if not verdict.ok:
        return 1
    return VERIFY_NOT_REDECIDED if verdict.not_redecided else 0


#: `verify`'s exit code for a game with no signed head, with the key (0 ok, 1 bad).
VERIFY_UNSIGNED = 5
#: `verify`'s exit code when steps decided under rules versions this code no longer
#: holds were not decided again (`NOT RE-DECIDED: ...`, docs/rules-versions.md).
VERIFY_NOT_REDECIDED = 4


def check_adoptable(service: GameService, game_id: UUID, head: str,
                    expect_head: str | None) -> None:
    """`--sign-head HEAD` adopts only a game the key never signed, at the head named
    (`replay.signed_games`); a `CliError` otherwise, before anything is signed."""
    if service.key is None or service.signed_games is None:
        raise CliError("--sign-head needs the server key: set WARLEDGER_KEY")
    if expect_head is not None and expect_head != head:
        raise CliError("--sign-head and --expect-head name different heads")
    listed = service.signed_games.listed(game_id)
    if listed is not None:
        raise CliError(
            f"--sign-head refuses game {game_id}: WARLEDGER_KEY's signed-games record "
            f"({service.signed_games.path}) lists it as signed from event {listed}, so a "
            "head missing from it was removed; nothing was signed")


def sign_head(service: GameService, game_id: UUID, verdict: Verdict) -> None:
    """Sign a verified game's head with the server key (`replay.keyed`), listing the
    game in the key's signed-games record first."""
    from replay.keyed import head_mac

    assert service.key is not None and service.heads is not None
    assert service.signed_games is not None
    service.signed_games.list(game_id, verdict.events)
    service.heads.sign(game_id, verdict.events,
                       head_mac(service.key, game_id, verdict.events, verdict.head_hash))
    service.signed_games.saw_head(game_id, verdict.events)
    print(f"signed the head at event {verdict.events} with WARLEDGER_KEY")


def cmd_reveal(args: argparse.Namespace) -> int:
    from replay.reveal import mid_game_warning, reveal_lines

    service, game_id = open_game(args)
    state = service.load(game_id).state
    warning = mid_game_warning(state)
    if not state.finished and not args.in_progress:
        raise CliError(f"not revealing the seed of game {game_id}: {warning}; "
                       "`reveal --in-progress` shows it anyway")
    if warning is not None:
        warn(warning)
    ok, lines = reveal_lines(service.stored_events(game_id))
    print("\n".join(lines))
    return 0 if ok else 1


def cmd_games(args: argparse.Namespace) -> int:
    """The store's games, oldest first, each read from a few rows (`replay.game_list`)."""
    import orjson

    from replay.game_list import game_summaries

    service = open_service(args.db)
    for summary in game_summaries(service):
        if args.json:  # JSON lines, as `export` prints
            sys.stdout.write(orjson.dumps(summary.as_json()).decode() + "\n")
        else:
            print(summary.line())
    return 0


def cmd_step(args: argparse.Namespace) -> int:
    from replay.service import GameConflictError
    from warledger.script import split_step

    service, game_id = open_game(args)
    data, dice, problem = split_step(json_object(args.command, "the step"))
    if data is None:
        raise CliError(f"bad step: {problem}")
    try:
        outcome = service.handle(game_id, data, dice, expect_event=args.expect_event)
    except GameConflictError as conflict:
        print(f"warledger: {conflict}", file=sys.stderr)
        return 3
    if outcome.retried:
        print("note: another writer changed the game meanwhile; decided again on fresh state",
              file=sys.stderr)
    from replay.receipts import step_result

    print_json(step_result(service, game_id, outcome, str(data.get("by", ""))))
    return 0 if outcome.accepted else 1


def cmd_options(args: argparse.Namespace) -> int:
    """Print what the seat may do now (`domain.options`), in words or as JSON."""
    from domain.commands import JUDGE
    from projections.options_text import options_text

    service, game_id = open_game(args)
    if args.seat != JUDGE:
        check_player(service.load(game_id).state, args.seat)
    found = service.options(game_id, args.seat)
    if args.json:
        print_json(found.as_data())
    else:
        print(options_text(found))
    return 0


def cmd_audit(args: argparse.Namespace) -> int:
    from replay.audit import as_json, audit_entries, fold_entries, render, step_positions
    from replay.export import numbered_for

    service, game_id = open_game(args)
    events = service.stored_events(game_id)
    positions = step_positions(events)
    if args.as_player is not None:
        check_player(service.load(game_id).state, args.as_player)
        seen = [event for _, event in numbered_for(events, args.as_player)]
        entries = audit_entries(seen, lang=args.lang, positions=positions)
    else:
        entries = audit_entries(events, lang=args.lang, positions=positions)
    if args.fold:
        entries = fold_entries(entries)
    # The refused attempts the reader may see: the judge every one, a player their own.
    attempts = service.attempts(game_id, args.as_player)
    if args.json:
        print_json({"entries": as_json(entries), "attempts": [a.as_json() for a in attempts]}
                   if args.attempts else as_json(entries))
    else:
        seen_as = f" as {args.as_player} may see it (events numbered among theirs)" \
            if args.as_player else ""
        folded = " (undone branches folded)" if args.fold else ""
        print(f"audit of game {game_id}{seen_as}{folded}")
        print(render(entries, lang=args.lang, attempts=attempts))
        if args.attempts:
            whose = "yours" if args.as_player else "every seat's"
            print(f"refused attempts (kept beside the game, not facts of it; {whose}): "
                  f"{len(attempts)}")
            for attempt in attempts:
                print(f"  {attempt.line()}")
    return 0


def check_player(state: GameState, player: str | None) -> None:
    """A clear error for a `--as` naming nobody in the game (the judge's view is the
    full one: no `--as`)."""
    from domain.commands import JUDGE

    if player == JUDGE:
        raise CliError("the judge sees the whole game: leave out --as for the judge's view")
    if player is not None and player not in state.players:
        raise CliError(f"{player!r} is not a player in this game")


def cmd_export(args: argparse.Namespace) -> int:
    import orjson

    from replay.export import export_lines

    service, game_id = open_game(args)
    events = service.stored_events(game_id)
    check_player(service.load(game_id).state, args.as_player)
    for line in export_lines(events, args.as_player):
        sys.stdout.write(orjson.dumps(line).decode() + "\n")
    return 0


def cmd_views(args: argparse.Namespace) -> int:
    from replay.analytics import UnknownFactError
    from replay.views import open_views

    if args.follow and "://" not in args.db:
        raise CliError("--follow needs a PostgreSQL store; on SQLite run `warledger views "
                       "DB` whenever the views should catch up")
    views = open_views(open_service(args.db), args.db, views_path(args.db))
    try:
        count = views.rebuild() if args.rebuild else views.run()
        print(f"projected {count} new events into {views.where} "
              f"(position {views.position()})", flush=True)
        if args.follow:
            from warledger.views_follow import follow

            follow(views)
    except UnknownFactError as error:
        raise CliError(str(error)) from None
    finally:
        views.close()
    return 0


def views_path(db: str) -> str:
    """Where the state views of a store live: beside an SQLite file; for PostgreSQL,
    a local file named after the server and database (one per database)."""
    if "://" not in db:
        return f"{db}.views"
    parts = urlparse(db)
    name = re.sub(r"[^A-Za-z0-9.-]+", "_", f"{parts.hostname}-{parts.port}-{parts.path.strip('/')}")
    return f"warledger-postgres-{name}.views"


def cmd_schema(args: argparse.Namespace) -> int:
    from events.registry import events_json_schema

    if args.what == "catalog":
        from domain.w40k.catalog import catalog_json_schema

        print_json(catalog_json_schema())
        return 0
    schema = script_schema() if args.what == "script" else events_json_schema()
    print_json(schema)
    return 0


def script_schema() -> dict[str, Any]:
    """The script schema, with each rule set's unit model and commands."""
    from domain.ruleset import RULESETS, load_rulesets
    from warledger.script import Script

    load_rulesets()
    schema = Script.model_json_schema()
    schema["x-units"] = {
        name: ruleset.state_type.unit_model.model_json_schema()
        for name, ruleset in sorted(RULESETS.items())
    }
    schema["x-commands"] = {
        name: {
            do: command.model_json_schema()
            for do, command in sorted(ruleset.command_types.items())
        }
        for name, ruleset in sorted(RULESETS.items())
    }
    return schema


def cmd_diagram(args: argparse.Namespace) -> int:
    from domain.errors import ScriptError
    from domain.ruleset import RULESETS, find_ruleset, load_rulesets

    load_rulesets()
    if args.ruleset not in RULESETS:
        try:
            ruleset = find_ruleset(args.ruleset)
        except ScriptError as error:
            raise CliError(str(error)) from None
    else:
        ruleset = RULESETS[args.ruleset]
    print(ruleset.machine.mermaid())
    for name, machine in getattr(ruleset, "extra_machines", {}).items():
        print(f"\n%% {name}\n{machine.mermaid()}")
    from domain.windows import WINDOWS

    print(f"\n%% reaction windows (every rule set)\n{WINDOWS.mermaid()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`warledger viewer DB GAME [-o FILE] [--as PLAYER]`: the replay viewer as one HTML file."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    """Add the `viewer` sub-command."""
    viewer: argparse.ArgumentParser = sub.add_parser(
        "viewer", help="write a self-contained HTML replay of a game (works offline)")
    viewer.add_argument("db", help="SQLite path or postgresql:// URL")
    viewer.add_argument("game", help="game id (or a unique prefix, or 'last')")
    viewer.add_argument("-o", "--output", default="game.html", help="default game.html")
    viewer.add_argument("--as", dest="as_player", help="only what this player may know")
    viewer.set_defaults(handler=cmd_viewer)


def cmd_viewer(args: argparse.Namespace) -> int:
    from projections.viewer import viewer_game, viewer_page
    from warledger.cli import check_player, open_game, write_text

    service, game_id = open_game(args)
    events = service.stored_events(game_id)
    check_player(service.load(game_id).state, args.as_player)
    # The refused attempts the reader may see, as frames ("next: refusal").
    attempts = [a.as_json() for a in service.attempts(game_id, args.as_player)]
    game = viewer_game(events, args.as_player, attempts=attempts)
    write_text(args.output, viewer_page(game, args.as_player))
    # The count the file shows: a player's own events, as their export numbers them.
    seen = f" as {args.as_player} may see it" if args.as_player else ""
    print(f"wrote {args.output}: game {game_id}{seen}, {game.events_shown} events")
    return 0

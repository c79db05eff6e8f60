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
    from projections.viewer import viewer_html
    from warledger.cli import check_player, open_game, write_text

    service, game_id = open_game(args)
    events = service.stored_events(game_id)
    check_player(service.load(game_id).state, args.as_player)
    html = viewer_html(events, args.as_player)
    write_text(args.output, html)
    seen, count = "", len(events)
    if args.as_player:  # the player's own count, as their export numbers it
        from replay.export import numbered_for

        seen, count = f" as {args.as_player} may see it", len(numbered_for(events,
                                                                        args.as_player))
    print(f"wrote {args.output}: game {game_id}{seen}, {count} events")
    return 0

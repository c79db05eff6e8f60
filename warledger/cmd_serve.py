"""`warledger serve`: the HTTP API on uvicorn (docs/server.md)."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    serve = sub.add_parser("serve", help="serve games over HTTP: seat tokens, views, streams")
    serve.add_argument("--db", default=None,
                       help="SQLite path or postgresql:// URL (default warledger.db); run "
                       "several servers on one PostgreSQL to share the games")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8080)
    serve.set_defaults(handler=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn
    except ImportError:
        from warledger.cli import CliError

        raise CliError("the serve extra is not installed (pip install 'warledger[serve]')") \
            from None
    from replay.keyed import key_from_env
    from replay.storage import DEFAULT_DB
    from warledger.server.app import create_app

    key = key_from_env()
    app = create_app(args.db or DEFAULT_DB, key=key)
    signed = ", signing heads and snapshots with WARLEDGER_KEY" if key else ""
    print(f"warledger serving {args.db or DEFAULT_DB} on http://{args.host}:{args.port}{signed}",
          flush=True)
    # Streams never end by themselves: on SIGTERM, wait for them at most 5 s.
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning",
                timeout_graceful_shutdown=5)
    return 0

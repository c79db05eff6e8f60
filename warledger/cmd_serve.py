"""`warledger serve`: the HTTP API on uvicorn (docs/server.md)."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    serve = sub.add_parser("serve", help="serve games over HTTP: seat tokens, views, streams")
    serve.add_argument("--db", default=None,
                       help="SQLite path or postgresql:// URL (default warledger.db); run "
                       "several servers on one PostgreSQL to share the games")
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=port_number, default=8080,
                       help="the TCP port, 1 to 65535 (default 8080)")
    serve.set_defaults(handler=cmd_serve)


def port_number(text: str) -> int:
    """A TCP port from the command line (argparse's one-line error otherwise)."""
    try:
        port = int(text)
    except ValueError:
        port = 0
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port: give a whole number "
                                         "from 1 to 65535")
    return port


def check_can_listen(host: str, port: int) -> None:
    """Bind the address once before serving, so that a port in use or a host that is
    not this machine's is one line (exit 2), not the server's error after it said it
    was serving."""
    import socket

    from warledger.cli import CliError

    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as error:
        raise CliError(f"cannot serve on {host}:{port}: {error.strerror or error}") from None


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn
    except ImportError:
        from warledger.cli import CliError

        raise CliError("the serve extra is not installed (pip install 'warledger[serve]')") \
            from None
    from replay.keyed import key_from_env
    from replay.storage import DEFAULT_DB, redact
    from warledger.server.app import create_app

    key = key_from_env()
    check_can_listen(args.host, args.port)
    db = args.db or DEFAULT_DB
    app = create_app(db, key=key)
    signed = ", signing heads and snapshots with WARLEDGER_KEY" if key else ""
    # The database's password is never printed (as in every error line).
    print(f"warledger serving {redact(db)} on http://{args.host}:{args.port}{signed}",
          flush=True)
    # Streams never end by themselves: on SIGTERM, wait for them at most 5 s.
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning",
                timeout_graceful_shutdown=5)
    return 0

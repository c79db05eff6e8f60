"""A request whose body is cut short (the client goes away first) is answered as any
bad input is: one clear error, nothing written, and no traceback on the server's
stderr (principle 3)."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx

from tests.server.live import ServeProcess


def send_cut_short(port: int, path: str) -> None:
    """Promise a 1000-byte body, send 12 bytes of it, and hang up."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     "Content-Length: 1000\r\n\r\n".encode() + b'{"ruleset": ')
        sock.shutdown(socket.SHUT_WR)


def test_a_body_cut_short_writes_nothing_and_logs_no_traceback(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    server = ServeProcess(db)
    try:
        for _ in range(3):
            send_cut_short(server.port, "/games")
            send_cut_short(server.port, "/games/00000000-0000-0000-0000-000000000000/commands")
        # The server still answers, and stored no game.
        assert httpx.get(f"{server.url}/nowhere", timeout=5).status_code == 404
    finally:
        server.stop()
    stderr = server.process.stderr.read().decode()  # type: ignore[union-attr]
    assert "Traceback" not in stderr and "ClientDisconnect" not in stderr, stderr
    from replay.service import GameService

    service = GameService(db)
    assert service.game_ids() == []
    service.close()

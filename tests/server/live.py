"""Real `warledger serve` processes and a Server-Sent Events client, for the tests
with several app servers (and the load bench)."""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import orjson

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServeProcess:
    """One `warledger serve` on a loopback port."""

    def __init__(self, db: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "warledger.cli", "serve", "--db", db,
             "--port", str(self.port)],
            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"serve exited: {self.process.stderr.read()!r}")  # type: ignore[union-attr]
            try:
                httpx.get(f"{self.url}/nowhere", timeout=1)
                return
            except httpx.TransportError:
                time.sleep(0.1)
        raise RuntimeError("serve did not start in 30 s")

    def kill(self) -> None:
        """kill -9: no clean shutdown of anything."""
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


class StreamClient:
    """Holds one seat's stream open in a thread; every event (id, data, time got) goes
    to `got`. `follow(url)` (re)connects with Last-Event-ID = the last id seen."""

    def __init__(self, game: str, token: str) -> None:
        self.game, self.token = game, token
        self.got: queue.Queue[tuple[int, dict[str, Any], float]] = queue.Queue()
        self.last = 0
        self.ids: list[int] = []
        self.broken = threading.Event()
        self._thread: threading.Thread | None = None

    def follow(self, base_url: str) -> None:
        self.broken.clear()
        self._thread = threading.Thread(target=self._read, args=(base_url,), daemon=True)
        self._thread.start()

    def _read(self, base_url: str) -> None:
        headers = {"Authorization": f"Bearer {self.token}",
                   "Last-Event-ID": str(self.last)}
        try:
            with httpx.stream("GET", f"{base_url}/games/{self.game}/stream", headers=headers,
                              timeout=httpx.Timeout(5, read=60)) as response:
                response.raise_for_status()
                fields: dict[str, str] = {}
                for line in response.iter_lines():
                    if line == "":
                        if "id" in fields:
                            number = int(fields["id"])
                            self.last = number
                            self.ids.append(number)
                            self.got.put((number, orjson.loads(fields["data"]),
                                          time.monotonic()))
                        fields = {}
                    elif not line.startswith(":") and ": " in line:
                        key, value = line.split(": ", 1)
                        fields[key] = value
        except (httpx.HTTPError, OSError):
            pass
        self.broken.set()

    def wait_for(self, number: int, timeout: float = 10) -> dict[str, Any]:
        """The data of event `number` (the ones before it are taken too)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"event {number} did not come (last {self.last})")
            try:
                got, data, _ = self.got.get(timeout=left)
            except queue.Empty:
                continue
            if got >= number:
                return data

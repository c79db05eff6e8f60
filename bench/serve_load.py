"""Load and failure run of `warledger serve`, loopback only, bounded.

    python -m bench.serve_load --db postgresql://… [--games 50] [--seconds 60] [--kill]
    python -m bench.serve_load --db /tmp/load.db --servers 1      # SQLite, one server

Starts N app servers on one store. Each game has two players, each holding their own
stream open on the server the game is not played on (with one server: the same one);
a driver per game plays Mage Knight moves that red asks to undo and blue consents to
(the game never ends), each command to the game's server. Measures commands/s, the
latency from sending a command to the opponent's stream showing its StepTaken (p50,
p99), conflicts (409) and errors. With `--kill`, one server is killed with kill -9
half-way; its streams reconnect to another server with Last-Event-ID and its drivers
send there. `--think S`: each player waits S seconds between commands (a person's
pace; 0, the default, sends the next command as soon as the last was seen).
`--jitter J`: each wait is S × a uniform draw in [1−J, 1+J], and the games start
spread over one think time (people do not all press at the same instant; without it
every game sends in the same instant, every S seconds: a burst per step). The
latency is also split: "answer" is the command's own round trip (queueing and
deciding), "wake" the time from that answer to the opponent's stream showing it.
At the end every stream's ids are compared with the seat's export: events missed
or repeated must be 0, and every game must verify.
"""

from __future__ import annotations

import argparse
import random
import statistics
import threading
import time
from typing import Any

import httpx

from tests.server.conftest import setup_of
from tests.server.live import ServeProcess, StreamClient

SPOTS = ([10, 12], [11, 12], [10, 13])


class Driver(threading.Thread):
    """Plays one game until the deadline: red moves, red asks to undo, blue consents."""

    def __init__(self, game: dict[str, Any], servers: list[ServeProcess], home: int,
                 streams: dict[str, StreamClient], deadline: float, think: float = 0.0,
                 jitter: float = 0.0, seed: int = 0) -> None:
        super().__init__(daemon=True)
        self.think, self.jitter = think, jitter
        self.random = random.Random(seed)
        #: The answer times of each kind of command (move, request_undo, consent).
        self.answers_by: dict[str, list[float]] = {}
        #: The latencies of play: all but the game's opening `next_phase`.
        self.play: list[float] = []
        self.answers: list[float] = []
        self.wakes: list[float] = []
        self.game, self.servers, self.home = game, servers, home
        self.streams, self.deadline = streams, deadline
        self.latencies: list[float] = []
        self.commands = self.conflicts = self.errors = self.refused = self.lost = 0
        self.client = httpx.Client(timeout=10)

    def url(self) -> str:
        alive = [s for s in self.servers if s.process.poll() is None]
        return (self.servers[self.home] if self.servers[self.home] in alive else alive[0]).url

    def send(self, by: str, body: dict[str, Any]) -> None:
        opponent = self.streams["blue" if by == "red" else "red"]
        started = time.monotonic()
        try:
            response = self.client.post(
                f"{self.url()}/games/{self.game['game']}/commands", json=body,
                headers={"Authorization": f"Bearer {self.game['seats'][by]}"})
        except httpx.HTTPError:
            self.lost += 1  # the server was killed under it: no answer (it may have been taken)
            return
        if response.status_code == 409:
            self.conflicts += 1
            return
        if response.status_code == 422:
            self.refused += 1  # e.g. an undo asked for a move lost with a killed server
            return
        if response.status_code != 200:
            self.errors += 1
            return
        self.commands += 1
        answered = time.monotonic()
        self.answers.append(answered - started)
        self.answers_by.setdefault(str(body["do"]), []).append(answered - started)
        while time.monotonic() < started + 10:
            try:
                _, data, got = opponent.got.get(timeout=10)
            except Exception:
                break
            fact = data["fact"]
            if fact["type"] == "StepTaken" and fact["by"] == by:
                self.latencies.append(got - started)
                if body["do"] != "next_phase":
                    self.play.append(got - started)
                self.wakes.append(max(0.0, got - answered))
                if self.think:
                    time.sleep(self.pause())
                return
        self.errors += 1  # the opponent never saw it

    def pause(self) -> float:
        """A player's thinking time: `think`, spread by `jitter`."""
        return self.think * self.random.uniform(1 - self.jitter, 1 + self.jitter)

    def run(self) -> None:
        if self.jitter:  # the games start spread over one think time
            time.sleep(self.random.uniform(0, self.think))
        self.send("red", {"do": "next_phase"})
        cycle = 0
        while time.monotonic() < self.deadline:
            self.send("red", {"do": "move", "figure": "r1", "path": [SPOTS[cycle % 3]]})
            self.send("red", {"do": "request_undo", "steps": 1})
            self.send("blue", {"do": "consent", "accept": True})
            cycle += 1


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--kill", action="store_true", help="kill -9 one server half-way")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds a player waits between commands (default 0)")
    parser.add_argument("--jitter", type=float, default=0.0,
                        help="spread each wait by ±this fraction, and the games' starts "
                        "over one wait (default 0: every game in step)")
    args = parser.parse_args()

    servers = [ServeProcess(args.db) for _ in range(args.servers)]
    try:
        run(args, servers)
    finally:
        for server in servers:
            server.stop()


def run(args: argparse.Namespace, servers: list[ServeProcess]) -> None:
    games, streams = [], []
    for index in range(args.games):
        home = index % len(servers)
        created = httpx.post(f"{servers[home].url}/games",
                             json=setup_of("mageknight-turns.yaml"), timeout=30).json()
        watch = (home + 1) % len(servers)
        pair = {p: StreamClient(created["game"], created["seats"][p]) for p in ("red", "blue")}
        for client in pair.values():
            client.follow(servers[watch].url)
        games.append((created, home, watch))
        streams.append(pair)
    time.sleep(1.0)
    for pair in streams:  # drain the set-up events
        for client in pair.values():
            while not client.got.empty():
                client.got.get()
    started = time.monotonic()
    deadline = started + args.seconds
    drivers = [Driver(game, servers, home, pair, deadline, args.think,
                      getattr(args, "jitter", 0.0), seed=index)
               for index, ((game, home, _), pair) in enumerate(zip(games, streams, strict=True))]
    for driver in drivers:
        driver.start()
    killed = None
    if args.kill and len(servers) > 1:
        time.sleep(args.seconds / 2)
        killed = servers[-1]
        killed.kill()
        for (_, _, watch), pair in zip(games, streams, strict=True):
            if servers[watch] is killed:
                for client in pair.values():
                    client.broken.wait(10)
                    client.follow(servers[0].url)
    for driver in drivers:
        driver.join(args.seconds + 30)
    elapsed = time.monotonic() - started
    time.sleep(1.0)
    missed = repeated = unverified = 0
    alive = next(s for s in servers if s.process.poll() is None)
    for (game, _, _), pair in zip(games, streams, strict=True):
        for player, client in pair.items():
            export = httpx.get(f"{alive.url}/games/{game['game']}/export", timeout=30,
                               headers={"Authorization": f"Bearer {game['seats'][player]}"})
            want = [int(line.split(b'"n":', 1)[1].split(b",", 1)[0])
                    for line in export.content.splitlines()]
            missed += len(set(want) - set(client.ids))
            repeated += len(client.ids) - len(set(client.ids))
        if not verify(args.db, game["game"]):
            unverified += 1
    commands = sum(d.commands for d in drivers)
    p50, p99 = percentiles([x for d in drivers for x in d.latencies])
    answer50, answer99 = percentiles([x for d in drivers for x in d.answers])
    wake50, wake99 = percentiles([x for d in drivers for x in d.wakes])
    print(f"think {args.think} s, jitter {getattr(args, 'jitter', 0.0)}; answer p50/p99 "
          f"{answer50:.1f}/{answer99:.1f} ms; wake p50/p99 {wake50:.1f}/{wake99:.1f} ms")
    play50, play99 = percentiles([x for d in drivers for x in d.play])
    print(f"play (each game's opening next_phase, sent by every game at one instant, left "
          f"out): p50/p99 {play50:.1f}/{play99:.1f} ms")
    kinds = sorted({kind for d in drivers for kind in d.answers_by})
    print("answer p50/p99 ms by command: " + "; ".join(
        "{} {:.1f}/{:.1f}".format(kind, *percentiles(
            [x for d in drivers for x in d.answers_by.get(kind, [])])) for kind in kinds))
    print("| servers | games | seconds | commands | commands/s | p50 ms | p99 ms | "
          "conflicts | refused | no answer | errors | killed | missed | repeated | unverified |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    print(f"| {len(servers)} | {args.games} | {elapsed:.0f} | {commands} | "
          f"{commands / elapsed:.1f} | {p50:.1f} | {p99:.1f} | "
          f"{sum(d.conflicts for d in drivers)} | {sum(d.refused for d in drivers)} | "
          f"{sum(d.lost for d in drivers)} | {sum(d.errors for d in drivers)} | "
          f"{'1 (kill -9)' if killed else 0} | {missed} | {repeated} | {unverified} |")


def percentiles(seconds: list[float]) -> tuple[float, float]:
    """p50 and p99 in milliseconds (nan when empty)."""
    if not seconds:
        return float("nan"), float("nan")
    ordered = sorted(seconds)
    return statistics.median(ordered) * 1000, ordered[int(0.99 * (len(ordered) - 1))] * 1000


def verify(db: str, game: str) -> bool:
    from uuid import UUID

    from replay.service import GameService
    from replay.verify import verify_game

    service = GameService(db)
    try:
        return verify_game(service, UUID(game)).ok
    finally:
        service.close()


if __name__ == "__main__":
    main()

"""The HTTP API of `warledger serve` (Starlette; docs/server.md).

Identity is real: every request names its seat by a secret token (`Authorization:
Bearer TOKEN`, or `?token=TOKEN` where a browser cannot send a header), and the
acting seat of a command is the token's, never the body's. Every view, export,
audit, viewer page and stream is the token's seat's: a player's holds only what
that player may know, a spectator's only what is public, the judge's everything.

Every error is one JSON object `{"error": CODE, "message": TEXT}` with its HTTP
status, never a traceback, and writes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from uuid import UUID

import orjson
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from domain.errors import ScriptError
from domain.ruleset import Setup, find_ruleset
from events.envelope import GameEvent
from projections.state_view import state_hash, state_view
from replay.export import Seer, export_lines, full_line, numbered_for, player_line
from replay.keyed import TamperedGameError
from replay.service import (
    ConcurrentWriteError,
    GameConflictError,
    GameNotFoundError,
    GameService,
    Outcome,
)
from warledger.server.seats import Seat, SeatStore

#: The largest request body read (a script with its units, or one command).
MAX_BODY = 1 << 20
#: How often a server looks for new events in the database (its notification log).
POLL_SECONDS = 0.02
#: The seats whose numbered events a server keeps (the least recently used go first).
MAX_SEERS = 512
#: A stream sends a comment this often when nothing happens (keeps proxies open).
KEEPALIVE_SECONDS = 15.0


class ApiError(Exception):
    """An expected failure: its status, a code and a message (and any extra fields)."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra

    def response(self) -> JSONResponse:
        return JSONResponse({"error": self.code, "message": self.message, **self.extra},
                            status_code=self.status)


@dataclass
class Head:
    """A seat's head: the judge's is the log's (event, head hash); a player's or a
    spectator's is their own event count and view hash."""

    number: int
    receipt: dict[str, Any]


class Notifier:
    """Wakes the streams of a game when the database holds new events of it.

    On PostgreSQL, eventsourcing's subscription (`recorder.subscribe`: LISTEN/NOTIFY,
    then the notifications in commit order) wakes them as soon as any server on the
    database commits. Elsewhere (SQLite) one task polls the store's notification log
    every `POLL_SECONDS`. Either way a server's own accepted commands wake its streams
    at once (`poke`). Streams read the events themselves from the database; this only
    says when to look.
    """

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.waiting: dict[str, asyncio.Event] = {}
        self.last = 0
        self.running = False
        #: Held while a worker thread reads the store: closing waits for it, so a
        #: poll still running when the server stops never meets a closed connection.
        self.reading = threading.Lock()
        self.closed = False
        self.loop: asyncio.AbstractEventLoop | None = None
        self.subscription: Any = None
        self.listener: threading.Thread | None = None

    def close(self) -> None:
        """Stop reading the store (waits for a read in progress)."""
        with self.reading:
            self.closed = True
        if self.subscription is not None:
            self.subscription.stop()
        if self.listener is not None:
            self.listener.join(5)

    def event_for(self, game_id: UUID) -> asyncio.Event:
        """Take this before reading the game, then wait on it: no wake-up is lost."""
        return self.waiting.setdefault(str(game_id), asyncio.Event())

    def wake(self, game: str) -> None:
        """Wake the streams of one game (in the event loop)."""
        event = self.waiting.pop(game, None)
        if event is not None:
            event.set()

    def poke(self, game_id: UUID) -> None:
        """From any thread: this server stored new events of the game."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop is shutting down
                loop.call_soon_threadsafe(self.wake, str(game_id))

    def top(self) -> int:
        """The last notification id in the store (0: none yet)."""
        with self.reading:
            if self.closed:
                return self.last
            return self.service.recorder.max_notification_id() or 0

    def _changed_games(self) -> set[str]:
        with self.reading:
            if self.closed:
                return set()
            return self._read_changed_games()

    def _read_changed_games(self) -> set[str]:
        recorder = self.service.recorder
        top = self.service.recorder.max_notification_id() or 0
        changed: set[str] = set()
        while self.last < top:
            batch = recorder.select_notifications(self.last + 1, 1000, inclusive_of_start=True)
            if not batch:
                break
            changed.update(str(n.originator_id) for n in batch)
            self.last = batch[-1].id
        return changed

    def listens(self) -> bool:
        """Can the store tell us of new events itself (PostgreSQL's LISTEN/NOTIFY)?"""
        return type(self.service.recorder).__module__.endswith("postgres")

    def _follow_subscription(self) -> None:
        """In a thread: each notification, in commit order, wakes its game's streams."""
        try:
            with self.subscription as notifications:
                for notification in notifications:
                    self.poke(notification.originator_id)
        except Exception:  # the subscription failed: the streams' own timeouts still poll
            self.running = False

    async def run(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.running = True
        self.last = await run_in_threadpool(self.top)
        if self.listens():
            self.subscription = self.service.recorder.subscribe(gt=self.last)
            self.listener = threading.Thread(target=self._follow_subscription, daemon=True)
            self.listener.start()
            try:
                await asyncio.Event().wait()  # until cancelled
            finally:
                self.running = False
            return
        try:
            while True:
                await asyncio.sleep(POLL_SECONDS)
                try:
                    changed = await run_in_threadpool(self._changed_games)
                except Exception:  # a database hiccup: streams still poll on their timeout
                    await asyncio.sleep(0.5)
                    continue
                for game in changed:
                    self.wake(game)
        finally:
            self.running = False


class Server:
    """The game store, the seat store and the notifier of one app server."""

    def __init__(self, db: str, max_body: int = MAX_BODY, key: bytes | None = None) -> None:
        self.db = db
        self.service = GameService(db, key=key)
        self.seats = SeatStore(db, key)
        self.notifier = Notifier(self.service)
        self.max_body = max_body
        #: The service decides one command at a time; reads of its cached game too.
        self.lock = threading.RLock()
        self.closed = False
        #: Streams read the store without waiting for a command being decided; closing
        #: waits until no stream is reading (`reading`).
        self.readers = 0
        self.no_readers = threading.Condition()
        #: Each seat's numbered events (`numbered`), the seats used last kept: at most
        #: `MAX_SEERS`, so memory does not grow with the games a server has seen.
        self.seers: OrderedDict[tuple[UUID, str], tuple[Seer, list[tuple[int, GameEvent]]]] = \
            OrderedDict()

    def close(self) -> None:
        """Close the stores, once no worker thread is reading them."""
        self.notifier.close()
        with self.no_readers:
            self.closed = True
            self.no_readers.wait_for(lambda: self.readers == 0, timeout=10)
        with self.lock:
            self.service.close()
            self.seats.close()

    # -- who is asking ------------------------------------------------------------
    def token(self, request: Request) -> str:
        """The request's token: 401 without one."""
        token = bearer_token(request)
        if token is None:
            raise ApiError(401, "no_token", "send the seat's token: Authorization: Bearer TOKEN")
        return token

    def seats_held(self, request: Request) -> list[Seat]:
        """Every seat the request's token holds: 401 without a token, or with one that
        holds none. Asked before anything about a game, so these answers never depend
        on which games exist."""
        held = self.seats.seats_held(self.token(request))
        if not held:
            raise ApiError(401, "bad_token", "that token holds no seat on this server")
        return held

    def seat(self, request: Request) -> Seat:
        """The seat the token holds in the game of the path. A game that does not exist
        and a game the token holds no seat in get the same answer (no probing for
        games), and neither reads the game store."""
        text = request.path_params["game"]
        token = self.token(request)
        try:
            seat = self.seats.seat_in(UUID(text), token)
        except ValueError:
            seat = None
        if seat is not None:
            return seat
        self.seats_held(request)  # 401 for a token that holds no seat at all
        raise ApiError(404, "unknown_game", f"no game {text!r} that this token holds a "
                       "seat in")

    def judge_token(self, request: Request) -> str | None:
        """A game's creator may send a judge's token: that token judges the new table
        too. No token: the game gets a judge's token of its own. Any other token is
        refused: a game is never created for a player or a spectator."""
        if bearer_token(request) is None:
            return None
        if any(seat.role == "judge" for seat in self.seats_held(request)):
            return self.token(request)
        raise ApiError(403, "not_a_judge", "only a judge's token may create a game for its "
                       "tables; send no token to create a game with a judge of its own")

    # -- reading --------------------------------------------------------------------
    def events(self, game_id: UUID) -> list[GameEvent]:
        return self.service.stored_events(game_id)

    @contextlib.contextmanager
    def reading(self) -> Iterator[bool]:
        """Around a stream's read of the store: False once the server is closing (read
        nothing then: a worker thread never meets a closed connection)."""
        with self.no_readers:
            if self.closed:
                yield False
                return
            self.readers += 1
        try:
            yield True
        finally:
            with self.no_readers:
                self.readers -= 1
                self.no_readers.notify_all()

    def events_after(self, game_id: UUID, version: int,
                     head_hash: str | None) -> list[GameEvent]:
        """The game's events after `version`, whose hash is `head_hash` (none once the
        server is closing); with a server key, checked from there to the latest signed
        head (`GameService.events_after`). Read beside the command being decided, not
        after it: the store is read by version, and a game's versions are committed in
        order."""
        with self.reading() as open_:
            if not open_:
                return []
            return self.service.events_after(game_id, version, head_hash)

    def numbered(self, game_id: UUID, player: str) -> list[tuple[int, GameEvent]]:
        """The player's events as `numbered_for` numbers them, kept up to date from the
        store (a cache of a function of the log: only events it has not seen are read,
        so a command does not replay the whole game to count a player's events; with a
        server key, checked as a stream's are: `GameService.events_after`)."""
        with self.lock:
            key = (game_id, player)
            if key not in self.seers:
                self.seers[key] = (Seer(player), [])
                while len(self.seers) > MAX_SEERS:
                    self.seers.popitem(last=False)
            self.seers.move_to_end(key)
            seer, numbered = self.seers[key]
            last, linked = (0, None) if seer.game is None else \
                (seer.game.version, seer.game.head_hash)
            for event in self.service.events_after(game_id, last, linked):
                seen = seer.see(event)
                if seen is not None:
                    numbered.append((seen.originator_version,
                                     replace(seen, originator_version=seer.count)))
            return numbered

    def head(self, game_id: UUID, seat: Seat) -> Head:
        """The seat's head now: what `If-Match` is compared with."""
        with self.lock:
            game = self.service.signed(self.service.load(game_id))
            if seat.player is None:
                return Head(game.version, {"event": game.version, "head_hash": game.head_hash})
            count = len(self.numbered(game_id, seat.player))
            return Head(count, {"n": count, "view_hash": state_hash(game.state, seat.player)})

    def view(self, game_id: UUID, seat: Seat) -> tuple[dict[str, Any], Head]:
        with self.lock:
            state = self.service.signed(self.service.load(game_id)).state
            return state_view(state, seat.player), self.head(game_id, seat)

    def summary(self, seat: Seat) -> dict[str, Any]:
        """One line of `GET /games`: the game as the seat's view shows it (what the
        seat may know), with the seat's head and the game's links. A keyed server's
        game that fails its MAC is listed as `tampered` (the others still are)."""
        base = f"/games/{seat.game_id}"
        line: dict[str, Any] = {
            "game": str(seat.game_id), "seat": seat.name, "role": seat.role,
            "links": {"state": f"{base}/state", "viewer": f"{base}/viewer",
                      "stream": f"{base}/stream", "export": f"{base}/export",
                      "audit": f"{base}/audit", "commands": f"{base}/commands"}}
        try:
            with self.lock:
                state = self.service.signed(self.service.load(seat.game_id)).state
                view = state_view(state, seat.player)
            head = self.head(seat.game_id, seat)
        except TamperedGameError as error:
            return {**line, "tampered": str(error)}
        metadata = {k: v for k, v in (state.metadata or {}).items()
                    if k in ("event", "round", "table", "mission") and v is not None}
        return {**line, "ruleset": view["ruleset"], "players": sorted(view["players"]),
                "metadata": metadata, "round": view.get("round"),
                "phase": view.get("phase"), "finished": view.get("finished"),
                "head": head.receipt}

    # -- commands -------------------------------------------------------------------
    def command(self, game_id: UUID, seat: Seat, data: dict[str, Any],
                dice: list[int] | None, if_match: int | None) -> tuple[int, dict[str, Any]]:
        """Decide one command for a seat: (HTTP status, body)."""
        from replay.receipts import step_result

        with self.lock:
            outcome = self.decide(game_id, seat, data, dice, if_match)
            if not outcome.accepted:  # the service kept it as an attempt (replay.attempts)
                return 422, step_result(self.service, game_id, outcome, seat.seat)
            self.notifier.poke(game_id)
            seen = None if seat.player is None else self.numbered(game_id, seat.player)
            return 200, step_result(self.service, game_id, outcome, seat.seat, seen)

    def decide(self, game_id: UUID, seat: Seat, data: dict[str, Any],
               dice: list[int] | None, if_match: int | None) -> Outcome:
        """`GameService.handle`, with `If-Match` as its expected event (in the seat's
        numbering: a player's own count, so a write they may not know of is decided
        again, never refused in a way that would tell them)."""
        try:
            return self.service.handle(game_id, data, dice, expect_event=if_match)
        except GameConflictError as conflict:
            head = conflict.head
            receipt = {"event": head.number, "head_hash": head.hash} if head.player is None \
                else {"n": head.number, "view_hash": head.hash}
            code = "stale" if if_match is not None else "conflict"
            raise ApiError(409, code, str(conflict), head=receipt) from None
        except ConcurrentWriteError as error:
            raise ApiError(409, "conflict", str(error)) from None

    # -- creating ---------------------------------------------------------------------
    def create(self, data: Any, judge: str | None = None) -> dict[str, Any]:
        from warledger.script import parse_script

        script = parse_script(data, "the set-up")
        ruleset = find_ruleset(script.ruleset)
        for name in ruleset.file_options:
            entries = script.options.get(name)
            if isinstance(entries, list) and any(isinstance(e, str) for e in entries):
                raise ScriptError(f"the set-up: options.{name}: give the data itself; "
                                  "a server reads no files")
        setup = with_secret_seed(script.setup())
        ruleset.validate_options(setup.options)
        with self.lock:
            game_id = self.service.start(setup)
        tokens = self.seats.issue(game_id, setup.players, judge)
        base = f"/games/{game_id}"
        return {
            "game": str(game_id),
            "players": list(setup.players),
            "seats": tokens["seats"],
            "spectator": tokens["spectator"],
            "links": {"commands": f"{base}/commands", "state": f"{base}/state",
                      "stream": f"{base}/stream", "audit": f"{base}/audit",
                      "export": f"{base}/export", "attempts": f"{base}/attempts",
                      "viewer": f"{base}/viewer",
                      "spectate": f"{base}/viewer?token={tokens['spectator']}"},
            "steps_not_played": len(script.steps),
        }


#: The page at `/`: a player or judge pastes their token and sees their games, with
#: links to each game's viewer. A static file of the package (no CDN, no build).
FRONT_PAGE = Path(__file__).with_name("front.html")
#: It runs its own inline script and talks to its own server only.
FRONT_PAGE_POLICY = ("default-src 'none'; script-src 'unsafe-inline'; style-src "
                     "'unsafe-inline'; connect-src 'self'; img-src 'self' data:; "
                     "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def with_secret_seed(setup: Setup) -> Setup:
    """The set-up with a seed the server draws (CORE-DICE): the set-up's own (the
    creator's choice, or the default 0) is known to someone at the table, and with it,
    or with a small one found from its public commitment, every digital die could be
    foreseen (principle 5). The seed is sealed in the log as in any game (`reveal`)."""
    return setup.model_copy(update={"seed": secrets.randbits(63)})


#: Headers that say who is asking, what the answer depends on, or how to read the body.
#: Sent twice, one reader (a proxy, a log, this server) may take the first and another
#: the last, so a request carrying any of them more than once is refused, whatever the
#: values: nothing is read or written.
SINGLE_HEADERS = ("authorization", "if-match", "if-none-match", "if-modified-since",
                  "if-unmodified-since", "if-range", "last-event-id", "content-type",
                  "content-length", "transfer-encoding")
#: Query parameters read as one value (`token` is read as a set: `bearer_token`).
SINGLE_PARAMETERS = ("last_event_id", "follow")


def refuse_repeats(request: Request) -> None:
    """400 for a header of `SINGLE_HEADERS` or a parameter of `SINGLE_PARAMETERS` given
    more than once (two `Authorization` headers: `two_tokens`, principle 6)."""
    for name in SINGLE_HEADERS:
        count = len(request.headers.getlist(name))
        if count > 1 and name == "authorization":
            raise ApiError(400, "two_tokens", "send one seat's token: this request carries "
                           f"{count} Authorization headers")
        if count > 1:
            raise ApiError(400, "repeated", f"send the {name} header once: this request "
                           f"carries it {count} times; nothing was read or written")
    for name in SINGLE_PARAMETERS:
        count = len(request.query_params.getlist(name))
        if count > 1:
            raise ApiError(400, "repeated", f"give ?{name}= once: this request gives it "
                           f"{count} times; nothing was read or written")


def bearer_token(request: Request) -> str | None:
    """The one token a request carries (its Bearer header or `?token=`). Two different
    tokens (a header and a query, or the query twice) name no one seat: refused, never
    one picked (identity comes from the token, principle 6)."""
    given = [t for t in request.query_params.getlist("token") if t]
    header = request.headers.get("authorization", "")
    if header[:7].lower() == "bearer " and header[7:].strip():
        given.insert(0, header[7:].strip())
    if len(set(given)) > 1:
        raise ApiError(400, "two_tokens", "send one seat's token: this request carries "
                       f"{len(set(given))} different tokens")
    return given[0] if given else None


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, or 413 past `limit` bytes (read no further)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ApiError(413, "too_large", f"the body is larger than {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise ApiError(413, "too_large", f"the body is larger than {limit} bytes")
            chunks.append(chunk)
    except ClientDisconnect:  # the client left before its body ended: nothing was read
        raise ApiError(400, "cut_short", "the body was cut short (the client went away "
                       "before it ended); nothing was written") from None
    return b"".join(chunks)


def parse_body(body: bytes, content_type: str) -> Any:
    """JSON (or YAML, by its content type), read as strictly as `warledger run` reads."""
    from domain.datafile import parse_json, parse_yaml

    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ApiError(400, "malformed", "the body is not UTF-8 text") from None
    try:
        data = parse_yaml(text) if "yaml" in content_type else parse_json(text)
    except ValueError as error:
        raise ApiError(400, "malformed", f"the body is not sound: {error}") from None
    return data


def if_match_of(request: Request) -> int | None:
    """The event number of `If-Match` (`12`, `"12"` or `W/"12"`), or None."""
    text = request.headers.get("if-match")
    if text is None:
        return None
    match = re.fullmatch(r'\s*(?:W/)?"?(\d{1,18})"?\s*', text)
    if match is None:
        raise ApiError(400, "malformed", "If-Match must be an event number, e.g. If-Match: 12")
    return int(match.group(1))


def last_event_id(request: Request) -> int:
    text = request.headers.get("last-event-id") or request.query_params.get("last_event_id")
    if text is None or text == "":
        return 0
    if not text.isdigit() or len(text) > 18:
        raise ApiError(400, "malformed", "Last-Event-ID must be an event number")
    return int(text)


#: Added to a served viewer page: it follows the seat's stream (the token in the page's
#: own address) and reloads when a new fact comes, staying at the last step if it was
#: there. The page's policy lets it connect to its own server only.
LIVE_SCRIPT = """<script>
(function () {
  const token = new URLSearchParams(location.search).get("token");
  if (!token || !window.EventSource) return;
  const data = JSON.parse(document.getElementById("game-data").textContent);
  const last = data.frames.length ? data.frames[data.frames.length - 1].step : 0;
  const url = "/games/GAME/stream?token=" + encodeURIComponent(token) + "&last_event_id=HEAD";
  const source = new EventSource(url);
  source.addEventListener("fact", function () {
    source.close();
    if (document.body.dataset.step === String(last)) location.hash = "#step=999999999";
    setTimeout(function () { location.reload(); }, 200);
  });
})();
</script>
"""


def live_page(html: str, game_id: UUID, head: int) -> str:
    """A viewer page that updates live from its seat's stream."""
    script = LIVE_SCRIPT.replace("GAME", str(game_id)).replace("HEAD", str(head))
    html = html.replace("default-src 'none';", "default-src 'none'; connect-src 'self';", 1)
    return html.replace("</body>", script + "</body>", 1)


def create_app(db: str, *, max_body: int = MAX_BODY, key: bytes | None = None) -> Starlette:
    """The Starlette app of one server on the game store `db`; with a server `key`
    (`WARLEDGER_KEY`) it signs heads and snapshots and decides only on what they
    authenticate (`replay.keyed`)."""
    server = Server(db, max_body, key)

    async def create_game(request: Request) -> Response:
        refuse_repeats(request)
        judge = await run_in_threadpool(server.judge_token, request)
        data = parse_body(await read_body(request, server.max_body),
                          request.headers.get("content-type", ""))
        try:
            created = await run_in_threadpool(server.create, data, judge)
        except ScriptError as error:
            raise ApiError(400, "bad_setup", str(error)) from None
        return JSONResponse(created, status_code=201)

    async def who(request: Request) -> tuple[UUID, Seat]:
        refuse_repeats(request)
        seat = await run_in_threadpool(server.seat, request)
        return seat.game_id, seat

    async def list_games(request: Request) -> Response:
        refuse_repeats(request)

        def games() -> list[dict[str, Any]]:
            return [server.summary(seat) for seat in server.seats_held(request)]
        return JSONResponse({"games": await run_in_threadpool(games)})

    async def front_page(request: Request) -> Response:
        return HTMLResponse(FRONT_PAGE.read_text(encoding="utf-8"),
                            headers={"Content-Security-Policy": FRONT_PAGE_POLICY})

    async def post_command(request: Request) -> Response:
        game_id, seat = await who(request)
        if seat.role == "spectator":
            raise ApiError(403, "spectator", "a spectator cannot issue commands")
        data = parse_body(await read_body(request, server.max_body),
                          request.headers.get("content-type", ""))
        if not isinstance(data, dict):
            raise ApiError(400, "malformed", "a command is a JSON object")
        if "by" not in data:
            data["by"] = seat.seat
        elif not isinstance(data["by"], str):
            raise ApiError(400, "malformed", "'by' names a seat, as text; leave it out and "
                           "the token's seat acts")
        elif data["by"] != seat.seat:
            raise ApiError(403, "not_your_seat", f"this token holds the seat {seat.seat!r}; it "
                           f"cannot act for {data['by']!r}")
        from warledger.script import split_step

        command, dice, problem = split_step(data)
        if command is None:
            raise ApiError(400, "malformed", f"bad step: {problem}")
        if_match = if_match_of(request)
        status, result = await run_in_threadpool(server.command, game_id, seat, command,
                                                 dice, if_match)
        return JSONResponse(result, status_code=status)

    async def get_state(request: Request) -> Response:
        game_id, seat = await who(request)
        view, head = await run_in_threadpool(server.view, game_id, seat)
        return JSONResponse(view, headers={"ETag": f'"{head.number}"'})

    def seat_options(game_id: UUID, seat: Seat) -> dict[str, Any]:
        """What the token's seat may do now (`GameService.options`); a spectator
        (a name no player may take) may do nothing."""
        return server.service.options(game_id, seat.name).as_data()

    async def get_options(request: Request) -> Response:
        game_id, seat = await who(request)
        return JSONResponse(await run_in_threadpool(seat_options, game_id, seat))

    async def get_head(request: Request) -> Response:
        game_id, seat = await who(request)
        head = await run_in_threadpool(server.head, game_id, seat)
        return JSONResponse({"game": str(game_id), "seat": seat.name, "role": seat.role,
                             "head": head.receipt}, headers={"ETag": f'"{head.number}"'})

    async def get_export(request: Request) -> Response:
        game_id, seat = await who(request)
        events = await run_in_threadpool(server.events, game_id)
        body = b"".join(orjson.dumps(line) + b"\n" for line in export_lines(events, seat.player))
        return Response(body, media_type="application/x-ndjson")

    def seat_attempts(game_id: UUID, seat: Seat) -> list[dict[str, Any]]:
        """The judge sees every refused attempt, a player only their own, a spectator
        none (a refusal may name what others may not know)."""
        if seat.role == "spectator":
            return []
        chosen = None if seat.role == "judge" else seat.seat
        return [a.as_json() for a in server.service.attempts(game_id, chosen)]

    async def get_attempts(request: Request) -> Response:
        game_id, seat = await who(request)
        return JSONResponse(await run_in_threadpool(seat_attempts, game_id, seat))

    async def get_audit(request: Request) -> Response:
        from replay.audit import as_json, audit_entries, step_positions

        game_id, seat = await who(request)

        def audit() -> dict[str, Any]:
            events = server.events(game_id)
            seen = events if seat.player is None else [
                e for _, e in numbered_for(events, seat.player)]
            entries = audit_entries(seen, positions=step_positions(events))
            return {"entries": as_json(entries), "attempts": seat_attempts(game_id, seat)}
        return JSONResponse(await run_in_threadpool(audit))

    async def get_viewer(request: Request) -> Response:
        from projections.viewer import viewer_html

        game_id, seat = await who(request)

        def page() -> str:
            head = server.head(game_id, seat)
            html = viewer_html(server.events(game_id), seat.player,
                               attempts=seat_attempts(game_id, seat), viewer_name=seat.name)
            return live_page(html, game_id, head.number)
        return HTMLResponse(await run_in_threadpool(page))

    async def get_stream(request: Request) -> Response:
        game_id, seat = await who(request)
        after = last_event_id(request)
        follow = request.query_params.get("follow", "1") not in ("0", "false", "no")
        return StreamingResponse(
            stream_lines(server, game_id, seat, after, follow),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.create_task(server.notifier.run())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            server.close()

    async def api_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, ApiError)
        return error.response()

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http")
        return JSONResponse({"error": code, "message": str(error.detail)},
                            status_code=error.status_code)

    async def unexpected(request: Request, error: Exception) -> Response:
        if isinstance(error, GameNotFoundError):
            return ApiError(404, "unknown_game", str(error)).response()
        first = str(error).splitlines()[0] if str(error) else ""
        return JSONResponse({"error": "internal",
                             "message": f"unexpected {type(error).__name__}: {first}"[:300]},
                            status_code=500)

    routes = [
        Route("/", front_page, methods=["GET"]),
        Route("/games", list_games, methods=["GET"]),
        Route("/games", create_game, methods=["POST"]),
        Route("/games/{game}", get_head, methods=["GET"]),
        Route("/games/{game}/commands", post_command, methods=["POST"]),
        Route("/games/{game}/state", get_state, methods=["GET"]),
        Route("/games/{game}/options", get_options, methods=["GET"]),
        Route("/games/{game}/export", get_export, methods=["GET"]),
        Route("/games/{game}/audit", get_audit, methods=["GET"]),
        Route("/games/{game}/attempts", get_attempts, methods=["GET"]),
        Route("/games/{game}/viewer", get_viewer, methods=["GET"]),
        Route("/games/{game}/stream", get_stream, methods=["GET"]),
    ]
    async def tampered(request: Request, error: Exception) -> Response:
        """A keyed server read what no keyed server wrote (`replay.keyed`)."""
        return ApiError(500, "tampered", str(error)).response()

    handlers: dict[Any, Callable[..., Any]] = {
        ApiError: api_error, HTTPException: http_error, TamperedGameError: tampered,
        Exception: unexpected}
    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)
    app.state.server = server
    return app


async def stream_lines(server: Server, game_id: UUID, seat: Seat, after: int,
                       follow: bool) -> AsyncIterator[bytes]:
    """Server-Sent Events: each fact the seat may know, `id:` its number as the seat's
    export numbers it (`n`; the judge: the log's event number), after `after`.

    Events are read from the database by version: a game's versions are gapless and
    each is committed after the one before, so a reader that has seen version v and
    reads `gt=v` misses none, whichever server wrote them. With a server key each read
    is checked from the last event sent to the latest signed head: a stream never sends
    an event a database writer made, and ends with one `tampered` event instead."""
    reader = SeatReader(seat.player)
    idle = 0.0
    while True:
        wake = server.notifier.event_for(game_id)
        try:
            fresh = await run_in_threadpool(server.events_after, game_id, reader.version,
                                            reader.head_hash)
        except TamperedGameError as error:
            yield b"event: tampered\ndata: %s\n\n" % orjson.dumps(
                {"error": "tampered", "message": str(error)})
            return
        lines = [line for line in reader.feed(fresh) if line[0] > after]
        for number, line in lines:
            yield b"id: %d\nevent: fact\ndata: %s\n\n" % (number, orjson.dumps(line))
        if not follow and not fresh:
            return
        if fresh:
            idle = 0.0
            continue
        timeout = 1.0 if server.notifier.running else POLL_SECONDS * 5
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), timeout)
        idle += timeout
        if idle >= KEEPALIVE_SECONDS:
            idle = 0.0
            yield b": keep-alive\n\n"


class SeatReader:
    """Turns a game's events, as they come, into one seat's numbered lines."""

    def __init__(self, player: str | None) -> None:
        self.seer = Seer(player) if player is not None else None
        self.version = 0
        #: The hash of event `version` (None before the first): where the next read links.
        self.head_hash: str | None = None

    def feed(self, events: list[Any]) -> Iterator[tuple[int, dict[str, Any]]]:
        for event in events:
            self.version, self.head_hash = event.originator_version, event.hash
            if self.seer is None:
                yield event.originator_version, full_line(event)
                continue
            seen = self.seer.see(event)
            if seen is not None:
                yield self.seer.count, player_line(replace(seen,
                                                           originator_version=self.seer.count))

"""The signed-games record: which games were signed with a server key, kept beside the
key, where a database writer cannot reach it (docs/server.md "Keyed tamper evidence").

Signed heads live in the game database, beside the events. Whoever can write that
database can rewrite a keyed game's whole log with recomputed hashes and delete its
heads and snapshots: what is left looks like a game stored without the key, and a
marker inside the log would be deleted with the rest. So the knowledge that a game
was signed is kept outside the database, in a file of the key's own configuration:

- the file `WARLEDGER_SIGNED_GAMES` names, or by default
  `$XDG_STATE_HOME/warledger/signed-games-<key id>.jsonl` (`~/.local/state` when
  `XDG_STATE_HOME` is unset), where `<key id>` is a fingerprint of the key;
- one JSON line per game, `{"game": ID, "event": N, "key": KEY_ID}`, written when a
  service holding the key first signs one of the game's heads (`event`: that head's
  event), before the transaction that stores it (a crash between them lists a game
  that may have no head: it is never adopted, which is the safe side);
- then one line `{"game": ID, "head": N, "key": KEY_ID}` for every head the service
  signs, after the transaction that stored it (a crash between them leaves the
  record behind the database, never ahead of it);
- a line of another key's id is not this key's and is left alone.

With the key, `warledger verify` says of a game with no signed head whether the
record lists it (UNSIGNED either way, never "ok"), fails a game whose log ends
before the latest head the record saw signed (events removed, heads and all), and
`verify --sign-head HEAD` refuses to adopt a game the record lists. Give every server
holding the key the same record (a shared file), as they share the key.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import hmac
import os
import threading
from collections.abc import Mapping
from pathlib import Path
from uuid import UUID

import orjson

from domain.errors import ScriptError

#: The environment variable naming the record's file (documented with `WARLEDGER_KEY`).
RECORD_ENV = "WARLEDGER_SIGNED_GAMES"


def key_id(key: bytes) -> str:
    """A fingerprint of the key that tells records apart (it reveals nothing of it)."""
    return hmac.new(key, b"warledger-signed-games-record", hashlib.sha256).hexdigest()[:16]


def record_path(key: bytes, environ: Mapping[str, str] | None = None) -> Path:
    """Where the key's record is: `WARLEDGER_SIGNED_GAMES`, or the default by key id."""
    env = os.environ if environ is None else environ
    named = env.get(RECORD_ENV, "")
    if named:
        return Path(named)
    state = env.get("XDG_STATE_HOME", "") or str(Path.home() / ".local" / "state")
    return Path(state) / "warledger" / f"signed-games-{key_id(key)}.jsonl"


class SignedGamesRecord:
    """The games a key signed: the event of the first head it signed of each, and the
    latest head it saw signed."""

    def __init__(self, path: Path, key: bytes) -> None:
        self.path = path
        self.key_id = key_id(key)
        self._known: dict[str, int] = {}
        self._lock = threading.Lock()

    @classmethod
    def for_key(cls, key: bytes, environ: Mapping[str, str] | None = None
                ) -> SignedGamesRecord:
        """The key's record at `record_path`, its file created if missing."""
        record = cls(record_path(key, environ), key)
        record.open()
        return record

    def open(self) -> None:
        """Create the file (and its folder), or a `ScriptError` saying why it cannot be."""
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
        except OSError as error:
            raise ScriptError(f"cannot keep the signed-games record {self.path} "
                              f"({error.strerror}); set {RECORD_ENV} to a file the key's "
                              "servers can write") from None

    def listed(self, game_id: UUID) -> int | None:
        """The event of the game's first signed head, as the record lists it (read
        afresh: another server may have listed it), or None when it is not listed."""
        firsts, _ = self._read()
        with self._lock:
            self._known.update(firsts)
            return self._known.get(str(game_id))

    def latest_head(self, game_id: UUID) -> int | None:
        """The latest event at which the record saw one of the game's heads signed (read
        afresh), or None when it saw none."""
        return self._read()[1].get(str(game_id))

    def saw_head(self, game_id: UUID, version: int) -> None:
        """Note a head signed and stored (after its transaction: the record may fall
        behind the database, never run ahead of it)."""
        line = orjson.dumps({"game": str(game_id), "head": version, "key": self.key_id})
        with self.path.open("ab") as file:
            fcntl.flock(file, fcntl.LOCK_EX)
            file.write(line + b"\n")

    def list(self, game_id: UUID, version: int) -> None:
        """List the game (once; a later head of a listed game changes nothing)."""
        game = str(game_id)
        if game in self._known:
            return
        with self._lock, self.path.open("ab") as file:
            fcntl.flock(file, fcntl.LOCK_EX)
            self._known.update(self._read()[0])
            if game not in self._known:
                file.write(orjson.dumps({"game": game, "event": version, "key": self.key_id})
                           + b"\n")
                file.flush()
                os.fsync(file.fileno())
                self._known[game] = version

    def _read(self) -> tuple[dict[str, int], dict[str, int]]:
        """This key's lines of the file: each listed game's first signed head, and the
        latest head seen signed (a line that cannot be read is skipped: a cut last
        line, say)."""
        firsts: dict[str, int] = {}
        heads: dict[str, int] = {}
        try:
            text = self.path.read_bytes()
        except FileNotFoundError:  # removed since: it lists nothing now
            return firsts, heads
        for line in text.splitlines():
            with contextlib.suppress(orjson.JSONDecodeError, KeyError, TypeError, ValueError):
                entry = orjson.loads(line)
                if entry["key"] != self.key_id:
                    continue
                game = str(entry["game"])
                if "head" in entry:
                    heads[game] = max(int(entry["head"]), heads.get(game, 0))
                else:
                    firsts.setdefault(game, int(entry["event"]))
        return firsts, heads

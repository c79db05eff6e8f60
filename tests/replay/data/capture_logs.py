"""How `v1-logs.jsonl.gz` was made: a pytest plugin that keeps every
game the suite stores, then writes each with the hashes after each event, as
computed by the code under test. Run on the code of commit 91fc8a2 (it wrote v1 logs):

    CAPTURE_OUT=logs.jsonl.gz PYTHONPATH=tests/replay/data \\
        python -m pytest -q -p capture_logs -p no:cacheprovider

(The `verifies` mark was added after, by that code's `replay.verify.redecide_all`.)
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
from typing import Any

import orjson

from domain.game import Game
from domain.state import GameState
from replay.service import GameService

GAMES: dict[str, list[tuple[int, dict[str, Any]]]] = {}
_store = GameService._store


def _capturing_store(self: GameService, game: Game) -> None:
    pending = [(e.step, dict(e.stored_fact or e.fact.payload())) for e in game.pending]
    _store(self, game)
    GAMES.setdefault(str(game.id), []).extend(pending)


GameService._store = _capturing_store  # type: ignore[method-assign]


def full_hash(state: GameState) -> str:
    dump = orjson.dumps(state.model_dump(mode="json"), option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(dump).hexdigest()[:16]


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    from domain.apply import apply
    from domain.errors import ScriptError
    from domain.ruleset import find_ruleset
    from events.core import GameStarted
    from events.registry import load_fact
    from projections.state_view import state_hash

    seen: set[str] = set()
    with gzip.open(os.environ["CAPTURE_OUT"], "wt") as out:
        for facts in GAMES.values():
            key = json.dumps(facts, sort_keys=True)
            if key in seen or not facts or facts[0][1].get("type") != "GameStarted":
                continue
            seen.add(key)
            started = load_fact(dict(facts[0][1]))
            assert isinstance(started, GameStarted)
            try:
                state = find_ruleset(started.ruleset).initial_state(started)
            except ScriptError:  # a rule set only a benchmark registers
                continue
            hashes = [[state_hash(state)[:16], full_hash(state)]]
            for _, payload in facts[1:]:
                apply(state, load_fact(dict(payload)))
                hashes.append([state_hash(state)[:16], full_hash(state)])
            out.write(json.dumps({"ruleset": started.ruleset, "facts": facts,
                                  "hashes": hashes, "final": state_hash(state)}) + "\n")

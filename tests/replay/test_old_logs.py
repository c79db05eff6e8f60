"""v1 logs (facts of class_version 1) replay and verify exactly as they did.

The v2 facts moved the decisions that appliers made (the undo depth, the redo
stack, a window suspended by an undo, one-use cost modifiers, a destroyed
unit's battle-shock test, an arrival counting as an Advance Move, a rider
moving with its mount, a rider's tokens on mounting) into `decide`, as explicit
facts. `data/v1-logs.jsonl.gz` holds every game the test suite
stored on the code before that change (827 games, all four rule sets), with the
state hash and the hash of the full `model_dump` after each event, computed by
that code (`data/capture_logs.py`, a pytest plugin), and whether that code's
`verify` re-decided it (all but one Infinity game, which that code's verify
refused too). Its facts are read by the legacy classes of
`events.base.legacy` and must give the same hashes, and verify, forever.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import orjson
import pytest

from domain.apply import apply
from domain.ruleset import find_ruleset
from domain.state import GameState
from events.base import Fact
from events.core import GameStarted
from events.envelope import GENESIS_HASH, GameEvent, chain_hash, hashed_body
from events.registry import load_fact
from projections.state_view import state_hash
from replay.verify import VerifyFailure, redecide_all
from tests.dice_game import DICE  # noqa: F401  (registers the test-dice rule set)

FIXTURE = Path(__file__).parent / "data" / "v1-logs.jsonl.gz"


def stored_games() -> Iterator[dict[str, Any]]:
    with gzip.open(FIXTURE, "rt") as lines:
        for line in lines:
            yield json.loads(line)


GAMES = list(stored_games())


#: State fields added after the fixture was captured (the result and
#: metadata, the rules version stamp, a held charge roll); a log stored before them
#: leaves them at None,
#: and the captured dump did not have them.
ADDED_AFTER_CAPTURE = ("metadata", "result", "rules_version", "held_charge")


def full_hash(state: GameState) -> str:
    """The first 16 hex digits of SHA-256 over the state's whole sorted-key dump,
    less the fields added since the capture while they are still unset."""
    data = state.model_dump(mode="json")
    for name in ADDED_AFTER_CAPTURE:
        if data.get(name, "absent") is None:
            del data[name]
    dump = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(dump).hexdigest()[:16]


def facts_of(game: dict[str, Any]) -> list[Fact]:
    return [load_fact(dict(payload)) for _, payload in game["facts"]]


def test_the_fixture_covers_every_rule_set_and_every_fact_v2_logs_make_explicit() -> None:
    kinds = {payload["type"] for game in GAMES for _, payload in game["facts"]}
    assert {g["ruleset"] for g in GAMES} >= {"t9a", "infinity-n4", "mageknight-2", "w40k-10"}
    assert kinds >= {"StepTaken", "ReactionWindowOpened", "StepsUndone", "StepsRedone",
                     "StratagemUsed", "MortalWoundsRolled", "UnitArrivedFromAmbush",
                     "FigureMoved", "RiderMounted"}
    assert all(payload["class_version"] == 1 for game in GAMES for _, payload in game["facts"]
               if payload["type"] != "DiceRolled")


def test_every_stored_log_replays_to_the_same_state_after_every_event() -> None:
    """The state hash and the full model_dump hash after each event are those the
    code that wrote v1 logs computed."""
    for number, game in enumerate(GAMES):
        facts = facts_of(game)
        started = facts[0]
        assert isinstance(started, GameStarted)
        state = find_ruleset(started.ruleset).initial_state(started)
        assert [state_hash(state)[:16], full_hash(state)] == game["hashes"][0]
        for index, fact in enumerate(facts[1:], start=1):
            apply(state, fact)
            assert [state_hash(state)[:16], full_hash(state)] == game["hashes"][index], (
                f"game {number} ({game['ruleset']}), event {index + 1}: {fact.type}")
        assert state_hash(state) == game["final"]


def chained(game: dict[str, Any]) -> list[GameEvent]:
    """The stored facts as a hash-chained log (as the store would hold them)."""
    game_id: UUID = uuid4()
    stamp = datetime(2026, 11, 30, tzinfo=UTC)
    events, head = [], GENESIS_HASH
    for version, ((step, payload), fact) in enumerate(zip(game["facts"], facts_of(game),
                                                          strict=True), start=1):
        digest = chain_hash(hashed_body(game_id, version, stamp.isoformat(), step, head,
                                        payload))
        events.append(GameEvent(originator_id=game_id, originator_version=version,
                                timestamp=stamp, step=step, prev_hash=head, hash=digest,
                                fact=fact, stored_fact=payload))
        head = digest
    return events


@pytest.mark.parametrize("ruleset", ["t9a", "infinity-n4", "mageknight-2", "w40k-10",
                                     "test-dice"])
def test_every_stored_log_is_re_decided_to_its_recorded_facts(ruleset: str) -> None:
    """`verify` re-decides each step of an old log with today's rules: the facts
    match (the explicit facts v2 logs add are not in an old step)."""
    games = [g for g in GAMES if g["ruleset"] == ruleset and g["verifies"]]
    assert len(games) >= 0.95 * sum(g["ruleset"] == ruleset for g in GAMES)
    steps, cited_anew = 0, 0
    for game in games:
        try:
            steps += redecide_all(chained(game))
        except VerifyFailure as failure:
            # Later rule fixes made some refusals and steps cite a clause they did not
            # cite then (e.g. MNT-90 on a Horsemanship rider); nothing else may differ.
            assert "ClauseApplied" in failure.reason, failure.reason
            cited_anew += 1
    assert steps > len(games) and cited_anew <= 0.1 * len(games)

"""The states a service decided on, kept for undo and redo (`replay.past_states`):
an undo or a redo records exactly the state the log gives (CORE-UNDO-OWN,
CORE-REDO-NOTHING), whether it came from memory or from the log."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain.undo import recorded
from events.undo import StepsRedone, StepsUndone
from replay.past_states import PastStates
from replay.service import GameService
from replay.verify import verify_game
from tests.accepting import accept
from tests.dice_game import DICE  # noqa: F401  (registers the test-dice rule set)
from tests.replay.test_undo import SETUP, rolled
from warledger.script import load_script, split_step

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.yaml"))


def restoring_facts(service: GameService, game_id: UUID) -> list[Any]:
    return [e for e in service.stored_events(game_id)
            if isinstance(e.fact, StepsUndone | StepsRedone)]


def log_state(service: GameService, game_id: UUID, version: int) -> dict[str, Any]:
    """What the log says the state after `version` was (time travel, no kept state)."""
    return recorded(service.game_at(game_id, version).state)


def first_version_of(service: GameService, game_id: UUID, step: int) -> int:
    return next(e.originator_version for e in service.stored_events(game_id) if e.step == step)


def last_version_of(service: GameService, game_id: UUID, step: int) -> int:
    return [e.originator_version for e in service.stored_events(game_id) if e.step == step][-1]


def played(path: Path, steps: int | None = None) -> tuple[GameService, UUID, int | None]:
    """An example game played (its first `steps` steps), and the index of its last step
    of play that can be undone right after it (accepted, its own step the latest live
    one, no window open, the game not over)."""
    script = load_script(path)
    service = GameService(":memory:")
    game_id = service.start(script.setup())
    last = None
    for index, step in enumerate(script.steps[:steps]):
        data, dice, problem = split_step(step)
        if problem is not None or data is None:
            continue
        outcome = service.handle(game_id, data, dice)
        state = service.load(game_id).state
        if outcome.accepted and state.live_steps and state.live_steps[-1].step == state.step \
                and not state.finished and state.reaction_window is None:
            last = index
    return service, game_id, last


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_an_undo_from_memory_records_the_state_the_log_gives(path: Path) -> None:
    """CORE-UNDO-OWN: every example game, played up to its last step of play that can
    be undone, that step undone: the state recorded came from memory (it was kept) and
    equals the log's."""
    _, _, last = played(path)
    if last is None:
        pytest.skip("no step of play that can be undone")
    service, game_id, again = played(path, last + 1)
    assert again == last
    by = str(load_script(path).steps[last]["by"])
    state = service.load(game_id).state
    step = state.live_steps[-1].step
    before = first_version_of(service, game_id, step) - 1
    assert service._past.state_after(game_id, before) is not None  # memory, not the log

    other = next((p for p in state.players if p != by), "judge")
    asked = service.handle(game_id, {"do": "request_undo", "by": by})
    answered = service.handle(game_id, {"do": "consent", "by": other, "accept": True})

    assert asked.accepted and answered.accepted, (asked, answered)
    (undone,) = restoring_facts(service, game_id)
    assert undone.fact.restored == log_state(service, game_id, before)
    assert verify_game(service, game_id).ok


def test_undo_and_redo_record_the_same_facts_with_and_without_kept_states(
    tmp_path: Path,
) -> None:
    """CORE-UNDO-OWN, CORE-REDO-NOTHING: two services on one log, one keeping every
    state, one keeping none (each undo and redo reads the log): the facts recorded
    are the same."""
    kept = GameService(str(tmp_path / "a.db"))
    bare = GameService(str(tmp_path / "b.db"))
    bare._past = PastStates(per_game=0)
    found = []
    for service in (kept, bare):
        game_id = service.start(SETUP, UUID(int=7))
        for _ in range(3):
            rolled(service, game_id)
        for asked in ({"do": "request_undo", "by": "red", "steps": 2},
                      {"do": "request_redo", "by": "red"}):
            accept(service, game_id, asked)
            accept(service, game_id, {"do": "consent", "by": "blue", "accept": True})
        rolled(service, game_id)
        assert verify_game(service, game_id).ok
        found.append([e.fact for e in restoring_facts(service, game_id)])
    assert [f.type for f in found[0]] == ["StepsUndone", "StepsRedone"]
    assert found[0] == found[1]
    redone = found[0][1]
    assert redone.restored == log_state(kept, UUID(int=7), last_version_of(kept, UUID(int=7), 3))


def test_a_state_older_than_what_is_kept_is_read_from_the_log(service: GameService) -> None:
    """CORE-UNDO-DEPTH: an undo reaching back past the kept states still restores the
    state before its first step, from the log."""
    service._past = PastStates(per_game=2)
    game_id = service.start(SETUP)
    for _ in range(5):
        rolled(service, game_id)
    before = first_version_of(service, game_id, 1) - 1
    assert service._past.state_after(game_id, before) is None

    accept(service, game_id, {"do": "request_undo", "by": "red", "steps": 5})
    accept(service, game_id, {"do": "consent", "by": "blue", "accept": True})

    (undone,) = restoring_facts(service, game_id)
    assert list(undone.fact.steps) == [1, 2, 3, 4, 5]
    assert undone.fact.restored == log_state(service, game_id, before)


def test_kept_states_are_bounded() -> None:
    past = PastStates(per_game=2, games=2)
    state: Any = object()
    for game in range(3):
        for version in range(4):
            past.keep(UUID(int=game), version, state)
    assert past.state_after(UUID(int=0), 3) is None  # the game decided on longest ago
    assert [past.state_after(UUID(int=2), v) is state for v in range(4)] == [
        False, False, True, True]

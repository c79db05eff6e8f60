"""The decision gate never changes its caller's state.

Every step of every example, accepted or refused, is decided against the
service's cached state; the state object the caller holds keeps its
`model_dump` and its state hash. A refused step leaves the very same object
in the cache (nothing to evict), and an accepted one leads to a new state.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from domain.dice import DiceSource
from domain.errors import RuleViolation
from domain.gate import decide, settle
from domain.ruleset import find_ruleset
from projections.state_view import state_hash
from replay.service import GameService
from warledger.script import load_script, split_step

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.yaml"))
RULESETS = ("t9a", "infinity-n4", "mageknight-2", "w40k-10")


def run_checking_the_callers_state(service: GameService, path: Path) -> Counter[str]:
    """Run one example; after each step, the state the step was decided on is
    byte-identical to what it was. Returns the rules that refused steps."""
    script = load_script(path)
    game_id = service.start(script.setup())
    refused: Counter[str] = Counter()
    for step in script.steps:
        data, dice, problem = split_step(step)
        assert problem is None and data is not None
        before = service.load(game_id).state
        dump, digest = before.model_dump(mode="json"), state_hash(before)
        outcome = service.handle(game_id, data, dice)
        assert before.model_dump(mode="json") == dump, (path.name, data)
        assert state_hash(before) == digest, (path.name, data)
        after = service.load(game_id).state
        if outcome.accepted:
            assert after is not before
        else:
            assert after is before, "a refusal evicted or replaced the cached state"
            refused[str(outcome.rule)] += 1
    return refused


def test_no_step_of_any_example_changes_the_state_it_was_decided_on(
    service: GameService,
) -> None:
    """Refused at every gate (INPUT, CORE-*, clauses) and accepted, in every rule set:
    the caller's state object keeps its model_dump and state hash."""
    by_ruleset: dict[str, Counter[str]] = {name: Counter() for name in RULESETS}
    for path in EXAMPLES:
        ruleset = find_ruleset(load_script(path).ruleset).name
        by_ruleset[ruleset] += run_checking_the_callers_state(service, path)

    for name, rules in by_ruleset.items():
        clauses = [r for r in rules if r != "INPUT" and not r.startswith("CORE-")]
        assert clauses, f"{name}: no example step was refused by a clause ({dict(rules)})"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_refused_end_turn_leaves_step_and_live_steps_as_they_were(
    ruleset: str, service: GameService
) -> None:
    """CORE-NOT-YOUR-TURN and CORE-JUDGE-ONLY refusals decided straight through the
    gate: `step`, `live_steps` and everything else stay as they were."""
    from domain.ruleset import Setup

    rules = find_ruleset(ruleset)
    game_id = service.start(Setup(ruleset=ruleset, board={"width": 48, "height": 48},
                                  players=("red", "blue")))
    first = "next_phase" if rules.machine.before else "end_turn"
    assert service.handle(game_id, {"do": first, "by": "red"}).accepted
    state = service.load(game_id).state
    active, other = state.active_player, state.opponents(state.active_player)[0]
    dump = state.model_dump(mode="json")
    for data, rule in (({"do": "end_turn", "by": other}, "CORE-NOT-YOUR-TURN"),
                       ({"do": "ruling", "by": active, "text": "no"}, "CORE-JUDGE-ONLY")):
        with pytest.raises(RuleViolation) as refusal:
            decide(rules, state, rules.parse_command(data), DiceSource(0, state.dice_index))
        assert refusal.value.rule == rule
        assert state.model_dump(mode="json") == dump

    decided = settle(rules, state, rules.parse_command({"do": "end_turn", "by": active}),
                     DiceSource(0, state.dice_index))
    assert state.model_dump(mode="json") == dump
    assert decided.state.step == state.step + 1
    assert [ref.do for ref in decided.state.live_steps] == [first, "end_turn"]

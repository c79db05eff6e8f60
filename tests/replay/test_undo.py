"""Contested moves: undo and redo by consent, no fishing for dice, rulings, roles.

Runs on every backend. A tiny dice game (defined here) gives the core
something to roll; the rule sets' own games are covered by the property test.
"""

from __future__ import annotations

from uuid import UUID

import pytest

from domain.ruleset import Setup
from projections.state_view import state_view
from replay.audit import audit_entries, fold_entries, render
from replay.service import GameService
from replay.verify import verify_game
from tests.accepting import accept
from tests.dice_game import DICE  # noqa: F401  (registers the test-dice rule set)

SETUP = Setup(ruleset="test-dice", board={"width": 10, "height": 10}, players=("red", "blue"),
              seed=99)


def rolled(service: GameService, game_id: UUID, by: str = "red") -> int:
    outcome = service.handle(game_id, {"do": "roll", "by": by})
    assert outcome.accepted, outcome
    assert outcome.message is not None
    return int(outcome.message.split()[-1])


def undo(service: GameService, game_id: UUID, steps: int = 1, by: str = "red",
         consenter: str = "blue", accept: bool = True) -> None:
    asked = service.handle(game_id, {"do": "request_undo", "by": by, "steps": steps})
    assert asked.accepted, asked
    answered = service.handle(game_id, {"do": "consent", "by": consenter, "accept": accept})
    assert answered.accepted, answered


def view(service: GameService, game_id: UUID) -> dict:
    return state_view(service.load(game_id).state)


def test_an_accepted_undo_restores_the_state_before_the_step(
    backend_service: GameService,
) -> None:
    game_id = backend_service.start(SETUP)
    before = view(backend_service, game_id)
    accept(backend_service, game_id, {"do": "next_phase", "by": "red"})

    undo(backend_service, game_id)

    assert view(backend_service, game_id) == before
    types = [e.fact.type for e in backend_service.stored_events(game_id)]
    assert "StepsUndone" in types and types.count("StepTaken") == 3  # nothing deleted


def test_the_undo_window_is_open_until_answered(backend_service: GameService) -> None:
    game_id = backend_service.start(SETUP)
    accept(backend_service, game_id, {"do": "next_phase", "by": "red"})

    accept(backend_service, game_id, {"do": "request_undo", "by": "red"})

    window = view(backend_service, game_id)["reaction_window"]
    assert window["kind"] == "undo" and window["eligible"] == ["blue", "judge"]
    blocked = backend_service.handle(game_id, {"do": "next_phase", "by": "red"})
    assert (blocked.accepted, blocked.rule) == (False, "CORE-WINDOW-OPEN")


def test_a_player_cannot_consent_to_their_own_undo(backend_service: GameService) -> None:
    game_id = backend_service.start(SETUP)
    accept(backend_service, game_id, {"do": "next_phase", "by": "red"})
    accept(backend_service, game_id, {"do": "request_undo", "by": "red"})

    outcome = backend_service.handle(game_id, {"do": "consent", "by": "red", "accept": True})

    assert (outcome.accepted, outcome.rule) == (False, "CORE-UNDO-SELF")


def test_a_judge_may_consent(service: GameService) -> None:
    game_id = service.start(SETUP)
    accept(service, game_id, {"do": "next_phase", "by": "red"})

    undo(service, game_id, consenter="judge")

    assert service.load(game_id).state.phase == "play"


def test_a_refusal_is_final_for_that_request(backend_service: GameService) -> None:
    game_id = backend_service.start(SETUP)
    accept(backend_service, game_id, {"do": "next_phase", "by": "red"})

    undo(backend_service, game_id, accept=False)

    assert backend_service.load(game_id).state.phase == "rest"
    late = backend_service.handle(game_id, {"do": "consent", "by": "judge", "accept": True})
    assert (late.accepted, late.rule) == (False, "CORE-NO-WINDOW")


def test_a_player_may_undo_only_their_own_latest_steps(service: GameService) -> None:
    game_id = service.start(SETUP)
    accept(service, game_id, {"do": "end_turn", "by": "red"})
    accept(service, game_id, {"do": "next_phase", "by": "blue"})

    outcome = service.handle(game_id, {"do": "request_undo", "by": "red"})

    assert (outcome.accepted, outcome.rule) == (False, "CORE-UNDO-OWN")


def test_undoing_more_steps_than_exist_is_refused(service: GameService) -> None:
    game_id = service.start(SETUP)

    outcome = service.handle(game_id, {"do": "request_undo", "by": "red", "steps": 2})

    assert (outcome.accepted, outcome.rule) == (False, "CORE-UNDO-DEPTH")


def test_undone_digital_dice_are_served_first_to_the_next_rolls(
    backend_service: GameService,
) -> None:
    game_id = backend_service.start(SETUP)
    first = [rolled(backend_service, game_id) for _ in range(3)]

    undo(backend_service, game_id, steps=3)
    again = [rolled(backend_service, game_id) for _ in range(3)]
    fresh = rolled(backend_service, game_id)

    assert again == first  # the same dice, whatever they are now rolled for
    sources = [e.fact.source for e in backend_service.stored_events(game_id)
               if e.fact.type == "DiceRolled"]
    assert sources == ["digital"] * 3 + ["reused"] * 3 + ["digital"]
    assert fresh >= 1


def test_redo_brings_back_the_steps_with_their_old_dice(backend_service: GameService) -> None:
    game_id = backend_service.start(SETUP)
    rolled(backend_service, game_id)
    accept(backend_service, game_id, {"do": "next_phase", "by": "red"})
    after = view(backend_service, game_id)
    undo(backend_service, game_id, steps=2)

    asked = backend_service.handle(game_id, {"do": "request_redo", "by": "red"})
    answered = backend_service.handle(game_id, {"do": "consent", "by": "blue", "accept": True})

    assert asked.accepted and answered.accepted
    assert view(backend_service, game_id) == after
    assert backend_service.load(game_id).state.reusable_dice == []
    assert verify_game(backend_service, game_id).ok


def test_redo_is_refused_once_play_has_moved_on(service: GameService) -> None:
    game_id = service.start(SETUP)
    accept(service, game_id, {"do": "next_phase", "by": "red"})
    undo(service, game_id)
    accept(service, game_id, {"do": "end_turn", "by": "red"})

    outcome = service.handle(game_id, {"do": "request_redo", "by": "red"})

    assert (outcome.accepted, outcome.rule) == (False, "CORE-REDO-NOTHING")


def test_verify_passes_on_a_game_with_undos_and_redos(backend_service: GameService) -> None:
    game_id = backend_service.start(SETUP)
    rolled(backend_service, game_id)
    undo(backend_service, game_id)
    rolled(backend_service, game_id)
    undo(backend_service, game_id, accept=False)
    accept(backend_service, game_id, {"do": "next_phase", "by": "red"})
    undo(backend_service, game_id)
    accept(backend_service, game_id, {"do": "request_redo", "by": "red"})
    accept(backend_service, game_id, {"do": "consent", "by": "blue", "accept": True})

    verdict = verify_game(backend_service, game_id)

    assert verdict.ok, verdict.line()
    types = [e.fact.type for e in backend_service.stored_events(game_id)]
    assert types.count("StepsUndone") == 2 and types.count("StepsRedone") == 1
    assert backend_service.load(game_id).state.phase == "rest"  # the redone next_phase


def test_only_the_judge_records_rulings_and_the_audit_shows_them(
    backend_service: GameService,
) -> None:
    game_id = backend_service.start(SETUP)
    accept(backend_service, game_id, {"do": "next_phase", "by": "red"})

    refused = backend_service.handle(game_id, {"do": "ruling", "by": "red", "text": "I win"})
    ruled = backend_service.handle(game_id, {"do": "ruling", "by": "judge", "clause": "AMB-13",
                                     "text": "corner 3 is 6.0 inches away: within", "on_step": 1})

    assert (refused.accepted, refused.rule) == (False, "CORE-JUDGE-ONLY")
    assert ruled.accepted
    text = render(audit_entries(backend_service.stored_events(game_id)))
    assert "RULING by judge: corner 3 is 6.0 inches away" in text
    assert "AMB-13" in text and "three of its four corners" in text


def test_a_judge_cannot_request_an_undo(service: GameService) -> None:
    game_id = service.start(SETUP)
    accept(service, game_id, {"do": "next_phase", "by": "red"})

    outcome = service.handle(game_id, {"do": "request_undo", "by": "judge"})

    assert (outcome.accepted, outcome.rule) == (False, "CORE-JUDGE")


def test_the_audit_shows_undo_as_a_branch_and_fold_hides_it(backend_service: GameService) -> None:
    game_id = backend_service.start(SETUP)
    rolled(backend_service, game_id)
    undo(backend_service, game_id)
    rolled(backend_service, game_id)

    entries = audit_entries(backend_service.stored_events(game_id))
    folded = fold_entries(entries)

    assert entries[1].undone and "undone at step 3" in entries[1].branch
    assert [e.step for e in folded] == [0, 4]
    assert [e.command for e in entries] == ["setup", "roll", "request_undo", "consent", "roll"]


@pytest.mark.parametrize("lang", [False, True])
def test_audit_quotes_the_clause_in_english_or_the_original(
    service: GameService, lang: bool
) -> None:
    game_id = service.start(SETUP)
    accept(service, game_id, {"do": "ruling", "by": "judge", "clause": "CAU-02", "text": "no"})

    text = render(audit_entries(service.stored_events(game_id), lang=lang), lang=lang)

    assert ("no se utiliza en CodeOne" in text) == lang
    assert ("not used in CodeOne" in text) != lang


def test_undo_undo_redo_keeps_the_first_undone_dice_queued(
    backend_service: GameService,
) -> None:
    game_id = backend_service.start(SETUP)
    accept(backend_service, game_id, {"do": "next_phase", "by": "red"})
    accept(backend_service, game_id, {"do": "end_turn", "by": "red"})
    accept(backend_service, game_id, {"do": "end_turn", "by": "blue"})
    first = rolled(backend_service, game_id)
    undo(backend_service, game_id)  # the roll
    undo(backend_service, game_id, by="blue", consenter="red")  # blue's end_turn

    accept(backend_service, game_id, {"do": "request_redo", "by": "blue"})
    accept(backend_service, game_id, {"do": "consent", "by": "red", "accept": True})

    assert backend_service.load(game_id).state.reusable_dice == [first]
    assert rolled(backend_service, game_id) == first
    assert verify_game(backend_service, game_id).ok


def test_physical_dice_of_an_undone_step_are_served_again(service: GameService) -> None:
    game_id = service.start(SETUP)
    accept(service, game_id, {"do": "roll", "by": "red"}, [1])
    undo(service, game_id)

    fishing = service.handle(game_id, {"do": "roll", "by": "red"}, [6])
    again = service.handle(game_id, {"do": "roll", "by": "red"})

    assert (fishing.accepted, fishing.rule) == (False, "INPUT")
    assert fishing.message is not None and "queued" in fishing.message
    assert again.accepted and again.message == "rolled 1"


def test_undo_facts_carry_no_seed_and_no_hidden_unit_into_player_exports(
    service: GameService,
) -> None:
    from replay.export import export_lines
    from tests.replay.test_secrets import HIDDEN_SETUP

    game_id = service.start(HIDDEN_SETUP)
    accept(service, game_id, {"do": "next_phase", "by": "pano"})
    accept(service, game_id, {"do": "request_undo", "by": "pano"})
    accept(service, game_id, {"do": "consent", "by": "nomads", "accept": True})

    pano = "\n".join(str(line) for line in export_lines(service.stored_events(game_id), "pano"))
    undone = [line["fact"] for line in export_lines(service.stored_events(game_id))
              if line["fact"]["type"] == "StepsUndone"]

    assert "StepsUndone" in pano and "fusilier" in pano
    assert "sniper-hd" not in pano and "123456789" not in pano
    assert "sniper-hd" in undone[0]["restored"]["units"]  # the full export keeps it
    assert "seed" not in undone[0]["restored"]  # an undo records no bookkeeping


def test_a_refused_undo_cannot_be_asked_for_again(backend_service: GameService) -> None:
    game_id = backend_service.start(SETUP)
    accept(backend_service, game_id, {"do": "next_phase", "by": "red"})
    undo(backend_service, game_id, accept=False)

    again = backend_service.handle(game_id, {"do": "request_undo", "by": "red"})

    assert (again.accepted, again.rule) == (False, "CORE-UNDO-REFUSED")
    assert again.message == "the undo of step 1 was refused already; that refusal is final"
    types = [e.fact.type for e in backend_service.stored_events(game_id)]
    assert "RequestRefused" in types and "StepsUndone" not in types


def test_a_later_step_can_still_be_undone_after_a_refusal(service: GameService) -> None:
    game_id = service.start(SETUP)
    accept(service, game_id, {"do": "next_phase", "by": "red"})
    undo(service, game_id, accept=False)
    accept(service, game_id, {"do": "end_turn", "by": "red"})

    undo(service, game_id)

    assert service.load(game_id).state.active_player == "red"


def test_a_ruling_may_cite_only_a_rule_the_seeds_name(service: GameService) -> None:
    game_id = service.start(SETUP)

    unknown = service.handle(game_id, {"do": "ruling", "by": "judge", "clause": "NOPE-99",
                                       "text": "no such rule"})
    ambiguity = service.handle(game_id, {"do": "ruling", "by": "judge", "clause": "A-AMB-10",
                                         "text": "the hull, as recommended"})
    core = service.handle(game_id, {"do": "ruling", "by": "judge", "clause": "CORE-DICE",
                                    "text": "the dice follow from the seed"})

    assert (unknown.accepted, unknown.rule) == (False, "INPUT")
    assert unknown.message is not None and "'NOPE-99' is not a rule" in unknown.message
    assert ambiguity.accepted and core.accepted


def test_core_undo_own_only_the_player_whose_steps_were_undone_may_ask_to_redo_them(
    backend_service: GameService,
) -> None:
    game_id = backend_service.start(SETUP)
    accept(backend_service, game_id, {"do": "next_phase", "by": "red"})
    undo(backend_service, game_id)

    blue_asks = backend_service.handle(game_id, {"do": "request_redo", "by": "blue"})
    red_asks = backend_service.handle(game_id, {"do": "request_redo", "by": "red"})

    assert (blue_asks.accepted, blue_asks.rule) == (False, "CORE-UNDO-OWN")
    assert blue_asks.message is not None and "may redo only their own" in blue_asks.message
    assert red_asks.accepted


def test_core_window_open_nothing_of_play_slips_in_while_an_undo_is_asked(
    service: GameService,
) -> None:
    """A stratagem may be used with no window open, but not while an undo request is:
    the undo would then wipe it without a trace and hand back fresh dice."""
    from pathlib import Path

    from warledger.script import load_script, run_script

    example = Path(__file__).resolve().parents[2] / "examples" / "w40k-battle-round.yaml"
    script = load_script(example)
    script = script.model_copy(update={"steps": [
        *script.steps[:5],
        {"by": "blue", "do": "request_undo", "steps": 1},
        {"by": "red", "do": "use_stratagem", "stratagem": "grenade", "targets": ["r1"],
         "enemy": "b1"},
    ], "expect": [], "expect_state": {}})

    result = run_script(service, script)

    grenade = result["steps"][-1]
    assert result["steps"][-2]["accepted"], result["steps"][-2]
    assert (grenade["accepted"], grenade["rule"]) == (False, "CORE-WINDOW-OPEN")
    assert result["state"]["reaction_window"]["kind"] == "undo"


def test_an_undo_reads_only_the_tail_of_a_long_log(backend_service: GameService) -> None:
    """CORE-UNDO-DEPTH: only the last steps can be undone, so an accepted undo reads the
    log back from its newest event to the undone step, not the whole game."""
    game_id = backend_service.start(SETUP)
    for _ in range(300):
        rolled(backend_service, game_id)
    read: list[int] = []
    get = backend_service.events.get

    def counted(*args: object, **kwargs: object) -> object:
        events = list(get(*args, **kwargs))  # type: ignore[arg-type]
        read.append(len(events))
        return iter(events)

    backend_service.events.get = counted  # type: ignore[method-assign]
    undo(backend_service, game_id, steps=3)
    backend_service.events.get = get  # type: ignore[method-assign]

    undone = [e.fact for e in backend_service.stored_events(game_id)
              if e.fact.type == "StepsUndone"]
    assert len(undone) == 1 and list(undone[0].steps) == [298, 299, 300]
    assert sum(read) < 450  # the tail page and the time travel, not 900+ events
def test_core_undo_depth_a_step_beyond_the_depth_settles_the_oldest(
    service: GameService,
) -> None:
    """CORE-UNDO-DEPTH: `decide` says which step can no longer be undone
    (`StepsSettled`); the applier only assigns."""
    from domain.state import UNDO_DEPTH

    game_id = service.start(SETUP)
    outcomes = [service.handle(game_id, {"do": "roll", "by": "red"})
                for _ in range(UNDO_DEPTH + 1)]

    assert all(o.accepted for o in outcomes)
    assert "StepsSettled" not in outcomes[UNDO_DEPTH - 1].events
    assert outcomes[UNDO_DEPTH].events[:2] == ["StepTaken", "StepsSettled"]
    live = service.load(game_id).state.live_steps
    assert len(live) == UNDO_DEPTH and live[0].step == 2


def test_core_redo_nothing_a_new_step_clears_the_redo_stack_by_a_fact(
    service: GameService,
) -> None:
    """CORE-REDO-NOTHING: once play moves on after an undo, `decide` says the undone
    steps can no longer be redone (`RedoStackCleared`)."""
    game_id = service.start(SETUP)
    rolled(service, game_id)
    undo(service, game_id)
    assert service.load(game_id).state.redo_stack

    outcome = service.handle(game_id, {"do": "roll", "by": "red"})

    assert outcome.accepted and outcome.events[:2] == ["StepTaken", "RedoStackCleared"]
    assert service.load(game_id).state.redo_stack == []
    refused = service.handle(game_id, {"do": "request_redo", "by": "red"})
    assert (refused.accepted, refused.rule) == (False, "CORE-REDO-NOTHING")

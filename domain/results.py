"""A game's result, by consent: the "result" window (docs/results.md).

The step that ends a game (`end_game`, or the `end_turn` that ends the last
round) may carry a result: a winner or a draw, and points per player. It is
proposed (`ResultProposed`) and opens a reaction window of kind "result" for
the proposer's opponents and the judge, like an undo request. It takes effect
only when confirmed (`ResultConfirmed`): by the judge, or by every opponent.
A refusal (`ResultRefused`) is kept in the log and the audit and changes
nothing; a player may then propose another result with `end_game`. A result
the judge proposes is confirmed by the judge at once. A confirmed result is
final (CORE-RESULT-FINAL), short of undoing the step that ended the game.

As a machine (to fold in with the other windows): `propose_result` is the
transition none → proposed (or straight to confirmed, for the judge);
`decide_result_answer` the transitions proposed → proposed (an opponent
accepted, others wait), → confirmed, or → refused. Nothing else moves it.
"""

from __future__ import annotations

from typing import Any

from domain.apply import applies
from domain.commands import JUDGE
from domain.decision import Decision
from domain.errors import InputError, RuleViolation, ScriptError
from domain.state import GameResult, GameState
from events.core import ReactionDeclared, ReactionWindowClosed, ReactionWindowOpened
from events.results import (
    GameMetadata,
    GameMetadataRecorded,
    ResultClaim,
    ResultConfirmed,
    ResultProposed,
    ResultRefused,
)

RESULT = "result"


# -- proposing ---------------------------------------------------------------------
def check_claim(d: Decision, claim: ResultClaim) -> dict[str, int]:
    """INPUT, CORE-RESULT-POINTS: the result names players of this game, a winner
    or a draw (not both), and points within the rule set's bounds; the points as
    they will be recorded (a rule set that scores the game fills them in)."""
    state = d.state
    if claim.draw == (claim.winner is not None):
        raise InputError("a result names a winner or is a draw (draw: true), not "
                         + ("both" if claim.draw else "neither"))
    if claim.winner is not None and claim.winner not in state.players:
        raise InputError(f"the result's winner {claim.winner!r} is not a player in this game "
                         f"(players: {', '.join(state.players)})")
    unknown = sorted(set(claim.points) - set(state.players))
    if unknown:
        raise InputError(f"the result gives points to {unknown[0]!r}, who is not a player in "
                         f"this game (players: {', '.join(state.players)})")
    scored = d.ruleset.result_points(state)
    points = dict(claim.points) if claim.points or scored is None else dict(scored)
    top = d.ruleset.result_points_max
    for player, value in sorted(points.items()):
        if not 0 <= value <= top:
            raise RuleViolation("CORE-RESULT-POINTS",
                                f"{player}'s {value} points are out of bounds: a {d.ruleset.name} "
                                f"result scores 0 to {top} ({d.ruleset.result_points_name})")
    if scored is not None and points != scored:
        raise RuleViolation("CORE-RESULT-POINTS",
                            f"the points {points} differ from the {d.ruleset.result_points_name} "
                            f"the game scored: {scored}")
    return points


def check_result_open(state: GameState) -> None:
    """CORE-RESULT-FINAL: a confirmed result stands; only one proposal is open at a time."""
    if state.result is not None:
        raise RuleViolation("CORE-RESULT-FINAL",
                            f"the result confirmed by {state.result.confirmed_by} stands; it "
                            "cannot be proposed again")
    window = state.reaction_window
    if window is not None and window.kind == RESULT:
        raise RuleViolation("CORE-RESULT-FINAL", "a proposed result is waiting for its answer")


def propose_result(d: Decision, by: str, claim: ResultClaim, reason: str | None) -> None:
    """Propose a result: open the "result" window for the opponents and the judge
    (or, proposed by the judge, confirm it at once)."""
    points = check_claim(d, claim)
    d.emit(ResultProposed(by=by, winner=claim.winner, draw=claim.draw, points=points,
                          reason=reason))
    if by == JUDGE:
        confirm(d, JUDGE, claim.winner, claim.draw, points)
        return
    d.emit(ReactionWindowOpened(
        kind=RESULT,
        eligible=(*d.state.opponents(by), JUDGE),
        context={"proposed_by": by, "winner": claim.winner, "draw": claim.draw,
                 "points": points},
    ))


# -- answering ------------------------------------------------------------------------
def decide_result_answer(d: Decision, by: str, accept: bool) -> None:
    """CORE-RESULT-SELF, CORE-RESULT-ANSWER: the proposer cannot confirm their own
    result; the judge's answer settles it, and so does any refusal; otherwise it
    takes effect once every opponent has accepted."""
    window = d.state.reaction_window
    assert window is not None and window.kind == RESULT  # `consent` dispatches here
    proposer = str(window.context["proposed_by"])
    if by == proposer:
        raise RuleViolation("CORE-RESULT-SELF", "a player cannot confirm their own result")
    if by not in window.eligible:
        raise RuleViolation("CORE-RESULT-ANSWER", f"{by} may not answer this result")
    if by in window.declared:
        raise RuleViolation("CORE-RESULT-ANSWER", f"{by} has accepted this result already")
    d.emit(ReactionDeclared(by=by, answer="accept" if accept else "refuse"))
    waiting = [p for p in window.eligible if p != JUDGE and p not in window.declared]
    if accept and by != JUDGE and waiting:
        return
    context = dict(window.context)
    d.emit(ReactionWindowClosed(kind=RESULT))
    if accept:
        confirm(d, by, context["winner"], bool(context["draw"]), dict(context["points"]))
    else:
        d.emit(ResultRefused(by=by))


def confirm(d: Decision, by: str, winner: Any, draw: bool, points: dict[str, int]) -> None:
    """The result takes effect."""
    d.emit(ResultConfirmed(by=by, winner=None if winner is None else str(winner), draw=draw,
                           points={str(p): int(v) for p, v in points.items()}))


# -- metadata -----------------------------------------------------------------------------
def metadata_facts(metadata: GameMetadata | None, players: tuple[str, ...]) -> list[
        GameMetadataRecorded]:
    """The set-up fact of a game's metadata (none without metadata), or a
    `ScriptError` naming a player id that is not in the game."""
    if metadata is None:
        return []
    for player in sorted(metadata.players):
        if player not in players:
            raise ScriptError(f"metadata.players: {player!r} is not a player in this game "
                              f"(players: {', '.join(players)})")
    if metadata.deployed_first is not None and metadata.deployed_first not in players:
        raise ScriptError(f"metadata.deployed_first: {metadata.deployed_first!r} is not a "
                          f"player in this game (players: {', '.join(players)})")
    return [GameMetadataRecorded(**metadata.model_dump())]


# -- appliers ---------------------------------------------------------------------------------
@applies(GameMetadataRecorded)
def _metadata_recorded(state: GameState, fact: GameMetadataRecorded) -> None:
    state.metadata = fact.model_dump(mode="json", exclude={"type"})


@applies(ResultProposed)
def _result_proposed(state: GameState, fact: ResultProposed) -> None:
    """A proposal has no effect; the window it opens holds it."""


@applies(ResultConfirmed)
def _result_confirmed(state: GameState, fact: ResultConfirmed) -> None:
    state.result = GameResult(winner=fact.winner, draw=fact.draw, points=dict(fact.points),
                              confirmed_by=fact.by)


@applies(ResultRefused)
def _result_refused(state: GameState, fact: ResultRefused) -> None:
    """A refused result changes nothing."""


def result_view(state: GameState) -> dict[str, Any]:
    """The state view's result and metadata fields, present only when the game has them
    (so the views, and state hashes, of older games stay as they were)."""
    view: dict[str, Any] = {}
    if state.metadata is not None:
        view["metadata"] = state.metadata
    if state.result is not None:
        view["result"] = state.result.model_dump(mode="json")
    return view

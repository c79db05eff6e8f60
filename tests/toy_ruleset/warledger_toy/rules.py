"""Pawns: each turn a player may step each pawn up to 2" once (PAWN-1), in one
`play` phase; three rounds. The whole rule set, wired in one table."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import ClassVar, Literal

from domain.apply import ApplierTable
from domain.commands import Command
from domain.decision import Decision
from domain.errors import RuleViolation
from domain.machine import TurnMachine, allow, turn_rows
from domain.options import Candidate, Geometric, own_units
from domain.ruleset import Ruleset, Wiring, facts_of
from domain.state import GameState, UnitState
from warledger_toy import facts
from warledger_toy.facts import PawnStepped

#: How far a pawn may step (PAWN-1).
REACH = 2.0


class Pawn(UnitState):
    """A pawn: a unit that remembers the round it last stepped in."""

    stepped_in: int | None = None
    kept_by_play: ClassVar[frozenset[str]] = frozenset({"stepped_in"})


class PawnsState(GameState):
    unit_model: ClassVar[type[UnitState]] = Pawn


class StepPawn(Command):
    """Step a pawn to (x, y)."""

    do: Literal["step"] = "step"
    unit: str
    x: float
    y: float

    def ordered_units(self) -> tuple[str, ...]:
        return (self.unit,)


def decide_step(d: Decision, command: StepPawn) -> None:
    """PAWN-1: a pawn steps at most 2" once a round, and stays on the board."""
    pawn = d.state.units[command.unit]
    assert isinstance(pawn, Pawn) and pawn.x is not None and pawn.y is not None
    if pawn.stepped_in == d.state.round:
        raise RuleViolation("PAWN-1", f"{pawn.id} has already stepped this round")
    if math.hypot(command.x - pawn.x, command.y - pawn.y) > REACH:
        raise RuleViolation("PAWN-1", f"{pawn.id} steps at most {REACH:g}\"")
    board = d.state.board
    if not (1 <= command.x <= board.width - 1 and 1 <= command.y <= board.height - 1):
        raise RuleViolation("PAWN-1", f"{pawn.id} must stay wholly on the board")
    d.emit(PawnStepped(unit=pawn.id, x=command.x, y=command.y))


APPLIERS = ApplierTable()


@APPLIERS.on(PawnStepped)
def _stepped(state: GameState, fact: PawnStepped) -> None:
    pawn = state.units[fact.unit]
    assert isinstance(pawn, Pawn)
    pawn.x, pawn.y, pawn.stepped_in = fact.x, fact.y, state.round


def offers(state: GameState, seat: str) -> Iterator[Candidate]:
    """Each own pawn may step: a point within 2" (the gate checks the rest)."""
    for pawn in own_units(state, seat):
        if pawn.x is None or pawn.y is None:
            continue
        yield Candidate({"do": "step", "by": seat, "unit": pawn.id}, Geometric(
            fields=("x", "y"), shape="point", probe={"x": pawn.x, "y": pawn.y},
            constraint={"from": [pawn.x, pawn.y], "max_length": REACH},
            remaining=("PAWN-1",)))


MACHINE = TurnMachine("pawns", ["play"], [*turn_rows(["play"]), *allow("step", ["play"])])

WIRING = Wiring(handlers={StepPawn: decide_step}, appliers=APPLIERS,
                facts=facts_of(facts), offers=offers)


class Pawns(Ruleset):
    """Pawns: the toy rule set."""

    name = "pawns"
    title = "Pawns (a toy rule set)"
    state_type = PawnsState
    machine = MACHINE
    commands = (StepPawn,)
    wiring = WIRING
    last_round = 3


RULES = Pawns()

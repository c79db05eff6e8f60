"""`accept`: hand a set-up step to the service and insist that it was accepted.

A test whose set-up step is silently refused tests something else than it says
(once, a redo that was refused, and nothing noticed). Use `accept` for every
step a test relies on; keep `service.handle` for the step whose outcome the test
asserts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from domain.commands import Command
from replay.service import GameService, Outcome


def accept(service: GameService, game_id: UUID, command: Command | dict[str, Any],
           dice: Sequence[int] | None = None) -> Outcome:
    """Handle `command`; fail the test, with the refusal, unless it was accepted."""
    outcome = service.handle(game_id, command, dice)
    assert outcome.accepted, (
        f"set-up step {command!r} was refused: {outcome.rule}: {outcome.message}")
    return outcome

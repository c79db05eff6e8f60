"""Commands: what a player asks for, as validated pydantic models.

A command is an imperative (`next_phase`, `arrive`, `use_stratagem`). It carries
the issuing player in `by`. Script steps and the API both build commands.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from events.results import ResultClaim

Who = Literal["active", "reactor", "any"]

#: The reserved role of a judge: rulings and consent, never unit orders (CORE-JUDGE).
JUDGE = "judge"


class Command(BaseModel):
    """Base of every command. Values are taken as given (strict): `accept: "no"` or
    `steps: true` is malformed, not read as a bool or a number."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, strict=True,
                              defer_build=True)

    #: Who may issue it: the active player, a player answering a window, anyone.
    who: ClassVar[Who] = "active"
    #: The kinds of reaction window this command answers ("aro", "stratagem", ...).
    answers: ClassVar[tuple[str, ...]] = ()
    #: Whether it may be issued while a window it does not answer is open.
    ignores_windows: ClassVar[bool] = False
    #: Whether it may be issued while an undo request is open (contested-move
    #: commands only: nothing that changes play may slip in before it is settled).
    ignores_undo_window: ClassVar[bool] = False
    #: Whether it may be issued after the game has ended (rulings, undo).
    after_game_over: ClassVar[bool] = False
    #: Whether the judge may issue it (CORE-JUDGE: `end_game`, rulings, consent).
    judge_may: ClassVar[bool] = False
    #: Its fields, besides the units it orders, that name units (targets, a mount):
    #: each must name a unit its player may know of (INPUT), like the units it orders.
    unit_fields: ClassVar[tuple[str, ...]] = ()

    do: str
    by: str = Field(min_length=1)

    def ordered_units(self) -> tuple[str, ...]:
        """The units this command gives orders to; each must belong to `by`."""
        return ()

    def named_units(self) -> tuple[str, ...]:
        """Every unit this command names: the units it orders, then those its
        `unit_fields` name (a unit hidden from `by` is one they cannot name)."""
        named = list(self.ordered_units())
        for name in self.unit_fields:
            value = getattr(self, name)
            if isinstance(value, str):
                named.append(value)
            elif value is not None:
                named.extend(value)
        return tuple(named)

    def record(self) -> dict[str, Any]:
        """The command as stored in the log (`StepTaken.command`)."""
        return self.model_dump(mode="json")


class NextPhase(Command):
    """Move on to the next phase of the turn (or out of a pre-game phase)."""

    do: Literal["next_phase"] = "next_phase"


class Ending(Command):
    """A command that may end the game, and then propose its result
    (`domain.results`, docs/results.md)."""

    result: ResultClaim | None = None

    def record(self) -> dict[str, Any]:
        """As stored: without `result` when none is given (older logs re-decide the same)."""
        return self.model_dump(mode="json", exclude={"result"} if self.result is None else None)


class EndTurn(Ending):
    """End the active player's turn; the next player's turn begins. The turn that
    ends the game may carry its `result`."""

    do: Literal["end_turn"] = "end_turn"


class EndGame(Ending):
    """End the game now; end-of-game rules then apply. With a `result`, it
    proposes the result (also once the game is over, while none stands)."""

    who: ClassVar[Who] = "any"
    judge_may: ClassVar[bool] = True
    #: A game over without a confirmed result may still be given one (CORE-RESULT-FINAL).
    after_game_over: ClassVar[bool] = True
    do: Literal["end_game"] = "end_game"
    reason: str = "ended by command"


CORE_COMMANDS: tuple[type[Command], ...] = (NextPhase, EndTurn, EndGame)


# -- contested moves (decided in domain.undo) ------------------------------------
class RequestUndo(Command):
    """Ask to undo your last `steps` accepted steps."""

    who: ClassVar[Who] = "any"
    ignores_windows: ClassVar[bool] = True
    ignores_undo_window: ClassVar[bool] = True
    after_game_over: ClassVar[bool] = True
    do: Literal["request_undo"] = "request_undo"
    steps: int = Field(default=1, ge=1)


class RequestRedo(Command):
    """Ask to bring back the most recently undone steps."""

    who: ClassVar[Who] = "any"
    ignores_windows: ClassVar[bool] = True
    ignores_undo_window: ClassVar[bool] = True
    after_game_over: ClassVar[bool] = True
    do: Literal["request_redo"] = "request_redo"


class Consent(Command):
    """Accept or refuse the open undo or redo request, or a proposed result."""

    who: ClassVar[Who] = "any"
    judge_may: ClassVar[bool] = True
    answers: ClassVar[tuple[str, ...]] = ("undo", "result")
    after_game_over: ClassVar[bool] = True
    do: Literal["consent"] = "consent"
    accept: bool


class Ruling(Command):
    """A judge's ruling, optionally citing a clause ID and a step."""

    who: ClassVar[Who] = "any"
    judge_may: ClassVar[bool] = True
    ignores_windows: ClassVar[bool] = True
    ignores_undo_window: ClassVar[bool] = True
    after_game_over: ClassVar[bool] = True
    do: Literal["ruling"] = "ruling"
    text: str = Field(min_length=1)
    clause: str | None = None
    on_step: int | None = Field(default=None, ge=0)


#: Contested-move commands (domain.undo): allowed in every phase, never undoable.
META_COMMANDS: tuple[type[Command], ...] = (RequestUndo, RequestRedo, Consent, Ruling)
META_COMMAND_NAMES = tuple(c.model_fields["do"].default for c in META_COMMANDS)


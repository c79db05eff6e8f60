"""STR-04: WHEN a stratagem can be used, as an explicit `transitions` machine.

Two states: `no_window` (a player may use a proactive stratagem in the
phases and turns its WHEN lists) and `window` (a stratagem window is open:
the players it names answer its trigger with a reactive stratagem or pass).
The rows are the table; the conditions are named predicates on a cursor that
stands at a `Moment` (battle round, whose turn, phase, and the trigger).
`warledger diagram w40k` draws the table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from transitions import Machine, MachineError

from domain.errors import RuleViolation
from domain.machine import as_names, mermaid, rows_allow
from domain.w40k.catalog import Stratagem
from domain.w40k.state import W40KState, phase_key

NO_WINDOW, WINDOW = "no_window", "window"


@dataclass(frozen=True)
class Moment:
    """When something happens: round, whose turn, phase, and the trigger (if any).

    `unit` is the trigger's unit (the one that moved, charged, fought or
    shot); `target` the unit it shot at.
    """

    round: int
    turn: str
    phase: str
    trigger: str | None = None
    unit: str | None = None
    target: str | None = None

    @property
    def key(self) -> str:
        """The A-STR-02 key of the phase this moment falls in."""
        return phase_key(self.round, self.turn, self.phase)

    def context(self) -> dict[str, Any]:
        """The moment as a window's context."""
        return {
            "trigger": self.trigger,
            "round": self.round,
            "turn": self.turn,
            "phase": self.phase,
            "unit": self.unit,
            "target": self.target,
        }

    @classmethod
    def now(cls, state: W40KState) -> Moment:
        """The moment of the state: the open stratagem window's, or the phase's."""
        window = state.reaction_window
        if window is not None and window.kind == "stratagem":
            c = window.context
            return cls(c["round"], c["turn"], c["phase"], c["trigger"], c["unit"], c["target"])
        return cls(state.round, state.active_player, state.phase)


class TimingCursor:
    """A throwaway model for the timing machine: one player, one stratagem, one moment."""

    def __init__(
        self, state: W40KState, player: str, stratagem: Stratagem | None, moment: Moment,
        *, prospective: bool = False,
    ) -> None:
        self.game = state
        self.player = player
        self.stratagem = stratagem
        self.moment = moment
        self.prospective = prospective
        self.window = WINDOW if moment.trigger is not None else NO_WINDOW

    # -- the predicates (conditions of the rows) ---------------------------------
    def is_proactive(self) -> bool:
        """STR-04: a stratagem with no trigger is used outside windows."""
        return self.stratagem is not None and not self.stratagem.is_reactive

    def is_answering_the_trigger(self) -> bool:
        """STR-04: a reactive stratagem answers only the triggers its WHEN names."""
        return self.stratagem is not None and self.moment.trigger in self.stratagem.when.triggers

    def is_triggered_by_the_stated_side(self) -> bool:
        """STR-04: the trigger's unit is an enemy unit, or one from your army, as its
        WHEN says ("just after an enemy unit has fought")."""
        if self.stratagem is None:
            return False
        side = self.stratagem.when.triggered_by
        unit = dict.get(self.game.units, self.moment.unit) if self.moment.unit else None  # read
        if unit is None or side == "either":
            return True
        return (side == "friendly") == (unit.owner == self.player)

    def is_in_a_listed_phase(self) -> bool:
        """STR-04: the phase is one its WHEN lists."""
        return self.stratagem is not None and self.moment.phase in self.stratagem.when.phases

    def is_in_the_stated_turn(self) -> bool:
        """STR-04: your turn, your opponent's, or either, as its WHEN says."""
        if self.stratagem is None:
            return False
        turn = self.stratagem.when.turn
        yours = self.moment.turn == self.player
        return turn == "either" or (turn == "yours") == yours

    def is_eligible_reactor(self) -> bool:
        """The open window names this player, who has not answered it yet."""
        if self.prospective:
            return True
        window = self.game.reaction_window
        return (
            window is not None
            and self.player in window.eligible
            and self.player not in window.declared
        )

    def has_everyone_answered(self) -> bool:
        """Every player the window names has used a stratagem or passed."""
        window = self.game.reaction_window
        return window is not None and all(p in window.declared for p in window.eligible)

    # -- why a predicate failed (for the STR-04 message) ----------------------------
    def explain(self, predicate: str) -> str:
        """A clear sentence saying why `predicate` is false now."""
        s, m = self.stratagem, self.moment
        name = s.name if s is not None else "a stratagem"
        when = s.when.text.rstrip(".") if s is not None else ""
        where = f"it is {m.turn}'s {m.phase} phase of battle round {m.round}"
        reasons: dict[str, Callable[[], str]] = {
            "is_proactive": lambda: (
                f"{name} is used only when its trigger happens ({when}); "
                f"no stratagem window is open"
            ),
            "is_answering_the_trigger": lambda: (
                f"the open window is for {m.trigger}; {name} answers only "
                f"{', '.join(s.when.triggers)}" if s and s.when.triggers else
                f"the open window is for {m.trigger}; {name} is not used in answer to a "
                "trigger"
            ),
            "is_triggered_by_the_stated_side": self.wrong_side,
            "is_in_a_listed_phase": lambda: f"{name} is used in: {when}; {where}",
            "is_in_the_stated_turn": lambda: f"{name} is used in: {when}; {where}",
            "is_eligible_reactor": self.not_eligible,
        }
        return reasons[predicate]()

    def not_eligible(self) -> str:
        """Why this player may not answer the open window."""
        window = self.game.reaction_window
        if window is not None and self.player in window.declared:
            return f"{self.player} has already answered this stratagem window"
        doing = f"use {self.stratagem.name}" if self.stratagem else "answer it"
        waiting = ", ".join(self.waiting_for()) or "no one"
        return f"a stratagem window is open for {waiting}; {self.player} may not {doing} now"

    def wrong_side(self) -> str:
        """Why the trigger's unit is on the wrong side for the stratagem."""
        s, unit = self.stratagem, self.moment.unit
        name = s.name if s is not None else "a stratagem"
        side = "a unit from your army" if s and s.when.triggered_by == "friendly" else (
            "an enemy unit")
        owner = self.game.units[unit].owner if unit in self.game.units else "no one"
        return f"{name} answers an action of {side}; {unit} belongs to {owner}"

    def waiting_for(self) -> list[str]:
        """The players the open window still waits for."""
        window = self.game.reaction_window
        if window is None:
            return []
        return [p for p in window.eligible if p not in window.declared]


ROWS: list[dict[str, Any]] = [
    {
        "trigger": "use_stratagem",
        "source": NO_WINDOW,
        "dest": None,
        "conditions": ["is_proactive", "is_in_a_listed_phase", "is_in_the_stated_turn"],
    },
    {
        "trigger": "use_stratagem",
        "source": WINDOW,
        "dest": None,
        "conditions": [
            "is_eligible_reactor",
            "is_answering_the_trigger",
            "is_triggered_by_the_stated_side",
            "is_in_a_listed_phase",
            "is_in_the_stated_turn",
        ],
    },
    {"trigger": "pass_stratagem", "source": WINDOW, "dest": None,
     "conditions": "is_eligible_reactor"},
    {"trigger": "open_window", "source": NO_WINDOW, "dest": WINDOW},
    {"trigger": "close_window", "source": WINDOW, "dest": NO_WINDOW,
     "conditions": "has_everyone_answered"},
]


class TimingMachine:
    """The shared stratagem-timing machine, asked through short-lived cursors."""

    def __init__(self) -> None:
        self.rows = ROWS
        self.machine = Machine(
            model=None,
            states=[NO_WINDOW, WINDOW],
            transitions=self.rows,
            initial=NO_WINDOW,
            auto_transitions=False,
            model_attribute="window",
        )

    def allows(self, cursor: TimingCursor, trigger: str) -> bool:
        """May `trigger` fire for this cursor (its window state and conditions)?

        The table is read directly, as the window machine reads its own: adding a
        model to the library's machine for each question cost ~100 µs, asked for
        every stratagem of both players at each phase end. `library_allows` asks
        the library, and a test holds the two to the same answers."""
        return rows_allow(cursor, (row for row in self.rows
                                   if row["trigger"] == trigger and row["source"] == cursor.window))

    def library_allows(self, cursor: TimingCursor, trigger: str) -> bool:
        """`allows`, asked of the transitions machine itself."""
        self.machine.add_model(cursor, initial=cursor.window)
        try:
            return bool(getattr(cursor, f"may_{trigger}")())
        except MachineError:
            return False
        finally:
            self.machine.remove_model(cursor)

    def fire(self, cursor: TimingCursor, trigger: str, rule: str = "STR-04") -> None:
        """Fire `trigger`, or raise `RuleViolation(rule)` naming the first failed condition."""
        if self.allows(cursor, trigger):
            return
        for row in self.rows:
            if row["trigger"] == trigger and row["source"] == cursor.window:
                for name in as_names(row.get("conditions")):
                    if not getattr(cursor, name)():
                        raise RuleViolation(rule, cursor.explain(name))
        raise RuleViolation(rule, f"no stratagem window is open for {cursor.player}")

    def mermaid(self) -> str:
        """The table drawn as a Mermaid state diagram."""
        return mermaid([NO_WINDOW, WINDOW], self.rows, title="w40k-10 stratagem timing (STR-04)")


TIMING = TimingMachine()


def check_timing(state: W40KState, player: str, stratagem: Stratagem) -> Moment:
    """STR-04: the stratagem can be used now by `player`; the moment it is used in."""
    moment = Moment.now(state)
    TIMING.fire(TimingCursor(state, player, stratagem, moment), "use_stratagem")
    return moment


def is_timely(state: W40KState, player: str, stratagem: Stratagem, moment: Moment) -> bool:
    """STR-04, asked ahead: could `player` use it at this moment if a window opened?"""
    return TIMING.allows(
        TimingCursor(state, player, stratagem, moment, prospective=True), "use_stratagem"
    )

"""Turn machines: a rule set's phases and the commands each allows, as a table.

One `transitions.Machine` per rule set is built at import and shared; it never
lives in the aggregate. A question (may this command fire? where does it lead?)
is answered by reading the table directly, as the library reads it
(`TurnMachine.row_taken`: the first row from the state's position whose
conditions hold), on a short-lived `Cursor` standing where the state stands;
`library_fire` / `library_allows` ask the library itself, and a test holds the
two to the same answers over every example. Trigger names are command names, so
the table doubles as the list of what each phase allows; a command allowed
without a phase change is an internal row (`dest: None`). Conditions are named
predicates on the cursor.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import pairwise
from threading import RLock
from typing import Any

from transitions import Machine, MachineError

from domain.commands import META_COMMAND_NAMES
from domain.errors import RuleViolation
from domain.state import GameState

Row = dict[str, Any]
GAME_OVER = "game_over"


class Cursor:
    """The model the machine moves; rule sets add predicate methods.

    A machine keeps one cursor and stands it, for each question, in the
    position the state records; `game` and `command` are what its predicates
    read. (Adding a fresh model to a machine for every command costs ~100 µs.)
    """

    game: Any
    command: object

    def __init__(self, state: GameState | None = None, command: object = None) -> None:
        self.game = state
        self.command = command
        self.phase = state.phase if state is not None else ""


def turn_rows(phases: Sequence[str], *, before: Sequence[str] = ()) -> list[Row]:
    """The core rows: `next_phase` walks the phases, `end_turn` ends the turn
    from any phase, `end_game` ends the game from anywhere.

    `before` are phases played once before the first turn (e.g. deployment);
    `next_phase` from the last of them starts the first turn.
    """
    order = [*before, *phases]
    rows: list[Row] = [
        {"trigger": "next_phase", "source": a, "dest": b} for a, b in pairwise(order)
    ]
    rows += [{"trigger": "end_turn", "source": p, "dest": phases[0]} for p in phases]
    rows += [{"trigger": "end_game", "source": p, "dest": GAME_OVER} for p in order]
    for meta in META_COMMAND_NAMES:
        rows += allow(meta, order)
    return rows


def allow(command: str, phases: Sequence[str], **extra: Any) -> list[Row]:
    """Internal rows: `command` is allowed in each of `phases` (no phase change)."""
    return [{"trigger": command, "source": p, "dest": None, **extra} for p in phases]


def rows_allow(cursor: object, rows: Iterable[Row]) -> bool:
    """Does one of these rows of a transitions table allow its trigger: all its
    `conditions` met and none of its `unless`? The table read directly, as the
    library would read it (asking the library adds a model per question, ~20-100 µs)."""
    return any(holds(cursor, as_names(row.get("conditions")), as_names(row.get("unless")))
               for row in rows)


def holds(cursor: object, conditions: Sequence[str], unless: Sequence[str]) -> bool:
    """Are all these predicates of the cursor true, and none of `unless`?"""
    if not conditions and not unless:  # most rows: no generator to make
        return True
    return all(getattr(cursor, name)() for name in conditions) and not any(
        getattr(cursor, name)() for name in unless)


def destination(row: Row, position: str) -> str:
    """Where taking `row` from `position` leads: its `dest`, or `position` for an
    internal row (`dest: None`, or the library's reflexive `=`)."""
    dest = row["dest"]
    return position if dest is None or dest == "=" else str(dest)


def sources_of(row: Row, states: Sequence[str]) -> list[str]:
    """The machine states a row leaves from: its `source`, a list of them, or `*`
    (every state), as the library reads it."""
    source = row["source"]
    names = [source] if isinstance(source, str) else list(source)
    return list(states) if "*" in names else names


def as_names(value: object) -> list[str]:
    """A row's `conditions`/`unless` entry as a list of predicate names."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list | tuple):
        return [v for v in value if isinstance(v, str)]
    return []


class TurnMachine:
    """A rule set's shared phase machine, asked through short-lived cursors."""

    def __init__(
        self,
        name: str,
        phases: Sequence[str],
        rows: Sequence[Row],
        *,
        before: Sequence[str] = (),
        cursor_type: type[Cursor] = Cursor,
    ) -> None:
        self.name = name
        self.phases = tuple(phases)
        self.before = tuple(before)
        self.states = [*before, *phases, GAME_OVER]
        self.rows = list(rows)
        self.cursor_type = cursor_type
        self.machine = Machine(
            model=None,
            states=self.states,
            transitions=self.rows,
            initial=self.states[0],
            auto_transitions=False,
            model_attribute="phase",
        )
        self.commands = sorted({row["trigger"] for row in self.rows})
        self._cursor = cursor_type()
        self.machine.add_model(self._cursor, initial=self.states[0])
        self._lock = RLock()
        #: The rows of each (trigger, machine state), in the table's order, as the
        #: library keeps them (a `*` source stands for every state).
        #: Each row with its condition and `unless` names, read once.
        self._rows_from: dict[tuple[str, str], list[tuple[Row, list[str], list[str]]]] = {}
        for row in self.rows:
            read = (row, as_names(row.get("conditions")), as_names(row.get("unless")))
            for source in sources_of(row, self.states):
                self._rows_from.setdefault((row["trigger"], source), []).append(read)

    def position(self, state: GameState) -> str:
        """The machine state that `state` records (its phase, for a turn machine)."""
        return state.phase

    @contextmanager
    def cursor(self, state: GameState, command: object = None) -> Iterator[Cursor]:
        """The machine's cursor, standing in the state's position, with the state."""
        with self._lock:
            cursor = self._cursor
            cursor.game, cursor.command = state, command
            cursor.phase = self.position(state)
            try:
                yield cursor
            finally:
                cursor.game, cursor.command = None, None

    def allows(self, state: GameState, command: str, payload: object = None) -> bool:
        """Does the table allow `command` now (phase and conditions)?"""
        return self.row_taken(self.standing(state, payload), command) is not None

    def fire(self, state: GameState, command: str, payload: object = None) -> str:
        """Fire `command`; return the phase it leads to (the same one if internal).

        A command the table does not allow raises `RuleViolation("CORE-PHASE")`.
        The table is read directly (`row_taken`); `library_fire` asks the
        transitions machine, and a test holds the two to the same answers.
        """
        if command not in self.commands:
            raise RuleViolation(
                "CORE-PHASE", f"{command!r} is not a command of the {self.name} rule set"
            )
        cursor = self.standing(state, payload)
        row = self.row_taken(cursor, command)
        if row is None:
            raise RuleViolation("CORE-PHASE", self.refusal(cursor, command, state.phase))
        return destination(row, cursor.phase)

    def standing(self, state: GameState, payload: object = None) -> Cursor:
        """A new cursor standing where `state` stands, asked about `payload`."""
        cursor = self.cursor_type(state, payload)
        cursor.phase = self.position(state)
        return cursor

    def row_taken(self, cursor: Cursor, trigger: str) -> Row | None:
        """The row the library would take for `trigger` from where the cursor stands:
        the first, in the table's order, whose `conditions` all hold and none of whose
        `unless` does (the library's rule, read directly: asking the library costs
        ~50 µs a command)."""
        for row, conditions, unless in self._rows_from.get((trigger, cursor.phase), ()):
            if holds(cursor, conditions, unless):
                return row
        return None

    def library_fire(self, state: GameState, command: str, payload: object = None) -> str | None:
        """`fire`, asked of the transitions machine itself: the phase the command leads
        to, or None where the library refuses it."""
        with self.cursor(state, payload) as cursor:
            try:
                moved = getattr(cursor, command)()
            except (MachineError, AttributeError):
                return None
            return str(cursor.phase) if moved else None

    def library_allows(self, state: GameState, command: str, payload: object = None) -> bool:
        """`allows`, asked of the transitions machine itself."""
        if command not in self.commands:
            return False
        with self.cursor(state, payload) as cursor:
            return bool(getattr(cursor, f"may_{command}")())

    def refusal(self, cursor: Cursor, command: str, phase: str) -> str:
        """Why the table refused `command`: wrong phase, or which condition failed."""
        rows = [r for r in self.rows if r["trigger"] == command and r["source"] in (phase, "*")]
        failed = [
            name
            for row in rows
            for name in as_names(row.get("conditions"))
            if not getattr(cursor, name)()
        ] + [
            f"not {name}"
            for row in rows
            for name in as_names(row.get("unless"))
            if getattr(cursor, name)()
        ]
        if not failed:
            return f"{command!r} is not allowed in the {phase} phase"
        reasons = ", ".join(sorted({n.replace("_", " ") for n in failed}))
        return f"{command!r} is not allowed now in the {phase} phase: needs {reasons}"

    def mermaid(self) -> str:
        """The table drawn as a Mermaid state diagram."""
        return mermaid(self.states, self.rows, title=f"{self.name} turn machine")


def mermaid(states: Sequence[str], rows: Sequence[Row], *, title: str) -> str:
    """Any transitions table (states and rows) drawn as a Mermaid state diagram.

    The first state is the initial one; callbacks are left out of the drawing.
    """
    from transitions.extensions.diagrams import GraphMachine  # only to draw (a cold start)

    graph = GraphMachine(
        model=None,
        states=list(states),
        transitions=[{k: v for k, v in r.items() if k not in ("after", "before")} for r in rows],
        initial=states[0],
        auto_transitions=False,
        graph_engine="mermaid",
        title=title,
        show_conditions=True,
    )

    class _Model:
        pass

    model = _Model()
    graph.add_model(model)
    return str(model.get_graph().draw(None))  # type: ignore[attr-defined]

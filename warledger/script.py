"""Game scripts: the portable text form of a game (CONTRACT.md, docs/script-format.md).

The notation knows the grammar, not the rules: it turns a YAML or JSON file
into a `Setup` and a list of steps, lets the engine judge each step, records
each refusal and carries on (like python-chess's `GameBuilder`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import UUID

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
)

from domain.datafile import read_as, read_data_file
from domain.dice import physical_dice_problem
from domain.errors import ScriptError
from domain.history import History
from domain.player_ids import players_problem
from domain.ruleset import Setup, find_ruleset, first_error
from domain.state import GameState
from events.core import Board, TerrainPiece
from events.results import GameMetadata
from projections.state_view import state_view
from replay.service import GameService, Outcome

#: The most steps a script may hold (a whole game has some hundreds).
MAX_STEPS = 10_000


class Expectation(BaseModel):
    """What an example script expects of one step (checked by the test suite)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    step: int = Field(ge=0)
    accepted: bool
    rule: str | None = None
    events: list[str] | None = Field(
        default=None, description="event types the step must include, in order"
    )


class Script(BaseModel):
    """A game script (schema: `warledger schema script`)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    ruleset: str = Field(description="t9a | infinity-n4 | mageknight-2 | w40k-10")
    variant: str | None = Field(default=None, description="e.g. codeone for Infinity")
    seed: int = Field(
        default=0, ge=-(2**63), le=2**63 - 1, description="seeds the digital dice (64-bit)"
    )
    board: Board
    terrain: list[TerrainPiece] = Field(default_factory=list)
    players: list[str] = Field(min_length=1, description="the first one listed goes first")
    units: list[dict[str, Any]] = Field(default_factory=list)
    options: dict[str, Any] = Field(default_factory=dict)
    metadata: GameMetadata | None = Field(
        default=None,
        description="event, round, table, mission, deployed_first and players' names and "
        "factions, keyed by player id (docs/results.md)",
    )
    steps: list[Any] = Field(
        default_factory=list,
        description="each {by: PLAYER, do: COMMAND, ...arguments, dice: [...]}",
    )
    expect: list[Expectation] = Field(
        default_factory=list, description="expected outcomes (examples and tests only)"
    )
    expect_state: dict[str, Any] = Field(
        default_factory=dict,
        description="a partial state view the final state must match (examples and tests)",
    )

    @field_validator("ruleset")
    @classmethod
    def _known_ruleset(cls, value: str) -> str:
        find_ruleset(value)
        return value

    @field_validator("players")
    @classmethod
    def _distinct_players(cls, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise ValueError("player ids must be distinct")
        problem = players_problem(value)
        if problem is not None:
            raise ValueError(problem)
        return value

    #: Where relative file names in `options` are read from (the script's folder).
    _base_dir: Path = PrivateAttr(default=Path("."))
    #: What its errors are prefixed with (its file name, as other script errors are).
    _source: str = PrivateAttr(default="script")

    def setup(self) -> Setup:
        """The game's set-up part (file options read and inlined)."""
        return Setup(
            ruleset=self.ruleset,
            variant=self.variant,
            seed=self.seed,
            board=self.board,
            terrain=tuple(self.terrain),
            players=tuple(self.players),
            units=tuple(self.units),
            options=inline_files(self.ruleset, self.options, self._base_dir),
            metadata=self.metadata,
        )


def inline_files(ruleset: str, options: dict[str, Any], base_dir: Path) -> dict[str, Any]:
    """Replace file names in the rule set's file options with the files' data."""
    inlined = dict(options)
    for name in find_ruleset(ruleset).file_options:
        entries = inlined.get(name)
        if isinstance(entries, list):
            inlined[name] = [
                read_mapping_file(base_dir / entry, name, f"options.{name}[{index}]")
                if isinstance(entry, str) else entry
                for index, entry in enumerate(entries)
            ]
    return inlined


def read_mapping_file(path: Path, what: str, where: str) -> dict[str, Any]:
    """A data file that must hold a mapping (its contents never go into the error:
    a wrong path should not print a file)."""
    try:
        data = read_data_file(path, what)
    except ScriptError as error:
        raise ScriptError(f"{where}: {error}") from None
    if not isinstance(data, dict):
        raise ScriptError(f"{where}: {path.name} holds {type(data).__name__}, not a mapping")
    return data


def parse_script(data: Any, source: str = "script") -> Script:
    """Validate script data, or raise a one-line `ScriptError`."""
    if not isinstance(data, dict):
        raise ScriptError(f"{source}: a script must be a mapping, not {type(data).__name__}")
    try:
        steps = data.get("steps")
        script = read_as(Script, {k: v for k, v in data.items() if k != "steps"})
    except ScriptError as error:
        raise ScriptError(f"{source}: {error}") from None
    except ValidationError as error:
        raise ScriptError(f"{source}: {first_error(error)}") from None
    except ValueError as error:
        raise ScriptError(f"{source}: {error}") from None
    if steps is not None and not isinstance(steps, list):
        raise ScriptError(f"{source}: steps: a list of steps, not {type(steps).__name__}")
    if steps is not None and len(steps) > MAX_STEPS:
        raise ScriptError(f"{source}: steps: {len(steps):,} steps; a script holds at most "
                          f"{MAX_STEPS:,}")
    # Steps are judged one by one as the game runs: a malformed step, a step that is
    # not a mapping included, is refused with INPUT and the run goes on (CONTRACT 3).
    script = script.model_copy(update={"steps": steps or []})
    script._source = source
    return script


def load_script(path: str | Path) -> Script:
    """Read a YAML or JSON script file (its file options are read beside it)."""
    script = parse_script(read_data_file(path, "script"), str(path))
    script._base_dir = Path(path).resolve().parent
    return script


def split_step(step: Any) -> tuple[dict[str, Any] | None, list[int] | None, str | None]:
    """A step's command data and physical dice, or an INPUT message."""
    if not isinstance(step, dict):
        return None, None, f"a step must be a mapping, not {type(step).__name__}"
    data = dict(step)
    dice = data.pop("dice", None)
    problem = physical_dice_problem(dice)
    if problem is not None:
        return None, None, problem
    return data, dice, None


#: Told what became of a step (its outcome: the log step it became, or came after).
AfterStep = Callable[[Outcome], None]
#: Called before each step with (index, state before it, its command data, the game's
#: history: an undo or redo consent needs it to be judged); it may return what to
#: call once the step is decided.
BeforeStep = Callable[[int, GameState, dict[str, Any] | None, History], AfterStep | None]


class RunResult(dict[str, Any]):
    """The CONTRACT result object of a run (section 3), and each step's `Outcome`
    (`outcomes`: where in the log's steps it landed, for human output)."""

    def __init__(self, result: dict[str, Any], outcomes: list[Outcome]) -> None:
        super().__init__(result)
        self.outcomes = outcomes


def run_script(
    service: GameService, script: Script, before_step: BeforeStep | None = None
) -> RunResult:
    """Run every step in order; the CONTRACT result object. A refused step is kept as
    an attempt (`GameService.refuse`), as every refusal is."""
    game_id = start_game(service, script)
    steps: list[dict[str, Any]] = []
    outcomes: list[Outcome] = []
    for index, step in enumerate(script.steps):
        data, dice, problem = split_step(step)
        after = None if before_step is None else before_step(
            index, service.load(game_id).state, data, service.history(game_id))
        if data is None:  # kept as an attempt, as every refusal is
            outcome = service.refuse(game_id, step, Outcome(False, rule="INPUT", message=problem))
        else:
            outcome = service.handle(game_id, data, dice)
        if after is not None:
            after(outcome)
        steps.append(outcome.as_step(index))
        outcomes.append(outcome)
    game = service.load(game_id)
    result = {"game_id": str(game_id), "steps": steps, "state": state_view(game.state)}
    return RunResult(result, outcomes)


def start_game(service: GameService, script: Script) -> UUID:
    """Start the script's game; a set-up it cannot start (a unit off the board, a value
    out of range, an unknown option) is a `ScriptError` naming the script, as every
    other malformed-file error does."""
    try:
        setup = script.setup()
        find_ruleset(setup.ruleset).validate_options(setup.options)
        return service.start(setup)
    except ScriptError as error:
        message = str(error)
        if message.startswith(f"{script._source}: "):
            raise
        raise ScriptError(f"{script._source}: {message}") from None


def check_expectations(script: Script, result: dict[str, Any]) -> list[str]:
    """Where a run differs from the script's `expect` and `expect_state`."""
    problems: list[str] = []
    steps = result["steps"]
    for want in script.expect:
        if want.step >= len(steps):
            problems.append(f"steps[{want.step}]: no such step")
            continue
        got = steps[want.step]
        if got["accepted"] != want.accepted:
            problems.append(
                f"steps[{want.step}]: accepted={got['accepted']} ({got['rule']}: "
                f"{got['message']}), expected accepted={want.accepted}"
            )
        if want.rule is not None and got["rule"] != want.rule:
            problems.append(f"steps[{want.step}]: rule {got['rule']}, expected {want.rule}")
        if want.events is not None and not is_subsequence(want.events, got["events"]):
            problems.append(f"steps[{want.step}]: events {got['events']} lack {want.events}")
    problems += [f"state: {p}" for p in partial_mismatches(script.expect_state, result["state"])]
    return problems


def is_subsequence(needle: list[str], haystack: list[str]) -> bool:
    """Do `needle`'s items appear in `haystack` in order?"""
    remaining = iter(haystack)
    return all(item in remaining for item in needle)


def partial_mismatches(want: Any, got: Any, path: str = "") -> list[str]:
    """Paths where `got` differs from the partial expectation `want`."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return [f"{path or '.'}: expected a mapping, got {got!r}"]
        out: list[str] = []
        for key, value in want.items():
            if key not in got:
                out.append(f"{path}.{key}: missing")
            else:
                out += partial_mismatches(value, got[key], f"{path}.{key}")
        return out
    if isinstance(want, float) or isinstance(got, float):
        ok = isinstance(got, int | float) and abs(float(want) - float(got)) < 1e-6
        return [] if ok else [f"{path}: {got!r} != {want!r}"]
    return [] if want == got else [f"{path}: {got!r} != {want!r}"]

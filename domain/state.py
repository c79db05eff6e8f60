"""The game state that facts build: what every rule set's state has in common.

State objects are mutable on purpose: applying a fact assigns fields in place
(see `domain.apply`). Each rule set narrows `units` to its own unit model and
adds its own fields in a subclass; `extra="forbid"` keeps snapshots honest.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, ValuesView
from types import UnionType
from typing import Annotated, Any, ClassVar, Literal, TypeVar, Union, get_args, get_origin

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializeAsAny,
    field_validator,
    model_validator,
)

from domain.geometry import Disc, Footprint
from domain.limits import Facing
from events.base import HIDDEN_CONDITIONS
from events.core import Board, TerrainPiece, WindowKind

UnitStatus = Literal["reserve", "on_table", "removed"]


def no_such_unit(unit_id: str) -> Exception:
    """The INPUT error for a unit id the game does not hold (or the player may not know)."""
    from domain.errors import InputError

    return InputError(f"there is no unit {unit_id!r} in this game")


def known_to(owner: str, conditions: list[str], player: str | None) -> bool:
    """May `player` (None: the judge, the full view) know of a unit with this owner
    and these conditions? Its owner always may; its opponents not while a hidden
    condition (e.g. Hidden Deployment) holds."""
    if player is None or owner == player:
        return True
    return not HIDDEN_CONDITIONS.intersection(conditions)


class StateModel(BaseModel):
    """Base of every piece of state: mutable, but only declared fields."""

    model_config = ConfigDict(extra="forbid", validate_assignment=False, allow_inf_nan=False)

    #: Fields a working copy shares with the original: set when the game starts
    #: and never changed in place by any applier (an undo assigns them anew).
    shared_fields: ClassVar[frozenset[str]] = frozenset()

    def working_copy(self: M) -> M:
        """A copy sharing nothing mutable with this one (the decision gate decides on
        it, so a refused command leaves its caller's state as it was).

        A structural copy, about ten times faster than `model_copy(deep=True)`:
        numbers, strings, tuples of them and frozen models are shared; lists, dicts
        and state models are copied. Which fields can hold something mutable is
        read from the class's annotations once (`_field_copiers`). A dict of state
        models (the units, the per-player records) is `CopiedOnRead`: each value is
        copied when the decision first reads it, so a command that looks at two
        units of forty copies two."""
        new = _NEW(type(self))
        values = dict(self.__dict__)
        for name, copy_of in _field_copiers(type(self)):
            value = values[name]
            if type(value) not in _ATOMS:
                values[name] = copy_of(value)
        _SET(new, "__dict__", values)
        _SET(new, "__pydantic_fields_set__", set(self.__pydantic_fields_set__))
        _SET(new, "__pydantic_extra__", None)
        _SET(new, "__pydantic_private__", None)
        return new


M = TypeVar("M", bound=StateModel)
_ATOMS = frozenset({int, float, str, bool, type(None)})
_NEW = object.__new__
_SET = object.__setattr__


def copied(value: Any) -> Any:
    """`value` with every mutable part copied (see `StateModel.working_copy`)."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    how = _HOW.get(kind)
    if how is None:
        how = _HOW[kind] = _how_to_copy(kind)
    return how(value)


def _copied_list(value: list[Any]) -> list[Any]:
    return [v if type(v) in _ATOMS else copied(v) for v in value]


def _copied_dict(value: dict[Any, Any]) -> dict[Any, Any]:
    return {k: v if type(v) in _ATOMS else copied(v) for k, v in value.items()}


def _copied_tuple(value: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(v if type(v) in _ATOMS else copied(v) for v in value)


def _shared(value: Any) -> Any:
    return value


def _how_to_copy(kind: type) -> Callable[[Any], Any]:
    """How values of this type are copied (decided once per type: `isinstance` on
    pydantic classes is slow)."""
    if issubclass(kind, list):
        return _copied_list
    if issubclass(kind, dict):
        return _copied_dict
    if issubclass(kind, BaseModel) and kind.model_config.get("frozen"):
        return _shared
    if issubclass(kind, StateModel):
        return StateModel.working_copy
    if issubclass(kind, tuple):
        return _copied_tuple
    return copy.deepcopy


#: How each type met so far is copied.
_HOW: dict[type, Callable[[Any], Any]] = {}
#: Per state class, the fields whose values may need a copy, and how to copy them.
_COPIERS: dict[type, tuple[tuple[str, Callable[[Any], Any]], ...]] = {}


def _field_copiers(kind: type[StateModel]) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    """The fields of `kind` that are not shared (`shared_fields`) and whose
    annotation allows a mutable value (anything but atoms, tuples of atoms,
    literals and frozen models), each with how its value is copied: a list or
    dict of immutable values (a ledger of frozen entries, a list of ids) is
    copied shallowly, at C speed, whatever its length."""
    found = _COPIERS.get(kind)
    if found is None:
        found = _COPIERS[kind] = tuple(
            (name, _copier(info.annotation)) for name, info in kind.model_fields.items()
            if name not in kind.shared_fields and not _immutable(info.annotation))
    return found


def _copier(annotation: Any) -> Callable[[Any], Any]:
    """How to copy a value of this annotation (not an immutable one)."""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin in (Union, UnionType):
        kept = [arg for arg in args if arg is not type(None)]
        return _copier(kept[0]) if len(kept) == 1 else copied
    if (origin is list and _immutable(args[0])) or (origin is dict and _immutable(args[1])):
        return _shallow
    if origin is dict and _is_state_model(args[1]):
        return CopiedOnRead.of
    return copied


def _is_state_model(annotation: Any) -> bool:
    """Is this annotation a state model (possibly `SerializeAsAny[...]`)?"""
    if get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    return isinstance(annotation, type) and issubclass(annotation, StateModel)


V = TypeVar("V")


def to_read(values: dict[Any, V]) -> ValuesView[V]:
    """The values of a state's dict (its units, its per-player records) as they
    stand, to read only: a working copy's (`CopiedOnRead`) are not copied for it,
    so a scan of every unit (a phase's end asking which units moved) copies none.
    Nothing may be changed through it, and a value read here must not be read
    again after an `emit` that may change it (the applier changes the working
    copy's own copy of it, not the one read)."""
    return dict.values(values)


class CopiedOnRead(dict[Any, Any]):
    """A working copy's dict of state models (units, per-player records): each value
    is copied the first time it is read, so a decision copies only the units it
    looks at (a command that reads none copies none).

    Until then a value is the very object of the dict copied from, which is never
    changed through this one: every way of reading a value here (`[]`, `get`,
    `values`, `items`, `pop`, `setdefault`, `copy`) gives this dict's own copy.
    Code that reads the dict's C level directly (`dict(d)`, `{**d}`, pydantic's
    dump) sees the shared values, which are equal to the copies not yet made."""

    __slots__ = ("_shared",)

    _shared: set[Any]

    @classmethod
    def of(cls, source: dict[Any, Any]) -> CopiedOnRead:
        """A dict reading as `source`, its values copied when first read. A source
        that is itself copied on read shares its values from now on too (its own
        later reads copy them), so neither ever changes the other's."""
        new = cls(source)  # the C-level copy: the values as they are
        new._shared = set(new)
        if type(source) is cls:
            source._shared = set(source)
        return new

    def _own(self, key: Any) -> Any:
        value = dict.__getitem__(self, key)
        if key in self._shared:
            self._shared.discard(key)
            value = value.working_copy()
            dict.__setitem__(self, key, value)
        return value

    def _own_all(self) -> None:
        for key in list(self._shared):
            self._own(key)

    def __getitem__(self, key: Any) -> Any:
        return self._own(key)

    def get(self, key: Any, default: Any = None) -> Any:
        return self._own(key) if key in self else default

    def values(self) -> Any:
        self._own_all()
        return dict.values(self)

    def items(self) -> Any:
        self._own_all()
        return dict.items(self)

    def __setitem__(self, key: Any, value: Any) -> None:
        self._shared.discard(key)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: Any) -> None:
        self._shared.discard(key)
        dict.__delitem__(self, key)

    def pop(self, key: Any, *default: Any) -> Any:
        if key in self:
            value = self._own(key)
            dict.__delitem__(self, key)
            return value
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[Any, Any]:
        self._own_all()
        return dict.popitem(self)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key in self:
            return self._own(key)
        dict.__setitem__(self, key, default)
        return default

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def clear(self) -> None:
        self._shared.clear()
        dict.clear(self)

    def copy(self) -> dict[Any, Any]:
        self._own_all()
        return dict(self)

    def __copy__(self) -> dict[Any, Any]:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[Any, Any]:
        return {key: copy.deepcopy(value, memo) for key, value in self.items()}

    def __reduce__(self) -> Any:
        return (dict, (self.copy(),))

    def __ior__(self, other: Any) -> CopiedOnRead:
        self.update(other)
        return self

    def __or__(self, other: Any) -> dict[Any, Any]:
        return {**self.copy(), **other}


def _shallow(value: Any) -> Any:
    """A list or dict of immutable values: a new container, the same values."""
    return value.copy() if type(value) in (list, dict) else copied(value)


def _immutable(annotation: Any) -> bool:
    """Does this annotation admit only values that are never changed in place?"""
    if annotation in _ATOMS:
        return True
    origin = get_origin(annotation)
    if origin is Literal:
        return True
    if origin in (Union, UnionType, tuple):
        return all(arg is Ellipsis or _immutable(arg) for arg in get_args(annotation))
    if origin is Annotated:
        return _immutable(get_args(annotation)[0])
    return (isinstance(annotation, type) and issubclass(annotation, BaseModel)
            and bool(annotation.model_config.get("frozen")))


class UnitState(StateModel):
    """A unit, model or figure. Rule sets subclass this with their own fields."""

    id: str = Field(min_length=1)
    owner: str
    status: UnitStatus = "on_table"
    x: float | None = None
    y: float | None = None
    facing: Facing | None = None
    conditions: list[str] = Field(default_factory=list)

    #: Fields that play keeps (rolls made, Moves made ...): a script may not set them.
    kept_by_play: ClassVar[frozenset[str]] = frozenset()
    #: Fields the set-up fills in from other units (a rider's mount): a script gives
    #: them elsewhere, so `warledger revalidate` leaves them out to field a unit again.
    set_by_fielding: ClassVar[frozenset[str]] = frozenset()

    @model_validator(mode="after")
    def _facing_on_the_table(self) -> UnitState:
        """A unit on the table always has a facing; 0° (towards +x) unless given."""
        if self.status == "on_table" and self.facing is None:
            self.facing = 0.0
        return self

    def footprint(self) -> Footprint | None:
        """The unit's shape on the table (None when it is not on the table).

        The default is a 1" round base; rule sets override it.
        """
        if self.status != "on_table" or self.x is None or self.y is None:
            return None
        return Disc(self.x, self.y, 1.0, self.facing or 0.0)

    def view(self) -> dict[str, Any]:
        """The unit as the state view shows it (CONTRACT section 4)."""
        data = self.model_dump(mode="json", exclude={"id"})
        data["conditions"] = sorted(self.conditions)
        return data


class PlayerState(StateModel):
    """Per-player bookkeeping shared by all rule sets."""

    cp: int = 0


class ReactionWindow(StateModel):
    """An open reaction window: the players or units who may still answer."""

    kind: WindowKind
    eligible: list[str]
    declared: dict[str, str] = Field(default_factory=dict)
    context: dict[str, Any] = Field(default_factory=dict)
    #: A window an undo request interrupted; it reopens when the request closes.
    suspended: ReactionWindow | None = None


class StepRef(StateModel):
    """A game step that can still be undone (or, on the redo stack, redone).
    Never changed once made (frozen), so working copies share it."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    step: int
    by: str
    do: str


#: How many recent steps can be undone; older ones are settled.
UNDO_DEPTH = 64

#: State fields an undo or redo keeps: the log's own bookkeeping, not the game, and
#: the game's metadata (recorded once, at set-up). They are left out of the states
#: an undo or redo records (the seed is secret).
BOOKKEEPING = frozenset(
    {"seed", "seed_commitment", "dice_index", "reusable_dice", "step", "live_steps",
     "redo_stack", "refused_undo", "refused_redo", "metadata", "rules_version"}
)

#: Game fields added after games were first stored: an undo records them only
#: when they are set, so re-deciding an older log gives the very same facts.
LATER_FIELDS = ("result",)


class GameResult(StateModel):
    """A confirmed result (docs/results.md): a winner or a draw, points per player."""

    winner: str | None = None
    draw: bool = False
    points: dict[str, int] = Field(default_factory=dict)
    confirmed_by: str


class GameState(StateModel):
    """Everything a decision needs to know about a game."""

    #: The model each entry of `units` is (rule sets narrow it).
    unit_model: ClassVar[type[UnitState]] = UnitState
    #: The table, the players and the options (a 40k game's catalogs) are the
    #: same in every state of a game: a working copy shares them.
    shared_fields: ClassVar[frozenset[str]] = frozenset(
        {"board", "terrain", "players", "options"})
    #: Fields added after games were first stored (`LATER_FIELDS`, and a rule set's
    #: own): an undo records them only when they are set.
    later_fields: ClassVar[tuple[str, ...]] = LATER_FIELDS

    ruleset: str
    variant: str | None = None
    board: Board
    terrain: list[TerrainPiece] = Field(default_factory=list)
    players: list[str]
    options: dict[str, Any] = Field(default_factory=dict)
    player_state: dict[str, PlayerState] = Field(default_factory=dict)
    round: int = 0
    active_player: str
    phase: str
    units: dict[str, SerializeAsAny[UnitState]] = Field(default_factory=dict)
    reaction_window: ReactionWindow | None = None
    finished: bool = False
    end_reason: str | None = None
    #: The confirmed result (None until the opponent or the judge confirms one).
    result: GameResult | None = None
    #: The game's metadata as recorded at set-up (None without any); never undone.
    metadata: dict[str, Any] | None = None

    # Bookkeeping: dice, steps and the seed's commitment.
    seed_commitment: str = ""
    seed: int | None = None
    dice_index: int = 0
    reusable_dice: list[int] = Field(default_factory=list)
    step: int = 0
    #: The rules versions its steps are decided under now (`domain.rules_version`):
    #: its latest stamp, or None for a log stored before stamping (version 1). An
    #: undo keeps it: the rules play continues under are the log's bookkeeping.
    rules_version: dict[str, int] | None = None

    # Contested moves: the steps that can be undone, and the undone groups.
    live_steps: list[StepRef] = Field(default_factory=list)
    redo_stack: list[list[StepRef]] = Field(default_factory=list)
    #: Steps whose undo (or redo) was refused: that refusal is final.
    refused_undo: list[int] = Field(default_factory=list)
    refused_redo: list[int] = Field(default_factory=list)

    @field_validator("units", mode="before")
    @classmethod
    def _units_of_this_rule_set(cls, value: Any) -> Any:
        """Units are read back as the rule set's own unit model (snapshots, undo)."""
        if isinstance(value, dict):
            model = cls.unit_model
            return {
                key: unit if isinstance(unit, model) else model.model_validate(unit)
                for key, unit in value.items()
            }
        return value

    def unit(self, unit_id: str) -> UnitState:
        """The unit with this id, or an INPUT error naming it."""
        try:
            return self.units[unit_id]
        except KeyError:
            raise no_such_unit(unit_id) from None

    def unit_known_to(self, unit_id: str, player: str | None) -> UnitState:
        """The unit with this id as `player` (None: the judge) may name it. A unit
        hidden from them is refused exactly as an unknown id is: the same INPUT error,
        word for word, raised at the same place after the same constant-time look-up
        (no rule, geometry or storage is asked on either path), so neither the answer
        nor its timing tells them the unit exists."""
        unit = self.units.get(unit_id)
        if unit is None or not known_to(unit.owner, unit.conditions, player):
            raise no_such_unit(unit_id)
        return unit

    def opponents(self, player: str) -> list[str]:
        """Every other player, in script order."""
        return [p for p in self.players if p != player]

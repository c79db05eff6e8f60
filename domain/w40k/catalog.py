"""Stratagems as data: the catalog model, the core catalog file, codex catalogs.

Each entry states its CP cost (STR-03), WHEN (STR-04), TARGET (STR-05),
EFFECT (STR-06) and RESTRICTIONS (STR-07). The core stratagems ship in
`core_stratagems.yaml` (STR-18; RULINGS overrides A-STR-01); codex catalogs
(STR-20) come from the script's `options.catalogs`, as inline mappings or
file paths, and are validated by the same model (`catalog_json_schema()`).
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from domain.datafile import read_data_file
from domain.errors import ScriptError
from domain.ruleset import first_error

PHASES = ("command", "movement", "shooting", "charge", "fight")
Phase = Literal["command", "movement", "shooting", "charge", "fight"]
#: The events that open a stratagem window (see docs/notes/w40k.md).
Trigger = Literal[
    "movement_phase_ended",
    "unit_moved",
    "charge_declared",
    "charge_move_ended",
    "shooting_target_selected",
    "unit_fought",
]
RollPurpose = Literal["charge", "battle-shock"]


class Section(BaseModel):
    """STR-14: a section with an additional CP cost (e.g. +1CP)."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, defer_build=True)
    id: str = Field(min_length=1)
    cp: int = Field(ge=0, description="the additional CP cost of this section")
    text: str = ""


class When(BaseModel):
    """STR-04: when the stratagem can be used.

    Without `triggers` it is proactive: its user may use it in the listed
    phases with no window open. With triggers it is reactive: it is used in
    the stratagem window that one of the triggers opens.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, defer_build=True)
    phases: tuple[Phase, ...] = Field(min_length=1)
    turn: Literal["yours", "opponents", "either"] = "yours"
    triggers: tuple[Trigger, ...] = ()
    #: Whose unit's action the triggers answer ("just after an enemy unit has
    #: fought"; "after a VEHICLE unit from your army ends a Charge move").
    triggered_by: Literal["enemy", "friendly", "either"] = "enemy"
    #: The use selects its target to fight, which then fights next ("when a CHARACTER
    #: unit from your army is selected to fight": Epic Challenge; w40k rules version 3).
    selects_to_fight: bool = False
    text: str = ""


class Target(BaseModel):
    """STR-05: which units it can target (all listed constraints must hold)."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, defer_build=True)
    side: Literal["friendly", "enemy"] = "friendly"
    count: int = Field(default=1, ge=1)
    keywords: tuple[str, ...] = ()
    status: Literal["on_table", "reserve"] = "on_table"
    #: The trigger's own unit (e.g. "that VEHICLE unit") or its target ("the unit shot at").
    relation: Literal["trigger_unit", "trigger_target"] | None = None
    #: Within this many inches of the trigger's unit.
    within: float | None = Field(default=None, gt=0)
    #: True: must be within Engagement Range of an enemy unit; False: must not be.
    engaged: bool | None = None
    #: Must not have done this yet in this phase.
    not_yet: Literal["shot", "fought"] | None = None
    #: Must have a Battle-shock test due (Insane Bravery).
    battle_shock_test_due: bool = False
    #: May target a battle-shocked unit of its owner (RULINGS: Insane Bravery only).
    allows_battle_shocked: bool = False
    text: str = ""


class RerollEffect(BaseModel):
    """Re-roll one earlier roll of a target unit; the old roll stays, marked replaced."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, defer_build=True)
    kind: Literal["reroll"]
    purposes: tuple[RollPurpose, ...] = Field(min_length=1)
    text: str = ""


class AutoPassBattleShockEffect(BaseModel):
    """The target passes its Battle-shock test without rolling."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, defer_build=True)
    kind: Literal["auto_pass_battle_shock"]
    text: str = ""


class ConditionsEffect(BaseModel):
    """The targets get conditions until the end of the phase."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, defer_build=True)
    kind: Literal["conditions"]
    conditions: tuple[str, ...] = Field(min_length=1)
    text: str = ""


class MortalWoundsEffect(BaseModel):
    """Roll dice against one enemy unit; each success is a mortal wound."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, defer_build=True)
    kind: Literal["mortal_wounds"]
    dice: Annotated[int, Field(ge=1, le=100)] | Literal["toughness"] = Field(
        description="a number (1 to 100), or the target's Toughness")
    success: int = Field(ge=2, le=6, description="each die at or above this is a mortal wound")
    max_wounds: int | None = Field(default=None, ge=1)
    #: The enemy must be within this many inches of your unit.
    enemy_within: float | None = Field(default=None, gt=0)
    #: True: the enemy must be within Engagement Range of your unit; False: of none of yours.
    enemy_engaged: bool | None = None
    #: The enemy must be visible to your unit (no `blocking` terrain in between).
    enemy_visible: bool = False
    text: str = ""


class ArriveEffect(BaseModel):
    """Set a unit in reserves up on the battlefield, far enough from enemies."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, defer_build=True)
    kind: Literal["arrive"]
    more_than: float = Field(gt=0, description="inches from every enemy unit")
    text: str = ""


class RecordEffect(BaseModel):
    """An effect the engine records with its targets but does not resolve."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, defer_build=True)
    kind: Literal["record"]
    needs_enemy: bool = False
    text: str = ""


Effect = Annotated[
    RerollEffect
    | AutoPassBattleShockEffect
    | ConditionsEffect
    | MortalWoundsEffect
    | ArriveEffect
    | RecordEffect,
    Field(discriminator="kind"),
]


class Restrictions(BaseModel):
    """STR-07: restrictions beyond STR-09 and STR-10."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, defer_build=True)
    once_per: Literal["turn", "round", "battle"] | None = None
    #: A-STR-04: "unless otherwise stated": exempt from the STR-10 targeting limit.
    may_target_unit_already_targeted: bool = False
    text: str = ""


class Stratagem(BaseModel):
    """One stratagem: id (A-STR-05), name, category, CP cost and its four sections."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, defer_build=True)
    id: str = Field(min_length=1, pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str = Field(min_length=1)
    category: Literal["battle_tactic", "strategic_ploy", "epic_deed", "wargear"]
    cp: int = Field(ge=0, description="STR-03: the CP cost")
    when: When
    target: Target
    effect: Effect
    restrictions: Restrictions = Restrictions()
    sections: tuple[Section, ...] = ()

    @model_validator(mode="after")
    def _distinct_sections(self) -> Stratagem:
        """STR-14: a section is chosen by its id, so each id names one section."""
        ids = [section.id for section in self.sections]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ValueError(f"section id {twice[0]!r} is used twice in {self.id!r}")
        return self

    @property
    def is_reactive(self) -> bool:
        """Is it used in a window that an event opens (rather than proactively)?"""
        return bool(self.when.triggers)


class Catalog(BaseModel):
    """A catalog file: a source (core rules, a codex) and its stratagems."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, defer_build=True)
    source: str = Field(min_length=1)
    stratagems: tuple[Stratagem, ...]

    @model_validator(mode="after")
    def _distinct_ids(self) -> Catalog:
        seen: set[str] = set()
        for entry in self.stratagems:
            if entry.id in seen:
                raise ValueError(f"stratagem id {entry.id!r} appears twice")
            seen.add(entry.id)
        return self


def catalog_json_schema() -> dict[str, Any]:
    """The JSON Schema of a catalog file (for `warledger schema catalog`)."""
    return Catalog.model_json_schema()


@lru_cache(maxsize=1)
def core_catalog() -> Catalog:
    """STR-18: the core stratagems every player can use, from the shipped data file."""
    import yaml  # on first use: a replay reads no catalog

    text = resources.files("domain.w40k").joinpath("core_stratagems.yaml").read_text("utf-8")
    return Catalog.model_validate(yaml.safe_load(text))


def load_catalog(item: Any, where: str) -> Catalog:
    """STR-20: a codex catalog from an inline mapping or a YAML/JSON file path.

    Relative paths are read from the current directory. Raises `ScriptError`
    naming the entry and the first problem.
    """
    data = item
    if isinstance(item, str):
        try:
            data = read_data_file(item, "catalog")
        except ScriptError as error:
            raise ScriptError(f"{where}: {error}") from None
        where = f"{where} ({item})"
    try:
        return Catalog.model_validate(data)
    except ValidationError as error:
        raise ScriptError(f"{where}: not a valid stratagem catalog: {first_error(error)}") from None


def validate_catalogs(items: Any) -> list[dict[str, Any]]:
    """The codex catalogs of `options.catalogs`, validated and inlined.

    Inlining keeps `GameStarted` self-contained: a replay never reads a file.
    An id that is already in the core catalog or an earlier codex is refused
    (A-STR-05: a stratagem is identified by its id).
    """
    if not isinstance(items, list):
        raise ScriptError("options.catalogs must be a list of catalogs or file paths")
    seen = {s.id: core_catalog().source for s in core_catalog().stratagems}
    out: list[dict[str, Any]] = []
    for index, item in enumerate(items):
        catalog = load_catalog(item, f"options.catalogs[{index}]")
        for entry in catalog.stratagems:
            if entry.id in seen:
                raise ScriptError(
                    f"options.catalogs[{index}]: stratagem id {entry.id!r} is already "
                    f"defined by {seen[entry.id]}"
                )
            seen[entry.id] = catalog.source
        out.append(catalog.model_dump(mode="json"))
    return out


@lru_cache(maxsize=32)
def _catalog_from_json(codex_json: bytes) -> dict[str, Stratagem]:
    entries = {s.id: s for s in core_catalog().stratagems}
    for data in orjson.loads(codex_json):
        entries.update({s.id: s for s in Catalog.model_validate(data).stratagems})
    return entries


def stratagems_of(options: dict[str, Any]) -> dict[str, Stratagem]:
    """Every stratagem a game's players can use: the core ones and the codex ones."""
    return _catalog_from_json(orjson.dumps(options.get("catalogs", [])))


if __name__ == "__main__":  # pragma: no cover - `python -m domain.w40k.catalog`
    print(orjson.dumps(catalog_json_schema(), option=orjson.OPT_INDENT_2).decode())

"""T9A commands: deployment, Ambush, arrival and the plain Moves (RULINGS.md, T9A).

| command       | phase                     | arguments                                   |
|---------------|---------------------------|---------------------------------------------|
| `deploy`      | deployment                | unit, x, y, facing, [files, ranks]          |
| `ambush`      | deployment                | unit, [join: an Ambushing unit]             |
| `attach`      | charge, movement          | model, to (a unit, or null for none)        |
| `roll_ambush` | movement (checked: AMB-06, AMB-08) | -                                  |
| `arrive`      | movement                  | unit, point, x, y, facing, [files, ranks]   |
| `advance`     | movement                  | unit, distance                              |
| `march`       | movement                  | unit, distance                              |
| `reform`      | movement                  | unit, facing, [files, ranks]                |
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from domain.commands import Command, Who
from domain.limits import Facing


class UnitCommand(Command):
    """A command that orders one unit of the issuing player."""

    unit: str = Field(min_length=1)

    def ordered_units(self) -> tuple[str, ...]:
        return (self.unit,)


class Placement(UnitCommand):
    """A command that puts a unit's footprint somewhere: centre, facing, formation."""

    x: float
    y: float
    facing: Facing
    files: int | None = Field(default=None, ge=1)
    ranks: int | None = Field(default=None, ge=1)


class Deploy(Placement):
    """Place a unit on the Battlefield during Deployment."""

    who: ClassVar[Who] = "any"
    do: Literal["deploy"] = "deploy"


class DeclareAmbush(UnitCommand):
    """Place a unit in Ambush instead of Deploying it (AMB-03), optionally joined to
    an Ambushing unit with the same X (AMB-21)."""

    who: ClassVar[Who] = "any"
    do: Literal["ambush"] = "ambush"
    join: str | None = None

    def ordered_units(self) -> tuple[str, ...]:
        return (self.unit, *((self.join,) if self.join else ()))


class Attach(Command):
    """Choose which Ambushing unit an Attachable Model in Ambush joins, or none (AMB-23)."""

    do: Literal["attach"] = "attach"
    model: str = Field(min_length=1)
    to: str | None = None

    def ordered_units(self) -> tuple[str, ...]:
        return (self.model, *((self.to,) if self.to else ()))


class RollAmbush(Command):
    """Roll one D6 for each of your Ambushing units or Combined Units (AMB-07)."""

    do: Literal["roll_ambush"] = "roll_ambush"


class Arrive(Placement):
    """Place a unit that rolled 3+ on the Battlefield: a point chosen as X specifies,
    and a footprint (AMB-11, AMB-13…16)."""

    do: Literal["arrive"] = "arrive"
    point: tuple[float, float]


class Advance(UnitCommand):
    """Move straight forwards up to the unit's Advance Rate (an Advance Move)."""

    do: Literal["advance"] = "advance"
    distance: float = Field(gt=0)


class March(UnitCommand):
    """Move straight forwards up to the unit's March Rate (a March Move)."""

    do: Literal["march"] = "march"
    distance: float = Field(gt=0)


class Reform(UnitCommand):
    """Change formation and facing about the unit's centre."""

    do: Literal["reform"] = "reform"
    facing: Facing
    files: int | None = Field(default=None, ge=1)
    ranks: int | None = Field(default=None, ge=1)


T9A_COMMANDS: tuple[type[Command], ...] = (
    Deploy,
    DeclareAmbush,
    Attach,
    RollAmbush,
    Arrive,
    Advance,
    March,
    Reform,
)

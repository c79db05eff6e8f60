"""The properties of `domain.options`, as checks any test can run on a game in play.

- Completeness: every command the gate accepts was offered to its seat just before.
- Soundness: every offered command with no geometric value, decided at once, is
  accepted; a geometric one, with a value sampled from its region, is accepted or
  refused only by a rule the option said was still to check.

`Watch(service)` wraps a service's `handle`, so a script or a simulation played
through it is checked command by command.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from domain.dice import DiceSource
from domain.errors import InputError, RuleViolation
from domain.gate import settle
from domain.options import Option, Options, as_json
from replay.service import GameService, Outcome


def rule_set_offers(ruleset: Any) -> bool:
    """Whether the rule set proposes its own candidates yet (`Wiring.offers`)."""
    return getattr(getattr(ruleset, "wiring", None), "offers", None) is not None


#: The commands the core itself offers in every rule set (`domain.options.core_candidates`).
CORE_KINDS = frozenset({"next_phase", "end_turn", "end_game", "request_undo", "request_redo",
                        "consent", "ruling"})


def verdict_now(service: GameService, game_id: UUID, data: dict[str, Any]) -> str | None:
    """What the gate answers `data` now, with the game's own dice (None: accepted)."""
    game = service.working_copy(game_id)
    state = game.state
    dice = DiceSource(state.seed or 0, state.dice_index, reusable=state.reusable_dice)
    try:
        settle(game.ruleset, state, game.ruleset.parse_command(dict(data)), dice,
               service.history(game_id, game.head_hash))
    except RuleViolation as refusal:
        return refusal.rule
    except InputError:
        return "INPUT"
    return None


@dataclass
class Watch:
    """Checks the options of every seat as commands are handled through `service`."""

    service: GameService
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    #: Whether to check soundness too (decides every option: slower).
    sound: bool = True
    accepted: int = 0
    offered_checked: int = 0
    geometric_tried: int = 0
    geometric_accepted: int = 0
    missing: list[str] = field(default_factory=list)
    unsound: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._handle: Callable[..., Outcome] = self.service.handle
        self.service.handle = self.handle  # type: ignore[method-assign]

    def handle(self, game_id: UUID, command: Any, dice: Any = None, **kwargs: Any) -> Outcome:
        data = dict(command) if isinstance(command, dict) else command.record()
        seat = str(data.get("by", ""))
        ruleset = self.service.working_copy(game_id).ruleset
        found = self.service.options(game_id, seat)
        if self.sound:
            self.check_sound(game_id, found)
        outcome = self._handle(game_id, command, dice, **kwargs)
        if outcome.accepted:
            self.accepted += 1
            if (rule_set_offers(ruleset) or data.get("do") in CORE_KINDS) and not found.offers(
                    data):
                self.missing.append(f"{ruleset.name}: accepted but not offered: {data}")
        return outcome

    def check_sound(self, game_id: UUID, found: Options) -> None:
        for option in found.options:
            self.offered_checked += 1
            if option.geometric is None:
                rule = verdict_now(self.service, game_id, dict(option.command))
                if rule is not None:
                    self.unsound.append(f"offered but refused ({rule}): {option.command}")
            else:
                self.check_geometric(game_id, option)

    def check_geometric(self, game_id: UUID, option: Option) -> None:
        """A value from the option's region (its probe if it gives none)."""
        geometric = option.geometric
        assert geometric is not None
        value = sample_value(self.rng, option) if geometric.region else dict(geometric.probe)
        rule = verdict_now(self.service, game_id, {**option.command, **value})
        self.geometric_tried += 1
        if rule is None:
            self.geometric_accepted += 1
        elif rule not in geometric.remaining:
            self.unsound.append(f"refused by {rule}, not a check left to do: "
                                f"{as_json({**option.command, **value})}")


def sample_value(rng: random.Random, option: Option) -> dict[str, Any]:
    """A value drawn uniformly from the option's region (shapely), as its fields."""
    from shapely.geometry import Point, shape

    geometric = option.geometric
    assert geometric is not None and geometric.region is not None
    region = shape(geometric.region)
    minx, miny, maxx, maxy = region.bounds
    for _ in range(1000):
        x, y = rng.uniform(minx, maxx), rng.uniform(miny, maxy)
        if region.contains(Point(x, y)):
            break
    return geometric.value_at(round(x, 3), round(y, 3))

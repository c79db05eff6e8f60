"""Provably fair digital dice, and physical dice supplied with a command.

Die number `index` of a game is derived from HMAC-SHA256(seed, index) by
rejection sampling, so every face is equally likely and anyone who knows the
revealed seed can re-derive every digital roll. The game's first event
commits to the seed by `seed_commitment(seed)`.
"""

from __future__ import annotations

import hashlib
import hmac
from collections import deque
from collections.abc import Iterable
from typing import Literal

from domain.errors import InputError

DiceSourceKind = Literal["digital", "physical", "reused"]
#: Some dice drawn: their values, where they came from, the first digital index.
Draw = tuple[tuple[int, ...], DiceSourceKind, "int | None"]

SEED_DOMAIN = "warledger-seed-v1:"
#: No step rolls more dice than this (a 40k unit of Toughness 12 rolls 12).
MAX_PHYSICAL_DICE = 1_000


def dice(count: int) -> str:
    """A number of dice in words: "1 die", "2 dice", "no die"."""
    if count == 0:
        return "no die"
    return f"{count} {'die' if count == 1 else 'dice'}"


def seed_commitment(seed: int) -> str:
    """The public commitment to a seed: SHA-256 of a domain tag and the seed."""
    return hashlib.sha256(f"{SEED_DOMAIN}{seed}".encode()).hexdigest()


def digital_die(seed: int, index: int, sides: int = 6) -> int:
    """The `index`-th die of the game with this seed, uniform on 1..sides."""
    if not 2 <= sides <= 256:
        raise ValueError(f"a die needs 2 to 256 sides, not {sides}")
    limit = 256 - 256 % sides  # bytes at or above this would bias the result
    key = str(seed).encode()
    counter = 0
    while True:
        message = f"die:{index}:{counter}".encode()
        for byte in hmac.new(key, message, hashlib.sha256).digest():
            if byte < limit:
                return byte % sides + 1
        counter += 1


def physical_dice_problem(dice: object) -> str | None:
    """Why a step's `dice` (from a script, the CLI or the API) are not physical dice
    results, or None: they are a list of whole numbers (`true` is no die roll)."""
    if dice is None:
        return None
    if not isinstance(dice, list | tuple) or not all(type(v) is int for v in dice):
        return "dice must be a list of whole numbers"
    if len(dice) > MAX_PHYSICAL_DICE:
        return f"a step supplies at most {MAX_PHYSICAL_DICE:,} dice, not {len(dice):,}"
    return None


class DiceSource:
    """Where a decision's dice come from.

    Values queued by an undo are served first, whatever the roll is for, so
    undoing never buys a player fresh dice. Then physical dice given with the
    step are used, in order, and must all be used; otherwise digital dice are
    derived from the seed.
    """

    def __init__(
        self,
        seed: int,
        next_index: int,
        physical: Iterable[int] | None = None,
        reusable: Iterable[int] = (),
    ) -> None:
        self.seed = seed
        self.next_index = next_index
        self.physical: deque[int] | None = deque(physical) if physical is not None else None
        self.reusable = deque(reusable)

    def draw(self, count: int, sides: int) -> list[Draw]:
        """Draw `count` dice, as one or two parts: (values, source, first index or None).

        Dice queued by an undo come first (a part of kind "reused"); the rest
        are the step's physical dice, or digital ones. A step may not supply
        dice while undone dice are queued: they would let a player re-roll.
        """
        parts: list[Draw] = []
        reused = self._take_reusable(count, sides)
        if reused:
            parts.append((reused, "reused", None))
        rest = count - len(reused)
        if rest:
            parts.append(self._draw_fresh(rest, sides))
        return parts

    def _take_reusable(self, count: int, sides: int) -> tuple[int, ...]:
        if self.reusable and self.physical is not None:
            self._refuse_own_dice()
        taken: list[int] = []
        while self.reusable and len(taken) < count and 1 <= self.reusable[0] <= sides:
            taken.append(self.reusable.popleft())
        return tuple(taken)

    def _draw_fresh(self, count: int, sides: int) -> Draw:
        if self.physical is not None:
            if len(self.physical) < count:
                raise InputError(
                    f"the step supplied too few dice: it needs {count} more d{sides}, "
                    f"{len(self.physical)} left"
                )
            values = tuple(self.physical.popleft() for _ in range(count))
            for value in values:
                if not 1 <= value <= sides:
                    raise InputError(f"a d{sides} cannot show {value}")
            return values, "physical", None
        first = self.next_index
        values = tuple(digital_die(self.seed, first + i, sides) for i in range(count))
        self.next_index += count
        return values, "digital", first

    def hold(self, count: int, sides: int) -> tuple[int, ...] | None:
        """Take the step's next `count` physical dice for a roll a later step makes
        (the roll after a reaction window, CONTRACT "Rules versions"); None when the
        step gave no dice of its own: the later step rolls then."""
        if self.physical is None or not self.physical:
            return None
        values, _, _ = self._draw_fresh(count, sides)
        return values

    def check_fit(self) -> None:
        """INPUT, before anything is decided: physical dice given with a step are
        faces of a die (1 or more), and none are given while undone dice are queued
        (those come first, so a step's own dice would let a player re-roll)."""
        if self.physical is None:
            return
        if self.physical and self.reusable:
            self._refuse_own_dice()
        for value in self.physical:
            if value < 1:
                raise InputError(f"a die cannot show {value}")

    def _refuse_own_dice(self) -> None:
        """INPUT: a step gave dice of its own while undone dice are queued."""
        queued = len(self.reusable)
        raise InputError(
            f"{dice(queued)} of undone steps {'is' if queued == 1 else 'are'} queued and "
            "used first; this step may not supply dice of its own"
        )

    def check_all_used(self) -> None:
        """Refuse a step that supplied more physical dice than it rolled."""
        if self.physical:
            raise InputError(
                f"the step supplied {dice(len(self.physical))} more than it rolled"
            )

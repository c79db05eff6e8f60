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

SEED_DOMAIN = "warledger-seed-v1:"


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


class DiceSource:
    """Where a decision's dice come from.

    Physical dice given with the step are used first, in order, and must all
    be used. Otherwise values queued by an undo are reused before any new
    digital die is derived, so undoing never buys a player fresh dice.
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

    def draw(self, count: int, sides: int) -> tuple[tuple[int, ...], DiceSourceKind, int | None]:
        """Draw `count` dice: (values, source, first digital index or None)."""
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
        if len(self.reusable) >= count and all(
            1 <= v <= sides for v in list(self.reusable)[:count]
        ):
            return tuple(self.reusable.popleft() for _ in range(count)), "reused", None
        first = self.next_index
        values = tuple(digital_die(self.seed, first + i, sides) for i in range(count))
        self.next_index += count
        return values, "digital", first

    def check_all_used(self) -> None:
        """Refuse a step that supplied more physical dice than it rolled."""
        if self.physical:
            raise InputError(
                f"the step supplied {len(self.physical)} more dice than it rolled"
            )

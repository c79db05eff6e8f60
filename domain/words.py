"""Numbers in messages, in good English: "1 model", "2 models", "1 corner is"."""

from __future__ import annotations

from collections.abc import Sequence


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """`count` and the noun, singular for exactly one: "1 model", "0 models"."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def agrees(count: int, singular: str, plural: str) -> str:
    """The verb for `count` subjects: agrees(1, "is", "are") == "is"."""
    return singular if count == 1 else plural


def listed(names: Sequence[str], singular: str, plural: str) -> str:
    """Names joined by commas, with the verb that agrees: "a, b lie"."""
    return f"{', '.join(names)} {agrees(len(names), singular, plural)}"

"""Player ids a reader can tell apart (identity is real).

Ids are compared exactly, so two ids that look alike would be two seats a person
cannot tell apart: `red` and `red` + a zero-width space, `Judge` and the reserved
`judge`, a Latin `a` and a Cyrillic `а`. A set-up is refused when an id

- holds a control, format (zero-width, direction marks) or unassigned character,
  or space at either end;
- is not in Unicode normal form NFC, or changes under NFKC (compatibility forms
  such as full-width letters or ligatures);
- mixes left-to-right and right-to-left letters, or letters of two scripts;
- equals another id, or the reserved `judge`, once case-folded and NFKC-normalised.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

#: Characters that would hide in an id: controls, formats, surrogates, private use,
#: unassigned.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def folded(player: str) -> str:
    """The form two ids are compared in to find look-alikes."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", player).casefold())


def id_problem(player: str) -> str | None:
    """Why one player id could be mistaken for another, or None."""
    shown = player.encode("unicode_escape").decode("ascii")
    for char in player:
        if unicodedata.category(char) in HIDDEN_CATEGORIES:
            name = unicodedata.name(char, f"U+{ord(char):04X}")
            return f"player id {shown!r} holds an invisible or control character ({name})"
    if player != player.strip():
        return f"player id {shown!r} begins or ends with space"
    if unicodedata.normalize("NFKC", player) != player:
        return f"player id {shown!r} is not in normal form (NFKC: " \
            f"{unicodedata.normalize('NFKC', player)!r})"
    directions = {unicodedata.bidirectional(c) for c in player}
    if "L" in directions and directions & {"R", "AL"}:
        return f"player id {shown!r} mixes left-to-right and right-to-left text"
    scripts = {script_of(c) for c in player if c.isalpha()}
    if len(scripts) > 1:
        return f"player id {shown!r} mixes letters of {' and '.join(sorted(scripts))}"
    return None


def script_of(letter: str) -> str:
    """A letter's script, from its Unicode name (LATIN, CYRILLIC, GREEK, …)."""
    name = unicodedata.name(letter, "")
    return name.split(" ", 1)[0] if name else "UNKNOWN"


def ids_problem(players: Sequence[str], reserved: Sequence[str]) -> str | None:
    """Why a game's player ids cannot be told apart (or from a reserved role), or None."""
    seen: dict[str, str] = {folded(r): r for r in reserved}
    roles = set(seen)
    for player in players:
        problem = id_problem(player)
        if problem is not None:
            return problem
        key = folded(player)
        if key in seen:
            other = seen[key]
            if key in roles:
                return f"player id {player!r} looks like the reserved role {other!r}"
            return f"player ids {other!r} and {player!r} look alike"
        seen[key] = player
    return None

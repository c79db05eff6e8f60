"""Ids a reader can tell apart, of players and of units alike (principle 6: identity
is real).

Ids are compared exactly, so two ids that look alike would be two seats (or two
units) a person cannot tell apart: `red` and `red` + a zero-width space, `Judge` and
the reserved `judge`, a Latin `a` and a Cyrillic `а`, an `é` written as one character
(NFC) and as `e` + a combining accent (NFD). A set-up is refused when an id

- holds a control, format (zero-width, direction marks) or unassigned character,
  or space at either end;
- is not in Unicode normal form NFC, or changes under NFKC (compatibility forms
  such as full-width letters or ligatures);
- mixes left-to-right and right-to-left letters, or letters of two scripts;
- equals another id of its kind, or (a player's) a reserved role (`judge`,
  `spectator`), once case-folded and NFKC-normalised.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from domain.commands import JUDGE

#: Characters that would hide in an id: controls, formats, surrogates, private use,
#: unassigned.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})

#: The role of one who watches a game (a server's spectator seat), not a player.
SPECTATOR = "spectator"
#: Roles that are not players: no player may be called so, or anything like it.
RESERVED_ROLES = (JUDGE, SPECTATOR)


def folded(ident: str) -> str:
    """The form two ids are compared in to find look-alikes."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", ident).casefold())


def id_problem(ident: str, kind: str = "player id") -> str | None:
    """Why one id (`kind`: "player id", "unit id") could be mistaken for another, or None."""
    shown = ident.encode("unicode_escape").decode("ascii")
    for char in ident:
        if unicodedata.category(char) in HIDDEN_CATEGORIES:
            name = unicodedata.name(char, f"U+{ord(char):04X}")
            return f"{kind} {shown!r} holds an invisible or control character ({name})"
    if ident != ident.strip():
        return f"{kind} {shown!r} begins or ends with space"
    if unicodedata.normalize("NFKC", ident) != ident:
        return f"{kind} {shown!r} is not in normal form (NFKC: " \
            f"{unicodedata.normalize('NFKC', ident)!r})"
    directions = {unicodedata.bidirectional(c) for c in ident}
    if "L" in directions and directions & {"R", "AL"}:
        return f"{kind} {shown!r} mixes left-to-right and right-to-left text"
    scripts = {script_of(c) for c in ident if c.isalpha()}
    if len(scripts) > 1:
        return f"{kind} {shown!r} mixes letters of {' and '.join(sorted(scripts))}"
    return None


def script_of(letter: str) -> str:
    """A letter's script, from its Unicode name (LATIN, CYRILLIC, GREEK, …)."""
    name = unicodedata.name(letter, "")
    return name.split(" ", 1)[0] if name else "UNKNOWN"


def ids_problem(ids: Sequence[str], reserved: Sequence[str] = (),
                kind: str = "player id") -> str | None:
    """Why a game's ids of one `kind` cannot be told apart (or from a reserved role),
    or None."""
    seen: dict[str, str] = {folded(r): r for r in reserved}
    roles = set(seen)
    for ident in ids:
        problem = id_problem(ident, kind)
        if problem is not None:
            return problem
        key = folded(ident)
        if key in seen:
            other = seen[key]
            if key in roles:
                return f"{kind} {ident!r} looks like the reserved role {other!r}"
            return f"{kind}s {other!r} and {ident!r} look alike"
        seen[key] = ident
    return None


def players_problem(players: Sequence[str]) -> str | None:
    """Why a game's player ids cannot stand: none empty, none a reserved role
    (`RESERVED_ROLES`), and all told apart (`ids_problem`); or None."""
    if any(not player.strip() for player in players):
        return "a player id cannot be empty"
    for role in RESERVED_ROLES:
        if role in players:
            return f"{role!r} is a reserved role, not a player id"
    return ids_problem(players, RESERVED_ROLES)


def units_problem(units: Sequence[str]) -> str | None:
    """Why a game's unit ids cannot be told apart (the player ids' rules), or None."""
    return ids_problem(units, kind="unit id")

"""The clause index (`seeds/CLAUSES.md`) as data: English text and original quote by ID."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path


def clauses_file() -> Path:
    """The packaged `seeds/CLAUSES.md` (or the checkout's, if the package is not installed)."""
    try:
        return Path(str(files("seeds") / "CLAUSES.md"))
    except ModuleNotFoundError:
        return Path(__file__).resolve().parent.parent / "seeds" / "CLAUSES.md"


CLAUSES_FILE = clauses_file()
ROW = re.compile(r"^\|\s*((?:AMB|CAU|MNT|STR)-\d+)\s*\|\s*(.*?)\s*\|\s*(.*?)\s*\|\s*$")


@dataclass(frozen=True)
class Clause:
    """One clause: its ID, its English text and its original-language quote."""

    id: str
    english: str
    original: str


@cache
def clause_index(path: Path = CLAUSES_FILE) -> dict[str, Clause]:
    """Every clause of the index by ID (empty if the file is missing)."""
    if not path.exists():
        return {}
    index = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            clause_id, english, original = match.groups()
            index[clause_id] = Clause(clause_id, english, original)
    return index


def describe(rule: str | None, *, original: bool = False) -> str:
    """A rule ID with its English text (or its original quote), for people."""
    if not rule:
        return ""
    clause = clause_index().get(rule)
    if clause is None:
        return rule
    text = clause.original if original else clause.english
    return f"{rule} {text}"

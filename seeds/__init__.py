"""The source texts of the four rule sets, the clause index (`CLAUSES.md`) and
`INTERPRETATIONS.md`. A package so that installs carry the texts: the audit
quotes clauses from `CLAUSES.md`, and a judge's ruling may cite only a rule
these files name (`rule_ids`)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: Clause IDs (AMB-13), ambiguity IDs (A-AMB-10) and core-rule IDs (CORE-DICE).
RULE_ID = re.compile(r"\b(?:A-)?(?:AMB|CAU|MNT|STR)-\d+\b|\bCORE-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")


@cache
def rule_ids() -> frozenset[str]:
    """Every rule ID that `CLAUSES.md` or `INTERPRETATIONS.md` names."""
    found: set[str] = set()
    for name in ("CLAUSES.md", "INTERPRETATIONS.md"):
        path = HERE / name
        if path.exists():
            found.update(RULE_ID.findall(path.read_text(encoding="utf-8")))
    return frozenset(found)

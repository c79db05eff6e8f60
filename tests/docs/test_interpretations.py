"""Every CORE-* rule the code can cite is documented in seeds/INTERPRETATIONS.md
(CONTRACT section 3: CORE IDs "are listed in seeds/INTERPRETATIONS.md")."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CODE = [p for folder in ("domain", "replay", "warledger") for p in (ROOT / folder).rglob("*.py")]
CORE_ID = re.compile(r"CORE-[A-Z0-9]+(?:-[A-Z0-9]+)*")


def test_every_core_rule_in_the_code_is_documented() -> None:
    documented = set(CORE_ID.findall((ROOT / "seeds" / "INTERPRETATIONS.md").read_text()))
    cited = {match for path in CODE for match in CORE_ID.findall(path.read_text())}

    assert cited, "no CORE rule found: the pattern is wrong"
    assert sorted(cited - documented) == []

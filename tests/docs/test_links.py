"""A clone is complete: every relative link and path reference in the documentation
resolves to a file inside the repository (docs once pointed at
`../../shared/CONTRACT.md`, outside it)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted(
    ROOT / name for name in subprocess.run(
        ["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()
) or sorted(p for p in ROOT.rglob("*.md") if ".venv" not in p.parts)

#: A markdown link or image: [text](target) (an optional "title" after the target).
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
#: A path in backticks that climbs out of its folder, e.g. `../shared/CONTRACT.md`.
CLIMBING_PATH = re.compile(r"`(\.\./[^`\s]+)`")


def relative_targets(doc: Path) -> list[str]:
    text = doc.read_text(encoding="utf-8")
    links = [t for t in LINK.findall(text)
             if not re.match(r"^[a-z][a-z0-9+.-]*:|^#", t)]  # not a URL or an anchor
    return links + CLIMBING_PATH.findall(text)


@pytest.mark.parametrize("doc", DOCS, ids=[str(d.relative_to(ROOT)) for d in DOCS])
def test_every_relative_link_resolves_inside_the_repository(doc: Path) -> None:
    for target in relative_targets(doc):
        path = (doc.parent / target.split("#")[0]).resolve()
        assert path.is_relative_to(ROOT), f"{target} leaves the repository"
        assert path.exists(), f"{target} does not exist"


def test_the_checker_sees_links_and_climbing_paths(tmp_path: Path) -> None:
    doc = tmp_path / "a.md"
    doc.write_text("See [c](CONTRACT.md#3), ![p](pics/x.png \"t\"), [w](https://x.org), "
                   "[a](#top) and `../../shared/STYLE.md`.")
    assert relative_targets(doc) == ["CONTRACT.md#3", "pics/x.png", "../../shared/STYLE.md"]


def test_the_contract_is_the_projects_own_document() -> None:
    contract = (ROOT / "docs" / "CONTRACT.md").read_text(encoding="utf-8")
    assert "# The game-script contract (v1)" in contract
    assert "## Extensions" in contract

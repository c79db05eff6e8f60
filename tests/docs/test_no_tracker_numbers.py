"""Code and documents name schema versions and documents, never tracker items.

A reader of the code has no issue tracker open: "v1 logs" or "docs/results.md"
tells them where to look, a bare tracker number does not. Every tracked text
file is searched; the one exception is a reference to a library's own tracker
that names the library (LIBRARY-NOTES does so).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEXT_SUFFIXES = {".py", ".md", ".yaml", ".yml", ".toml", ".html", ".js", ".css", ".txt", ".cfg", ""}
#: The word, singular or plural, any case of its first letter, then a number with or
#: without "#" (the examples below are built from parts, so this file passes itself).
WORD = "iss" + "ue"
TRACKER_NUMBER = re.compile(r"(?<![A-Za-z])[Ii]" + WORD[1:] + r"s?[\s_-]+#?[0-9]+")


def tracked_files() -> list[Path]:
    names = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [ROOT / n for n in names if (ROOT / n).is_file()]


def tracked_text_files() -> list[Path]:
    return [path for path in tracked_files() if path.suffix in TEXT_SUFFIXES]


def tracker_numbers(path: Path) -> list[str]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return []
    return [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}"
        for number, line in enumerate(text.splitlines(), 1)
        if TRACKER_NUMBER.search(line)
    ]


def test_the_pattern_finds_what_it_is_meant_to() -> None:
    assert TRACKER_NUMBER.search("as logs before " + WORD + " 11 stored it")
    assert TRACKER_NUMBER.search("(" + WORD.title() + " 12 item 3)")
    assert TRACKER_NUMBER.search("goals of " + WORD + "s 12 and 13")
    assert not TRACKER_NUMBER.search("eventsourcing's issue tracker, #302")
    assert not TRACKER_NUMBER.search("v1 logs (class_version 1)")
    assert not TRACKER_NUMBER.search(WORD + "d 12 times")
    assert TRACKER_NUMBER.search("logs-before-" + WORD + "-11.jsonl.gz")
    assert TRACKER_NUMBER.search("every_fact_" + WORD + "_11_made_explicit")


def test_no_tracked_file_names_a_tracker_number() -> None:
    files = tracked_text_files()
    assert len(files) > 100, "git ls-files found too few files: is this a checkout?"
    found = [hit for path in files for hit in tracker_numbers(path)]
    found += [f"{path.relative_to(ROOT)}: its name" for path in tracked_files()
              if TRACKER_NUMBER.search(str(path.relative_to(ROOT)))]
    assert not found, "name the schema version or the document instead:\n" + "\n".join(found)

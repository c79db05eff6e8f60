"""CI revalidates the stored games under today's rules: the pinned fixtures, the
simulated corpus, and the scripted games that exercise each rule a rules version
changed. Every verdict a version changes in them must be listed in
tests/fixtures/verdict-changes.yaml, and every listed one must still happen."""

from __future__ import annotations

from pathlib import Path

from replay.revalidate import allowed, revalidate
from replay.service import GameService
from tests.corpus import GAMES, SCRIPTED, load_corpus
from tests.dice_game import DICE  # noqa: F401  (registers the test-dice rule set)
from tests.pinned import fixture_paths, load_rows, read_fixture
from warledger.cli import main

CHANGES = Path(__file__).resolve().parents[1] / "fixtures" / "verdict-changes.yaml"


def test_every_changed_verdict_of_a_stored_game_is_listed(tmp_path: Path) -> None:
    service = GameService(str(tmp_path / "stored.db"))
    pinned = [load_rows(service, read_fixture(path)) for path in fixture_paths()]
    corpus = load_corpus(service)
    scripted = load_corpus(service, SCRIPTED)

    found = revalidate(service)

    assert len(pinned) == 5 and len(corpus) == sum(GAMES.values()) and len(scripted) == 4
    assert (found.games, found.unreadable) == (len(pinned) + len(corpus) + len(scripted), ())
    assert found.steps > 900
    listed = allowed(CHANGES)
    unlisted = [c.line() for c in found.changes if c.key() not in listed]
    assert unlisted == [], "verdicts changed; list them with their reason in " + str(CHANGES)
    stale = listed - {c.key() for c in found.changes}
    assert stale == set(), "listed changes that no longer happen"
    service.close()
    assert main(["revalidate", str(tmp_path / "stored.db"), "--changes", str(CHANGES)]) == 0

"""A stored corpus of simulated games, revalidated by CI (tests/replay/test_revalidate.py).

tests/fixtures/corpus/simulated.jsonl.gz holds the stored event rows of games
`warledger simulate` played on 2026-12-02 (3 games of each rule set, seed 21),
one game a line: its id and its rows as the store held them. Like the pinned
fixtures it is never rewritten: it stands for games already stored, so that
`warledger revalidate` shows each verdict a later rules version would change
in them (tests/fixtures/verdict-changes.yaml lists those a release means).

`python -m tests.corpus` writes it when it is missing (never overwrites).
tests/fixtures/corpus/scripted.jsonl.gz holds the scripts of
tests/fixtures/corpus/scripted/, each exercising a rule a later rules version
changes, as the code of the first rules versions decided them (`write_scripted`).
"""

from __future__ import annotations

import gzip
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import orjson

from replay.mapper import EVENT_TOPIC
from replay.service import GameService
from tests.pinned import stored

FILE = Path(__file__).resolve().parent / "fixtures" / "corpus" / "simulated.jsonl.gz"
#: Scripted games that exercise each rule a later rules version changes, as the code
#: of the rules versions before it decided them (`write_scripted`).
SCRIPTED = FILE.with_name("scripted.jsonl.gz")
SCRIPTS = FILE.with_name("scripted")
#: What the corpus was simulated with: rule set → number of games (seed `SEED`).
GAMES = {"t9a": 3, "infinity-n4": 3, "mageknight-2": 3, "w40k-10": 3}
SEED = 21


def corpus_games(path: Path = FILE) -> Iterator[dict[str, Any]]:
    """Each stored game: `game_id` and its event `rows` (version and body)."""
    with gzip.open(path, "rb") as lines:
        for line in lines:
            yield orjson.loads(line)


def load_corpus(service: GameService, path: Path = FILE) -> list[UUID]:
    """Insert every corpus game's rows into a service's store, as they were stored."""
    ids = []
    for game in corpus_games(path):
        game_id = UUID(game["game_id"])
        service.recorder.insert_events([stored(game_id, row, EVENT_TOPIC)
                                        for row in game["rows"]])
        ids.append(game_id)
    return ids


def write_corpus() -> None:
    """Simulate the corpus and write its rows."""
    from warledger.simulate import simulate

    with tempfile.TemporaryDirectory() as scratch:
        db = str(Path(scratch) / "corpus.db")
        for ruleset, games in GAMES.items():
            simulate(ruleset, games, SEED, db)
        write_rows(GameService(db), FILE)


def write_rows(service: GameService, path: Path) -> None:
    """Write every game of a store, one a line, and close the store."""
    lines = []
    for game_id in service.game_ids():
        rows = [{"version": row.originator_version, "body": orjson.loads(row.state)}
                for row in service.recorder.select_events(game_id)]
        lines.append(orjson.dumps({"game_id": str(game_id), "rows": rows}))
    service.close()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(b"\n".join(lines) + b"\n", compresslevel=9, mtime=0))


def write_scripted() -> None:
    """Play the scripts of tests/fixtures/corpus/scripted/ and write their rows. Run
    on the code of the rules versions before the changes they exercise (written on
    2026-12-02 with `PYTHONPATH=<a checkout of that commit> python tests/corpus.py
    --scripted`): every step of every script must be accepted there."""
    from warledger.script import load_script, run_script

    with tempfile.TemporaryDirectory() as scratch:
        service = GameService(str(Path(scratch) / "scripted.db"))
        for script in sorted(SCRIPTS.glob("*.yaml")):
            result = run_script(service, load_script(str(script)))
            refused = [s for s in result["steps"] if not s["accepted"]]
            assert not refused, (script.name, refused)
        write_rows(service, SCRIPTED)


def main() -> int:
    if "--scripted" in sys.argv:
        write_scripted()
        print(f"wrote {SCRIPTED}")
        return 0
    if FILE.exists():
        print(f"kept {FILE} (the stored corpus is never rewritten)")
        return 0
    write_corpus()
    print(f"wrote {FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`warledger games` on a store of many games, against replaying each one.

    python -m bench.games_list                 # 1,000 games of 100 events
    python -m bench.games_list --games 4000    # as many as a season's club store

The listing (`replay.game_list`) reads three queries whatever the number of games;
the baseline is what `games` did before: every game read back whole
(`GameService.game_at`) to print its line. The figure is their ratio, same run.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from bench.run import SETUP, grow_game
from replay.game_list import game_summaries
from replay.service import GameService


def store_games(db: str, games: int, events: int) -> None:
    service = GameService(db)
    for _ in range(games):
        grow_game(service, service.start(SETUP), events)
    service.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--events", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "games.db")
        store_games(db, args.games, args.events)
        service = GameService(db)
        start = time.perf_counter()
        listed = sum(1 for _ in game_summaries(service))
        listing = time.perf_counter() - start
        start = time.perf_counter()
        for game_id in service.game_ids():
            service.game_at(game_id)
        replaying = time.perf_counter() - start
    print(f"| games | events each | list (s) | replay each (s) | ratio |\n|---|---|---|---|---|\n"
          f"| {listed:,} | {args.events} | {listing:.2f} | {replaying:.2f} | "
          f"{replaying / listing:.1f}x |")


if __name__ == "__main__":
    main()

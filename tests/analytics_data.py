"""Synthetic stored events for analytics tests: games with metadata, results (the
`results` facts of docs/results.md), dice, stratagems, CP and Ambush arrivals,
folded straight into an analytic views file (no state views)."""

from __future__ import annotations

import random
import sqlite3
from typing import Any
from uuid import UUID

import orjson

from replay.analytics import Fold, schema_statements
from replay.views import SQLITE_TRACKING, VIEW_SCHEMA, write_batch

FACTIONS = ("Orcs", "Elves", "Dwarfs")
STRATAGEMS = (("grenade", "Grenade", 1), ("smokescreen", "Smokescreen", 1),
              ("heroic-intervention", "Heroic Intervention", 2))


def game_facts(rng: random.Random, index: int) -> list[dict[str, Any]]:
    """The facts of one game, each with its step: a short, plausible log."""
    ruleset = "w40k-10" if index % 2 == 0 else "t9a"
    first = rng.choice(["red", "blue"])
    facts: list[dict[str, Any]] = [
        {"type": "GameStarted", "ruleset": ruleset,  # the first seat plays first (CORE-TURNS)
         "players": [first, "blue" if first == "red" else "red"],
         "board": {"width": 48, "height": 48}, "seed_commitment": "x"},
        {"type": "GameMetadataRecorded", "event": "Open" if index % 3 else "Cup", "round": "1",
         "table": str(index), "mission": "m", "deployed_first": first,
         "players": {"red": {"name": f"R{index}", "faction": rng.choice(FACTIONS)},
                     "blue": {"name": f"B{index}", "faction": rng.choice(FACTIONS)}}},
        {"type": "UnitFielded", "unit": {"id": "u-red", "owner": "red"}},
        {"type": "PhaseStarted", "round": 1, "active_player": first, "phase": "command",
         },
    ]
    step = 0
    for round_ in (1, 2, 3):
        for player in (first, "blue" if first == "red" else "red"):
            step += 1
            facts.append({"type": "StepTaken", "step": step, "by": player,
                          "command": {"by": player, "do": "act"}, "_step": step})
            values = [rng.randint(1, 6) for _ in range(rng.randint(1, 4))]
            facts.append({"type": "DiceRolled", "purpose": "hit", "sides": 6, "values": values,
                          "source": rng.choice(["digital", "physical"]), "first_index": 0,
                          "subject": None, "_step": step})
            if ruleset == "w40k-10":
                stratagem, name, cost = rng.choice(STRATAGEMS)
                facts.append({"type": "CommandPointsGained", "player": player, "amount": 1,
                              "lost": rng.choice([0, 0, 1]), "source": "command phase",
                              "kind": "command_phase", "balance": 2, "_step": step})
                facts.append({"type": "StratagemUsed", "use": f"s{step}", "player": player,
                              "stratagem": stratagem, "name": name, "targets": ["u-red"],
                              "base_cost": cost, "cost": cost, "round": round_,
                              "turn": player, "phase": rng.choice(["shooting", "fight"]),
                              "_step": step})
                facts.append({"type": "CommandPointsSpent", "player": player, "amount": cost,
                              "source": name, "balance": 1, "_step": step})
            elif player == "red" and round_ == 3:
                turn = rng.choice([2, 3, 6])
                facts.append({"type": "AmbushRollResolved", "unit": "u-red", "roll": 4,
                              "arrives": True, "game_turn": turn, "_step": step})
                facts.append({"type": "UnitArrivedFromAmbush", "unit": "u-red",
                              "point": [10.0, 0.0], "x": 10.0, "y": 2.0, "facing": 90.0,
                              "files": 4, "ranks": 2, "game_turn": turn, "player": "red",
                              "phase": "movement", "_step": step})
                if turn == 6:
                    facts.append({"type": "ScoringLost", "unit": "u-red", "_step": step})
        facts.append({"type": "PhaseStarted", "round": round_ + 1, "active_player": first,
                      "phase": "command", "_step": step})
    step += 1
    winner = rng.choice(["red", "blue", None])
    result = {"winner": winner, "draw": winner is None,
              "points": {"red": rng.randint(0, 20), "blue": rng.randint(0, 20)}}
    facts.append({"type": "ResultProposed", "by": "red", "reason": None, "_step": step, **result})
    if index % 5 == 4:
        facts.append({"type": "ResultRefused", "by": "blue", "_step": step})
    else:
        facts.append({"type": "ResultConfirmed", "by": "blue", "_step": step, **result})
    return facts


def synthetic_rows(games: int, seed: int = 1) -> list[tuple[int, str, int, bytes]]:
    """Stored rows (notification id, game id, event number, body) of `games` games,
    interleaved as if played at the same time."""
    rng = random.Random(seed)
    logs = [(str(UUID(int=index + 1)), game_facts(rng, index)) for index in range(games)]
    rows, notification = [], 0
    longest = max(len(log) for _, log in logs)
    for position in range(longest):
        for index, (game_id, log) in enumerate(logs):
            if position < len(log):
                fact = dict(log[position])
                step = fact.pop("_step", 0)
                notification += 1
                body = {"timestamp": f"2026-0{1 + index % 9}-01T00:00:00+00:00",
                        "step": step, "prev_hash": "", "hash": "", "fact": fact}
                rows.append((notification, game_id, position + 1, orjson.dumps(body)))
    return rows


def synthetic_views(path: str, games: int = 30, seed: int = 1, batch: int = 97) -> None:
    """An analytic views file of synthetic games, as `warledger views` would write it."""
    conn = sqlite3.connect(path, isolation_level=None)
    for statement in [*schema_statements(), *VIEW_SCHEMA, SQLITE_TRACKING]:
        conn.execute(statement)

    def context(game_id: str) -> Any:
        from replay.analytics import GameContext

        row = conn.execute("select ctx from games where game_id = ?", (game_id,)).fetchone()
        return GameContext.from_json(row[0]) if row else None

    fold = Fold(context, capacity=7)
    rows = synthetic_rows(games, seed)
    for start in range(0, len(rows), batch):
        out = fold.fold(rows[start:start + batch])
        conn.execute("begin")
        write_batch(conn, out)
        conn.execute("commit")
    conn.close()

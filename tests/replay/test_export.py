"""Exports as each reader may see them (`replay/export.py`): the full log with its
hashes, and a player's own lines, which leave out what that player may not know
and nothing else. A player sees their own hidden trooper."""

from __future__ import annotations

from uuid import UUID

from domain.game import Game
from replay.export import Seer, export_lines, hidden_from, numbered_for, seen_by
from replay.service import GameService
from tests.accepting import accept
from tests.replay.test_secrets import HIDDEN_SETUP


def hidden_game(service: GameService) -> UUID:
    """Infinity: nomads' sniper in Hidden Deployment, pano's fusilier in the open;
    pano has moved on to the next phase."""
    game_id = service.start(HIDDEN_SETUP)
    accept(service, game_id, {"do": "next_phase", "by": "pano"})
    return game_id


def fielded(lines: list[dict[str, object]]) -> list[object]:
    return [line["fact"]["unit"]["id"] for line in lines  # type: ignore[index]
            if line["fact"]["type"] == "UnitFielded"]  # type: ignore[index]


def test_a_player_sees_their_own_hidden_trooper_where_it_stands(service: GameService) -> None:
    game_id = hidden_game(service)
    events = service.stored_events(game_id)

    nomads = list(export_lines(events, "nomads"))
    pano = list(export_lines(events, "pano"))

    assert fielded(nomads) == ["fusilier", "sniper-hd"]
    [sniper] = [line["fact"]["unit"] for line in nomads
                if line["fact"]["type"] == "UnitFielded"
                and line["fact"]["unit"]["id"] == "sniper-hd"]
    assert (sniper["x"], sniper["y"], sniper["conditions"]) == (
        31.25, 37.75, ["hidden_deployment"])
    assert fielded(pano) == ["fusilier"]
    # the owner misses only the sealed seed; the opponent the trooper too
    assert (len(events) - len(nomads), len(events) - len(pano)) == (1, 2)


def test_the_units_hidden_from_a_player_are_the_enemys_hidden_ones_only(
    service: GameService,
) -> None:
    state = service.load(hidden_game(service)).state

    assert hidden_from(state, "pano") == frozenset({"sniper-hd"})
    assert hidden_from(state, "nomads") == frozenset()


def test_a_players_lines_carry_no_hash_and_count_only_their_own(service: GameService) -> None:
    events = service.stored_events(hidden_game(service))

    full = list(export_lines(events))
    nomads = list(export_lines(events, "nomads"))

    assert [line["version"] for line in full] == [e.originator_version for e in events]
    assert [(line["prev_hash"], line["hash"]) for line in full] == [
        (e.prev_hash, e.hash) for e in events]
    assert [set(line) for line in nomads] == [{"n", "step", "timestamp", "fact"}] * len(nomads)
    assert [line["n"] for line in nomads] == list(range(1, len(nomads) + 1))
    shown = [e for e in events if e.fact.type != "SeedSealed"]
    assert [(line["step"], line["timestamp"], line["fact"]) for line in nomads] == [
        (e.step, e.timestamp.isoformat(), e.fact.payload()) for e in shown]


def test_numbered_for_pairs_each_seen_event_with_its_number_in_the_log(
    service: GameService,
) -> None:
    events = service.stored_events(hidden_game(service))
    hidden = {e.originator_version for e in events
              if e.fact.type == "SeedSealed"
              or (e.fact.type == "UnitFielded" and "sniper-hd" in str(e.fact.payload()))}

    pano = numbered_for(events, "pano")

    assert [log for log, _ in pano] == [e.originator_version for e in events
                                        if e.originator_version not in hidden]
    assert [seen.originator_version for _, seen in pano] == list(range(1, len(pano) + 1))
    assert all((seen.hash, seen.prev_hash, seen.stored_fact) == ("", "", None)
               for _, seen in pano)


def test_a_live_seer_fed_one_event_at_a_time_sees_what_the_export_sees(
    service: GameService,
) -> None:
    events = service.stored_events(hidden_game(service))
    seer = Seer("pano")

    fed = [seen for event in events if (seen := seer.see(event)) is not None]

    assert fed == list(seen_by(events, "pano"))
    assert seer.count == len(fed) == len(events) - 2
    assert isinstance(seer.game, Game) and seer.game.version == events[-1].originator_version

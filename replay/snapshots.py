"""Snapshots are a cache: sealed when written, checked before use, ignored when wrong.

A snapshot row is not part of the hash chain, so anyone who can edit the
database can edit it without breaking a link. A snapshot therefore carries a
seal inside its state data (written by `Game.snapshot`):

- `__version__`: the event number it stands at (the row's own version column
  must agree);
- `__head_hash__`: the hash of that event (the chain must agree);
- `__state_hash__`: `chain_hash` (SHA-256 of the sorted-key JSON) of the state it holds.

`trusted_game` loads a game through the latest snapshot only if the seal
holds: the row decodes, the seal is complete and matches the row, the state
hashes to the seal, the stored event at its version has its head hash, and the
next event links to it. When a rebuild from the events is cheap (the snapshot
stands at most `recheck_events` events from the start) the snapshot must also
equal that rebuild. On any failure the game is folded from the events alone,
and the reason is reported to `warn` (the CLI prints it as a warning line on
stderr). Snapshots of the old format (no seal) are treated the same way.

What this does not catch without a key: a forger who rewrites a snapshot far
into a long game and recomputes its state hash. Only `verify`, which replays
from the first event and compares every snapshot, proves a snapshot right.
With a server key (`replay.keyed`, `WARLEDGER_KEY`) the seal also carries
`__mac__`, an HMAC no one without the key can recompute: a keyed service uses a
snapshot only if its MAC holds, and reads every event after it checked against
its hash and link.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import cast
from uuid import UUID

from eventsourcing.persistence import EventStore, StoredEvent

from domain.game import Game, project_events_only
from domain.ruleset import find_ruleset
from events.envelope import GameEvent, GameSnapshot, chain_hash
from replay.event_store import select_rows
from replay.keyed import KEY_ENV, MAC_KEY, authentic_events, macs_match, snapshot_mac

#: The seal's keys inside a snapshot's state data.
VERSION_KEY = "__version__"
HEAD_KEY = "__head_hash__"
STATE_HASH_KEY = "__state_hash__"
SEAL_KEYS = (VERSION_KEY, HEAD_KEY, STATE_HASH_KEY, MAC_KEY)

Warn = Callable[[str], None]


class UntrustedSnapshotError(Exception):
    """A stored snapshot cannot be used; the message says why."""


def open_snapshot(snapshot: GameSnapshot, key: bytes | None = None) -> Game:
    """The game a snapshot restores, if its seal holds (`UntrustedSnapshotError` if not);
    with a server `key`, its seal's MAC must hold too."""
    version = snapshot.originator_version
    data = dict(snapshot.state)
    seal = {name: data.pop(name, None) for name in SEAL_KEYS}
    if seal[VERSION_KEY] is None or seal[STATE_HASH_KEY] is None:
        raise UntrustedSnapshotError(
            f"the snapshot at event {version} is of the old format (no seal)"
        )
    if seal[VERSION_KEY] != version:
        raise UntrustedSnapshotError(
            f"the snapshot at event {version} says it stands at event {seal[VERSION_KEY]}"
        )
    if chain_hash(data) != seal[STATE_HASH_KEY]:
        raise UntrustedSnapshotError(
            f"the snapshot at event {version} does not match its own state hash"
        )
    if key is not None:
        check_snapshot_mac(snapshot, key, seal)
    try:
        ruleset = find_ruleset(snapshot.ruleset)
        state = ruleset.state_type.model_validate(data)
    except Exception as error:  # a state the rule set cannot read
        raise UntrustedSnapshotError(
            f"the snapshot at event {version} cannot be read: {first_line(error)}"
        ) from None
    return Game(snapshot.originator_id, ruleset, state, version, str(seal[HEAD_KEY]))


def check_snapshot_mac(snapshot: GameSnapshot, key: bytes, seal: dict[str, object]) -> None:
    """A keyed service uses a snapshot only if the server key signed its seal."""
    version = snapshot.originator_version
    if seal[MAC_KEY] is None:
        raise UntrustedSnapshotError(
            f"the snapshot at event {version} carries no {KEY_ENV} MAC")
    expected = snapshot_mac(key, snapshot.originator_id, version, str(seal[HEAD_KEY]),
                            str(seal[STATE_HASH_KEY]))
    if not macs_match(seal[MAC_KEY], expected):
        raise UntrustedSnapshotError(
            f"the snapshot at event {version} fails its {KEY_ENV} MAC")


def first_line(error: Exception) -> str:
    """An error's first line (its type when it has no message)."""
    text = str(error)
    return text.splitlines()[0] if text else type(error).__name__


def read_snapshot(store: EventStore[UUID], game_id: UUID, version: int | None,
                  key: bytes | None = None) -> Game | None:
    """The latest stored snapshot at or before `version`, checked (None if there is none)."""
    rows = select_rows(store, game_id, lte=version, desc=True, limit=1)
    if not rows:
        return None
    at, topic, body = rows[0]
    try:
        snapshot = store.mapper.to_domain_event(StoredEvent(
            originator_id=game_id, originator_version=at, topic=topic, state=body))
    except Exception as error:  # a row that cannot even be decoded
        raise UntrustedSnapshotError(
            f"the snapshot at event {at} cannot be read: {first_line(error)}"
        ) from None
    return open_snapshot(cast("GameSnapshot", snapshot), key)


def trusted_game(
    snapshots: EventStore[UUID] | None,
    events: EventStore[UUID],
    game_id: UUID,
    version: int | None = None,
    *,
    recheck_events: int = 0,
    warn: Warn | None = None,
    key: bytes | None = None,
) -> Game | None:
    """The game after event `version` (None: the latest), through a checked snapshot.

    None if the game has no events. Falls back to the events alone, telling
    `warn` why, whenever the latest snapshot is not to be trusted. With a server
    `key`, the snapshot's MAC must hold, and every event read must match its hash
    and link (`replay.keyed.TamperedGameError` if one does not: no fallback helps).
    """
    try:
        game = from_checked_snapshot(snapshots, events, game_id, version, recheck_events,
                                     key)
    except UntrustedSnapshotError as problem:
        if warn is not None:
            warn(f"{problem}; the game is rebuilt from its events instead")
        game = None
    if game is None:
        return project_events_only(None, read_events(events, game_id, None, version,
                                                     authentic=key is not None))
    return game


def from_checked_snapshot(
    snapshots: EventStore[UUID] | None,
    events: EventStore[UUID],
    game_id: UUID,
    version: int | None,
    recheck_events: int,
    key: bytes | None = None,
) -> Game | None:
    """The game through its latest snapshot, checked against the chain (None: no snapshot)."""
    if snapshots is None:
        return None
    game = read_snapshot(snapshots, game_id, version, key)
    if game is None:
        return None
    tail = read_events(events, game_id, game.version - 1, version, authentic=key is not None)
    if not tail or tail[0].originator_version != game.version or tail[0].hash != game.head_hash:
        raise UntrustedSnapshotError(
            f"the snapshot at event {game.version} does not stand at that event of the "
            "hash chain"
        )
    if game.version <= recheck_events:
        check_against_rebuild(game, events)
    for event in tail[1:]:
        if event.prev_hash != game.head_hash:
            raise UntrustedSnapshotError(
                f"the snapshot at event {game.version} does not link to event "
                f"{event.originator_version}"
            )
        game.apply_event(event)
    return game


def check_against_rebuild(game: Game, events: EventStore[UUID]) -> None:
    """The snapshot must equal the game its events build (the cheap case only)."""
    rebuilt = project_events_only(None, read_events(events, game.id, None, game.version))
    if rebuilt is None or rebuilt.state.model_dump(mode="json") != game.state.model_dump(
        mode="json"
    ):
        raise UntrustedSnapshotError(
            f"the snapshot at event {game.version} differs from the game its events build"
        )


def read_events(
    events: EventStore[UUID], game_id: UUID, gt: int | None, lte: int | None,
    *, authentic: bool = False,
) -> list[GameEvent]:
    """Stored events of a game with `gt` < version ≤ `lte` (`authentic`: each checked
    against its hash and link as stored, `replay.keyed.authentic_events`)."""
    if authentic:
        return authentic_events(events, game_id, gt, lte)
    return list(cast("Iterable[GameEvent]", events.get(game_id, gt=gt, lte=lte)))

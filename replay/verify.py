"""Verify a stored game: the raw rows, the hash chain, and every decision.

Reads raw rows (not `repository.get`, which trusts too much), decodes each in
its own error handling, checks versions are contiguous, recomputes each hash
over the validated event, checks each `prev_hash` link, then replays from the
first event without snapshots and re-decides every recorded command against
the state before it, with the recorded physical dice or the dice the sealed
seed derives. The first event that fails is named.

A hash chain alone cannot notice the loss of whole steps at the end of the
log; pass the head hash from a player's receipt as `expect_head` for that.

With a server key (`service.key`, from `WARLEDGER_KEY`; `replay.keyed`) the
signed heads are checked too, after everything above: the first head whose MAC
fails the log is named (it was rewritten at or before that event, even with its
hash chain recomputed), as are events after the last signed head (written
without the key) and signed heads past the log's end (events removed). A
snapshot whose seal carries a MAC that fails is named at its event; one with no
MAC (written without the key) is only noted. A game with no signed head at all
is never ok with the key: it is UNSIGNED, and the verdict says whether the key's
signed-games record (`replay.signed_games`, outside the database) lists it.

Snapshots are a cache, not part of the log: a snapshot row that cannot be
read at all is ignored and noted (the events decide), but a readable snapshot
that differs from the replayed game, or whose seal does not match it, is a
forgery and fails at its event.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast
from uuid import UUID

import orjson

from domain.dice import DiceSource, seed_commitment
from domain.errors import RuleViolation
from domain.game import Game
from domain.gate import settle
from domain.history import History, LogHistory
from domain.rules_version import decided_under, missing_code, words
from domain.words import counted
from events.base import Fact, same_fact
from events.core import GameStarted, RulesVersionChanged, SeedSealed, StepTaken
from events.envelope import GENESIS_HASH, GameEvent, GameSnapshot, chain_hash, hashed_body
from replay.keyed import (
    KEY_ENV,
    MAC_KEY,
    SignedHead,
    has_stored_heads,
    head_mac,
    macs_match,
    snapshot_mac,
)
from replay.mapper import EVENT_TOPIC, decode_event
from replay.service import GameService
from replay.snapshots import SEAL_KEYS, first_line


@dataclass(frozen=True)
class Verdict:
    """The result of verifying one game."""

    ok: bool
    events: int
    steps: int
    bad_version: int | None = None
    reason: str = ""
    head_hash: str = ""
    #: What was ignored on the way (an unreadable snapshot row): one line each.
    notes: tuple[str, ...] = ()
    #: What the check says of the keyed heads (`replay.keyed`): `SIGNED`, `UNSIGNED`
    #: (a key was given, the game has no signed head: never `ok`), `UNCHECKED` (the game
    #: has signed heads, no key was given), or "" (no key given, none stored).
    heads: str = ""
    #: An `UNSIGNED` game that the key's signed-games record lists: the event of its
    #: first signed head (`replay.signed_games`); None when the record does not list it.
    listed: int | None = None
    #: The steps not decided again because the rules version that decided them is no
    #: longer in this code (`domain.rules_version`): one line each. The hash chain
    #: and the other steps were checked; `ok` is still True, but `line` says so.
    not_redecided: tuple[str, ...] = ()

    @property
    def unsigned(self) -> bool:
        """With the key: the chain and every decision hold, but no head is signed."""
        return self.heads == UNSIGNED

    def line(self, adopt: str = "warledger verify DB GAME --sign-head") -> str:
        """One human line (`adopt`: the command that signs an unsigned game's head, to
        which its head hash is added)."""
        if self.unsigned:
            return self.unsigned_line(adopt)
        if self.ok and self.not_redecided:
            return (f"NOT RE-DECIDED: {'; '.join(self.not_redecided)}; the hash chain and "
                    f"the other {counted(self.steps - len(self.not_redecided), 'step')} "
                    f"check out; head {self.head_hash}")
        if self.ok:
            heads = HEADS_WORDS.get(self.heads, "")
            return (
                f"ok: {counted(self.events, 'event')}, {counted(self.steps, 'step')}; hash chain "
                f"and every "
                f"decision check out; head {self.head_hash}{heads}"
            )
        return f"BAD event {self.bad_version}: {self.reason}"

    def unsigned_line(self, adopt: str) -> str:
        """`UNSIGNED: …`: what was checked, and whether the key's record lists the game."""
        checked = (f"UNSIGNED: no head of this game is signed with {KEY_ENV} "
                   f"({counted(self.events, 'event')}, {counted(self.steps, 'step')}: the hash "
                   f"chain and every decision check out; head {self.head_hash}); ")
        if self.listed is not None:
            return checked + (
                f"the key's signed-games record LISTS it (signed from event {self.listed}): "
                "its signed heads were removed from the database, and its log may have been "
                "rewritten with them; it is not adopted")
        return checked + (
            "the key's signed-games record does not list it: it was stored without the key "
            "(or signed before the record was kept); compare its head with a player's "
            f"receipt, then `{adopt} {self.head_hash}` adopts it")


#: What a verdict adds about the keyed heads, by `Verdict.heads`.
SIGNED, UNSIGNED, UNCHECKED = "signed", "unsigned", "unchecked"
HEADS_WORDS = {
    SIGNED: f"; every head signed with {KEY_ENV} checks out",
    UNCHECKED: (f"; its {KEY_ENV} heads were NOT checked (no key given: set {KEY_ENV} to "
                "check who wrote it)"),
}


class VerifyFailure(Exception):
    """A check failed at one event."""

    def __init__(self, version: int, reason: str) -> None:
        super().__init__(reason)
        self.version = version
        self.reason = reason


def verify_game(service: GameService, game_id: UUID, expect_head: str | None = None,
                *, signed_heads: bool = True) -> Verdict:
    """Verify every stored event of a game (with the service's key, its signed heads
    too). With `signed_heads` False (`verify --sign-head`, which adopts a game stored
    without the key), a game may have no signed head, or events after its last one,
    but every head it has must still pass this key's MAC: a game another key signed
    is never re-signed."""
    notes: list[str] = []
    skipped: list[str] = []
    macs = SnapshotMacs()
    # Read before the log: a head signed meanwhile is in the log too (never the reverse).
    seen = service.signed_games.latest_head(game_id) if service.signed_games else None
    try:
        events = read_chain(service, game_id)
        check_seen_head(events, seen)
        steps = redecide_all(events, stored_snapshots(service, game_id, notes, macs), skipped)
        heads = checked_heads(service, game_id, events, macs.signed, adopting=not signed_heads)
        if heads == SIGNED:  # an unsigned game's snapshots have no MAC: its line says so
            notes += [f"the stored snapshot at event {version} carries no {KEY_ENV} MAC; "
                      "a keyed server does not use it" for version in macs.unsigned]
        head = events[-1].hash if events else GENESIS_HASH
        if expect_head is not None and head != expect_head:
            raise VerifyFailure(
                len(events), f"the log ends at head {head}, not at the receipt's {expect_head}"
            )
    except VerifyFailure as failure:
        return Verdict(False, 0, 0, failure.version, failure.reason, notes=tuple(notes))
    listed = service.signed_games.listed(game_id) if service.signed_games is not None \
        and heads == UNSIGNED else None
    if service.key is None and len(events) > service.snapshot_recheck_events:
        notes.append(unkeyed_snapshot_warning(service.snapshot_recheck_events))
    return Verdict(heads != UNSIGNED, len(events), steps, head_hash=head, notes=tuple(notes),
                   heads=heads, listed=listed, not_redecided=tuple(skipped))


def check_seen_head(events: Sequence[GameEvent], seen: int | None) -> None:
    """With the key, the log must reach the latest head the key's signed-games record
    saw signed (`replay.signed_games`): what is missing was removed, its signed heads
    with it, as no signed head in the database can show."""
    if seen is not None and seen > len(events):
        raise VerifyFailure(len(events), f"the log ends here, but the {KEY_ENV} signed-games "
                            f"record saw its head at event {seen} signed: events were "
                            "removed (or this is an older copy of the game)")


def unkeyed_snapshot_warning(recheck_events: int) -> str:
    """What a judge must know of a game longer than the snapshot rebuild window, checked
    without the key (docs/testing.md "Snapshots are a cache"): `verify` compares every
    snapshot with the replayed game, but `replay`, `step` and a server trust one past
    the window on its seal alone, which anyone who can write the database can redo."""
    return (f"without {KEY_ENV}, a stored snapshot more than {recheck_events} events into "
            "this game is trusted on its seal alone: `replay`, `step` and a server would "
            "follow one re-sealed by whoever can write the database (this check compared "
            f"every snapshot with the replayed game); set {KEY_ENV} to sign snapshots")


@dataclass
class SnapshotMacs:
    """With the key: the events of the stored snapshots whose MAC holds, and of those
    that have none (a MAC that fails is a `VerifyFailure`)."""

    signed: list[int] = field(default_factory=list)
    unsigned: list[int] = field(default_factory=list)


def checked_heads(service: GameService, game_id: UUID, events: Sequence[GameEvent],
                  signed_snapshots: Sequence[int], *, adopting: bool) -> str:
    """What `verify` can say of the game's keyed heads (`Verdict.heads`).

    With the key, every signed head is checked (`check_signed_heads`), and a game whose
    heads hold is listed in the key's signed-games record if it is not yet (one signed
    before the record was kept). A game with none is `UNSIGNED`, never ok: stored
    without the key, or stripped of its heads (`verify_game` says whether the record
    lists it). A game whose snapshots carry this key's MAC was stored with the key, so
    signed heads missing from it were removed: a failure. Without the key, a game that
    has signed heads or MACs is `UNCHECKED`: nothing proves who wrote it."""
    if service.key is None or service.heads is None:
        keyed = has_stored_heads(service.recorder, game_id) or any(
            MAC_KEY in seal for seal in snapshot_seals(service, game_id))
        return UNCHECKED if keyed else ""
    heads = service.heads.all(game_id)
    if not heads and not adopting:
        if signed_snapshots:
            raise VerifyFailure(len(events), f"no head of this game is signed with {KEY_ENV}, "
                                f"but its snapshot at event {signed_snapshots[0]} is: it was "
                                "stored with the key, and its signed heads were removed")
        return UNSIGNED
    check_signed_heads(service.key, game_id, events, heads, adopting=adopting)
    if heads and service.signed_games is not None:  # a game signed before it was kept
        service.signed_games.list(game_id, heads[0].version)
    return SIGNED if heads else ""  # adopting an unsigned game: its head is signed next


def stored_snapshots(
    service: GameService, game_id: UUID, notes: list[str] | None = None,
    macs: SnapshotMacs | None = None,
) -> dict[int, Game]:
    """The game's readable stored snapshots, by version (none if snapshotting is off).

    A row that cannot be decoded is left out, with a line in `notes`. With the key, each
    snapshot's event is added to `macs`.
    """
    if service.snapshots is None:
        return {}
    found: dict[int, Game] = {}
    for row in service.snapshots.recorder.select_events(game_id):
        version = row.originator_version
        try:
            snapshot = cast("GameSnapshot", service.snapshots.mapper.to_domain_event(row))
            found[version] = Game.from_snapshot(snapshot)
            seal = dict(snapshot.state)
        except Exception as error:  # a snapshot that cannot even be read: a cache miss
            if notes is not None:
                notes.append(
                    f"the stored snapshot at event {version} cannot be read "
                    f"({first_line(error)}); it is ignored: the events decide"
                )
            continue
        check_seal(version, seal)
        if service.key is not None:
            holds = check_snapshot_mac(service.key, snapshot, seal)
            if macs is not None:
                (macs.signed if holds else macs.unsigned).append(version)
    return found


def snapshot_seals(service: GameService, game_id: UUID) -> list[dict[str, object]]:
    """The state of each readable stored snapshot of the game, its seal keys too."""
    if service.snapshots is None:
        return []
    seals: list[dict[str, object]] = []
    for row in service.snapshots.recorder.select_events(game_id):
        try:
            snapshot = cast("GameSnapshot", service.snapshots.mapper.to_domain_event(row))
        except Exception:  # an unreadable snapshot is a cache miss: nothing to say here
            continue
        seals.append(dict(snapshot.state))
    return seals


def check_snapshot_mac(key: bytes, snapshot: GameSnapshot, seal: dict[str, object]) -> bool:
    """With the key, a snapshot's MAC must hold (True); one without a MAC is False (a
    keyed service does not use it: the events decide)."""
    version = snapshot.originator_version
    if seal.get(MAC_KEY) is None:
        return False
    expected = snapshot_mac(key, snapshot.originator_id, version, str(seal.get("__head_hash__")),
                            str(seal.get("__state_hash__")))
    if not macs_match(seal[MAC_KEY], expected):
        raise VerifyFailure(version, f"the stored snapshot at this event fails its {KEY_ENV} "
                            f"MAC: it was rewritten, or {KEY_ENV} is not the key that signed it")
    return True


def check_signed_heads(key: bytes, game_id: UUID, events: Sequence[GameEvent],
                       heads: Sequence[SignedHead], *, adopting: bool = False) -> None:
    """Every signed head must sign the log's hash at its event, and the last must be the
    log's end; the first that fails is named. `adopting` (`verify --sign-head`): no
    head, or events after the last one, are allowed; a head that fails is not."""
    if not heads:  # stored without the key (`checked_heads` says so)
        return
    for head in heads:
        if head.version > len(events):
            raise VerifyFailure(len(events), f"the log ends here, but a head at event "
                                f"{head.version} was signed: events were removed")
        if not macs_match(head.mac, head_mac(key, game_id, head.version,
                                             events[head.version - 1].hash)):
            raise VerifyFailure(head.version, f"the head signed at this event fails its "
                                f"{KEY_ENV} MAC: the log was rewritten at or before it, or "
                                f"{KEY_ENV} is not the key that signed it")
    if heads[-1].version < len(events) and not adopting:
        raise VerifyFailure(heads[-1].version + 1, f"the events from here on come after the "
                            f"last signed head (event {heads[-1].version}): they were not "
                            f"written by a server holding {KEY_ENV}")


def check_seal(version: int, data: dict[str, object]) -> None:
    """A sealed snapshot must say it stands at its own version, and hash to its seal."""
    if "__state_hash__" not in data and "__version__" not in data:
        return  # the old format: compared with the replayed game, as before
    state = {k: v for k, v in data.items() if k not in SEAL_KEYS}
    if data.get("__version__") != version or data.get("__state_hash__") != chain_hash(state):
        raise VerifyFailure(version, "the stored snapshot at this event does not match its seal")


def read_chain(service: GameService, game_id: UUID) -> list[GameEvent]:
    """Decode raw rows one by one and check versions and the hash chain."""
    rows = service.recorder.select_events(game_id)
    if not rows:
        raise VerifyFailure(0, f"no events stored for game {game_id}")
    events: list[GameEvent] = []
    prev_hash = GENESIS_HASH
    for expected_version, row in enumerate(rows, start=1):
        if row.originator_version != expected_version:
            raise VerifyFailure(
                expected_version,
                f"event {expected_version} is missing or out of order "
                f"(found version {row.originator_version})",
            )
        event, stored_hash_ok = decode_row(game_id, row.originator_version, row.topic, row.state)
        if not stored_hash_ok:
            raise VerifyFailure(expected_version, "its content does not match its hash")
        if event.prev_hash != prev_hash:
            raise VerifyFailure(
                expected_version, "its link to the previous event is broken (prev_hash)"
            )
        prev_hash = event.hash
        events.append(event)
    return events


def decode_row(game_id: UUID, version: int, topic: str, state: bytes) -> tuple[GameEvent, bool]:
    """One raw row as a validated event, and whether its stored hash is right.

    The hash is recomputed over the row as stored (its version column and its
    JSON body before any upcasting), which is exactly what was hashed when it
    was written; the body must also validate as an event.
    """
    if topic != EVENT_TOPIC:
        raise VerifyFailure(version, f"unexpected topic {topic!r}")
    try:
        body = orjson.loads(state)
        hashed = hashed_body(
            game_id, version, body["timestamp"], body["step"], body["prev_hash"], body["fact"]
        )
        hash_ok = chain_hash(hashed) == body["hash"]
        return decode_event(game_id, version, orjson.loads(state)), hash_ok
    except Exception as error:  # any malformed row is a finding, never a crash
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise VerifyFailure(version, f"it cannot be read: {reason}") from None


def redecide_all(events: Sequence[GameEvent], snapshots: dict[int, Game] | None = None,
                 skipped: list[str] | None = None) -> int:
    """Replay without snapshots, re-deciding each step; the number of steps.

    Each step is decided again under the rules versions that decided it
    (`step_versions`); a step whose versions this code no longer holds is only
    applied, with a line in `skipped` (without `skipped`, that fails the log).

    The log's shape is checked on the way: `GameStarted` first, then the
    set-up (step 0) up to the first `StepTaken`, then steps numbered 1, 2, …
    whose every event carries its step's number. Stored snapshots, if given
    (version → game), must equal the replayed game at their version.
    """
    game = first_game(events[0])
    index = 1
    while index < len(events) and not isinstance(events[index].fact, StepTaken):
        check_step_number(events[index], 0)
        game.apply_event(events[index])
        index += 1
    check_seed(game, events)
    snapshots = dict(snapshots or {})
    check_snapshot(game, snapshots.pop(game.version, None))
    history = LogHistory(events, lambda version: fold(events[:version]).state)
    steps = 0
    while index < len(events):
        steps += 1
        recorded = [events[index]]
        index += 1
        while index < len(events) and not isinstance(events[index].fact, StepTaken):
            recorded.append(events[index])
            index += 1
        for event in recorded:
            check_step_number(event, steps)
        versions = step_versions(game, recorded)
        missing = missing_code(game.ruleset, versions)
        if missing is None:
            redecide_step(game, recorded, history, versions)
        elif skipped is None:
            raise VerifyFailure(recorded[0].originator_version, f"NOT RE-DECIDED: {missing}")
        else:
            skipped.append(f"step {steps} (event {recorded[0].originator_version}) was decided "
                           f"under {words(versions)}: {missing}")
            for event in recorded:
                game.apply_event(event)
        check_snapshot(game, snapshots.pop(game.version, None))
    if snapshots:
        raise VerifyFailure(
            min(snapshots), "a stored snapshot stands at an event that ends no step"
        )
    return steps


def first_game(event: GameEvent) -> Game:
    """The game the first event starts; it must be `GameStarted`, in step 0."""
    if not isinstance(event.fact, GameStarted) or event.step != 0:
        raise VerifyFailure(event.originator_version, "the log does not begin with GameStarted")
    return Game.from_first_event(event)


def check_step_number(event: GameEvent, step: int) -> None:
    """Every event carries the number of the step it belongs to, in sequence."""
    numbers = {event.step}
    if isinstance(event.fact, StepTaken):
        numbers.add(event.fact.step)
    if numbers != {step}:
        raise VerifyFailure(
            event.originator_version,
            f"it is labelled step {sorted(numbers)}, but it belongs to step {step}",
        )


def check_snapshot(game: Game, snapshot: Game | None) -> None:
    """A stored snapshot must be exactly the replayed game at its version."""
    if snapshot is None:
        return
    if snapshot.head_hash != game.head_hash or snapshot.state.model_dump(
        mode="json"
    ) != game.state.model_dump(mode="json"):
        raise VerifyFailure(
            game.version, "the stored snapshot at this event differs from the replayed game"
        )


def check_seed(game: Game, events: Sequence[GameEvent]) -> None:
    """The sealed seed must match the commitment in the first event; the failure
    names the `SeedSealed` event (or event 2, where it belongs, when there is none)."""
    seed = game.state.seed
    if seed is None or seed_commitment(seed) != game.state.seed_commitment:
        sealed = next(
            (e.originator_version for e in events if isinstance(e.fact, SeedSealed)), 2
        )
        raise VerifyFailure(sealed, "the sealed seed does not match the committed hash")


def fold(events: Sequence[GameEvent]) -> Game:
    """The game the first events build (a plain fold, no snapshots)."""
    game = Game.from_first_event(events[0])
    for event in events[1:]:
        game.apply_event(event)
    return game


def step_versions(game: Game, recorded: Sequence[GameEvent]) -> dict[str, int]:
    """The rules versions that decided a recorded step: those its `RulesVersionChanged`
    moved to, else the game's stamp before it. Versions never go back."""
    was = decided_under(game.state)
    for event in recorded:
        if isinstance(event.fact, RulesVersionChanged):
            now = event.fact.versions
            if any(now.get(key, 0) < version for key, version in was.items()):
                raise VerifyFailure(event.originator_version, f"the rules versions go back "
                                    f"from {words(was)} to {words(now)}")
            return dict(now)
    return was


def redecide_step(game: Game, recorded: Sequence[GameEvent], history: History,
                  versions: dict[str, int] | None = None) -> None:
    """Decide the recorded command again (under `versions`, default the game's
    stamp); the facts must match the log."""
    taken = recorded[0].fact
    assert isinstance(taken, StepTaken)
    state = game.state
    dice = DiceSource(
        seed=state.seed or 0,
        next_index=state.dice_index,
        physical=list(taken.dice) if taken.dice is not None else None,
        reusable=state.reusable_dice,
    )
    try:
        command = game.ruleset.parse_command(dict(taken.command))
        decided = settle(game.ruleset, state, command, dice, history,
                         versions if versions is not None else decided_under(state))
    except RuleViolation as refusal:
        raise VerifyFailure(
            recorded[0].originator_version,
            f"its command is refused on re-decision ({refusal.rule}: {refusal.message})",
        ) from None
    # A forged command the rules cannot even process: no such command is known (every
    # failure found for a parsed command is a RuleViolation); a last-resort guard.
    except Exception as error:  # mutation: unreachable: see the line above
        raise VerifyFailure(
            recorded[0].originator_version, f"re-deciding its command fails: {error!r}"
        ) from None
    compare(recorded, decided.facts)
    game.state = decided.state
    game.version = recorded[-1].originator_version
    game.head_hash = recorded[-1].hash


def compare(recorded: Sequence[GameEvent], facts: Sequence[Fact]) -> None:
    """The re-decided facts must equal the recorded ones, one by one.

    A step of a v1 log (its facts read by legacy classes) has
    none of the facts that since make explicit what its appliers decided
    (`Fact.implicit_in_legacy`); those are left out of the re-decided ones."""
    if any(event.fact.legacy for event in recorded):
        facts = [f for f in facts if not f.implicit_in_legacy]
    for position, event in enumerate(recorded):
        if position >= len(facts):
            raise VerifyFailure(
                event.originator_version, "the rules do not produce this event here"
            )
        if not same_fact(facts[position], event.fact):
            raise VerifyFailure(
                event.originator_version,
                f"re-deciding gives {facts[position].type}, but the log has a different "
                f"{event.fact.type}",
            )
    if len(facts) > len(recorded):
        raise VerifyFailure(
            recorded[-1].originator_version + 1,
            f"the step is incomplete: {facts[len(recorded)].type} is missing",
        )

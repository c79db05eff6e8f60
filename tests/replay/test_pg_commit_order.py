"""The PostgreSQL notification log in commit order (`replay.postgres`).

Notification ids are drawn when a save inserts its rows, not when it commits: with
concurrent writers a later id can commit first. Every reader of the log (a tailing
`select_notifications`, the subscription that `views --follow` and the server's
streams use, and `views` catch-up) must still see every event, each id above the
last, with no gaps: a save in flight holds every reader back until it ends.

A save is held in flight by a transaction of the test that has inserted, and not
committed, a row with the same game and version: the save has drawn its ids and
waits on that row until the test rolls it back (`held_save`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from uuid import UUID

import pytest

from replay.service import GameService
from tests.conftest import POSTGRES_SKIP_REASON, POSTGRES_URL
from tests.pinned import DICE_SETUP

pytestmark = [pytest.mark.postgres,
              pytest.mark.skipif(POSTGRES_URL is None, reason=POSTGRES_SKIP_REASON)]

ROLL = {"do": "roll", "by": "red"}
#: A bound for waits on a condition (never reached when all is well).
WITHIN = 30.0


def eventually(check: Callable[[], bool], what: str) -> None:
    began = time.monotonic()
    while not check():
        assert time.monotonic() - began < WITHIN, what
        time.sleep(0.01)


def waiting_on_a_lock() -> int:
    """How many sessions of the test database wait on a lock."""
    import psycopg

    with psycopg.connect(str(POSTGRES_URL), autocommit=True) as conn:
        row = conn.execute("select count(*) from pg_stat_activity where datname = "
                           "current_database() and wait_event_type = 'Lock'").fetchone()
    return int(row[0]) if row else 0


@contextmanager
def held_save(game_id: UUID) -> Iterator[None]:
    """A roll of the game, saved by a service of its own, held in flight (its ids
    drawn, not committed) for the body of the block; committed after it."""
    import psycopg

    saver = GameService(POSTGRES_URL)
    version = saver.load(game_id).version
    outcome: list[Any] = []
    with psycopg.connect(str(POSTGRES_URL)) as blocker:
        blocker.execute("insert into warledger_events (originator_id, originator_version, "
                        "topic, state) values (%s, %s, 'held', ''::bytea)",
                        (game_id, version + 1))
        thread = threading.Thread(target=lambda: outcome.append(saver.handle(game_id, ROLL)))
        thread.start()
        try:
            eventually(lambda: waiting_on_a_lock() >= 1, "the save did not reach its insert")
            yield
        finally:
            blocker.rollback()
            thread.join(WITHIN)
    saver.close()
    assert outcome and outcome[0].accepted, outcome


def roll_afresh(game_id: UUID) -> None:
    """A roll of the game by a service that has not seen it (its state is read anew)."""
    svc = GameService(POSTGRES_URL)
    try:
        assert svc.handle(game_id, ROLL).accepted
    finally:
        svc.close()


@pytest.fixture
def service() -> Iterator[GameService]:
    svc = GameService(POSTGRES_URL)
    safe_head = getattr(svc.recorder, "safe_head", None)
    if safe_head is not None:
        safe_head.hold_wait = 0.2  # a read held back by the test's own transaction is quick
    yield svc
    svc.close()


def rows_after(service: GameService, position: int) -> list[tuple[int, str, int]]:
    """(id, game, version) of every notification after `position` (all committed)."""
    return [(n.id, str(n.originator_id), n.originator_version) for n in
            service.recorder.select_notifications(position, 100_000, inclusive_of_start=False)]


def tail(service: GameService, position: int, into: list[tuple[int, str, int]]) -> int:
    """A tailing reader's next page, from where it stands; its new position."""
    page = rows_after(service, position)
    into.extend(page)
    return page[-1][0] if page else position


def assert_in_order_without_gaps(seen: list[tuple[int, str, int]],
                                 committed: list[tuple[int, str, int]],
                                 versions: dict[str, int] | None = None) -> None:
    """`seen` is every committed notification, each id above the last, and each
    game's events follow on from `versions` (the games' versions read before)."""
    ids = [row[0] for row in seen]
    assert ids == sorted(set(ids)), "a notification came twice or out of order"
    assert seen == committed, f"missed {sorted(set(committed) - set(seen))[:5]}"
    versions = dict(versions or {})
    for _id, game, version in seen:
        assert version == versions.get(game, 0) + 1, (game, version)
        versions[game] = version


def test_a_tailing_reader_never_passes_a_save_in_flight(service: GameService) -> None:
    held, other = service.start(DICE_SETUP), service.start(DICE_SETUP)
    before = {str(g): service.load(g).version for g in (held, other)}
    start = service.recorder.max_notification_id() or 0
    seen: list[tuple[int, str, int]] = []
    position = start
    with held_save(held):
        assert service.handle(other, ROLL).accepted  # committed after the held save drew ids
        position = tail(service, position, seen)
        assert (service.recorder.max_notification_id() or 0) <= position
    roll_afresh(held)
    position = tail(service, position, seen)
    tail(service, position, seen)
    assert_in_order_without_gaps(seen, rows_after(service, start), before)
    assert {g for _i, g, _v in seen} == {str(held), str(other)}


def test_the_subscription_delivers_a_save_in_flight_before_what_committed_after_it(
        service: GameService) -> None:
    held, other = service.start(DICE_SETUP), service.start(DICE_SETUP)
    start = service.recorder.max_notification_id() or 0
    seen: list[tuple[int, str, int]] = []
    subscription = service.recorder.subscribe(gt=start)

    def listen() -> None:
        with subscription as notifications:
            for n in notifications:
                seen.append((n.id, str(n.originator_id), n.originator_version))

    listener = threading.Thread(target=listen)
    listener.start()
    try:
        with held_save(held):
            assert service.handle(other, ROLL).accepted
            eventually(lambda: waiting_on_a_lock() >= 1, "the save was released early")
        roll_afresh(held)
        committed = rows_after(service, start)
        eventually(lambda: len(seen) >= len(committed), "the subscription stopped short")
    finally:
        subscription.stop()
        listener.join(WITHIN)
    assert [row[0] for row in seen] == [row[0] for row in committed]


def test_views_catch_up_past_a_save_in_flight_and_stay_of_this_log(
        service: GameService) -> None:
    from replay.pg_views import PgViews
    from tests.replay.test_analytics import pg_dump

    views = PgViews(str(POSTGRES_URL), service)
    try:
        views.drop()
        held, other = service.start(DICE_SETUP), service.start(DICE_SETUP)
        views.run()
        with held_save(held):
            assert service.handle(other, ROLL).accepted
            catch_up = threading.Thread(target=views.run)  # must not pass the held save
            catch_up.start()
            catch_up.join(WITHIN)
            assert not catch_up.is_alive(), "views did not return while a save was in flight"
        roll_afresh(held)  # the held game's next event
        views.run()  # today: "the analytic tables are not of this log"
        caught_up = pg_dump(views)
        assert views.position() == views.recorder.head()
        views.rebuild()
        assert pg_dump(views) == caught_up
    finally:
        views.close()


def writer(url: str, rolls: int, errors: list[BaseException]) -> None:
    """One player's service: a dice game of `rolls` rolls, each saved by itself."""
    try:
        svc = GameService(url)
        game_id = svc.start(DICE_SETUP)
        for _ in range(rolls):
            assert svc.handle(game_id, ROLL).accepted
        svc.close()
    except BaseException as error:  # reported by the test
        errors.append(error)


def test_eight_writers_a_tailing_reader_and_the_follower_see_every_event_in_order(
        service: GameService) -> None:
    from replay.pg_views import PgViews
    from tests.replay.test_analytics import pg_dump

    views = PgViews(str(POSTGRES_URL), service)
    views.drop()
    views.run()
    start = service.recorder.max_notification_id() or 0
    seen: list[tuple[int, str, int]] = []
    heard: list[tuple[int, str, int]] = []  # the subscription (the streams' notifier)
    errors: list[BaseException] = []
    writing, stop = threading.Event(), threading.Event()
    writing.set()
    subscription = service.recorder.subscribe(gt=start)

    def listen() -> None:
        with subscription as notifications:
            for n in notifications:
                heard.append((n.id, str(n.originator_id), n.originator_version))

    def read() -> None:
        position = start
        while writing.is_set():
            position = tail(service, position, seen)
        tail(service, tail(service, position, seen), seen)

    def follow() -> None:
        try:
            views.follow(stop, poll=0.02)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=read), threading.Thread(target=follow),
               threading.Thread(target=listen)]
    for thread in threads:
        thread.start()
    writers = [threading.Thread(target=writer, args=(str(POSTGRES_URL), 60, errors))
               for _ in range(8)]
    for thread in writers:
        thread.start()
    for thread in writers:
        thread.join()
    writing.clear()
    try:
        threads[0].join(WITHIN)
        head = views.recorder.head()
        eventually(lambda: bool(errors) or views.position() >= head,
                   "the follower fell behind")
        assert not errors, errors
        assert threads[1].is_alive(), "the follower stopped"
        committed = rows_after(service, start)
        eventually(lambda: len(heard) >= len(committed), "the subscription fell behind")
    finally:
        stop.set()
        subscription.stop()
        for thread in threads[1:]:
            thread.join(WITHIN)
    assert len(committed) >= 8 * 60
    assert_in_order_without_gaps(seen, committed)
    assert_in_order_without_gaps(heard, committed)
    followed = pg_dump(views)
    views.rebuild()
    assert pg_dump(views) == followed
    views.close()


def ids_lock_holders() -> int:
    """Sessions holding the lock under which inserts draw their ids."""
    import psycopg

    from replay.postgres import NOTIFICATION_IDS_LOCK

    key = NOTIFICATION_IDS_LOCK & (2**64 - 1)
    with psycopg.connect(str(POSTGRES_URL), autocommit=True) as conn:
        row = conn.execute("select count(*) from pg_locks where locktype = 'advisory' and "
                           "classid = %s and objid = %s and objsubid = 1 and granted",
                           (key >> 32, key & 0xFFFFFFFF)).fetchone()
    return int(row[0]) if row else 0


def test_an_insert_refused_for_its_version_leaves_the_ids_lock_free(
        service: GameService) -> None:
    from eventsourcing.persistence import IntegrityError, StoredEvent

    game_id = service.start(DICE_SETUP)
    with pytest.raises(IntegrityError):  # event 1 exists: a lost race of two writers
        service.recorder.insert_events([StoredEvent(game_id, 1, "raced", b"{}")])
    assert ids_lock_holders() == 0
    roll_afresh(game_id)  # and the next writer is not kept waiting
    assert ids_lock_holders() == 0

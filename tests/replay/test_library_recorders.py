"""eventsourcing's own recorder test cases, run against warledger's PostgreSQL
configuration (`replay.storage.postgres_env`: the insert function, the commit-order
recorder of `replay.postgres`, the pool settings), on tables of their own
(`librarytests_*`, dropped before each test).

The seven cases, from `eventsourcing.tests.persistence`:
1. the aggregate recorder of the snapshots table (`AggregateRecorderTestCase`);
2. the application recorder (`ApplicationRecorderTestCase`: insert and select,
   concurrent writers with readers, throughput);
3. the application recorder wrapped as a keyed service wraps it (`replay.keyed`:
   each head upserted in the events' own transaction), the same case;
4. the tracking recorder (`TrackingRecorderTestCase`);
5. the process recorder (`ProcessRecorderTestCase`);
6. non-interleaved notification ids (`NonInterleavingNotificationIDsBaseCase`);
7. the infrastructure factory (`InfrastructureFactoryTestCase`).
"""

from __future__ import annotations

from typing import Any, cast

import pytest

from tests.conftest import POSTGRES_SKIP_REASON, POSTGRES_URL

pytestmark = [pytest.mark.postgres,
              pytest.mark.skipif(POSTGRES_URL is None, reason=POSTGRES_SKIP_REASON)]

pytest.importorskip("psycopg")

from eventsourcing.persistence import (  # noqa: E402
    AggregateRecorder,
    ApplicationRecorder,
    InfrastructureFactory,
    ProcessRecorder,
    TrackingRecorder,
)
from eventsourcing.postgres import (  # noqa: E402
    PostgresAggregateRecorder,
    PostgresFactory,
    PostgresTrackingRecorder,
)
from eventsourcing.tests.persistence import (  # noqa: E402
    AggregateRecorderTestCase,
    ApplicationRecorderTestCase,
    InfrastructureFactoryTestCase,
    NonInterleavingNotificationIDsBaseCase,
    ProcessRecorderTestCase,
    TrackingRecorderTestCase,
)
from eventsourcing.utils import Environment  # noqa: E402

from replay.postgres import CommitOrderProcessRecorder, CommitOrderRecorder  # noqa: E402
from replay.storage import postgres_env  # noqa: E402

#: The application name of these tests: their tables are `librarytests_*`.
NAME = "librarytests"


def our_env() -> Environment:
    assert POSTGRES_URL is not None
    return Environment(NAME, postgres_env(POSTGRES_URL))


def drop_tables() -> None:
    import psycopg

    with psycopg.connect(str(POSTGRES_URL), autocommit=True) as conn:
        for table in ("events", "snapshots", "tracking"):
            conn.execute(f"drop table if exists {NAME}_{table}")


class OurFactory:
    """A fresh factory of our configuration per test, closed after it."""

    factory: PostgresFactory

    def setUp(self) -> None:
        drop_tables()
        self.factory = cast(PostgresFactory, InfrastructureFactory.construct(our_env()))
        super().setUp()  # type: ignore[misc]

    def tearDown(self) -> None:
        super().tearDown()  # type: ignore[misc]
        self.factory.close()
        drop_tables()


class TestSnapshotsRecorder(OurFactory, AggregateRecorderTestCase):
    def create_recorder(self) -> AggregateRecorder:
        recorder = self.factory.aggregate_recorder("snapshots")
        assert type(recorder) is PostgresAggregateRecorder
        return recorder


class TestApplicationRecorder(OurFactory, ApplicationRecorderTestCase[Any]):
    def create_recorder(self) -> ApplicationRecorder:
        recorder = self.factory.application_recorder()
        assert type(recorder) is CommitOrderRecorder
        assert recorder.datastore.enable_db_functions  # the configuration under test
        return recorder


class TestKeyedApplicationRecorder(OurFactory, ApplicationRecorderTestCase[Any]):
    def create_recorder(self) -> ApplicationRecorder:
        from replay.keyed import SignedHeads

        recorder = self.factory.application_recorder()
        SignedHeads(recorder).install()
        return recorder


class TestTrackingRecorder(OurFactory, TrackingRecorderTestCase):
    def create_recorder(self) -> TrackingRecorder:
        return self.factory.tracking_recorder()


class TestProcessRecorder(OurFactory, ProcessRecorderTestCase):
    def create_recorder(self) -> ProcessRecorder:
        recorder = self.factory.process_recorder()
        assert type(recorder) is CommitOrderProcessRecorder
        return recorder


class TestNonInterleavingNotificationIds(OurFactory, NonInterleavingNotificationIDsBaseCase):
    insert_num = 1000

    def create_recorder(self) -> ApplicationRecorder:
        return self.factory.application_recorder()


class TestInfrastructureFactory(InfrastructureFactoryTestCase[PostgresFactory]):
    def setUp(self) -> None:
        drop_tables()
        self.env = our_env()
        super().setUp()

    def tearDown(self) -> None:
        super().tearDown()
        drop_tables()

    def expected_factory_class(self) -> type[PostgresFactory]:
        return PostgresFactory

    def expected_aggregate_recorder_class(self) -> type[AggregateRecorder]:
        return PostgresAggregateRecorder

    def expected_application_recorder_class(self) -> type[ApplicationRecorder]:
        return CommitOrderRecorder

    def expected_tracking_recorder_class(self) -> type[TrackingRecorder]:
        return PostgresTrackingRecorder

    def tracking_recorder_subclass(self) -> type[TrackingRecorder]:
        class OurTrackingRecorder(PostgresTrackingRecorder):
            pass
        return OurTrackingRecorder

    def expected_process_recorder_class(self) -> type[ProcessRecorder]:
        return CommitOrderProcessRecorder


del AggregateRecorderTestCase, ApplicationRecorderTestCase, InfrastructureFactoryTestCase
del NonInterleavingNotificationIDsBaseCase, ProcessRecorderTestCase, TrackingRecorderTestCase


def test_each_events_table_has_its_own_insert_function() -> None:
    """The library names its insert function once per schema: a recorder of another
    table, set up after a service, would take over the service's inserts."""
    from replay.service import GameService
    from tests.pinned import DICE_SETUP

    service = GameService(POSTGRES_URL)
    drop_tables()
    factory = InfrastructureFactory.construct(our_env())
    try:
        factory.application_recorder()  # sets up librarytests_events and its function
        game_id = service.start(DICE_SETUP)
        assert service.stored_events(game_id)
        import psycopg

        with psycopg.connect(str(POSTGRES_URL)) as conn:
            row = conn.execute(f"select count(*) from {NAME}_events").fetchone()
        assert row is not None and row[0] == 0
    finally:
        factory.close()
        service.close()
        drop_tables()

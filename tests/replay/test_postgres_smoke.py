"""Proves the PostgreSQL test harness: skipped (and counted) unless WARLEDGER_TEST_POSTGRES
names a server (`make test` starts one; `WARLEDGER_TEST_POSTGRES=skip` opts out).

`.ci/pg start DIR` prints a URL for it; `.ci/run` exports it.
"""

from __future__ import annotations

import os

import pytest

from tests.conftest import POSTGRES_SKIP_REASON

POSTGRES_URL = os.environ.get("WARLEDGER_TEST_POSTGRES", "")  # conftest drops "skip"

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not POSTGRES_URL, reason=POSTGRES_SKIP_REASON),
]


def test_select_one() -> None:
    import psycopg  # the [postgres] extra; a missing driver must fail, not skip

    with psycopg.connect(POSTGRES_URL, connect_timeout=10) as conn:
        row = conn.execute("select 1, current_database()").fetchone()
    assert row is not None
    assert row[0] == 1

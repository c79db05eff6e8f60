"""Proves the PostgreSQL test harness: skipped unless WARLEDGER_TEST_POSTGRES is set.

`.ci/pg start DIR` prints a URL for it; `.ci/run` exports it.
"""

from __future__ import annotations

import os

import pytest

POSTGRES_URL = os.environ.get("WARLEDGER_TEST_POSTGRES", "")

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not POSTGRES_URL, reason="WARLEDGER_TEST_POSTGRES is not set"),
]


def test_select_one() -> None:
    import psycopg  # the [postgres] extra; a missing driver must fail, not skip

    with psycopg.connect(POSTGRES_URL, connect_timeout=10) as conn:
        row = conn.execute("select 1, current_database()").fetchone()
    assert row is not None
    assert row[0] == 1

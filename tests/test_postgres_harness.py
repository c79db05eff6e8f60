"""The PostgreSQL tests are collected whether or not a server is given, and skipping
them is counted out loud (once, 21 were never collected, and "1 skipped" hid it)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Small test files that hold PostgreSQL tests (the whole suite would be slow here).
FILES = ["tests/replay/test_postgres_smoke.py", "tests/replay/test_storage.py"]


def pytest_run(*args: str, postgres: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "WARLEDGER_TEST_POSTGRES"}
    if postgres is not None:
        env["WARLEDGER_TEST_POSTGRES"] = postgres
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    return done.stdout + done.stderr


def collected(output: str) -> int:
    """The count of `--collect-only -qq` (one `file: N` line per file)."""
    return sum(int(n) for n in re.findall(r"^tests/\S+\.py: (\d+)$", output, flags=re.M))


def test_the_postgresql_tests_are_collected_with_or_without_a_server() -> None:
    served = os.environ.get("WARLEDGER_TEST_POSTGRES") or "postgresql://u:p@127.0.0.1:1/x"
    with_server = pytest_run("--collect-only", "-qq", "-m", "postgres", *FILES, postgres=served)
    opted_out = pytest_run("--collect-only", "-qq", "-m", "postgres", *FILES, postgres="skip")
    unset = pytest_run("--collect-only", "-qq", "-m", "postgres", *FILES, postgres=None)

    assert collected(with_server) == collected(opted_out) == collected(unset) >= 5


def test_an_opt_out_skips_them_and_says_how_many() -> None:
    output = pytest_run("-m", "postgres", *FILES, postgres="skip")
    count = int(re.search(r"(\d+) PostgreSQL tests skipped: WARLEDGER_TEST_POSTGRES=skip",
                          output)[1])

    assert f"{count} skipped" in output and count >= 5

"""`warledger serve` refuses what it cannot serve on with one line (principle 3), before
it says it is serving and before it opens the store."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.cli_helpers import EXAMPLES, run_cli
from tests.conftest import POSTGRES_URL, backend_params


@pytest.mark.parametrize("port", ["-5", "65536", "abc"])
def test_a_port_that_is_no_port_is_a_usage_error(
        port: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as usage:
        run_cli(capsys, "serve", "--port", port)
    err = capsys.readouterr().err
    assert usage.value.code == 2
    assert f"argument --port: {port!r} is not a port: give a whole number from 1 to 65535" in err


def test_a_port_in_use_or_a_foreign_host_is_one_line_and_opens_no_store(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.db"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = run_cli(capsys, "serve", "--db", str(db), "--port", str(port))
    assert (code, out) == (2, "")
    assert err == f"warledger: cannot serve on 127.0.0.1:{port}: Address already in use\n"

    code, out, err = run_cli(capsys, "serve", "--db", str(db), "--host", "256.1.1.1")
    assert (code, out) == (2, "") and err.startswith("warledger: cannot serve on 256.1.1.1:8080")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not db.exists()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_start_up_line_hides_the_database_password(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """As every error line does (`replay.storage.redact`): the password is `***`."""
    import uvicorn

    import warledger.server.app as app

    opened: list[str] = []
    monkeypatch.setattr(app, "create_app", lambda db, **_: opened.append(db) or object())
    monkeypatch.setattr(uvicorn, "run", lambda *_, **__: None)
    port = free_port()
    url = "postgresql://judge:s3cret-pw@127.0.0.1:5999/league"
    code, out, err = run_cli(capsys, "serve", "--db", url, "--port", str(port))
    assert (code, err) == (0, "")
    assert opened == [url]  # the server itself is given the real URL
    assert out == (f"warledger serving postgresql://judge:***@127.0.0.1:5999/league on "
                   f"http://127.0.0.1:{port}\n")


@pytest.mark.parametrize("backend", backend_params("postgres"))
def test_demo_on_postgresql_prints_no_password(
        backend: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same hunt: `demo --db URL` named its database in its closing lines."""
    import shutil
    from urllib.parse import urlparse

    assert POSTGRES_URL is not None
    password = urlparse(POSTGRES_URL).password
    assert password
    examples = tmp_path / "examples"
    examples.mkdir()
    shutil.copy(EXAMPLES / "t9a-turns.yaml", examples)
    code, out, err = run_cli(capsys, "demo", "--db", POSTGRES_URL, "--examples", str(examples))
    assert code == 0, err
    assert "games played into postgresql://" in out and ":***@" in out
    assert f":{password}@" not in out + err

"""What the CLI tests share: running `warledger` in-process, and a stored game."""

from __future__ import annotations

from pathlib import Path

import pytest

from warledger.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of one `warledger` command."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def stored_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """A database holding the T9A turn example (its run checked to succeed)."""
    path = str(tmp_path / "w.db")
    code, _, _ = run_cli(capsys, "run", str(EXAMPLES / "t9a-turns.yaml"), "--db", path)
    assert code == 0
    return path

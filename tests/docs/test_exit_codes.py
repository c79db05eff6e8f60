"""The exit codes the README lists are the ones the code returns, command by command.

The README's "Exit codes" table names, for each code but 0 and 2 (every command's
success and expected failure), the commands that exit with it; the handlers'
`return` statements are read here (`cmd_<name>` in warledger/), and each documented
code is also produced by running the command."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from warledger.cli import main

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
CONTRACT = (ROOT / "docs" / "CONTRACT.md").read_text(encoding="utf-8")
EXAMPLE = ROOT / "examples" / "t9a-ambush-too-far.yaml"


def documented() -> dict[int, set[str]]:
    """Code -> the commands the README's table names for it (in `backticks`)."""
    table = README.split("### Exit codes", 1)[1].split("\n\n", 2)[1]
    rows = re.findall(r"^\| (\d+) \| (.*) \|$", table, flags=re.M)
    return {int(code): set(re.findall(r"`([a-z][a-z-]*)(?: [^`]*)?`", text))
            for code, text in rows}


def values(node: ast.expr, names: dict[str, int]) -> set[int]:
    """The whole numbers an expression may be: a literal, a module constant, either
    branch of `a if test else b`."""
    if isinstance(node, ast.IfExp):
        return values(node.body, names) | values(node.orelse, names)
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return {node.value}
    if isinstance(node, ast.Name) and node.id in names:
        return {names[node.id]}
    return set()


def returned_codes(function: ast.FunctionDef, names: dict[str, int]) -> set[int]:
    """The whole numbers a function returns (`return 1`, `return 0 if ok else 1`)."""
    codes: set[int] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Return) and node.value is not None:
            codes |= values(node.value, names)
    return codes


def handlers() -> dict[str, set[int]]:
    """Sub-command name -> the codes its handler returns."""
    found: dict[str, set[int]] = {}
    for path in (ROOT / "warledger").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {target.id: node.value.value for node in tree.body
                 if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                 and type(node.value.value) is int for target in node.targets
                 if isinstance(target, ast.Name)}
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("cmd_"):
                found[node.name.removeprefix("cmd_")] = returned_codes(node, names)
    return found


def test_the_readme_lists_every_code_the_commands_return() -> None:
    table = documented()
    assert set(table) >= {0, 1, 2, 3}
    returned = handlers()
    every = set().union(*returned.values()) | {2}  # 2: `fail`, for every command
    assert every == set(table)
    for code in set(table) - {0, 2}:
        assert table[code] == {name for name, codes in returned.items() if code in codes}, code
    for code in set(table) - {0}:  # the CONTRACT's extensions say the same
        assert f"exits {code}" in CONTRACT or f"and {code} when" in CONTRACT, code


def test_each_documented_code_is_what_the_command_exits_with(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "g.db")
    assert main(["run", str(EXAMPLE), "--db", db]) == 0
    assert main(["step", db, "last", '{"by": "blue", "do": "end_turn"}']) == 1
    assert main(["step", db, "last", "not json"]) == 2
    assert main(["step", db, "last", '{"by": "red", "do": "next_phase"}',
                 "--expect-event", "3"]) == 3
    assert main(["verify", db, "last"]) == 0
    assert main(["replay", db, "no-such-game"]) == 2
    capsys.readouterr()

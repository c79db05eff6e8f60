"""The mutation runner itself (`mutation/run.py`): a score is a claim only about
code that the target's tests execute, so a run FAILS (exit 3) when some mutant
inside a function is executed by no test of its target (a module that grew
while its target did not)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mutation import run

COVERED = '''
def total(values):
    """Sum of the values above the limit."""
    return sum(v for v in values if v > 2)
'''

GROWN = COVERED + '''

def doubled(value):
    """Grown later: no test of the target calls it."""
    return value * 2
'''

TEST = '''
from {module} import total


def test_total_counts_only_the_values_above_the_limit():
    assert total([1, 2, 3, 4]) == 7
'''


def measure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: str, source: str,
            *extra: str) -> tuple[int, dict[str, object]]:
    """Run the runner on a module of `source` and its one test: exit code and results."""
    (tmp_path / f"{module}.py").write_text(source)
    test = tmp_path / f"test_{module}.py"
    test.write_text(TEST.format(module=module))
    monkeypatch.setattr(run, "ROOT", tmp_path)
    monkeypatch.setattr(run, "RESULTS", tmp_path / "results")
    code = run.main([f"{module}.py", "--tests", str(test), *extra])
    return code, json.loads((tmp_path / "results" / f"{module}.json").read_text())


def test_a_target_whose_tests_execute_every_mutant_passes_with_its_score(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, data = measure(tmp_path, monkeypatch, "mut_covered", COVERED)
    assert code == 0
    assert data["uncovered"] == 0
    # `> 2` -> `>=`, 2 ± 1, return None: all told apart by total([1, 2, 3, 4]) == 7
    assert (data["killed"], data["mutants"]) == (4, 4)


def test_a_module_that_grew_without_its_target_fails_the_run_and_names_the_lines(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capfd: pytest.CaptureFixture[str]) -> None:
    code, data = measure(tmp_path, monkeypatch, "mut_grown", GROWN)
    assert code == run.UNCOVERED
    # `return value * 2`: `return None`, `* -> /`, 2 -> 3, 2 -> 1
    assert data["uncovered"] == 4
    assert (data["killed"], data["mutants"]) == (4, 8)
    out = capfd.readouterr().out
    assert "FAILED: 4 mutants of mut_grown.py are executed by no test" in out
    assert "line 9: * -> /  [doubled]  (no test executes it)" in out


def test_running_every_test_against_every_mutant_does_not_hide_the_unrun_ones(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, data = measure(tmp_path, monkeypatch, "mut_every", GROWN, "--every-test")
    assert code == run.UNCOVERED
    assert data["uncovered"] == 4


def test_the_uncovered_check_alone_names_the_unrun_mutants_without_running_any(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capfd: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "mut_check.py").write_text(GROWN)
    test = tmp_path / "test_mut_check.py"
    test.write_text(TEST.format(module="mut_check"))
    monkeypatch.setattr(run, "ROOT", tmp_path)
    monkeypatch.setattr(run, "RESULTS", tmp_path / "results")

    code = run.main(["mut_check.py", "--tests", str(test), "--uncovered"])

    assert code == run.UNCOVERED
    out = capfd.readouterr().out
    assert "no test executes #5 line 9: * -> /  [doubled]" in out
    assert "mut_check.py: 4 mutants executed by no test of its target (FAILED)" in out
    assert not (tmp_path / "results").exists()  # no mutant was run, no result stored
    (tmp_path / "mut_check.py").write_text(COVERED)
    assert run.main(["mut_check.py", "--tests", str(test), "--uncovered"]) == 0


GUARDED = COVERED + '''

def parsed(text):
    """A guard no caller reaches, marked as such."""
    try:
        return int(text)
    except ValueError:  # mutation: unreachable: every caller passes digits
        return -1
'''


def test_a_guard_marked_unreachable_counts_against_the_score_but_fails_no_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capfd: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "mut_guard.py").write_text(GUARDED)
    test = tmp_path / "test_mut_guard.py"
    test.write_text(TEST.format(module="mut_guard") + """

def test_digits_are_parsed():
    from mut_guard import parsed
    assert parsed("12") == 12
""")
    monkeypatch.setattr(run, "ROOT", tmp_path)
    monkeypatch.setattr(run, "RESULTS", tmp_path / "results")

    code = run.main(["mut_guard.py", "--tests", str(test)])

    data = json.loads((tmp_path / "results" / "mut_guard.json").read_text())
    assert code == 0 and data["uncovered"] == 0
    # the marked block's `return -1` (return None, -1 -> 0, -1 -> -2) survives, unrun
    assert len(data["unreachable"]) == 3
    assert (data["killed"], data["mutants"]) == (6, 9)
    assert "line 12: return None instead of -1  [parsed]  (no test executes it)  (marked " \
        "unreachable)" in capfd.readouterr().out

"""A small mutation tester of our own: one mutant at a time, the module's own tests.

Why not mutmut: it skips decorated functions, and every rule handler is
decorated. Here a mutant is applied to the LIVE function objects, whatever
decorates them: the parent process imports the project once, then for each
mutant forks a child that swaps the mutated code object into every function
compiled from the mutated one (`function.__code__`), or rebinds a mutated
module or class constant (and every `from … import` copy of it), or the
mutated defaults of a function; the child then runs the module's tests
(`mutation/targets.py`) with pytest and exits. A mutant is killed when the
tests fail or time out.

Operators (on the AST): comparison flips (`<` ↔ `<=`, `==` ↔ `!=`, `in` ↔
`not in`, `is` ↔ `is not`, …), `and` ↔ `or`, dropping a `not`, arithmetic
flips (`+` ↔ `-`, `*` ↔ `/`, `//` → `/`, `%` → `//`), integer and float
constants ±1, `True` ↔ `False`, statement deletion (→ `pass`), and return
values (→ `None`). Docstrings, annotations, strings and f-strings are left
alone.

    python -m mutation.run domain/dice.py            # one module
    python -m mutation.run --all                     # every module in targets.py
    python -m mutation.run domain/dice.py --list     # the mutants, not run
    python -m mutation.run --all --uncovered         # only: does any target miss code?

Results go to mutation/results/<module>.json (ignored by git) and a summary
on stdout; docs/testing.md records the scores and the equivalent mutants.
A run exits 3 (`UNCOVERED`) when a mutant inside a function is executed by no
test of its target: the module grew and its target did not, so its score is
no claim about the new code. Exit 1: a target's tests fail unmutated. A guard
no test can reach is marked in the code (`# mutation: unreachable: why`, on its
statement or its block's header): its mutants still count, but fail no run.
"""

from __future__ import annotations

import argparse
import ast
import gc
import importlib
import json
import os
import signal
import sys
import time
import traceback
import types
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = Path(__file__).resolve().parent / "results"
#: The exit code of a run in which some mutant is executed by no test of its target.
UNCOVERED = 3

COMPARE_FLIPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
BINOP_FLIPS: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult,
    ast.FloorDiv: ast.Div, ast.Mod: ast.FloorDiv, ast.Pow: ast.Mult,
    ast.BitOr: ast.BitAnd, ast.BitAnd: ast.BitOr, ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
}


@dataclass(frozen=True)
class Mutant:
    """One change at one place: `index` is its order in the module's walk."""

    index: int
    line: int
    description: str
    #: "code": inside a function (its qualname in `scope`); "default": a default
    #: argument of function `scope`; "constant": a module or class constant named
    #: `scope` ("Class.NAME" or "NAME"); "assert": in an assert that narrows a type
    #: (`is_type_assert`; not applied); "static": anything else (not applied).
    kind: str
    scope: str
    #: the last line of the mutated node (a statement or expression may span lines)
    end_line: int = 0


@dataclass
class Result:
    mutant: Mutant
    status: str  # killed | survived | timeout | skipped
    seconds: float
    #: how many tests ran against it (those that execute its lines)
    tests: int = 0


class Mutator(ast.NodeTransformer):
    """Walks a module in a fixed order; lists its mutation sites, or applies one."""

    def __init__(self, target: int = -1) -> None:
        self.target = target
        self.count = 0
        self.found: list[Mutant] = []
        self.scope: list[tuple[str, str]] = []  # ("class"|"def", name)
        self.context = "static"
        self.context_scope = ""

    # -- bookkeeping -----------------------------------------------------------
    def site(self, node: ast.AST, description: str) -> bool:
        """Record a site; True when it is the one to apply."""
        index = self.count
        self.count += 1
        line = getattr(node, "lineno", 0)
        self.found.append(Mutant(index, line, description, self.context, self.context_scope,
                                 getattr(node, "end_lineno", None) or line))
        return index == self.target

    def qualname(self) -> str:
        names: list[str] = []
        for kind, name in self.scope:
            names.append(name)
            if kind == "def":
                names.append("<locals>")
        return ".".join(names).removesuffix(".<locals>")

    def top_function(self) -> str | None:
        """The outermost function around the current node, as a qualname."""
        names: list[str] = []
        for kind, name in self.scope:
            names.append(name)
            if kind == "def":
                return ".".join(names)
        return None

    # -- what is never mutated -------------------------------------------------
    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        if node.value is not None:
            with self.constant_context(node.target):
                node.value = self.visit(node.value)
        return node

    def visit_Assign(self, node: ast.Assign) -> ast.AST:
        target = node.targets[0] if len(node.targets) == 1 else None
        with self.constant_context(target):
            node.value = self.visit(node.value)
        return node

    def visit_If(self, node: ast.If) -> ast.AST:
        if isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            return node
        return self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        self.scope.append(("class", node.name))
        node.body = self.visit_body(node.body)
        self.scope.pop()
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST:
        qualname = self.qualname()
        name = f"{qualname}.{node.name}" if qualname else node.name
        if self.top_function() is None:
            saved = (self.context, self.context_scope)
            self.context, self.context_scope = "default", name
            node.args.defaults = [self.visit(d) for d in node.args.defaults]
            node.args.kw_defaults = [
                self.visit(d) if d is not None else None for d in node.args.kw_defaults
            ]
            self.context, self.context_scope = saved
        self.scope.append(("def", node.name))
        saved = (self.context, self.context_scope)
        top = self.top_function()
        assert top is not None
        self.context, self.context_scope = "code", top
        node.body = self.visit_body(node.body)
        self.context, self.context_scope = saved
        self.scope.pop()
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        return self.generic_visit(node)

    def constant_context(self, target: ast.expr | None) -> _Context:
        """Module and class constants are rebound by name; others are static."""
        if self.context == "code":
            return _Context(self, self.context, self.context_scope)
        if isinstance(target, ast.Name) and all(k == "class" for k, _ in self.scope):
            owner = ".".join(name for _, name in self.scope)
            return _Context(self, "constant", f"{owner}.{target.id}" if owner else target.id)
        return _Context(self, "static", "")

    # -- statements ------------------------------------------------------------
    def visit_body(self, body: list[ast.stmt]) -> list[ast.stmt]:
        result: list[ast.stmt] = []
        for position, statement in enumerate(body):
            if self.context == "code" and is_type_assert(statement):
                # listed (the walk's numbering stays), never applied: see is_type_assert
                with _Context(self, "assert", self.context_scope):
                    self.site(statement, f"delete {first(statement)}")
                    result.append(self.visit(statement))
                continue
            if is_docstring(statement, position) or not deletable(statement):
                result.append(self.visit(statement))
                continue
            if self.context == "code" and self.site(statement, f"delete {first(statement)}"):
                result.append(ast.copy_location(ast.Pass(), statement))
                continue
            visited = self.visit(statement)
            result.extend(visited if isinstance(visited, list) else [visited])
        return result or [ast.Pass()]

    def generic_visit(self, node: ast.AST) -> ast.AST:
        for field, old_value in ast.iter_fields(node):
            if field in ("annotation", "returns", "decorator_list", "type_comment"):
                continue
            if isinstance(old_value, list):
                if old_value and isinstance(old_value[0], ast.stmt):
                    setattr(node, field, self.visit_body(old_value))
                    continue
                new_values = []
                for value in old_value:
                    if isinstance(value, ast.AST):
                        value = self.visit(value)
                    new_values.append(value)
                old_value[:] = new_values
            elif isinstance(old_value, ast.AST):
                setattr(node, field, self.visit(old_value))
        return node

    def visit_Module(self, node: ast.Module) -> ast.AST:
        node.body = self.visit_body(node.body)
        return node

    def visit_Return(self, node: ast.Return) -> ast.AST:
        if node.value is not None and not is_none(node.value) and self.site(
            node, f"return None instead of {ast.unparse(node.value)[:40]}"
        ):
            node.value = ast.Constant(None)
            return node
        return self.generic_visit(node)

    # -- expressions -----------------------------------------------------------
    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        for position, op in enumerate(node.ops):
            flipped = COMPARE_FLIPS.get(type(op))
            if flipped and self.site(node, f"{symbol(op)} -> {symbol(flipped())}"):
                node.ops[position] = flipped()
                return node
        return self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        if self.site(node, f"{symbol(node.op)} -> {symbol(other)}"):
            node.op = other
            return node
        return self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        if isinstance(node.op, ast.Not) and self.site(node, "drop `not`"):
            return self.visit(node.operand)
        return self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        flipped = BINOP_FLIPS.get(type(node.op))
        if flipped and not is_string_format(node) and self.site(
            node, f"{symbol(node.op)} -> {symbol(flipped())}"
        ):
            node.op = flipped()
            return node
        return self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        flipped = BINOP_FLIPS.get(type(node.op))
        if flipped and self.site(node, f"{symbol(node.op)}= -> {symbol(flipped())}="):
            node.op = flipped()
            return node
        return self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        value = node.value
        if isinstance(value, bool):
            if self.site(node, f"{value} -> {not value}"):
                return ast.copy_location(ast.Constant(not value), node)
        elif isinstance(value, int | float):
            for delta in (1, -1):
                if self.site(node, f"{value!r} -> {value + delta!r}"):
                    return ast.copy_location(ast.Constant(value + delta), node)
        return node


class _Context:
    """Sets the mutator's context for the value of an assignment."""

    def __init__(self, mutator: Mutator, kind: str, scope: str) -> None:
        self.mutator, self.kind, self.scope = mutator, kind, scope
        self.saved = ("", "")

    def __enter__(self) -> None:
        self.saved = (self.mutator.context, self.mutator.context_scope)
        self.mutator.context, self.mutator.context_scope = self.kind, self.scope

    def __exit__(self, *exc: object) -> None:
        self.mutator.context, self.mutator.context_scope = self.saved


def is_docstring(statement: ast.stmt, position: int) -> bool:
    return (position == 0 and isinstance(statement, ast.Expr)
            and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str))


def is_type_assert(statement: ast.stmt) -> bool:
    """An `assert` that only tells the type checker what it cannot infer:
    `isinstance(...)`, `x is not None`, or these joined by `and`. Like an
    annotation it is not mutated: a caller that could fail it is a type error."""
    return isinstance(statement, ast.Assert) and narrows_type(statement.test)


def narrows_type(test: ast.expr) -> bool:
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return all(narrows_type(value) for value in test.values)
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Name):
        return test.func.id == "isinstance"
    return (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], ast.IsNot) and is_none(test.comparators[0]))


def deletable(statement: ast.stmt) -> bool:
    """Statements whose deletion is a meaningful mutant (not defs, imports or `pass`)."""
    return not isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
                          | ast.Import | ast.ImportFrom | ast.Pass | ast.Global | ast.Nonlocal
                          | ast.Return)  # a return's deletion is its "return None" mutant


def is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def is_string_format(node: ast.BinOp) -> bool:
    return isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) and isinstance(
        node.left.value, str)


def first(statement: ast.stmt) -> str:
    return ast.unparse(statement).splitlines()[0][:50]


SYMBOLS = {
    ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
    ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not", ast.And: "and",
    ast.Or: "or", ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
    ast.Mod: "%", ast.Pow: "**", ast.BitOr: "|", ast.BitAnd: "&", ast.LShift: "<<",
    ast.RShift: ">>",
}


def symbol(op: ast.AST) -> str:
    return SYMBOLS.get(type(op), type(op).__name__)


# -- listing and applying ----------------------------------------------------------
def module_name(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def list_mutants(source: str) -> list[Mutant]:
    mutator = Mutator()
    mutator.visit(ast.parse(source))
    return mutator.found


def mutated_tree(source: str, index: int) -> ast.Module:
    tree = ast.parse(source)
    mutator = Mutator(index)
    result = mutator.visit(tree)
    assert isinstance(result, ast.Module)
    return ast.fix_missing_locations(result)


def find_code(code: types.CodeType, qualname: str) -> types.CodeType | None:
    """The code object of `qualname` inside a compiled module."""
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            if const.co_qualname == qualname:
                return const
            found = find_code(const, qualname)
            if found is not None:
                return found
    return None


def live_functions(module: types.ModuleType) -> dict[str, list[types.FunctionType]]:
    """Every function object compiled from the module's file, by qualname."""
    filename = module.__file__
    found: dict[str, list[types.FunctionType]] = {}
    for obj in gc.get_objects():
        if isinstance(obj, types.FunctionType) and obj.__code__.co_filename == filename:
            found.setdefault(obj.__code__.co_qualname, []).append(obj)
    return found


def apply_mutant(module: types.ModuleType, source: str, mutant: Mutant,
                 functions: dict[str, list[types.FunctionType]]) -> bool:
    """Apply one mutant to the live objects; False if it cannot be applied at runtime."""
    tree = mutated_tree(source, mutant.index)
    filename = module.__file__ or ""
    if mutant.kind == "code":
        new_code = find_code(compile(tree, filename, "exec"), mutant.scope)
        targets = functions.get(mutant.scope, [])
        if new_code is None or not targets:
            return False
        for function in targets:
            if function.__code__.co_freevars != new_code.co_freevars:
                return False
            function.__code__ = new_code
        return True
    if mutant.kind == "default":
        namespace = dict(vars(module))
        exec(compile(tree, filename, "exec"), namespace)
        new = lookup(namespace, mutant.scope)
        targets = functions.get(getattr(getattr(new, "__code__", None), "co_qualname", ""), [])
        for function in targets:
            function.__defaults__ = new.__defaults__
            function.__kwdefaults__ = new.__kwdefaults__
        return bool(targets)
    if mutant.kind == "constant":
        return rebind_constant(module, tree, mutant)
    return False


def lookup(namespace: dict[str, Any], dotted: str) -> Any:
    head, *rest = dotted.split(".")
    obj = namespace[head]
    for name in rest:
        obj = getattr(obj, name)
    return obj


def rebind_constant(module: types.ModuleType, tree: ast.Module, mutant: Mutant) -> bool:
    """Evaluate the mutated constant and rebind it where the old value is held by name."""
    *owner_path, name = mutant.scope.split(".")
    value_node = find_assignment(tree, owner_path, name)
    if value_node is None:
        return False
    owner: Any = module
    for part in owner_path:
        owner = getattr(owner, part)
    if owner_path and (name == "model_config" or hasattr(owner, "__pydantic_fields__")
                       or hasattr(owner, "__dataclass_fields__")):
        return False  # a model's fields and config take effect when the class is made
    old = owner.__dict__[name] if not owner_path else vars(owner)[name]
    new = eval(compile(ast.Expression(value_node), "<mutant>", "eval"), vars(module))
    setattr(owner, name, new)
    if not owner_path:
        for other in list(sys.modules.values()):
            attributes = getattr(other, "__dict__", None)
            if attributes and attributes.get(name) is old and other is not module:
                setattr(other, name, new)
    return True


def find_assignment(tree: ast.Module, owner_path: list[str], name: str) -> ast.expr | None:
    body: list[ast.stmt] = tree.body
    for part in owner_path:
        body = next(s.body for s in body if isinstance(s, ast.ClassDef) and s.name == part)
    for statement in body:
        if isinstance(statement, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in statement.targets
        ):
            return statement.value
        if (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)
                and statement.target.id == name and statement.value is not None):
            return statement.value
    return None


# -- running ------------------------------------------------------------------------
def run_tests(tests: list[str], plugins: list[object] | None = None, stop: bool = True) -> int:
    """The tests, quietly, stopping at the first failure; property tests try 25 examples
    (enough to kill a mutant a property catches at all, and 4x quicker), the same ones in
    every run (`derandomize`), so that the lines a test covers do not vary."""
    import pytest
    from hypothesis import settings

    settings.register_profile("mutation", max_examples=25, deadline=None, derandomize=True)
    settings.load_profile("mutation")

    with open(os.devnull, "w") as sink:
        os.dup2(sink.fileno(), 1)
        os.dup2(sink.fileno(), 2)
        return int(pytest.main([*(["-x"] if stop else []), "-q", "-p", "no:cacheprovider",
                                "--no-header", "-o", "addopts=", *tests], plugins=plugins))


class LineRecorder:
    """A pytest plugin and trace function: the lines of one file each test executes
    (its fixtures' set-up and tear-down included)."""

    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.current: set[int] | None = None
        self.lines: dict[str, set[int]] = {}

    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        self.current = self.lines.setdefault(nodeid, set())

    def trace(self, frame: types.FrameType, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename != self.filename:
            return None
        if self.current is not None:
            self.current.add(frame.f_lineno)
        return self.trace_lines

    def trace_lines(self, frame: types.FrameType, event: str, arg: Any) -> Any:
        if self.current is not None and event == "line":
            self.current.add(frame.f_lineno)
        return self.trace_lines


def lines_by_test(filename: str, tests: list[str]) -> dict[str, list[int]]:
    """Run the tests once, unmutated and traced (in a child): the lines of `filename`
    each one executes, by test id, in the order the tests ran."""
    import threading

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        code = 3
        try:
            recorder = LineRecorder(filename)
            sys.settrace(recorder.trace)
            threading.settrace(recorder.trace)
            code = run_tests(tests, plugins=[recorder], stop=False)
            sys.settrace(None)
            payload = json.dumps({test: sorted(lines) for test, lines in recorder.lines.items()})
            with os.fdopen(write, "w") as pipe:
                pipe.write(payload)
        finally:
            os._exit(code)
    os.close(write)
    with os.fdopen(read) as pipe:
        payload = pipe.read()
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0 or not payload:
        raise SystemExit(f"the tests of {filename} fail when traced: {tests}")
    return dict(json.loads(payload))


def tests_for(mutant: Mutant, covered: dict[str, list[int]] | None,
              tests: list[str]) -> list[str]:
    """The tests that can tell a mutant: those that execute one of its lines. A
    constant or a default is read by code anywhere: every test."""
    if covered is None or mutant.kind != "code":
        return tests
    lines = set(range(mutant.line, max(mutant.line, mutant.end_line) + 1))
    return [test for test, ran in covered.items() if lines.intersection(ran)]


def preload(tests: list[str]) -> None:
    """Import the test modules once, here (pytest collects them from `sys.modules` in
    every child), so that a mutant costs its tests, not the imports."""
    import pytest

    saved = os.dup(1), os.dup(2)
    try:
        with open(os.devnull, "w") as sink:
            os.dup2(sink.fileno(), 1)
            os.dup2(sink.fileno(), 2)
            pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", *tests])
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)


def in_child(tests: list[str], timeout: float, prepare: Any = None) -> tuple[str, float]:
    """Run the tests in a forked child (after `prepare()`); its verdict and time."""
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child: mutate, test, leave without cleaning up
        code = 3
        try:
            applied = prepare is None or prepare()
            code = run_tests(tests) if applied else 4  # 4: could not be applied
        finally:
            os._exit(code)
    deadline = started + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "timeout", time.monotonic() - started
        time.sleep(0.02)
    seconds = time.monotonic() - started
    code = os.waitstatus_to_exitcode(status)
    if code == 0:
        return "survived", seconds
    if code == 4:
        return "skipped", seconds
    return "killed", seconds


def mutate_module(path: str, tests: list[str], only: set[int] | None = None,
                  select: bool = True) -> list[Result]:
    """Every mutant of one module, one at a time, against the tests that execute its
    lines (`select`; otherwise against all of the module's tests). A mutant on lines
    no test executes survives without a run (and fails the run: see `uncovered`)."""
    sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)
    source = (ROOT / path).read_text()
    module = importlib.import_module(module_name(path))
    for heavy in ("replay.service", "replay.verify", "warledger.cli", "warledger.script"):
        importlib.import_module(heavy)
    preload(tests)
    functions = live_functions(module)
    status, baseline = in_child(tests, timeout=600)
    if status != "survived":
        raise SystemExit(f"the tests of {path} fail without any mutant ({status}): {tests}")
    timeout = max(10.0, 3 * baseline + 5)
    covered = lines_by_test(module.__file__ or "", tests)
    print(f"{path}: tests pass in {baseline:.1f} s; timeout per mutant {timeout:.0f} s; "
          f"{len(covered)} tests traced", flush=True)
    results: list[Result] = []
    for mutant in list_mutants(source):
        if only is not None and mutant.index not in only:
            continue
        if mutant.kind in ("static", "assert"):
            results.append(Result(mutant, "skipped", 0.0))
            continue
        chosen = tests_for(mutant, covered, tests)
        if not chosen:
            status, seconds = "survived", 0.0
        else:
            chosen = chosen if select else tests
            status, seconds = in_child(
                chosen, timeout,
                lambda m=mutant: apply_mutant(module, source, m, functions),
            )
        results.append(Result(mutant, status, seconds, len(chosen)))
        mark = {"killed": ".", "timeout": "T", "survived": "S" if chosen else "U",
                "skipped": "-"}[status]
        print(mark, end="", flush=True)
    print(flush=True)
    return results


#: A comment that marks code no test can reach (a last-resort guard), with its reason:
#: on a statement's first line (an `except …:` or `if …:` header: its whole block).
UNREACHABLE = "# mutation: unreachable"


def unreachable_lines(source: str) -> set[int]:
    """The lines of the statements marked `UNREACHABLE` (blocks included)."""
    marked = {number for number, text in enumerate(source.splitlines(), start=1)
              if UNREACHABLE in text}
    lines: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.stmt | ast.ExceptHandler) and node.lineno in marked:
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def uncovered(results: list[Result],
              unreachable: set[int] | frozenset[int] = frozenset()) -> list[Result]:
    """The mutants inside functions that no test of the target executes. Their
    module grew while its target did not: its score says nothing about them. Code
    marked `UNREACHABLE` is left out (its survivors still count against the score)."""
    return [r for r in results
            if r.mutant.kind == "code" and r.status == "survived" and r.tests == 0
            and r.mutant.line not in unreachable]


def unexecuted(path: str, tests: list[str]) -> int:
    """The staleness check alone (`--uncovered`), without running a mutant: the tests run
    once, traced, and every mutant inside a function that none of them executes is
    listed. `UNCOVERED` if there is one, else 0."""
    sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)
    module = importlib.import_module(module_name(path))
    preload(tests)
    covered = lines_by_test(module.__file__ or "", tests)
    source = (ROOT / path).read_text()
    unreachable = unreachable_lines(source)
    missed = [m for m in list_mutants(source) if m.kind == "code"
              and m.line not in unreachable and not tests_for(m, covered, tests)]
    for mutant in missed:
        print(f"  no test executes #{mutant.index} line {mutant.line}: {mutant.description}"
              f"  [{mutant.scope}]")
    print(f"{path}: {len(missed)} mutants executed by no test of its target"
          + (" (FAILED)" if missed else ""), flush=True)
    return UNCOVERED if missed else 0


def summary(path: str, results: list[Result], unreachable: set[int] | frozenset[int] = frozenset(),
            ) -> dict[str, Any]:
    counted = [r for r in results if r.status != "skipped"]
    killed = [r for r in counted if r.status in ("killed", "timeout")]
    score = 100.0 * len(killed) / len(counted) if counted else 100.0
    return {
        "module": path,
        "mutants": len(counted),
        "killed": len(killed),
        "survived": len(counted) - len(killed),
        "skipped": len(results) - len(counted),
        "type_asserts": sum(1 for r in results if r.mutant.kind == "assert"),
        "uncovered": len(uncovered(results, unreachable)),
        "unreachable": sorted(r.mutant.index for r in results
                              if r.mutant.line in unreachable and r.status == "survived"),
        "score": round(score, 1),
        "survivors": [{**asdict(r.mutant), "tests": r.tests}
                      for r in counted if r.status == "survived"],
        "results": [{**asdict(r.mutant), "status": r.status, "seconds": round(r.seconds, 2),
                     "tests": r.tests} for r in results],
    }


def merged(previous: dict[str, Any], rerun: list[Result]) -> list[Result]:
    """The previous full run's results, with the rerun mutants' new verdicts."""
    fresh = {r.mutant.index: r for r in rerun}
    results = []
    for row in previous["results"]:
        mutant = Mutant(row["index"], row["line"], row["description"], row["kind"],
                        row["scope"], row.get("end_line", row["line"]))
        results.append(fresh.get(mutant.index, Result(mutant, row["status"], row["seconds"],
                                                      row.get("tests", 0))))
    return results


def report(data: dict[str, Any]) -> None:
    print(f"{data['module']}: {data['killed']}/{data['mutants']} killed = {data['score']}% "
          f"({data['skipped']} not applicable, {data.get('type_asserts', 0)} of them in "
          "type asserts)")
    for survivor in data["survivors"]:
        unrun = "" if survivor.get("tests", 1) else "  (no test executes it)"
        if survivor["index"] in data.get("unreachable", ()):
            unrun += "  (marked unreachable)"
        print(f"  survived #{survivor['index']} line {survivor['line']}: "
              f"{survivor['description']}  [{survivor['scope']}]{unrun}")
    if data.get("uncovered"):
        print(f"FAILED: {data['uncovered']} mutants of {data['module']} are executed by no test "
              "of its target: add the tests that run them to mutation/targets.py")


def iter_targets(args: argparse.Namespace) -> Iterator[tuple[str, list[str]]]:
    from mutation.targets import TARGETS

    if args.all:
        yield from TARGETS.items()
        return
    for path in args.modules:
        if path not in TARGETS and not args.tests:
            raise SystemExit(f"{path} has no tests listed in mutation/targets.py (or --tests)")
        yield path, args.tests or TARGETS[path]


def measure(path: str, tests: list[str], args: argparse.Namespace) -> int:
    """Mutate one module, store and report its results: 0, or `UNCOVERED` when some
    of its mutants are executed by no test of its target."""
    if args.uncovered:
        return unexecuted(path, tests)
    results = mutate_module(path, tests, set(args.only) if args.only else None,
                            select=not args.every_test)
    RESULTS.mkdir(exist_ok=True)
    name = path.replace("/", ".").removesuffix(".py")
    stored = RESULTS / f"{name}.json"
    if args.only and stored.exists():  # rerun some: update the last full run
        results = merged(json.loads(stored.read_text()), results)
    data = summary(path, results, unreachable_lines((ROOT / path).read_text()))
    stored.write_text(json.dumps(data, indent=1))
    report(data)
    return UNCOVERED if data["uncovered"] else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="module paths, e.g. domain/dice.py")
    parser.add_argument("--all", action="store_true", help="every module in targets.py")
    parser.add_argument("--tests", nargs="+", help="test files (instead of targets.py)")
    parser.add_argument("--only", type=int, nargs="+", help="mutant indices to run")
    parser.add_argument("--list", action="store_true", help="list the mutants only")
    parser.add_argument("--uncovered", action="store_true",
                        help="only list the mutants no test of the target executes (one "
                             "traced run, no mutant run; exit 3 if there is one)")
    parser.add_argument("--every-test", action="store_true",
                        help="run all of the module's tests against every mutant (by default "
                             "only those that execute the mutated lines)")
    args = parser.parse_args(argv)
    code = 0
    for path, tests in iter_targets(args):
        if args.list:
            for mutant in list_mutants((ROOT / path).read_text()):
                print(f"#{mutant.index} line {mutant.line} {mutant.kind} {mutant.scope}: "
                      f"{mutant.description}")
            continue
        pid = os.fork()  # each module in its own process: imports do not leak across
        if pid == 0:
            status = 1
            try:
                status = measure(path, tests, args)
            except SystemExit as stop:  # the target's own tests fail: say so, in this child
                print(stop, file=sys.stderr, flush=True)
            except Exception:
                traceback.print_exc()
            finally:
                os._exit(status)
        _, status = os.waitpid(pid, 0)
        code = max(code, os.waitstatus_to_exitcode(status))
    return code


if __name__ == "__main__":
    sys.exit(main())


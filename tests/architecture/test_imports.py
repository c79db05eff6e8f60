"""The package's modules import cleanly, without cycles, and no edge imports another.

Every module is imported on its own in a fresh interpreter, so none depends on
another module having been imported first (registration by side effect).
The import graph of module-level imports (those under `if TYPE_CHECKING:`
included; imports inside functions are lazy by design) has no cycle.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("domain", "events", "projections", "replay", "warledger")


def modules() -> list[str]:
    """Every module of the packages, by dotted name."""
    names = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


MODULES = modules()


def imported_at_module_level(name: str) -> set[str]:
    """The package modules `name` imports outside functions."""
    path = ROOT / Path(*name.split("."))
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    tree = ast.parse(path.read_text())
    found: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module)
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.If | ast.Try):
                visit(node.body)
                visit(node.orelse)
                if isinstance(node, ast.Try):
                    for handler in node.handlers:
                        visit(handler.body)
            elif isinstance(node, ast.ClassDef):
                visit(node.body)

    visit(tree.body)
    return {m for m in found if m in MODULES and m != name}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph (as a path that returns to its start), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return [*path[path.index(target):], target]
            if target not in state:
                cycle = walk(target)
                if cycle:
                    return cycle
        state[node] = 2
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = walk(node)
            if cycle:
                return cycle
    return None


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_module_imports_itself_back() -> None:
    graph = {name: imported_at_module_level(name) for name in MODULES}
    # A package imports its submodules' names; a submodule importing its own
    # package's __init__ is not a cycle of the modules themselves.
    for name, targets in graph.items():
        graph[name] = {t for t in targets if not name.startswith(f"{t}.")}
    assert find_cycle(graph) is None


#: Run in a fresh interpreter: it loads the third-party libraries once, then
#: forks one child per module; each child imports just that module, so it starts
#: with no module of this project imported. Prints the modules that failed.
ZYGOTE = """
import json, os, sys, traceback
import eventsourcing.application, orjson, pydantic, shapely, transitions, yaml  # noqa
failed = {}
for name in sys.argv[1:]:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            __import__(name)
            code = 0
        except BaseException:
            os.write(write, traceback.format_exc().strip().splitlines()[-1].encode())
            code = 1
        os._exit(code)
    os.close(write)
    message = os.read(read, 4096).decode()
    os.close(read)
    _, status = os.waitpid(pid, 0)
    if status:
        failed[name] = message
print(json.dumps(failed))
"""


def test_every_module_imports_on_its_own() -> None:
    """Each module, imported alone into an interpreter that has imported no module
    of this project, imports (and with it, everything it needs)."""
    run = subprocess.run([sys.executable, "-c", ZYGOTE, *MODULES], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads(run.stdout) == {}
    assert len(MODULES) > 100


#: The two edges: the command line and the HTTP server. Each calls the application
#: layer (replay/, domain/, projections/ and the shared warledger.script etc.), never
#: the other edge; the application layer imports neither.
EDGES = {
    "cli": ("warledger.cli", "warledger.cmd_", "warledger.views_follow"),
    "server": ("warledger.server",),
}
#: `warledger serve` is the command line handing over to the server: the one crossing.
CROSSINGS = {("warledger.cmd_serve", "warledger.server.app")}


def edge_of(module: str) -> str | None:
    """Which edge a module belongs to (None: the application layer, or shared)."""
    for edge, prefixes in EDGES.items():
        if any(module == p or module.startswith(p if p.endswith("_") else f"{p}.")
               for p in prefixes):
            return edge
    return None


def every_import(source: str) -> set[str]:
    """Every module a source imports anywhere: at module level, under `if
    TYPE_CHECKING:`, and inside functions (a lazy import is still a dependency)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def edge_crossings(sources: dict[str, str]) -> list[str]:
    """Each import of an edge's module by a module outside that edge, but `CROSSINGS`."""
    bad = []
    for name, source in sorted(sources.items()):
        for target in sorted(every_import(source)):
            target_edge = edge_of(target)
            if target_edge is None or target_edge == edge_of(name):
                continue
            if not any(name == importer and (target == allowed or target.startswith(
                    f"{allowed}.")) for importer, allowed in CROSSINGS):
                bad.append(f"{name} imports {target}")
    return bad


def source_of(name: str) -> str:
    path = ROOT / Path(*name.split("."))
    return (path / "__init__.py" if path.is_dir() else path.with_suffix(".py")).read_text()


def test_the_crossing_finder_finds_an_edge_importing_an_edge() -> None:
    """Lazy imports count: the server's once imported the CLI's `step_result` inside
    a method."""
    lazy = "def command():\n    from warledger.cli import step_result\n"
    assert edge_crossings({"warledger.server.app": lazy}) == [
        "warledger.server.app imports warledger.cli",
        "warledger.server.app imports warledger.cli.step_result"]
    assert edge_crossings({"replay.service": "import warledger.server.seats\n"}) == [
        "replay.service imports warledger.server.seats"]
    assert edge_crossings({"warledger.cmd_stats": "from warledger.cli import CliError\n",
                           "warledger.cmd_serve": "from warledger.server.app import x\n"}) == []
    assert edge_crossings({"warledger.cmd_stats": "from warledger.server import app\n"}) == [
        "warledger.cmd_stats imports warledger.server",
        "warledger.cmd_stats imports warledger.server.app"]


def test_no_edge_imports_the_other_and_the_application_layer_imports_neither() -> None:
    sources = {name: source_of(name) for name in MODULES}
    assert {edge_of(n) for n in sources} == {None, "cli", "server"}
    assert edge_crossings(sources) == []

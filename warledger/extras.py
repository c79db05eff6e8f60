"""Optional dependencies: which extra brings a module, and the one-line hint to install it.

`make demo` installs the base package only; `stats --plot`, Parquet export, `serve`
and PostgreSQL need extras (pyproject.toml `[project.optional-dependencies]`). A
command that needs one says which, in one line, and exits 2: never a traceback.
The extras are read from the installed package's own metadata, so the hint names
what pyproject.toml says.
"""

from __future__ import annotations

import re
from functools import cache

#: The extra of each optional module, when the package metadata cannot be read (an
#: uninstalled checkout); the metadata adds any others.
KNOWN: dict[str, str] = {
    "rich": "analytics", "matplotlib": "analytics", "pyarrow": "analytics",
    "starlette": "serve", "uvicorn": "serve",
    "psycopg": "postgres", "psycopg_pool": "postgres",
}
#: Extras that gather the others (never the one to name).
GATHERING = frozenset({"dev"})
_REQUIREMENT = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
_EXTRA = re.compile(r"""extra\s*==\s*["']([^"']+)["']""")


@cache
def extras() -> dict[str, str]:
    """Top-level module name → the extra that installs it (from the metadata)."""
    found = dict(KNOWN)
    try:
        from importlib.metadata import PackageNotFoundError, requires

        lines = requires("warledger") or []
    except PackageNotFoundError:
        return found
    base = {module_name(line) for line in lines if _EXTRA.search(line) is None}
    for line in lines:
        name, extra = module_name(line), _EXTRA.search(line)
        if not name or name in base or extra is None or extra.group(1) in GATHERING:
            continue
        found.setdefault(name, extra.group(1))
    return {name: extra for name, extra in found.items() if name not in base}


def module_name(requirement: str) -> str:
    """The module a requirement line installs, by its distribution's name
    (`psycopg-pool>=3.2` → `psycopg_pool`)."""
    match = _REQUIREMENT.match(requirement)
    return "" if match is None else match.group(1).lower().replace("-", "_")


def extra_of(module: str | None) -> str | None:
    """The extra that brings `module` (or its top-level package); None: no extra does."""
    if not module:
        return None
    return extras().get(module.split(".")[0].lower())


def install_hint(extra: str, what: str) -> str:
    """One line: what needs the extra, and how to install it (in a clone: into .venv)."""
    return (f"{what} needs the {extra} extra: pip install 'warledger[{extra}]' "
            f"(in a clone: make extras, or .venv/bin/pip install -e '.[{extra}]')")


def missing_module_hint(error: BaseException, what: str = "this command") -> str | None:
    """The install hint for a missing optional module, if the error or one of its causes
    is one (a library that wraps the import error, e.g. eventsourcing's factory for
    `eventsourcing.postgres`, keeps it as the cause); None otherwise."""
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, ModuleNotFoundError) and (extra := extra_of(cause.name)):
            return install_hint(extra, f"{what} ({cause.name})")
        cause = cause.__cause__ or cause.__context__
    return None

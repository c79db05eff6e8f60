"""Libraries imported on first use, with no cost after it (docs/performance.md, cold start).

A module that needs shapely or numpy only inside its functions binds the names
it imports to stand-ins (`defer`); the first call, attribute or `isinstance`
through any of them imports the library and binds the real objects in the
module's namespace in their place, so every later use is a plain global lookup.
Reading a game's state or replaying it then loads no geometry library, while a
geometry check pays nothing per call, as a function-level import would.

    if TYPE_CHECKING:
        import shapely
        from shapely.geometry import Point
    else:
        defer(globals(), shapely="shapely", Point="shapely.geometry:Point")
"""

from __future__ import annotations

import importlib
from typing import Any


class Deferred:
    """A stand-in for a name a module imports on first use (see `defer`)."""

    __slots__ = ("_group", "_name", "_namespace")

    def __init__(self, namespace: dict[str, Any], group: dict[str, str], name: str) -> None:
        self._namespace = namespace
        self._group = group
        self._name = name

    def _load(self) -> Any:
        """Import the names of this stand-in's group, bind them, return its own."""
        found = {name: _imported(target) for name, target in self._group.items()}
        for name, value in found.items():
            if isinstance(self._namespace.get(name), Deferred):
                self._namespace[name] = value
        return found[self._name]

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._load(), attribute)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._load()(*args, **kwargs)

    def __instancecheck__(self, instance: Any) -> bool:
        return isinstance(instance, self._load())

    def __repr__(self) -> str:
        return f"<deferred {self._group[self._name]} for {self._namespace.get('__name__')}>"


def _imported(target: str) -> Any:
    """`module` or `module:attribute`, imported."""
    module, _, attribute = target.partition(":")
    value = importlib.import_module(module)
    return getattr(value, attribute) if attribute else value


def defer(namespace: dict[str, Any], **targets: str) -> None:
    """Bind each name to a stand-in for its target (`module` or `module:attribute`);
    the first use of any of them imports them all and binds the real objects."""
    for name in targets:
        namespace[name] = Deferred(namespace, targets, name)

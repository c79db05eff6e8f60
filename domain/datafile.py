"""Reading a YAML or JSON data file (scripts, stratagem catalogs) with one-line errors."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, TypeVar

import orjson
import yaml
from pydantic import BaseModel

from domain.errors import ScriptError


def read_data_file(path: str | Path, what: str = "file") -> Any:
    """The data in a `.json` file, or in a YAML file (any other suffix).

    Raises `ScriptError` with one line when the file cannot be read or parsed.
    """
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as error:
        raise ScriptError(f"cannot read {what} {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise ScriptError(f"{path}: not UTF-8 text") from None
    try:
        if file.suffix == ".json":
            data = json.loads(text, object_pairs_hook=_unique_keys)
        else:
            data = yaml.load(text, Loader=_UniqueKeyLoader)
    except (json.JSONDecodeError, yaml.YAMLError) as error:
        first = str(error).splitlines()[0]
        raise ScriptError(f"{path}: not valid YAML/JSON ({first})") from None
    except DuplicateKeyError as error:
        raise ScriptError(f"{path}: {error}") from None
    except RecursionError:
        raise ScriptError(f"{path}: nested more than {MAX_DEPTH} deep") from None
    problem = shape_problem(data)
    if problem:
        raise ScriptError(f"{path}: {problem}")
    return data


#: A game script or catalog is small: no deeper nesting, no more values than these.
MAX_DEPTH = 64
MAX_VALUES = 1_000_000


def shape_problem(data: Any) -> str | None:
    """Why loaded data cannot be a script or catalog: nested too deep, refers to
    itself (a YAML anchor inside itself), or has more values than any game (YAML
    anchors can multiply a small file into billions), or None."""
    count = 0
    stack: list[tuple[Any, int, frozenset[int]]] = [(data, 0, frozenset())]
    while stack:
        value, depth, above = stack.pop()
        count += 1
        if count > MAX_VALUES:
            return f"more than {MAX_VALUES:,} values: too large for a game"
        if depth > MAX_DEPTH:
            return f"nested more than {MAX_DEPTH} deep"
        if isinstance(value, dict | list):
            if id(value) in above:
                return "a value contains itself (a YAML anchor used inside itself)"
            children = value.values() if isinstance(value, dict) else value
            inner = above | {id(value)}
            stack.extend((child, depth + 1, inner) for child in children)
    return None


class DuplicateKeyError(ValueError):
    """A mapping names the same key twice: which value is meant cannot be known."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refusing a key given twice (JSON parsers keep the last)."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise DuplicateKeyError(f"the key {key!r} is given twice in one mapping")
        data[key] = value
    return data


class _UniqueKeyLoader(yaml.SafeLoader):
    """YAML's safe loader, refusing a key given twice in one mapping."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        keys = [self.construct_object(key, deep=deep) for key, _ in node.value]
        for index, key in enumerate(keys):
            if key in keys[:index]:
                line = node.start_mark.line + 1
                raise DuplicateKeyError(f"the key {key!r} is given twice in one mapping "
                                        f"(line {line})")
        return super().construct_mapping(node, deep=deep)



M = TypeVar("M", bound=BaseModel)


def read_as(model: type[M], data: Any) -> M:
    """`data` (from a script or a step) as a `model`, read as JSON is read: strictly,
    so `true` is not a number, `"7"` not an integer and `"no"` not a bool, while
    lists may stand for tuples.

    Raises `pydantic.ValidationError`, or `ValueError` for data JSON cannot hold.
    """
    unfinite = _first_non_finite(data, "")
    if unfinite is not None:
        raise ValueError(f"{unfinite or 'value'}: Input should be a finite number")
    try:
        text = orjson.dumps(data)
    except orjson.JSONEncodeError as error:
        raise ValueError(f"a value of this step cannot be recorded: {error}") from None
    return model.model_validate_json(text, strict=True)


def _first_non_finite(data: Any, where: str) -> str | None:
    """Where `data` holds an infinity or NaN (JSON writes them as null), or None."""
    if isinstance(data, float) and not math.isfinite(data):
        return where
    items = data.items() if isinstance(data, dict) else (
        enumerate(data) if isinstance(data, list | tuple) else ())
    for key, value in items:
        found = _first_non_finite(value, f"{where}.{key}" if where else str(key))
        if found is not None:
            return found
    return None

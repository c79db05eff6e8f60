"""Reading a YAML or JSON data file (scripts, stratagem catalogs) with one-line errors.

YAML is read as YAML 1.2 reads it (and JSON): `010` is ten, `1e1` is a number,
`yes`, `on` and `1:30` are strings, dates stay text. A key given twice in one
mapping is an error, not "the last one wins". Data that nests too deep, refers
to itself or multiplies past a million values (YAML anchors) is refused.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

import orjson
import yaml
from pydantic import BaseModel

from domain.errors import ScriptError

#: The kinds of value JSON holds (YAML tags such as !!binary or !!set give others).
JSON_TYPES = (str, int, float, bool, type(None), list, dict)
#: A game script or catalog is small: no deeper nesting, no more values than these.
MAX_DEPTH = 64
MAX_VALUES = 1_000_000


def read_data_file(path: str | Path, what: str = "file") -> Any:
    """The data in a `.json` file, or in a YAML file (any other suffix).

    Raises `ScriptError` with one line when the file cannot be read or parsed.
    """
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8-sig")
    except OSError as error:
        raise ScriptError(f"cannot read {what} {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise ScriptError(f"{path}: not UTF-8 text") from None
    try:
        data = parse_json(text) if file.suffix == ".json" else parse_yaml(text)
    except ValueError as error:
        raise ScriptError(f"{path}: {error}") from None
    if data is None:
        raise ScriptError(f"{path}: the file is empty")
    return data


def parse_json(text: str) -> Any:
    """JSON text as data; `ValueError` with one line if it is not valid or not sound."""
    try:
        data = json.loads(text, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as error:
        raise ValueError(f"not valid JSON ({error})") from None
    except RecursionError:
        raise ValueError(f"nested more than {MAX_DEPTH} deep") from None
    return _checked_shape(data)


def parse_yaml(text: str) -> Any:
    """YAML text as data (YAML 1.2 scalars); `ValueError` with one line if not sound."""
    try:
        data = yaml.load(text, Loader=_Yaml12Loader)  # a SafeLoader
    except yaml.YAMLError as error:
        raise ValueError(_yaml_problem(error)) from None
    except RecursionError:
        raise ValueError(f"nested more than {MAX_DEPTH} deep") from None
    return _checked_shape(data)


def _yaml_problem(error: yaml.YAMLError) -> str:
    """One line for a YAML error, with the line it is on."""
    if isinstance(error, yaml.MarkedYAMLError) and error.problem_mark is not None:
        problem = error.problem or error.context or "unreadable"
        line = f"line {error.problem_mark.line + 1}"
        if "given twice" in problem or "is not text" in problem:
            return f"{problem} ({line})"
        return f"not valid YAML/JSON ({problem}, {line})"
    return f"not valid YAML/JSON ({str(error).splitlines()[0]})"


def _checked_shape(data: Any) -> Any:
    problem = shape_problem(data)
    if problem:
        raise ValueError(problem)
    return data


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
        if not isinstance(value, JSON_TYPES):
            return f"a value of type {type(value).__name__} is not data a game can hold " \
                "(only text, numbers, true/false, null, lists and mappings)"
        if isinstance(value, dict) and not all(isinstance(key, str) for key in value):
            key = next(k for k in value if not isinstance(k, str))
            return f"the key {key!r} is not text (mapping keys must be text)"
        if isinstance(value, dict | list):
            if id(value) in above:
                return "a value contains itself (a YAML anchor used inside itself)"
            children = value.values() if isinstance(value, dict) else value
            inner = above | {id(value)}
            stack.extend((child, depth + 1, inner) for child in children)
    return None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refusing a key given twice (JSON parsers keep the last)."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise ValueError(f"the key {key!r} is given twice in one mapping")
        data[key] = value
    return data


class _Yaml12Loader(yaml.SafeLoader):
    """YAML's safe loader with YAML 1.2 core-schema scalars, refusing a key given
    twice in one mapping (merge keys `<<:` still work)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=deep)
            if not isinstance(key, str):
                what = "a list or mapping" if isinstance(key, list | dict) else repr(key)
                raise yaml.constructor.ConstructorError(
                    None, None, f"the key {what} is not text (mapping keys must be text)",
                    key_node.start_mark)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"the key {key!r} is given twice in one mapping",
                    key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        """YAML 1.2: `010` is ten; `0o10` octal, `0x10` hexadecimal."""
        value = str(self.construct_scalar(node))
        if value.startswith(("0o", "+0o", "-0o")):
            return int(value.replace("0o", ""), 8)
        if value.startswith(("0x", "+0x", "-0x")):
            return int(value, 16)
        return int(value)


def _yaml12_resolvers() -> None:
    """Replace YAML 1.1's implicit bool, int, float and timestamp rules with 1.2's."""
    resolvers = {
        first: [(tag, regex) for tag, regex in rules
                if tag not in {"tag:yaml.org,2002:bool", "tag:yaml.org,2002:int",
                               "tag:yaml.org,2002:float", "tag:yaml.org,2002:timestamp"}]
        for first, rules in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    _Yaml12Loader.yaml_implicit_resolvers = resolvers
    core = [
        ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
        ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$",
         "-+0123456789"),
        ("tag:yaml.org,2002:float",
         r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
         r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", "-+0123456789."),
    ]
    for tag, pattern, first in core:
        _Yaml12Loader.add_implicit_resolver(tag, re.compile(pattern), list(first))
    _Yaml12Loader.add_constructor("tag:yaml.org,2002:int", _Yaml12Loader.construct_yaml_int)


_yaml12_resolvers()


M = TypeVar("M", bound=BaseModel)

#: The whole numbers JSON storage holds (64-bit).
INT64 = (-(2**63), 2**64 - 1)


def read_as(model: type[M], data: Any) -> M:
    """`data` (from a script or a step) as a `model`, read as JSON is read: strictly,
    so `true` is not a number, `"7"` not an integer and `"no"` not a bool, while
    lists may stand for tuples.

    Raises `pydantic.ValidationError`, or `ValueError` naming a value JSON cannot hold.
    """
    unreadable = first_unreadable(data, "")
    if unreadable is not None:
        raise ValueError(unreadable)
    return model.model_validate_json(orjson.dumps(data), strict=True)


def first_unreadable(data: Any, where: str) -> str | None:
    """Why a value of `data` cannot be stored as JSON, naming it: an infinity or NaN
    (JSON would write null) or a whole number beyond 64 bits; None if all can."""
    for path, value in leaves(data):
        name = ".".join(map(str, (where, *path) if where else path)) or "value"
        if isinstance(value, float) and not math.isfinite(value):
            return f"{name}: Input should be a finite number"
        if isinstance(value, int) and not isinstance(value, bool) and not (
            INT64[0] <= value <= INT64[1]
        ):
            return f"{name}: {value} does not fit in 64 bits"
    return None


KeyPath = tuple[str | int, ...]


def leaves(data: Any, path: KeyPath = ()) -> Iterator[tuple[KeyPath, Any]]:
    """Every value of nested mappings and lists that is neither, with its path of keys
    and indices, in order."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from leaves(value, (*path, key))
    elif isinstance(data, list | tuple):
        for index, value in enumerate(data):
            yield from leaves(value, (*path, index))
    else:
        yield path, data

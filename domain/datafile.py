"""Reading a YAML or JSON data file (scripts, stratagem catalogs) with one-line errors.

YAML is read as YAML 1.2 reads it (and JSON): `010` is ten, `1e1` is a number,
`yes`, `on` and `1:30` are strings, dates stay text. A key given twice in one
mapping is an error, not "the last one wins". Data that nests too deep, refers
to itself or multiplies past a million values (YAML anchors) is refused.

Only a regular file is read (a FIFO or a device such as `/dev/zero` would block
or never end), and at most `MAX_FILE_BYTES` of it; no text in it may be longer
than `MAX_TEXT` characters or hold a lone UTF-16 surrogate (JSON's `"\\ud800"`
is not a character). YAML is parsed by libyaml's C parser when it is
installed (about twenty times faster than the pure-Python one), with the same
strictness: the constructor, the YAML 1.2 resolvers and every check here are
the same Python code on top of either parser.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import orjson
from pydantic import BaseModel

from domain.errors import ScriptError

if TYPE_CHECKING:
    import yaml

#: The kinds of value JSON holds (YAML tags such as !!binary or !!set give others).
JSON_TYPES = (str, int, float, bool, type(None), list, dict)
#: A game script or catalog is small: no deeper nesting, no more values than these.
MAX_DEPTH = 64
MAX_VALUES = 1_000_000
#: The largest data file read (a game's script is some kilobytes; 1 MiB holds
#: more than 10,000 steps). Checked before parsing, so a huge file fails at once.
MAX_FILE_BYTES = 1024 * 1024
#: The longest text (an id, a name, a ruling) a script or step may hold.
MAX_TEXT = 10_000
#: No number in a game goes beyond this: inches, degrees, CP, models, dice
#: (`domain.limits`, which checks it; well inside the 64 bits JSON storage holds).
MAX_MAGNITUDE = 1_000_000.0
#: A lone UTF-16 surrogate: JSON can write one (`"\\ud800"`), but it is no character.
_SURROGATE = re.compile("[\ud800-\udfff]")


def read_data_file(path: str | Path, what: str = "file") -> Any:
    """The data in a `.json` file, or in a YAML file (any other suffix).

    Raises `ScriptError` with one line when the file cannot be read or parsed,
    is not a regular file, or is larger than `MAX_FILE_BYTES`.
    """
    file = Path(path)
    try:
        text = read_small_text(file, what)
    except UnicodeDecodeError:
        raise ScriptError(f"{path}: not UTF-8 text") from None
    try:
        data = parse_json(text) if file.suffix == ".json" else parse_yaml(text)
    except ValueError as error:
        raise ScriptError(f"{path}: {error}") from None
    if data is None:
        raise ScriptError(f"{path}: the file is empty")
    return data


def read_small_text(file: Path, what: str) -> str:
    """The UTF-8 text of a regular file of at most `MAX_FILE_BYTES` (a leading byte
    order mark dropped), or a one-line `ScriptError`. The file is opened without
    blocking, so a FIFO is refused rather than waited on."""
    try:
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise ScriptError(f"cannot read {what} {file}: {error.strerror}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise ScriptError(f"cannot read {what} {file}: it is {_file_kind(mode)}, "
                          "not a regular file")
    with os.fdopen(fd, "rb") as stream:
        try:
            raw = stream.read(MAX_FILE_BYTES + 1)
        except OSError as error:
            raise ScriptError(f"cannot read {what} {file}: {error.strerror}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise ScriptError(f"{file}: larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB: "
                          f"too large for a {what}")
    return raw.decode("utf-8-sig")


def _file_kind(mode: int) -> str:
    """What a file that is not a regular file is, for a message."""
    kinds = [(stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISSOCK, "a socket")]
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def parse_json(text: str) -> Any:
    """JSON text as data; `ValueError` with one line if it is not valid or not sound."""
    _check_size(text)
    try:
        data = json.loads(text, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as error:
        raise ValueError(f"not valid JSON ({error})") from None
    except RecursionError:
        raise ValueError(f"nested more than {MAX_DEPTH} deep") from None
    return _checked_shape(data)


def parse_yaml(text: str, loader: type[yaml.SafeLoader] | None = None) -> Any:
    """YAML text as data (YAML 1.2 scalars); `ValueError` with one line if not sound.
    `loader`: the pure-Python one for a comparison (default: the C one if present)."""
    import yaml  # on first use: reading a stored game parses no YAML

    from domain.yaml12 import Yaml12Loader, yaml_problem

    _check_size(text)
    try:
        data = yaml.load(text, Loader=loader or Yaml12Loader)  # a safe loader
    except yaml.YAMLError as error:
        raise ValueError(yaml_problem(error)) from None
    except RecursionError:
        raise ValueError(f"nested more than {MAX_DEPTH} deep") from None
    return _checked_shape(data)


def _check_size(text: str) -> None:
    """Text longer than a data file may be is refused before it is parsed."""
    if len(text) > MAX_FILE_BYTES:
        raise ValueError(f"longer than {MAX_FILE_BYTES:,} characters: too large for a game")


def _checked_shape(data: Any) -> Any:
    problem = shape_problem(data)
    if problem:
        raise ValueError(problem)
    return data


def shape_problem(data: Any, kinds: tuple[type, ...] = JSON_TYPES) -> str | None:
    """Why loaded data cannot be a script, catalog or step: nested too deep, refers
    to itself (a YAML anchor inside itself), has more values than any game (YAML
    anchors can multiply a small file into billions), holds a value not of `kinds`,
    or a text too long or not Unicode characters (`text_problem`); or None."""
    count = 0
    stack: list[tuple[Any, int, frozenset[int]]] = [(data, 0, frozenset())]
    while stack:
        value, depth, above = stack.pop()
        count += 1
        if count > MAX_VALUES:
            return f"more than {MAX_VALUES:,} values: too large for a game"
        if depth > MAX_DEPTH:
            return f"nested more than {MAX_DEPTH} deep"
        if not isinstance(value, kinds):
            return f"a value of type {type(value).__name__} is not data a game can hold " \
                "(only text, numbers, true/false, null, lists and mappings)"
        if isinstance(value, str) and (problem := text_problem(value)):
            return problem
        if isinstance(value, dict):
            key = next((k for k in value if not isinstance(k, str) or text_problem(k)), None)
            if key is not None:
                return text_problem(key) if isinstance(key, str) else \
                    f"the key {key!r} is not text (mapping keys must be text)"
        if isinstance(value, dict | list | tuple):
            if id(value) in above:
                return "a value contains itself (a YAML anchor used inside itself)"
            children = value.values() if isinstance(value, dict) else value
            inner = above | {id(value)}
            stack.extend((child, depth + 1, inner) for child in children)
    return None


def is_plain(data: Any, tuples: bool = False) -> bool:
    """Is `data` plainly sound, in one pass: `shape_problem` finds nothing (with
    tuples among the `kinds` if `tuples`), and no number is beyond what a game
    holds (`domain.limits.first_out_of_range`) or JSON stores (`first_unreadable`)?
    Only exact JSON types pass (a subclass, a date: not plain), so False means
    "ask the checks themselves", which name what is wrong. A step's data almost
    always passes: the checks then cost one walk instead of four."""
    count = [1]
    return _plain_value(data, 0, set(), count, tuples) and count[0] <= MAX_VALUES


def _plain_value(value: Any, depth: int, above: set[int], count: list[int],
                 tuples: bool) -> bool:
    """`is_plain` of one value at `depth`: a loop over a container's keys and
    values, recursing only into the containers among them."""
    kind = type(value)
    if kind is dict:
        pairs: Any = value.items()
    elif kind is list or (tuples and kind is tuple):
        pairs = enumerate(value)
    else:
        return _plain_leaf(value)
    if id(value) in above:
        return False  # it contains itself
    count[0] += len(value)
    if (value and depth >= MAX_DEPTH) or count[0] > MAX_VALUES:
        return False
    above.add(id(value))
    for key, child in pairs:
        if kind is dict and not (type(key) is str and len(key) <= MAX_TEXT and (
                key.isascii() or not _SURROGATE.search(key))):
            return False
        kind_of = type(child)
        if kind_of is str:
            if len(child) > MAX_TEXT or not (child.isascii() or not _SURROGATE.search(child)):
                return False
        elif kind_of is int:
            if not -MAX_MAGNITUDE <= child <= MAX_MAGNITUDE:
                return False
        elif kind_of is not bool and child is not None and not _plain_value(
                child, depth + 1, above, count, tuples):
            return False
    above.discard(id(value))
    return True


def _plain_leaf(value: Any) -> bool:
    """`is_plain` of a value that is no container."""
    kind = type(value)
    if kind is str:
        return len(value) <= MAX_TEXT and (value.isascii() or not _SURROGATE.search(value))
    if kind is int:
        return bool(-MAX_MAGNITUDE <= value <= MAX_MAGNITUDE)
    if kind is float:
        return math.isfinite(value) and bool(-MAX_MAGNITUDE <= value <= MAX_MAGNITUDE)
    return kind is bool or value is None


def text_problem(text: str) -> str | None:
    """Why a text cannot be held: longer than `MAX_TEXT` characters, or holding a lone
    UTF-16 surrogate (no character: it cannot be stored as UTF-8); or None."""
    if len(text) > MAX_TEXT:
        return f"a text of {len(text):,} characters ({text[:20]!r}…) is longer than " \
            f"the {MAX_TEXT:,} a game holds"
    found = _SURROGATE.search(text)
    if found:
        return f"the text {text[:20]!r} holds a lone UTF-16 surrogate " \
            f"(U+{ord(found.group()):04X}), which is not a character"
    return None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refusing a key given twice (JSON parsers keep the last)."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise ValueError(f"the key {key!r} is given twice in one mapping")
        data[key] = value
    return data




def __getattr__(name: str) -> Any:
    """The YAML loaders, which moved to `domain.yaml12` (imported on first use)."""
    if name in ("_Yaml12Loader", "PurePythonYaml12Loader"):
        from domain import yaml12

        return yaml12.Yaml12Loader if name == "_Yaml12Loader" else yaml12.PurePythonYaml12Loader
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


M = TypeVar("M", bound=BaseModel)

#: The whole numbers JSON storage holds (64-bit).
INT64 = (-(2**63), 2**64 - 1)


def read_as(model: type[M], data: Any, *, plain: bool = False) -> M:
    """`data` (from a script or a step) as a `model`, read as JSON is read: strictly,
    so `true` is not a number, `"7"` not an integer and `"no"` not a bool, while
    lists may stand for tuples.

    Raises `pydantic.ValidationError`, or `ValueError` naming a value JSON cannot hold.
    `plain`: `is_plain(data)` holds (so every value can be stored), already asked.
    """
    unreadable = None if plain else first_unreadable(data, "")
    if unreadable is not None:
        raise ValueError(unreadable)
    return model.model_validate_json(orjson.dumps(data), strict=True)


def first_unreadable(data: Any, where: str) -> str | None:
    """Why a value of `data` cannot be stored as JSON, naming it: an infinity or NaN
    (JSON would write null) or a whole number beyond 64 bits; None if all can."""
    if not any(_unreadable(value) for value in leaf_values(data)):
        return None  # the common case, found without naming paths
    for path, value in leaves(data):
        name = ".".join(map(str, (where, *path) if where else path)) or "value"
        if isinstance(value, float) and not math.isfinite(value):
            return f"{name}: Input should be a finite number"
        if isinstance(value, int) and not isinstance(value, bool) and not (
            INT64[0] <= value <= INT64[1]
        ):
            return f"{name}: {value} does not fit in 64 bits"
    return None


def _unreadable(value: Any) -> bool:
    """Is this one value not storable as JSON (`first_unreadable`)?"""
    if type(value) is float:
        return not math.isfinite(value)
    if type(value) is int:
        return not INT64[0] <= value <= INT64[1]
    if isinstance(value, float):
        return not math.isfinite(value)
    return isinstance(value, int) and not isinstance(value, bool) and not (
        INT64[0] <= value <= INT64[1])


KeyPath = tuple[str | int, ...]


def leaf_values(data: Any) -> list[Any]:
    """The values `leaves` finds, without their paths (a check's fast pass: the
    paths are made only to name a value found wrong)."""
    found: list[Any] = []
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list | tuple):
            stack.extend(value)
        else:
            found.append(value)
    return found



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

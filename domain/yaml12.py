"""The YAML 1.2 loaders of `domain.datafile`, imported when YAML is first read: a
command that reads no script or catalog does not load PyYAML (docs/performance.md, cold start).

A key given twice in one mapping, or a key that is not text, is an error; scalars
resolve as YAML 1.2 resolves them (`010` is ten; `yes`, `on`, `1:30` are text).
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from domain.datafile import MAX_DEPTH


def yaml_problem(error: yaml.YAMLError) -> str:
    """One line for a YAML error, with the line it is on."""
    if isinstance(error, yaml.MarkedYAMLError) and error.problem_mark is not None:
        problem = error.problem or error.context or "unreadable"
        if "maximum nesting depth" in problem:  # libyaml stops at 1,000 levels
            return f"nested more than {MAX_DEPTH} deep"
        line = f"line {error.problem_mark.line + 1}"
        if "given twice" in problem or "is not text" in problem:
            return f"{problem} ({line})"
        return f"not valid YAML/JSON ({problem}, {line})"
    return f"not valid YAML/JSON ({str(error).splitlines()[0]})"


class _Yaml12(yaml.constructor.SafeConstructor):
    """The safe constructor refusing a key given twice in one mapping (merge keys
    `<<:` still work). Mixed into a loader."""

    def construct_mapping(
        self, node: yaml.MappingNode, deep: bool = False
    ) -> dict[Any, Any]:
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


#: libyaml's C parser under the safe constructor, when libyaml is installed.
_SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class Yaml12Loader(_Yaml12, _SafeLoader):  # type: ignore[misc,valid-type]
    """The loader scripts are read with: libyaml's C parser where present."""


class PurePythonYaml12Loader(_Yaml12, yaml.SafeLoader):
    """The same loader on PyYAML's pure-Python parser (the baseline of
    `bench/parsing.py`, and what runs where libyaml is missing)."""


def _yaml12_resolvers(loader: type[yaml.SafeLoader]) -> None:
    """Replace YAML 1.1's implicit bool, int, float and timestamp rules with 1.2's."""
    resolvers = {
        first: [(tag, regex) for tag, regex in rules
                if tag not in {"tag:yaml.org,2002:bool", "tag:yaml.org,2002:int",
                               "tag:yaml.org,2002:float", "tag:yaml.org,2002:timestamp"}]
        for first, rules in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    loader.yaml_implicit_resolvers = resolvers
    core = [
        ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
        ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$",
         "-+0123456789"),
        ("tag:yaml.org,2002:float",
         r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
         r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", "-+0123456789."),
    ]
    for tag, pattern, first in core:
        loader.add_implicit_resolver(tag, re.compile(pattern), list(first))
    loader.add_constructor("tag:yaml.org,2002:int", _construct_yaml12_int)


def _construct_yaml12_int(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> int:
    """YAML 1.2: `010` is ten; `0o10` octal, `0x10` hexadecimal."""
    value = str(loader.construct_scalar(node))
    if value.startswith(("0o", "+0o", "-0o")):
        return int(value.replace("0o", ""), 8)
    if value.startswith(("0x", "+0x", "-0x")):
        return int(value, 16)
    return int(value)


_yaml12_resolvers(Yaml12Loader)
_yaml12_resolvers(PurePythonYaml12Loader)

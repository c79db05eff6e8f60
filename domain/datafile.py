"""Reading a YAML or JSON data file (scripts, stratagem catalogs) with one-line errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import yaml

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
        return orjson.loads(text) if file.suffix == ".json" else yaml.safe_load(text)
    except (orjson.JSONDecodeError, yaml.YAMLError) as error:
        first = str(error).splitlines()[0]
        raise ScriptError(f"{path}: not valid YAML/JSON ({first})") from None

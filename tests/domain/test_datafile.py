"""Reading scripts and catalogs: YAML 1.2 scalars, no key given twice, sound shapes."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.datafile import parse_json, parse_yaml, read_as, read_data_file
from domain.errors import ScriptError
from events.core import Board


@pytest.mark.parametrize("text,value", [
    ("010", 10), ("0o10", 8), ("0x10", 16), ("-7", -7), ("1e1", 10.0), ("4.5", 4.5),
    ("1:30", "1:30"), ("4_8", "4_8"), ("yes", "yes"), ("on", "on"), ("true", True),
    ("2001-12-14", "2001-12-14"), ("~", None), (".inf", float("inf")),
])
def test_yaml_scalars_are_read_as_yaml_1_2_reads_them(text: str, value: object) -> None:
    assert parse_yaml(f"v: {text}\n") == {"v": value}


def test_merge_keys_work_and_a_key_given_twice_names_its_line() -> None:
    merged = parse_yaml("base: &b {x: 1, y: 2}\nunit: {<<: *b, y: 3}\n")

    with pytest.raises(ValueError, match=r"the key 'y' is given twice in one mapping \(line 4\)"):
        parse_yaml("unit:\n  x: 1\n  y: 2\n  y: 3\n")
    assert merged["unit"] == {"x": 1, "y": 3}


def test_json_refuses_a_key_given_twice() -> None:
    with pytest.raises(ValueError, match="the key 'do' is given twice"):
        parse_json('{"by": "red", "do": "next_phase", "do": "end_turn"}')


def test_a_json_file_may_start_with_a_byte_order_mark(tmp_path: Path) -> None:
    script = tmp_path / "s.json"
    script.write_bytes(b"\xef\xbb\xbf" + b'{"ruleset": "t9a"}')

    assert read_data_file(script) == {"ruleset": "t9a"}


def test_an_empty_file_says_so(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text("# nothing\n")

    with pytest.raises(ScriptError, match=r"s\.yaml: the file is empty"):
        read_data_file(tmp_path / "s.yaml")


def test_a_whole_number_beyond_64_bits_is_named() -> None:
    with pytest.raises(ValueError, match=r"^width: 18446744073709551616 does not fit in 64 bits"):
        read_as(Board, {"width": 2**64, "height": 1})


@pytest.mark.parametrize("text,problem", [
    ("1: 2\n", "the key 1 is not text (mapping keys must be text) (line 1)"),
    ("[1, 2]: 2\n", "the key a list or mapping is not text"),
    ("seed: !!binary aGVsbG8=\n", "a value of type bytes is not data a game can hold"),
    ("x: !!set {a}\n", "a value of type set is not data a game can hold"),
])
def test_only_data_json_can_hold_is_read(text: str, problem: str) -> None:
    with pytest.raises(ValueError) as refused:
        parse_yaml(text)

    assert str(refused.value).startswith(problem)

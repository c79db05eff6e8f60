"""Libraries imported on first use (`domain.deferred`, docs/performance.md): the stand-ins
behave as the real objects, and after the first use the real objects are bound."""

from __future__ import annotations

import collections
import json
import subprocess
import sys
from typing import Any

from domain.deferred import Deferred, defer


def test_the_first_call_imports_and_binds_the_whole_group() -> None:
    namespace: dict[str, Any] = {"__name__": "example"}
    defer(namespace, json="json", dumps="json:dumps")
    assert isinstance(namespace["dumps"], Deferred) and isinstance(namespace["json"], Deferred)

    assert namespace["dumps"]({"a": 1}) == '{"a": 1}'

    assert namespace["dumps"] is json.dumps and namespace["json"] is json


def test_attributes_and_isinstance_go_to_the_real_object() -> None:
    namespace: dict[str, Any] = {}
    defer(namespace, collections="collections", OrderedDict="collections:OrderedDict")
    stand_in = namespace["OrderedDict"]

    assert isinstance(collections.OrderedDict(), stand_in)
    assert not isinstance({}, stand_in)
    assert namespace["OrderedDict"] is collections.OrderedDict
    defer(namespace, collections="collections")
    assert namespace["collections"].Counter is collections.Counter


GEOMETRY_PROBE = """
import sys
import domain.geometry as geometry
import domain.shadows, domain.t9a.rules, domain.w40k.rules
before = "shapely" in sys.modules or "numpy" in sys.modules
area = geometry.board_polygon(2.0, 3.0).area
import shapely.geometry
print(before, area, geometry.Polygon is shapely.geometry.Polygon)
"""


def test_geometry_loads_shapely_when_first_asked_a_question() -> None:
    """The geometry modules (and the rule sets using them) import without shapely or
    numpy; the first geometry call loads it and binds the real classes."""
    done = subprocess.run([sys.executable, "-c", GEOMETRY_PROBE], capture_output=True,
                          text=True, check=True)
    assert done.stdout.split() == ["False", "6.0", "True"]

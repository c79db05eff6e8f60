"""A state view as readable text (`warledger replay` without `--json`).

It is drawn from the view alone (the full view, or one player's), so it shows
nothing the view does not hold: round, phase and active player; each player's
CP (and any other per-player field); the units as a table; the open reaction
window; then the rule set's own fields, one line each.
"""

from __future__ import annotations

from typing import Any

import orjson

from projections.wording import say_result

#: View fields shown in the heading and tables; any other field is listed after them.
SHOWN = frozenset({"ruleset", "variant", "round", "phase", "active_player", "players", "units",
                   "reaction_window", "finished"})
#: Unit fields shown in the units table's fixed columns.
UNIT_COLUMNS = ("owner", "status", "x", "y", "facing", "conditions")


def render_state(view: dict[str, Any]) -> str:
    """The view as text: a heading line, tables, then the rule set's fields."""
    variant = f" ({view['variant']})" if view.get("variant") else ""
    over = "; the game is over" if view.get("finished") else ""
    lines = [f"{view['ruleset']}{variant}: round {view['round']}, {view['phase']} phase, "
             f"{view['active_player']} active{over}", ""]
    lines += players_table(view.get("players", {}))
    lines += ["", *units_table(view.get("units", {}))]
    lines += ["", window_line(view.get("reaction_window"))]
    extra = {k: v for k, v in sorted(view.items()) if k not in SHOWN}
    for key, value in extra.items():
        said = say_result(value) if key == "result" else compact(value)
        lines.append(f"{key}: {said}")
    return "\n".join(lines)


def players_table(players: dict[str, dict[str, Any]]) -> list[str]:
    """One row per player: CP first, then any other per-player field."""
    fields = sorted({k for p in players.values() for k in p} - {"cp"})
    rows = [[player, str(data.get("cp", "")), *(compact(data.get(f, "")) for f in fields)]
            for player, data in players.items()]
    return table(["player", "cp", *fields], rows)


def units_table(units: dict[str, dict[str, Any]]) -> list[str]:
    """One row per unit: id, owner, status, position, facing, conditions, then the rule
    set's plain fields; its nested fields (lists, mappings) follow, a line per unit."""
    if not units:
        return ["units: none"]
    rest = sorted({k for u in units.values() for k in u} - set(UNIT_COLUMNS))
    nested = [k for k in rest if any(isinstance(u.get(k), dict | list) for u in units.values())]
    plain = [k for k in rest if k not in nested]
    rows = [[unit_id, *(cell(u.get(c)) for c in UNIT_COLUMNS), *(cell(u.get(f)) for f in plain)]
            for unit_id, u in units.items()]
    lines = table(["unit", *UNIT_COLUMNS, *plain], rows)
    for unit_id, u in units.items():
        details = [f"{k} {compact(u[k])}" for k in nested if u.get(k) not in (None, [], {})]
        if details:
            lines.append(f"  {unit_id}: " + "; ".join(details))
    return lines


def window_line(window: dict[str, Any] | None) -> str:
    """The open reaction window, or that none is open."""
    if window is None:
        return "reaction window: none open"
    waiting = [w for w in window.get("eligible", []) if w not in window.get("declared", {})]
    declared = ", ".join(f"{k}: {compact(v)}" for k, v in window.get("declared", {}).items())
    return (f"reaction window: {window['kind']}, eligible {', '.join(window['eligible'])}; "
            f"waiting for {', '.join(waiting) or 'nobody'}"
            + (f"; declared {declared}" if declared else ""))


def cell(value: Any) -> str:
    """A table cell: numbers to 3 decimals, lists joined, nothing as '-'."""
    if value is None or value == []:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".")
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ",".join(value)
    return compact(value)


def compact(value: Any) -> str:
    """A value on one line (strings as they are, anything else as compact JSON)."""
    if isinstance(value, str):
        return value
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    """Left-aligned columns, two spaces apart, with a rule under the header."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(row: list[str]) -> str:
        cells = (text.ljust(width) for text, width in zip(row, widths, strict=True))
        return "  ".join(cells).rstrip()

    return [line(header), line(["-" * w for w in widths]), *map(line, rows)]

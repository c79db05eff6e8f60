"""What a seat may do now, in words (`warledger options`, readable by default).

One line per option, said as a player would say the command (`projections.wording`),
with its geometric constraint and the checks still to make on a concrete value, and
what the rule set tells of it (a stratagem's cost, the CP left after).
"""

from __future__ import annotations

from typing import Any

from domain.options import Option, Options
from projections.wording import say_command, say_value


def options_text(found: Options) -> str:
    """Every option of one seat, one line each, under a heading naming the position."""
    where = f"{found.phase} phase"
    if found.active_player:
        where += f", {found.active_player}'s turn"
    if found.window:
        where += f", a {found.window} window is open"
    lines = [f"what {found.seat} may do now ({where}): {len(found.options)} option"
             f"{'' if len(found.options) == 1 else 's'}"]
    lines += [f"  {option_line(o)}" for o in found.options]
    if not found.options:
        lines.append("  nothing: wait for another seat")
    return "\n".join(lines)


def option_line(option: Option) -> str:
    """One option: the command, then its domain."""
    loose = set(option.free) | set(option.geometric.fields if option.geometric else ())
    fixed = {k: v for k, v in option.command.items() if k not in loose}
    words = [say_command(fixed)]
    if option.geometric is not None:
        words.append(f"— {geometry_words(option.geometric.shape, option.geometric.constraint)}"
                     f"; checked on the value: {', '.join(option.geometric.remaining)}")
    if option.details:
        words.append(f"[{say_details(option.details)}]")
    return " ".join(words)


def geometry_words(shape: str, constraint: dict[str, Any] | Any) -> str:
    """The constraint on a geometric value: 'a point, from (1, 2), max length 6'."""
    said = ", ".join(f"{k.replace('_', ' ')} {say_value(v)}" for k, v in dict(constraint).items())
    return f"{shape} ({said})" if said else shape


def say_details(details: dict[str, Any] | Any) -> str:
    return ", ".join(f"{k.replace('_', ' ')} {say_value(v)}" for k, v in dict(details).items())

"""How commands, results, steps and refusals are said in every human output.

One wording for `audit`, `run`, `audit --attempts`, the pictures' captions and the
viewer: a command as a player would say it ("Smokescreen on b1", "arrive red-scouts
at (60, 6) facing 90°"), never a Python repr. Steps are the log's steps
(docs/CONTRACT.md: 0 is the set-up), and a refusal is placed by the step it came
after ("refused after step 5").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Arguments that name what a command acts on: said first, without their key.
SUBJECTS = ("unit", "trooper", "figure", "model", "figures")
#: Words for argument keys that read badly as they are.
KEY_WORDS = {"on_step": "on step"}
#: Commands said in words of their own (the rest: their name with spaces).
PLAIN = {"next_phase": "next phase", "end_turn": "end turn", "pass_stratagem": "pass",
         "request_redo": "ask to redo the undone steps", "roll_ambush": "roll for Ambush"}


def say_value(value: Any) -> str:
    """A value as written: numbers without a needless '.0', points as (x, y), lists
    joined with commas, mappings as 'key value' pairs."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list | tuple):
        if len(value) == 2 and all(isinstance(v, int | float) and not isinstance(v, bool)
                                   for v in value):
            return f"({say_value(value[0])}, {say_value(value[1])})"
        if value and all(isinstance(v, list | tuple) for v in value):
            return " → ".join(say_value(v) for v in value)
        return ", ".join(say_value(v) for v in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {say_value(v)}" for k, v in value.items())
    return str(value)


def say_result(result: Mapping[str, Any] | None) -> str:
    """A game's result: 'red wins (red 12, blue 8)' or 'a draw'."""
    if not result:
        return "no result"
    outcome = "a draw" if result.get("draw") else f"{result.get('winner') or '?'} wins"
    points = result.get("points") or {}
    scored = ", ".join(f"{p} {say_value(v)}" for p, v in points.items()) \
        if isinstance(points, Mapping) else ""
    return f"{outcome} ({scored})" if scored else outcome


def say_command(command: Mapping[str, Any] | None) -> str:
    """A command as its player would say it, without who says it."""
    if not command:
        return "(nothing)"
    do = str(command.get("do", "?"))
    args = {k: v for k, v in command.items()
            if k not in ("by", "do") and v is not None and v != [] and v != ()}
    special = SAYINGS.get(do)
    if special is not None:
        return special(args)
    head = PLAIN.get(do, do.replace("_", " "))
    return " ".join([head, *say_arguments(args)]).strip()


def say_arguments(args: dict[str, Any]) -> list[str]:
    """The words for a command's arguments: its subject, where, facing, then the rest
    after a comma ('arrive red-scouts at (60, 6) facing 90°, point (60, 0)')."""
    words = main_words(args)
    rest = [f"{KEY_WORDS.get(key, key.replace('_', ' '))} {say_value(value)}".strip()
            for key, value in args.items()]
    if rest:
        words.append(", ".join(rest))
        if len(words) > 1:
            words[-2] += ","
    return words


def main_words(args: dict[str, Any]) -> list[str]:
    """The words for a command's subject, position, path, facing, claim and dice (taken
    out of `args`)."""
    words = [say_value(args.pop(key)) for key in SUBJECTS if key in args]
    if "x" in args and "y" in args:
        words.append(f"at ({say_value(args.pop('x'))}, {say_value(args.pop('y'))})")
    for key in ("to", "at"):  # where it goes, where it stands
        if key in args:
            words.append(f"{key} {say_value(args.pop(key))}")
    if "path" in args:
        words.append(f"along {say_value(args.pop('path'))}")
    if "facing" in args:
        words.append(f"facing {say_value(args.pop('facing'))}°")
    if "result" in args:
        words.append(f"claiming {say_result(args.pop('result'))}")
    if "dice" in args:
        words.append(f"with dice {say_value(args.pop('dice'))}")
    return words


def say_stratagem(args: dict[str, Any]) -> str:
    """'Smokescreen on b1', 'Heroic Intervention on b1 against r1'."""
    name = str(args.pop("stratagem", "?")).replace("_", " ").replace("-", " ").title()
    words = [name]
    if "targets" in args:
        words.append(f"on {say_value(args.pop('targets'))}")
    if "enemy" in args:
        words.append(f"against {say_value(args.pop('enemy'))}")
    return " ".join([*words, *say_arguments(args)])


def say_consent(args: dict[str, Any]) -> str:
    accept = args.pop("accept", None)
    said = "agree" if accept is True else "refuse" if accept is False else "answer"
    return " ".join([said, *say_arguments(args)])


def say_undo(args: dict[str, Any]) -> str:
    steps = args.pop("steps", 1)
    what = "the last step" if steps == 1 else f"the last {say_value(steps)} steps"
    return " ".join([f"ask to undo {what}", *say_arguments(args)])


def say_ruling(args: dict[str, Any]) -> str:
    text = args.pop("text", "")
    clause = args.pop("clause", None)
    on_step = args.pop("on_step", None)
    words = [f'ruling "{text}"']
    if clause:
        words.append(f"({clause})")
    if on_step is not None:
        words.append(f"on step {on_step}")
    return " ".join([*words, *say_arguments(args)])


SAYINGS = {"use_stratagem": say_stratagem, "consent": say_consent,
           "request_undo": say_undo, "ruling": say_ruling}


def say_step(step: int, by: str, command: Mapping[str, Any] | None) -> str:
    """'step 6: red arrive red-scouts at (60, 6) facing 90°' (step 0 is the set-up)."""
    return f"step {step}: {by} {say_command(command)}"


def refusal_label(after_step: int) -> str:
    """Where a refusal happened, in the log's steps: 'refused after step 5'."""
    return f"refused after step {after_step}"

"""The three kinds of "no": bad input, a core rule, a clause."""

from __future__ import annotations


class RuleViolation(Exception):
    """A command broke a rule. `rule` is a clause ID, a `CORE-*` ID or `INPUT`."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


class InputError(RuleViolation):
    """A step was malformed: unknown unit, bad value, dice that do not fit."""

    def __init__(self, message: str) -> None:
        super().__init__("INPUT", message)


class ScriptError(ValueError):
    """A whole game script is malformed and cannot be run (exit code 2)."""

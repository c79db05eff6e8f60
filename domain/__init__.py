"""The rules: game state, commands, decisions, dice, geometry and turn machines.

Nothing here does I/O, apart from reading packaged data (the core stratagem
catalog) and data files an API caller names in options. A command is
*decided* against the state (and may be refused with a `RuleViolation`); the
resulting facts are *applied* by plain assignment. Each rule set lives in its
own sub-package (`t9a`, `infinity`, `mageknight`, `w40k`) and never imports
another.
"""

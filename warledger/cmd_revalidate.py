"""`warledger revalidate DB [--changes FILE]`: decide every stored game again under
today's rules and report each step whose verdict would differ (`replay.revalidate`).

Exit code 0 when no verdict differs (or every one that does is listed in the
verdict-changes file), 1 when one differs unlisted or a log cannot be followed,
2 for bad input. Nothing is ever written to the store.
"""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the `revalidate` subcommand."""
    parser = sub.add_parser(
        "revalidate", help="decide every stored game again under today's rules; report "
        "each verdict that would differ (exit 1 unless listed)")
    parser.add_argument("db", help="SQLite path or postgresql:// URL")
    parser.add_argument("--changes", metavar="FILE",
                        help="a verdict-changes YAML file: the changes it lists are expected "
                        "(tests/fixtures/verdict-changes.yaml)")
    parser.add_argument("--yaml", action="store_true",
                        help="print the unlisted changes as verdict-changes entries (each "
                        "still needs its reason)")
    parser.set_defaults(handler=cmd_revalidate)


def cmd_revalidate(args: argparse.Namespace) -> int:
    """Revalidate the store; print each change, listed or not, and a summary line."""
    from pathlib import Path

    from domain.words import counted
    from replay.revalidate import allowed, revalidate
    from warledger.cli import open_service

    listed = allowed(Path(args.changes)) if args.changes else set()
    found = revalidate(open_service(args.db))
    unlisted = [c for c in found.changes if c.key() not in listed]
    for change in found.changes:
        print(("listed  " if change.key() in listed else "CHANGED ") + change.line())
    for line in found.unreadable:
        print(f"UNREADABLE {line}")
    if args.yaml and unlisted:
        print_entries([c.entry() for c in unlisted])
    print(f"revalidated {counted(found.games, 'game')}, {counted(found.steps, 'step')}: "
          f"{counted(len(found.changes), 'verdict')} would change, "
          f"{len(unlisted)} of them not listed"
          + (f"; {counted(len(found.unreadable), 'log')} cannot be followed"
             if found.unreadable else ""))
    return 1 if unlisted or found.unreadable else 0


def print_entries(entries: list[dict[str, object]]) -> None:
    """Entries in the verdict-changes file's format."""
    import yaml

    print(yaml.safe_dump({"changes": entries}, sort_keys=False, allow_unicode=True,
                         width=100), end="")

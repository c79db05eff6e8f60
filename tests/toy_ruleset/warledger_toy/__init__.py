"""Pawns: a toy fifth rule set, shipped as its own distribution (`warledger-toy`).

It plugs into warledger through one entry point of the group `warledger.rule_sets`
(`pawns = "warledger_toy:ENTRY"`) and nothing else: no file outside this folder
names it. docs/extending.md walks through the same folder.
"""

from events.rule_sets import RuleSetEntry

#: The rule set's entry: its name, and the modules of its rules and facts.
ENTRY = RuleSetEntry("pawns", "toy", rules_module="warledger_toy.rules",
                     facts_module="warledger_toy.facts", title="Pawns (a toy rule set)")

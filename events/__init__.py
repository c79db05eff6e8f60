"""Frozen pydantic facts: everything that can happen in a warledger game.

`events.base` holds the `Fact` base class and the upcasting registry,
`events.core` the facts every rule set shares, one module per rule set the
rest, and `events.registry` the single discriminated union `AnyFact` and the
loading of a rule set's fact module when a game of it is read.
`events.envelope` wraps a fact for storage (version, step, hash chain).
"""

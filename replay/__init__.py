"""The application layer: storage, the game service, verify, replay and audit.

`replay.service.GameService` is the eventsourcing Application. It loads a
game, asks `domain.gate.decide`, records the facts and saves them with
optimistic concurrency. `replay.storage` picks SQLite, PostgreSQL or memory.
"""

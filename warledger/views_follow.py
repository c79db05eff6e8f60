"""`warledger views URL --follow`: keep the views of a PostgreSQL store current.

The analytic tables follow the event store through eventsourcing's
`ProjectionRunner` (LISTEN/NOTIFY), folding each committed event as it comes,
and the state views follow within a tenth of a second (`replay.pg_views`).
SIGINT or SIGTERM stops the follower cleanly: the events it had not written are
simply projected by the next run, from the tables' own tracking position.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType
from typing import Any


def follow(views: Any, poll: float = 0.05) -> None:
    """Follow until SIGINT or SIGTERM (PostgreSQL views only, `replay.pg_views.PgViews`)."""
    stop = threading.Event()

    def stop_following(signum: int, frame: FrameType | None) -> None:
        stop.set()

    previous = {sig: signal.signal(sig, stop_following)
                for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        print(f"following: the views in {views.where} stay current (SIGINT or SIGTERM "
              "stops)", flush=True)
        views.follow(stop, poll=poll)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    print(f"stopped at position {views.position()}", flush=True)

"""Dark Riders (MNT-115 … MNT-124): cavalry units paired by collector number,
that cannot be split, whose mount outlives damage while its rider lives.

MNT-115: apart from these exceptions a Dark Riders cavalry unit follows every
other cavalry rule; the functions here are the only places that ask.
"""

from __future__ import annotations

from domain.errors import RuleViolation
from domain.mageknight.state import Figure

DARK_RIDERS = "dark_riders"


def is_dark_rider(fig: Figure) -> bool:
    """MNT-115: a figure of the Dark Riders sub-faction."""
    return fig.sub_faction == DARK_RIDERS


def is_collector_pair(rider: Figure, mount: Figure) -> bool:
    """MNT-116, MNT-117: rider `NNNa` rides only mount `NNNb` (A-MNT-32)."""
    if rider.collector is None or mount.collector is None:
        return False
    number, letter = rider.collector[:-1], rider.collector[-1:]
    return letter == "a" and mount.collector == f"{number}b"


def check_collector_pair(rider: Figure, mount: Figure) -> None:
    """MNT-116: Dark Riders pair by collector number, not by mount symbol."""
    if not is_collector_pair(rider, mount):
        raise RuleViolation(
            "MNT-116",
            f"Dark Riders pair by collector number: {rider.id} ({rider.collector}) cannot "
            f"ride {mount.id} ({mount.collector})",
        )


def check_may_dismount(rider: Figure) -> None:
    """MNT-118: a Dark Riders rider cannot dismount."""
    if is_dark_rider(rider):
        raise RuleViolation("MNT-118", f"{rider.id} is a Dark Riders rider and cannot dismount")


def can_be_unhorsed(rider: Figure) -> bool:
    """MNT-119: a Dark Riders rider cannot be unhorsed."""
    return not is_dark_rider(rider)


def is_protected_mount(mount: Figure) -> bool:
    """MNT-120: a Dark Riders mount cannot be eliminated before its rider
    (A-MNT-34: once the rider is gone, nothing protects it)."""
    return mount.is_mount and is_dark_rider(mount) and mount.rider is not None


def keeps_figure_in_saddle(rider: Figure) -> bool:
    """MNT-122, MNT-123: an eliminated Dark Riders rider's base leaves the slot,
    but its figure stays in the mount's saddle."""
    return is_dark_rider(rider)

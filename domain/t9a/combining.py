"""Who may join whom: an Attachable Model and the Ambushing unit it joins (AMB-21, AMB-22).

Used when a model is placed in Ambush joined to a unit, when it changes its unit
(`joining`), and when a script fields it already joined (`rules`).
"""

from __future__ import annotations

from domain.errors import RuleViolation
from domain.t9a.units import T9AUnit


def check_model_in_ambush(model: T9AUnit) -> None:
    """AMB-21: only an Attachable Model placed in Ambush joins a unit in Ambush."""
    if not model.in_ambush:
        raise RuleViolation(
            "AMB-21", f"{model.id} is {model.whereabouts}, not placed in Ambush; only a model "
            "in Ambush joins a unit in Ambush")


def check_same_ambush(model: T9AUnit, host: T9AUnit) -> None:
    """AMB-21: an Attachable Model in Ambush may join only a unit placed in Ambush with
    the same X; so every model of the Combined Unit has the same Ambush (A-AMB-17)."""
    if not model.rules.attachable:
        raise RuleViolation("AMB-21", f"{model.id} is not an Attachable Model; it joins no unit")
    if host.rules.ambush is None:
        raise RuleViolation(
            "AMB-21", f"{host.id} has no Ambush, so it is never placed in Ambush; {model.id} "
            "can join only a unit placed in Ambush")
    if not host.in_ambush:
        raise RuleViolation("AMB-21", f"{host.id} is not placed in Ambush; {model.id} cannot "
                            "join it from Ambush")
    if host.rules.ambush != model.rules.ambush:
        raise RuleViolation(
            "AMB-21",
            f"{model.id} has Ambush ({model.rules.ambush}) but {host.id} has Ambush "
            f"({host.rules.ambush}); they need the same X",
        )


def check_usual_join_restrictions(model: T9AUnit, host: T9AUnit) -> None:
    """AMB-22: joining follows the usual restrictions: the host belongs to the same
    player, is a unit (not an Attachable Model) and is not the model itself."""
    if host.id == model.id:
        raise RuleViolation("AMB-22", f"{model.id} cannot join itself")
    if host.owner != model.owner:
        raise RuleViolation("AMB-22", f"{host.id} belongs to {host.owner}, not {model.owner}")
    if host.rules.attachable:
        raise RuleViolation("AMB-22", f"{host.id} is an Attachable Model; {model.id} can only "
                            "join a unit")


def check_join(model: T9AUnit, host: T9AUnit) -> None:
    """An Attachable Model may join `host` in Ambush (AMB-21, AMB-22)."""
    check_usual_join_restrictions(model, host)
    check_same_ambush(model, host)

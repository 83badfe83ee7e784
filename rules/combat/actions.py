"""Actions per turn as the seeds count them (issue 23 §1): one pure procedure for every system.

A system says how many actions a combatant has (:class:`Allowance`, from
:meth:`~rules.systems.base.ActionEconomy.action_allowance`) and what an act costs
(:class:`Use`, from :meth:`~rules.systems.base.ActionEconomy.action_cost`); this module
keeps the :class:`Ledger` of what a combatant spent in the current round and judges each new
act (:func:`judge`).  Nothing here knows a system: the seeds' rules are in the allowances.

* rolweb (seed 001, ACCIONES A DISPOSICIÓN DEL PERSONAJE, ACCIONES EN COMBATE): one combat
  action (``main``) and one movement action; the combat action may become movement
  (``main_as_movement``), movement may become combat only with the campaign's
  ``movimiento_a_combate`` (``movement_as_main``); reactions and free actions are never
  counted; «acciones activas que generan acciones extra» grant extra attacks (``grants``),
  usable for attacks but «no … para realizar acciones activas adicionales».
* Núcleo (seed 002, Combate 2 and «Acciones y movimiento en combate»): the initiative's
  actions, each a major (``main``) and a minor (``movement``) one; «Dividir Acciones»: one
  action more than the turn gives, every main action of the turn rolled keeping the lowest
  die (``split``).
* S&W (seed 000, SECUENCIA DEL COMBATE): one action in the round, taken in the phase of the
  combatant's side (``by_side``): any combatant of the side whose phase it is may act.

The ledger is per round: each combatant has one turn a round in every system (Núcleo's
extra actions are one turn with *N* actions).  The declaration rounds of issue 25 apply the
same :func:`judge` to each declaration.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules.systems.base import Problem, RulesError

__all__ = [
    "Allowance",
    "Cost",
    "Ledger",
    "Use",
    "Verdict",
    "give_back",
    "judge",
    "left",
    "may_act",
]


class Cost(enum.StrEnum):
    """What an act spends."""

    MAIN = "principal"  # rolweb «acción de combate», Núcleo «acción mayor», S&W the action
    MOVEMENT = "movimiento"  # rolweb «acción de movimiento», Núcleo «acción menor»
    REACTION = "reaccion"  # a defence, a free attack, a death test: never counted
    FREE = "gratuita"  # «acciones gratuitas»: never counted


@dataclass(frozen=True, slots=True)
class Allowance:
    """A combatant's actions in one turn, as its system counts them (module docstring)."""

    main: int = 1
    movement: int = 0
    main_as_movement: bool = False
    movement_as_main: bool = False
    split: bool = False
    by_side: bool = False
    seed: str = ""


@dataclass(frozen=True, slots=True)
class Use:
    """One act: its ``cost``; ``attack`` (extra attacks may pay it); ``split`` (rolled keeping
    the lowest die, Núcleo's «dividir acciones»); ``grants`` extra attacks it gives (a rolweb
    active ability); ``optional`` spends if something is left and is never refused (rolweb's
    ``defensa_gasta_accion``: the first defence spends the unspent combat action)."""

    cost: Cost
    attack: bool = False
    split: bool = False
    grants: int = 0
    optional: bool = False

    @property
    def counted(self) -> bool:
        return self.cost in (Cost.MAIN, Cost.MOVEMENT)


@dataclass(frozen=True, slots=True)
class Ledger:
    """What one combatant spent in ``round``; a ledger of another round is empty."""

    round: int = 0
    main: int = 0
    movement: int = 0
    extra: int = 0  # extra attacks used
    granted: int = 0  # extra attacks granted this turn
    whole: bool = False  # every main action of the turn was split (Núcleo)

    def for_round(self, round_: int) -> Ledger:
        return self if self.round == round_ else Ledger(round=round_)

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "main": self.main,
            "movement": self.movement,
            "extra": self.extra,
            "granted": self.granted,
            "split": self.whole,
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Ledger:
        return cls(
            round=int(raw.get("round", 0)),
            main=int(raw.get("main", 0)),
            movement=int(raw.get("movement", 0)),
            extra=int(raw.get("extra", 0)),
            granted=int(raw.get("granted", 0)),
            whole=bool(raw.get("split", False)),
        )


@dataclass(frozen=True, slots=True)
class Verdict:
    """What :func:`judge` decided: the new ledger, and what the act spent (``"principal"``,
    ``"movimiento"``, ``"movimiento_como_principal"``, ``"principal_como_movimiento"``,
    ``"dividida"``, ``"extra"``, or ``""`` for an act that is not counted)."""

    ledger: Ledger
    spent: str = ""


def _refuse(key: str, **params: Any) -> RulesError:
    return RulesError(Problem(f"actions.problem.{key}", "", params))


def left(allowance: Allowance, ledger: Ledger) -> tuple[tuple[Cost | str, int], ...]:
    """What is still left, for the panel: main, movement and extra attacks (only those the
    system counts; a converted action is already taken off)."""
    main = max(0, allowance.main - ledger.main)
    out: list[tuple[Cost | str, int]] = [(Cost.MAIN, main)]
    if allowance.movement:
        out.append((Cost.MOVEMENT, max(0, allowance.movement - ledger.movement)))
    if ledger.granted:
        out.append(("extra", max(0, ledger.granted - ledger.extra)))
    return tuple(out)


def _main(allowance: Allowance, ledger: Ledger, use: Use) -> Verdict:
    if use.attack and ledger.extra < ledger.granted:
        return Verdict(replace(ledger, extra=ledger.extra + 1), "extra")
    first = ledger.main == 0
    if ledger.main < allowance.main:
        whole = use.split if first else ledger.whole and use.split
        spent = "dividida" if use.split else "principal"
        return Verdict(replace(ledger, main=ledger.main + 1, whole=whole), spent)
    if allowance.split and use.split and ledger.whole and ledger.main == allowance.main:
        # «Dividir Acciones»: one more, every main action of the turn keeping the lowest die
        return Verdict(replace(ledger, main=ledger.main + 1), "dividida")
    if allowance.movement_as_main and ledger.movement < allowance.movement:
        return Verdict(replace(ledger, movement=ledger.movement + 1), "movimiento_como_principal")
    if allowance.split and use.split and ledger.main == allowance.main and not ledger.whole:
        raise _refuse("split_not_whole", count=allowance.main)
    hint = "split_hint" if allowance.split and not use.split else "none_left"
    raise _refuse(hint, action=Cost.MAIN.value, count=allowance.main)


def _movement(allowance: Allowance, ledger: Ledger) -> Verdict:
    if ledger.movement < allowance.movement:
        return Verdict(replace(ledger, movement=ledger.movement + 1), "movimiento")
    if allowance.main_as_movement and ledger.main < allowance.main:
        return Verdict(replace(ledger, main=ledger.main + 1), "principal_como_movimiento")
    raise _refuse("none_left", action=Cost.MOVEMENT.value, count=allowance.movement)


def judge(allowance: Allowance, ledger: Ledger, use: Use, round_: int) -> Verdict:
    """Spend ``use`` from ``ledger`` (read for ``round_``); :class:`RulesError`
    (``actions.problem.none_left``, ``split_hint``, ``split_not_whole``) when nothing it may
    use is left.  Reactions and free acts are never counted; an ``optional`` use spends what
    is left and is never refused.  Whose turn it is is :func:`may_act`'s business."""
    ledger = ledger.for_round(round_)
    if not use.counted:
        return Verdict(ledger)
    if use.optional:  # the unspent main action only, never another one converted
        if use.cost is Cost.MAIN and ledger.main < allowance.main:
            return Verdict(replace(ledger, main=ledger.main + 1), "principal")
        return Verdict(ledger)
    if use.cost is Cost.MOVEMENT:
        verdict = _movement(allowance, ledger)
    else:
        verdict = _main(allowance, ledger, use)
    if use.grants:
        granted = verdict.ledger.granted + use.grants
        verdict = replace(verdict, ledger=replace(verdict.ledger, granted=granted))
    return verdict


_SPENT_FIELD = {
    "principal": "main",
    "dividida": "main",
    "principal_como_movimiento": "main",
    "movimiento": "movement",
    "movimiento_como_principal": "movement",
    "extra": "extra",
}


def give_back(ledger: Ledger, spent: str, grants: int = 0) -> Ledger:
    """``ledger`` without one act that spent ``spent`` (and granted ``grants`` extra
    attacks): the act was refused after it was counted.  Only that act is undone, whatever
    the combatant spent meanwhile."""
    field = _SPENT_FIELD.get(spent)
    if field is not None:
        ledger = replace(ledger, **{field: max(0, getattr(ledger, field) - 1)})
    if grants:
        ledger = replace(ledger, granted=max(0, ledger.granted - grants))
    return ledger


def may_act(
    allowance: Allowance,
    *,
    round_: int,
    acting: str | None,
    acting_side: str | None,
    key: str,
    side: str,
) -> bool:
    """Whether the combatant ``key`` may take a counted action now: during the set-up (round
    0) nobody's turn is refereed (an ambush is resolved then); then only on its own turn, or,
    where sides act in phases (S&W), during its side's phase."""
    if round_ == 0 or acting is None:
        return True
    if key == acting:
        return True
    return allowance.by_side and side == acting_side

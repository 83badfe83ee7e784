"""A sheetless group's health, one creature at a time (issue 23: «the first month»).

The GM adds «Trasgo ×2» with 12 hit points: twelve *each*, as a referee counts them and as
Avrae tracks a group's members.  The group stores how many still stand (``count``), the hit
points of the one in front (``hit_points``), each one's maximum (``max_hit_points``) and how
many fell (``fallen``).  Damage wounds the one in front; at 0 or less it falls, the count drops
by one and the next stands at full hit points — the damage left over is lost, one blow fells
one creature at most (docs/rules-decisions.md, «A sheetless group's hit points»).  When the
last one falls the group is out of the fight: the turn order passes over it
(:meth:`rules.combat.aggregate.Combat.out`).  Healing heals the one in front up to its
maximum and never raises the fallen (the GM adds them again).

What 0 means is the same in every seed for such a creature, so this needs no capability:
seed 001 line 138 «los monstruos y personajes no jugadores mueren en cuanto su Resistencia
cae a 0»; seed 000 line 746 «algún enemigo puede resultar abatido» (docs/rules-decisions.md:
a monster at 0 is *abatido*); seed 002's «Inconsciente: Heridas de Físico x4» is 0 of its
«Puntos de Vida: Físico x4».  The word shown is the neutral «fuera de combate».
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from rules.combat.participants import Combatant
from rules.systems.base import Problem, RulesError

__all__ = ["GroupChange", "GroupState", "group_state", "heal_group", "is_out", "wound_group"]


class GroupState(enum.StrEnum):
    """The words the panel shows (ids of the common ``estado`` names table)."""

    UNHURT = "ileso"
    WOUNDED = "herido"
    OUT = "fuera_de_combate"


@dataclass(frozen=True, slots=True)
class GroupChange:
    """What one wound or heal did to a group: ``amount`` dealt or healed, whether the one in
    front ``fell``, how many still stand, the hit points of the one in front now
    (``(left, maximum)``; None once nobody stands) and its new state."""

    name: str
    amount: int
    healed: bool
    fell: bool
    standing: int
    fallen: int
    hit_points: tuple[int, int] | None
    state: GroupState

    @property
    def out(self) -> bool:
        """The last one fell: the group is out of the fight."""
        return self.standing == 0

    @property
    def alone(self) -> bool:
        """A group of one (a lone ogre the GM typed): «cae», not «cae 1 de …»."""
        return self.standing + self.fallen <= 1


def _maximum(group: Combatant) -> int:
    return group.max_hit_points or group.hit_points or 0


def is_out(group: Combatant) -> bool:
    """Every creature of the group fell (a group stored before per-creature hit points, whose
    one pool reached 0, counts as out too)."""
    return group.hit_points is not None and (group.count <= 0 or group.hit_points <= 0)


def group_state(group: Combatant) -> GroupState | None:
    """The group's word for the panel; None when the GM gave it no hit points."""
    if group.hit_points is None:
        return None
    if is_out(group):
        return GroupState.OUT
    return GroupState.WOUNDED if group.hit_points < _maximum(group) else GroupState.UNHURT


def _refuse_out(group: Combatant) -> None:
    if group.hit_points is None:
        raise RulesError(Problem("combat.problem.group_no_hit_points", "", {"name": group.name}))
    if is_out(group):
        raise RulesError(Problem("combat.problem.group_down", "", {"name": group.name}))


def _change(group: Combatant, amount: int, *, healed: bool, fell: bool) -> GroupChange:
    state = group_state(group) or GroupState.UNHURT
    standing = 0 if state is GroupState.OUT else group.count
    left = None if standing == 0 else (group.hit_points or 0, _maximum(group))
    return GroupChange(group.name, amount, healed, fell, standing, group.fallen, left, state)


def wound_group(group: Combatant, amount: int) -> tuple[Combatant, GroupChange]:
    """``amount`` of damage to the one in front (see the module docstring); refused when the
    group has no hit points or nobody in it stands."""
    _refuse_out(group)
    left = (group.hit_points or 0) - max(0, amount)
    if left > 0:
        wounded = replace(group, hit_points=left)
        return wounded, _change(wounded, amount, healed=False, fell=False)
    standing = group.count - 1
    fallen = replace(
        group,
        count=standing,
        fallen=group.fallen + 1,
        # the next one stands at full hit points; none left: 0 (the overflow is lost)
        hit_points=_maximum(group) if standing > 0 else 0,
    )
    return fallen, _change(fallen, amount, healed=False, fell=True)


def heal_group(group: Combatant, amount: int) -> tuple[Combatant, GroupChange]:
    """The one in front healed up to its maximum (``amount`` says what was restored); the
    fallen are not raised, and a group with nobody standing is refused."""
    _refuse_out(group)
    now = group.hit_points or 0
    after = min(_maximum(group), now + max(0, amount))
    healed = replace(group, hit_points=after)
    return healed, _change(healed, after - now, healed=True, fell=False)

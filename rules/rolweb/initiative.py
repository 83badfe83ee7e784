"""Turn order (seed 001, ORDEN DE TURNO): by Ágil, then Atento, then the higher 1D20.

The most Ágil acts first or waits; a character who waits picks a later place in the order
and cannot change it once chosen.  :class:`TurnOrder` is an immutable value: every change
returns a new order, so the combat service can store it and compare versions.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace

from rules.systems.base import Problem, RulesError

__all__ = ["Initiative", "roll_initiative", "TurnOrder", "order_combatants"]


@dataclass(frozen=True, slots=True)
class Initiative:
    """One combatant's place: Ágil, Atento, and the d20 that breaks a tie of both."""

    agil: int
    atento: int
    d20: int

    @property
    def sort_key(self) -> tuple[int, int, int]:
        """Higher acts first: (Ágil, Atento, d20)."""
        return (self.agil, self.atento, self.d20)

    @property
    def breakdown(self) -> str:
        return f"Ágil {self.agil}, Atento {self.atento}, 1d20 ({self.d20})"


def roll_initiative(agil: int, atento: int, rng: random.Random) -> Initiative:
    """Roll the tie-breaking d20 now: it only matters when Ágil and Atento are equal."""
    return Initiative(agil, atento, rng.randint(1, 20))


@dataclass(frozen=True, slots=True)
class TurnOrder:
    """Who acts when, first to last; ``waited`` holds those who already chose a later place."""

    order: tuple[str, ...]
    waited: frozenset[str] = frozenset()

    def wait(self, combatant: str, after: str) -> TurnOrder:
        """``combatant`` waits and acts right after ``after`` (ORDEN DE TURNO).

        The new place must be later, and the choice is final: a second wait is refused.
        """
        for name in (combatant, after):
            if name not in self.order:
                raise RulesError(Problem("rolweb.problem.unknown_combatant", "", {"name": name}))
        if combatant in self.waited:
            raise RulesError(Problem("rolweb.problem.wait_already_chosen", "", {"name": combatant}))
        if self.order.index(after) <= self.order.index(combatant):
            raise RulesError(
                Problem("rolweb.problem.wait_not_later", "", {"name": combatant, "after": after})
            )
        rest = [name for name in self.order if name != combatant]
        rest.insert(rest.index(after) + 1, combatant)
        return replace(self, order=tuple(rest), waited=self.waited | {combatant})


def order_combatants(initiatives: Mapping[str, Initiative], rng: random.Random) -> TurnOrder:
    """Sort by (Ágil, Atento, d20); combatants still tied roll 1D20 again among themselves."""
    keyed = {name: [*ini.sort_key] for name, ini in initiatives.items()}
    while True:
        groups: dict[tuple[int, ...], list[str]] = {}
        for name, key in keyed.items():
            groups.setdefault(tuple(key), []).append(name)
        tied = [names for names in groups.values() if len(names) > 1]
        if not tied:
            break
        for names in tied:
            for name in names:
                keyed[name].append(rng.randint(1, 20))
        # untied combatants get a neutral element so keys stay comparable
        longest = max(len(key) for key in keyed.values())
        for key in keyed.values():
            key.extend([0] * (longest - len(key)))
    ordered = sorted(keyed, key=lambda name: keyed[name], reverse=True)
    return TurnOrder(tuple(ordered))

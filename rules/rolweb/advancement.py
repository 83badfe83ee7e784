"""Experience and abilities (seed 001, MEJORA DE PERSONAJES and MUERTE DE UN PERSONAJE).

Buying an ability at principiante costs 10 XP, raising it to adepto 20 and to maestro 30
(60 in all).  The GM grants XP; the player spends it.  When a character dies the player's
new character starts with *all* the XP accumulated so far (:func:`inherited_xp`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rules.rolweb._data import bad_data, quoted, read_json
from rules.rolweb.abilities import Level
from rules.systems.base import Problem, RulesError

__all__ = ["Xp", "level_cost", "upgrade_cost", "grant", "spend_for", "inherited_xp"]


@dataclass(frozen=True, slots=True)
class Xp:
    """A character's experience: everything earned and what has been spent."""

    total: int = 0
    spent: int = 0

    @property
    def available(self) -> int:
        return self.total - self.spent


@lru_cache(maxsize=1)
def _costs() -> dict[Level, int]:
    raw = read_json("abilities.json").get("costes_xp", {})
    try:
        costs = {Level.from_term(term): int(value) for term, value in raw.items()}
    except (ValueError, TypeError):
        raise bad_data("data/rolweb/abilities.json", f"costes_xp: {quoted(raw)}") from None
    if set(costs) != {Level.PRINCIPIANTE, Level.ADEPTO, Level.MAESTRO}:
        raise bad_data("data/rolweb/abilities.json", "costes_xp necesita los tres niveles")
    return costs


def level_cost(level: Level) -> int:
    """XP to reach ``level`` from the one below it: 10, 20, 30."""
    if level is Level.NONE:
        raise ValueError("no level costs nothing")
    return _costs()[level]


def upgrade_cost(current: Level, target: Level) -> int:
    """XP to go from ``current`` to ``target`` one level at a time (0 → maestro: 60)."""
    if target <= current:
        raise RulesError(
            Problem(
                "rolweb.problem.level_not_higher",
                "",
                {"nivel_actual": current.term, "nivel_nuevo": target.term},
            )
        )
    return sum(level_cost(Level(n)) for n in range(current + 1, target + 1))


def grant(xp: Xp, amount: int) -> Xp:
    """The GM awards ``amount`` (negative corrects a mistake, never below what is spent)."""
    after = Xp(xp.total + amount, xp.spent)
    if after.total < after.spent:
        raise RulesError(
            Problem(
                "rolweb.problem.xp_below_spent",
                "xp.total",
                {"total": after.total, "spent": xp.spent},
            )
        )
    return after


def spend_for(xp: Xp, current: Level, target: Level) -> Xp:
    """Pay for raising an ability from ``current`` to ``target``; refuses when XP is short."""
    cost = upgrade_cost(current, target)
    if cost > xp.available:
        raise RulesError(
            Problem(
                "rolweb.problem.not_enough_xp",
                "xp",
                {"cost": cost, "available": xp.available},
            )
        )
    return Xp(xp.total, xp.spent + cost)


def inherited_xp(xp: Xp) -> Xp:
    """A dead character's player starts anew with every XP earned, none spent."""
    return Xp(xp.total, 0)

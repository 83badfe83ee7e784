"""Dice luck: where a roll fell within its own distribution (``/campaign stats``, issue 25 §3).

A character's luck is the **mean percentile** of its rolls, each roll placed within the exact
distribution of its own expression (:func:`rules.dice.odds.distribution`), so a d20 roll-under
check, a 3d6 damage roll and Núcleo's ``1o3d10`` compare fairly: 50 % is an average roller,
whatever the dice.  The percentile of a total is its *mid-rank*, ``P(X < t) + P(X = t) / 2``:
a fair die's mean percentile is exactly 0.5 (symmetric ties), and a roll that can only come
out one way (``1d1``) is 0.5, neither lucky nor not.

For a **roll-under** roll (rolweb, seed 001: «1D20 … igual o inferior»), a low total is the
good one: its luck is ``1 - percentile``.

Pure: no clock, no randomness, no I/O.  The bot bounds the work before calling it
(:data:`MAX_EXPRESSIONS` distinct expressions, each within :func:`rules.dice.odds.check_cost`)
and runs it in its worker process.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from .errors import DiceError
from .odds import check_cost, distribution

__all__ = [
    "MAX_EXPRESSIONS",
    "MAX_TOTAL_COST",
    "LuckRoll",
    "Luck",
    "affordable",
    "luck_by_character",
    "percentile",
]

#: Distinct expressions one stats request computes (a campaign rolls few: its checks, its
#: weapons' damage, initiative); the rest are left out, never computed.
MAX_EXPRESSIONS = 200
#: Cost units (:func:`rules.dice.odds.estimate_cost`) of all the distributions of one request:
#: three times the budget of one ``/odds`` query, about a second of the worker at most.
MAX_TOTAL_COST = 3_000_000


@dataclass(frozen=True, slots=True)
class LuckRoll:
    """One logged roll: whose, its expression, its total, and whether low is good."""

    character: str
    expression: str
    total: int
    under: bool = False


@dataclass(frozen=True, slots=True)
class Luck:
    """A character's luck: how many rolls were placed, and their mean percentile (0–1)."""

    character: str
    rolls: int
    mean: float


def percentile(odds: Mapping[int, Fraction], total: int) -> float | None:
    """The mid-rank percentile of ``total`` in ``odds`` (None: a total it cannot give — the
    logged expression is not the one that made it)."""
    if total not in odds:
        return None
    whole = sum(odds.values(), Fraction(0))
    if whole <= 0:
        return None
    below = sum((p for value, p in odds.items() if value < total), Fraction(0))
    return float((below + odds[total] / 2) / whole)


def affordable(expressions: Iterable[str]) -> tuple[str, ...]:
    """The expressions whose distributions fit the budget, in the order given: at most
    :data:`MAX_EXPRESSIONS`, each within one ``/odds`` query's budget, all together within
    :data:`MAX_TOTAL_COST`.  Cheap (the cost is estimated from the syntax tree), so the bot
    calls it on its event loop before submitting the work; an expression the odds engine
    cannot compute (exploding dice, a typo) is left out."""
    chosen: list[str] = []
    spent = 0
    for expression in dict.fromkeys(expressions):
        if len(chosen) >= MAX_EXPRESSIONS:
            break
        try:
            cost = check_cost(expression)
        except DiceError:
            continue
        if spent + cost > MAX_TOTAL_COST:
            continue
        spent += cost
        chosen.append(expression)
    return tuple(chosen)


def luck_by_character(rolls: Iterable[LuckRoll], expressions: Iterable[str]) -> tuple[Luck, ...]:
    """Each character's mean percentile over its rolls whose expression is in
    ``expressions`` (those :func:`affordable` kept), sorted by name; a roll whose total its
    expression cannot give is left out."""
    allowed = frozenset(expressions)
    odds: dict[str, dict[int, Fraction] | None] = {}
    sums: dict[str, tuple[int, float]] = {}
    for roll in rolls:
        if roll.expression not in allowed:
            continue
        if roll.expression not in odds:
            try:
                odds[roll.expression] = distribution(roll.expression)
            except DiceError:
                odds[roll.expression] = None
        found = odds[roll.expression]
        place = percentile(found, roll.total) if found is not None else None
        if place is None:
            continue
        luck = 1.0 - place if roll.under else place
        count, total = sums.get(roll.character, (0, 0.0))
        sums[roll.character] = (count + 1, total + luck)
    return tuple(
        Luck(name, count, total / count)
        for name, (count, total) in sorted(sums.items(), key=lambda item: item[0].casefold())
    )

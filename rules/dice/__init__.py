"""Árbitro's dice engine: parse, roll and compute odds for tabletop dice notation.

Shaped like avrae/d20 (parser → AST → roller → expression tree → stringifiers), with an
injected :class:`random.Random` and Núcleo's ``1o3d10`` roll (seed 002).  Unlike d20, the
roller keeps compact records and the stringifiers render them through plans compiled once
per parsed expression; the tree is built only for the audit log.  See ``docs/dice.md`` for
the notation and ``docs/performance.md`` for the figures against d20.

    >>> import random
    >>> roll("1o3d10+7 [sigilo]", rng=random.Random(2)).total  # doctest: +SKIP
"""

from __future__ import annotations

import random

from .ast import Expression
from .errors import DiceError
from .odds import distribution, probability_at_least
from .parser import parse
from .result import RollResult
from .roller import roll_parsed

__all__ = [
    "DiceError",
    "Expression",
    "RollResult",
    "distribution",
    "parse",
    "probability_at_least",
    "roll",
]


def roll(expression: str, rng: random.Random | None = None) -> RollResult:
    """Roll ``expression``; ``rng`` defaults to a fresh :class:`random.Random`.

    Raises :class:`DiceError` (before any die is thrown whenever the limits allow it).
    """
    return roll_parsed(parse(expression), rng if rng is not None else random.Random())

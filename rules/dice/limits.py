"""Limits that keep any input cheap, and the static checks that enforce them before rolling.

A roll request comes from chat, so the engine must answer any text in well under 50 ms and
never loop for long: the parser bounds the text, and :func:`check` bounds the work (dice
thrown, impossible divisions) from the tree before a single die is thrown.  It also bounds the
*total*: the audit log stores it in a PostgreSQL ``integer`` column, so a total that could
leave ±:data:`MAX_TOTAL` is refused here, identically on every database, instead of failing
in the middle of a write on PostgreSQL only.
"""

from __future__ import annotations

import math

from rules.values import MAX_STORED

from .ast import BinOp, Dice, Group, KeepOne, Neg, Node, Number
from .errors import DiceError

__all__ = [
    "MAX_DEPTH",
    "MAX_DICE_PER_TERM",
    "MAX_DIGITS",
    "MAX_LENGTH",
    "MAX_RETHROWS",
    "MAX_ROLLS",
    "MAX_SIDES",
    "MAX_TERMS",
    "MAX_TOTAL",
    "bounds",
    "check",
    "dice_bounds",
]

MAX_LENGTH = 200
MAX_TERMS = 25
MAX_DEPTH = 10
MAX_DICE_PER_TERM = 100
MAX_SIDES = 1000
MAX_ROLLS = 500
MAX_DIGITS = 6
#: 1o3d10 re-throws after a kept 10; the chain stops here (always reached only by p = 0.028^20).
MAX_RETHROWS = 20
#: Largest total (either sign) a roll may reach: the PostgreSQL ``integer`` the log stores it in.
MAX_TOTAL = MAX_STORED

Bounds = tuple[float, float]


def dice_bounds(node: Node) -> tuple[int, int | None]:
    """Fewest and most dice a node can throw; ``None`` when unbounded (``!``, ``r``)."""
    if isinstance(node, Number):
        return 0, 0
    if isinstance(node, Dice):
        if node.explode is not None or (node.reroll is not None and not node.reroll.once):
            return node.count, None
        return node.count, node.count * (2 if node.reroll is not None else 1)
    if isinstance(node, KeepOne):
        return 3, 3 * (MAX_RETHROWS + 1)
    if isinstance(node, Neg):
        return dice_bounds(node.operand)
    if isinstance(node, Group):
        return dice_bounds(node.inner)
    low_l, high_l = dice_bounds(node.left)
    low_r, high_r = dice_bounds(node.right)
    high = None if high_l is None or high_r is None else high_l + high_r
    return low_l + low_r, high


def _mul(a: float, b: float) -> float:
    return 0 if a == 0 or b == 0 else a * b  # 0 * inf is 0 here: a zero factor wins


def _floordiv(a: float, b: float) -> float:
    if math.isinf(b):
        return 0 if not math.isinf(a) else math.copysign(math.inf, a * b)
    if math.isinf(a):
        return math.copysign(math.inf, a * b)
    return a // b


def bounds(node: Node, rolls_cap: int | None = None) -> Bounds:
    """Smallest and largest value a node can take (``inf`` when explosions are unbounded).

    Used to refuse divisors that can be zero, and by the property tests as the oracle.  With
    ``rolls_cap`` (the roll-wide dice limit) an exploding pool holds at most that many dice,
    so the bounds stay finite: that is what the roller can really produce.
    """
    if isinstance(node, Number):
        return node.value, node.value
    if isinstance(node, Dice):
        return _dice_value_bounds(node, rolls_cap)
    if isinstance(node, KeepOne):
        return 1, 10 * (MAX_RETHROWS + 1)
    if isinstance(node, Neg):
        low, high = bounds(node.operand, rolls_cap)
        return -high, -low
    if isinstance(node, Group):
        return bounds(node.inner, rolls_cap)
    (a, b), (c, d) = bounds(node.left, rolls_cap), bounds(node.right, rolls_cap)
    if node.op == "+":
        return a + c, b + d
    if node.op == "-":
        return a - d, b - c
    if node.op == "*":
        corners = [_mul(x, y) for x in (a, b) for y in (c, d)]
    else:
        corners = [_floordiv(x, y) for x in (a, b) for y in (c, d)]
    return min(corners), max(corners)


def _dice_value_bounds(node: Dice, rolls_cap: int | None = None) -> Bounds:
    faces = [f for f in range(1, node.sides + 1)]
    if node.reroll is not None and not node.reroll.once:
        faces = [f for f in faces if not node.reroll.selector.matches(f)] or faces
    faces = [node.clamp(f) for f in faces]
    kept = node.keep.kept(node.count) if node.keep is not None else node.count
    # An exploding pool keeps at most every die the roll may throw.
    exploded: float = math.inf if rolls_cap is None else max(kept, rolls_cap)
    if node.compare is not None and not node.is_test:
        return 0, (exploded if node.explode is not None else kept)
    high: float = exploded * max(faces) if node.explode is not None else kept * max(faces)
    return kept * min(faces), high


def check(root: Node) -> tuple[int, int | None]:
    """Refuse work over the limits before rolling; returns :func:`dice_bounds` of the root."""
    low, high = dice_bounds(root)
    worst = high if high is not None else low
    if worst > MAX_ROLLS:
        raise DiceError("too_many_rolls", None, {"count": worst, "limit": MAX_ROLLS})
    _check_divisions(root)
    smallest, largest = bounds(root, MAX_ROLLS)
    if smallest < -MAX_TOTAL or largest > MAX_TOTAL:
        raise DiceError("total_too_large", None, {"limit": MAX_TOTAL})
    return low, high


def _check_divisions(node: Node) -> None:
    if isinstance(node, BinOp):
        _check_divisions(node.left)
        _check_divisions(node.right)
        if node.op == "/":
            low, high = bounds(node.right)
            if low <= 0 <= high:
                raise DiceError("division_by_zero", None, {"divisor": str(node.right)})
    elif isinstance(node, Neg):
        _check_divisions(node.operand)
    elif isinstance(node, Group):
        _check_divisions(node.inner)

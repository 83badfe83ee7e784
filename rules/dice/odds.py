"""Exact odds: the distribution of an expression's total, as :class:`fractions.Fraction`.

Distributions are built bottom-up as integer weights over a common denominator (big
integers are far faster than adding Fractions) and turned into Fractions at the end.

* ``NdM`` sums (with ``ro``/``r`` rerolls, ``kh``/``kl``/``ph``/``pl``, success counting
  ``>=N``/``<=N`` and single-die tests) are exact: convolution, or a dynamic programme over
  faces for keep/drop.  An open reroll (``r``) uses the faces it can stop on; the
  500-dice abort, which would end such a roll in an error rather than a total, is ignored.
* ``1o3d10`` is exact and *finite* because the engine honours the 20 re-throw cap that the
  roller applies, so the odds describe exactly what :func:`~rules.dice.roll` does.
* ``+ - * /`` combine exact distributions.
* Exploding dice (``!``) have an infinite support: :class:`DiceError` ``unsupported_odds``.
* Work is bounded *before it starts*: :func:`estimate_cost` predicts, from the tree alone,
  an upper bound of the weight products and of the size of the integers multiplied, and
  :func:`check_cost` refuses (``odds_too_complex``) past :data:`MAX_COST`.  The bot runs the
  check on its event loop and the calculation in a worker process; the calculator still
  counts the products it really does against the same budget, as a guard.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Literal, NamedTuple, assert_never

from .ast import BinOp, Dice, Group, KeepOne, Neg, Node, Number
from .errors import DiceError
from .limits import MAX_RETHROWS, bounds
from .parser import parse

__all__ = [
    "MAX_COST",
    "MAX_WORK",
    "check_cost",
    "distribution",
    "estimate_cost",
    "keep_one_at_least",
    "keep_one_faces",
    "probabilities_at_least",
    "probabilities_at_most",
    "probability_at_least",
    "probability_of_success",
    "test_of",
]

#: Budget of one query in cost units (:func:`estimate_cost`): a weight product of small
#: integers is one unit, and every :data:`BITS_PER_UNIT` bits of the integers multiplied add
#: one.  Calibrated on the 2-core test machine: 300-1,200 ns per unit depending on the shape
#: and the load, so the costliest query allowed takes 0.3-1.2 s of one core (see
#: docs/performance.md).  Four ``1o3d10`` terms fit (≈0.5 M), five do not (≈1.02 M).
MAX_COST = 1_000_000
#: Big-integer size that costs as much as one more product (measured: see MAX_COST).
BITS_PER_UNIT = 512
#: Cost of each value a combined distribution may hold (a big dict is slow and large).
SUPPORT_COST = 4
#: The calculator's own guard on the weight products it really computes (never above the
#: estimate, which also weighs integer sizes): kept so a wrong estimate cannot run away.
MAX_WORK = MAX_COST

_Weights = dict[int, int]
_Dist = tuple[_Weights, int]  # (weight per value, common denominator)


def distribution(expression: str) -> dict[int, Fraction]:
    """Exact probability of every total of ``expression`` (sorted by total)."""
    check_cost(expression)
    weights, denominator = _Calculator().dist(parse(expression).root)
    return {value: Fraction(weights[value], denominator) for value in sorted(weights)}


def probability_at_least(expression: str, target: int) -> Fraction:
    """Exact chance that ``expression`` totals ``target`` or more.

    ``1o3d10`` plus or minus constants uses the closed form of :func:`keep_one_at_least`.
    """
    return probabilities_at_least(expression, (target,))[0]


def probabilities_at_least(expression: str, targets: tuple[int, ...]) -> tuple[Fraction, ...]:
    """:func:`probability_at_least` for several targets, building the distribution once.

    This is what the bot sends to its worker process (a plain, picklable function); it
    checks the cost again, so the worker never starts a calculation over budget.
    """
    root = parse(expression).root
    shortcut = _keep_one_plus_constant(root)
    if shortcut is not None:
        node, constant = shortcut
        return tuple(keep_one_at_least(node.position, target - constant) for target in targets)
    check_cost(expression)
    weights, denominator = _Calculator().dist(root)
    return tuple(
        Fraction(sum(w for value, w in weights.items() if value >= target), denominator)
        for target in targets
    )


def probabilities_at_most(expression: str, targets: tuple[int, ...]) -> tuple[Fraction, ...]:
    """Exact chance that ``expression`` totals ``target`` or less, for each target: the
    complement of reaching ``target + 1`` (same work, same closed form for ``1o3d10``)."""
    return tuple(1 - p for p in probabilities_at_least(expression, tuple(t + 1 for t in targets)))


def test_of(expression: str) -> Dice | None:
    """The pass/fail test (``1d20<=13``) that ``expression`` is, or None.

    A test must be the whole expression (the parser refuses it inside a sum or brackets),
    so it is the root."""
    node = parse(expression).root
    return node if isinstance(node, Dice) and node.is_test else None


def probability_of_success(expression: str) -> Fraction:
    """Exact chance that a test expression (``1d20<=13``, ``1d100>=60``) succeeds.

    Its total is the die, so "reaching a target" says nothing about it: the question a
    player asks is whether the test passes.  Callers check :func:`test_of` first."""
    test = test_of(expression)
    if test is None or test.compare is None:
        raise ValueError(f"not a pass/fail test: {expression!r}")
    check_cost(expression)
    weights, denominator = _Calculator().dist(test)
    compare = test.compare
    return Fraction(sum(w for value, w in weights.items() if compare.matches(value)), denominator)


def estimate_cost(expression: str) -> int:
    """Upper bound of the work :func:`probability_at_least` does, from the tree alone.

    Cheap (at most a few thousand steps, for 1,000-sided dice), so the bot calls it on its
    event loop before handing the query to a worker.  Raises ``unsupported_odds`` for
    exploding dice, like the calculation would.
    """
    root = parse(expression).root
    if _keep_one_plus_constant(root) is not None:
        return 1  # closed form
    return _estimate(root).cost


def check_cost(expression: str) -> int:
    """Refuses (``odds_too_complex``) a query whose :func:`estimate_cost` exceeds the budget."""
    cost = estimate_cost(expression)
    if cost > MAX_COST:
        raise DiceError("odds_too_complex", None, {"cost": cost, "limit": MAX_COST})
    return cost


class _Shape(NamedTuple):
    """At most ``support`` values, weights below ``2**bits``, ``cost`` units to compute."""

    support: int
    bits: int
    cost: int


def _weighted(products: int, bits: int) -> int:
    """Products of integers below ``2**bits``: one unit each, plus their size."""
    return products * (1 + bits // BITS_PER_UNIT)


def _estimate(node: Node) -> _Shape:
    """Mirrors :class:`_Calculator` without computing: sizes only, as upper bounds."""
    if isinstance(node, Number):
        return _Shape(1, 1, 0)
    if isinstance(node, Neg):
        return _estimate(node.operand)
    if isinstance(node, Group):
        return _estimate(node.inner)
    if isinstance(node, KeepOne):
        support = 10 * (MAX_RETHROWS + 1)
        return _Shape(support, (1000 ** (MAX_RETHROWS + 1)).bit_length(), support)
    if isinstance(node, Dice):
        if node.explode is not None:
            raise DiceError("unsupported_odds", None, {"what": str(node)})
        plan = _dice_plan(node)
        bits = node.count * plan.per_die.bit_length()
        return _Shape(plan.support, bits, _weighted(plan.products, bits))
    assert isinstance(node, BinOp)
    left, right = _estimate(node.left), _estimate(node.right)
    products = left.support * right.support
    low, high = bounds(node)  # finite: exploding dice were refused above
    support = int(min(products, high - low + 1))
    bits = left.bits + right.bits
    # a large result dict costs memory and cache misses beyond its products
    cost = left.cost + right.cost + _weighted(products, bits) + SUPPORT_COST * support
    return _Shape(support, bits, cost)


class _DicePlan(NamedTuple):
    """How :class:`_Calculator` will build one ``NdM`` term, and what it costs."""

    face_weights: _Weights
    per_die: int
    scores: dict[int, int]
    kind: Literal["uniform", "sum", "keep"]
    products: int
    support: int


def _dice_plan(node: Dice) -> _DicePlan:
    face_weights, per_die = _face_weights(node)
    compare = node.compare
    if compare is not None and not node.is_test:
        scores = {f: int(compare.matches(f)) for f in face_weights}
    else:
        scores = {f: f for f in face_weights}
    count = node.count
    if node.keep is not None:
        kept = node.keep.kept(count)
        top = kept * max(scores.values()) + 1
        # each state update also computes a binomial: measured at about two products' worth
        products = 2 * len(face_weights) * (count + 1) * top * (count + 2) // 2
        return _DicePlan(face_weights, per_die, scores, "keep", products, top)
    die = _die(face_weights, scores)
    span = max(die) - min(die)
    support = count * span + 1
    if len(set(die.values())) == 1 and span + 1 == len(die):
        width = span + 1
        # Two passes (prefix sums, then the window) over a support growing to count * width,
        # each step a few builtin calls: measured at about seven products' worth.
        products = 7 * count * (count * (width - 1) // 2 + 2 * width)
        return _DicePlan(face_weights, per_die, scores, "uniform", products, support)
    # uneven weights (rerolls) make bigger integers: measured at about two products' worth
    products = 2 * sum((i * span + 1) * len(die) for i in range(count))
    return _DicePlan(face_weights, per_die, scores, "sum", products, support)


def _die(face_weights: _Weights, scores: dict[int, int]) -> _Weights:
    """Weight of each score one die can add."""
    die: _Weights = {}
    for face, w in face_weights.items():
        die[scores[face]] = die.get(scores[face], 0) + w
    return die


@lru_cache(maxsize=3)
def keep_one_faces(position: str) -> tuple[int, ...]:
    """Out of the 1,000 throws of 3d10, how many keep each face 1..10 (index 0 = face 1)."""
    index = {"b": 0, "m": 1, "a": 2}[position]
    counts = [0] * 10
    for throw in itertools.product(range(1, 11), repeat=3):
        counts[sorted(throw)[index] - 1] += 1
    return tuple(counts)


def keep_one_at_least(position: str, x: int) -> Fraction:
    """P(1o3d10 >= x), closed form (seed 002 "Tiradas"; see docs/rules-decisions.md).

    With ``S(f)`` the chance the kept die shows ``f`` or more and ``p = S(10)``, reaching
    ``x`` needs ``(x-1)//10`` tens in a row and then ``((x-1) % 10) + 1`` or more:
    ``P(T >= x) = p**((x-1)//10) * S(((x-1) % 10) + 1)``.  With the 20 re-throw cap the
    total never exceeds 210, so the formula holds up to 210 and the chance is 0 beyond.
    """
    if x <= 1:
        return Fraction(1)
    if x > 10 * (MAX_RETHROWS + 1):
        return Fraction(0)
    faces = keep_one_faces(position)
    tens, face = divmod(x - 1, 10)
    at_least = sum(faces[face:])
    return Fraction(faces[9], 1000) ** tens * Fraction(at_least, 1000)


def _keep_one_plus_constant(node: Node) -> tuple[KeepOne, int] | None:
    """``1o3d10 ± constants`` (in any order, parenthesised or not) → (term, constant)."""
    if isinstance(node, KeepOne):
        return node, 0
    if isinstance(node, Group):
        return _keep_one_plus_constant(node.inner)
    if isinstance(node, BinOp) and node.op in ("+", "-"):
        left = _keep_one_plus_constant(node.left)
        right = _constant(node.right)
        if left is not None and right is not None:
            return left[0], left[1] + (right if node.op == "+" else -right)
        if node.op == "+":
            left_constant = _constant(node.left)
            right_term = _keep_one_plus_constant(node.right)
            if left_constant is not None and right_term is not None:
                return right_term[0], right_term[1] + left_constant
    return None


def _constant(node: Node) -> int | None:
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Group):
        return _constant(node.inner)
    if isinstance(node, Neg):
        value = _constant(node.operand)
        return None if value is None else -value
    return None


class _Calculator:
    """One query; ``work`` counts weight products against :data:`MAX_WORK`."""

    def __init__(self) -> None:
        self.work = 0

    def _spend(self, amount: int) -> None:
        self.work += amount
        if self.work > MAX_WORK:
            raise DiceError("odds_too_complex", None, {"limit": MAX_WORK})

    def dist(self, node: Node) -> _Dist:
        # match, not a dict of methods: each case narrows the type for mypy (commonest first).
        match node:
            case Dice():
                return self._dice(node)
            case Number():
                return self._number(node)
            case BinOp():
                return self._binop(node)
            case KeepOne():
                return self._keep_one(node)
            case Neg():
                return self._neg(node)
            case Group():
                return self._group(node)
            case _:
                assert_never(node)

    def _number(self, node: Number) -> _Dist:
        return {node.value: 1}, 1

    def _neg(self, node: Neg) -> _Dist:
        weights, denominator = self.dist(node.operand)
        return {-value: w for value, w in weights.items()}, denominator

    def _group(self, node: Group) -> _Dist:
        return self.dist(node.inner)

    def _binop(self, node: BinOp) -> _Dist:
        (left, den_l), (right, den_r) = self.dist(node.left), self.dist(node.right)
        self._spend(len(left) * len(right))
        op = node.op
        out: _Weights = {}
        for a, wa in left.items():
            for b, wb in right.items():
                if op == "+":
                    value = a + b
                elif op == "-":
                    value = a - b
                elif op == "*":
                    value = a * b
                else:
                    value = a // b  # the parser refused divisors that can be zero
                out[value] = out.get(value, 0) + wa * wb
        return out, den_l * den_r

    def _keep_one(self, node: KeepOne) -> _Dist:
        faces = keep_one_faces(node.position)
        ten = faces[9]
        cap = MAX_RETHROWS
        out: _Weights = {}
        for tens in range(cap + 1):
            last = 10 if tens == cap else 9  # after the last allowed re-throw a 10 stands
            scale = ten**tens * 1000 ** (cap - tens)
            for face in range(1, last + 1):
                out[10 * tens + face] = faces[face - 1] * scale
        return out, 1000 ** (cap + 1)

    def _dice(self, node: Dice) -> _Dist:
        if node.explode is not None:
            raise DiceError("unsupported_odds", None, {"what": str(node)})
        plan = _dice_plan(node)
        self._spend(plan.products)  # refuse up front
        denominator = plan.per_die**node.count
        if plan.kind == "keep":
            return self._keep(node, plan.face_weights, plan.scores), denominator
        die = _die(plan.face_weights, plan.scores)
        if plan.kind == "uniform":
            uniform = self._sum_uniform(node.count, min(die), max(die), next(iter(die.values())))
            return uniform, denominator
        return self._sum(node.count, die), denominator

    def _sum(self, count: int, die: _Weights) -> _Weights:
        total: _Weights = {0: 1}
        for _ in range(count):
            nxt: _Weights = {}
            for value, w in total.items():
                for score, wd in die.items():
                    nxt[value + score] = nxt.get(value + score, 0) + w * wd
            total = nxt
        return total

    def _sum_uniform(self, count: int, low: int, high: int, weight: int) -> _Weights:
        """Sum of dice whose scores ``low..high`` are equally likely: prefix sums, O(support)."""
        width = high - low + 1
        dense = [1]  # dense[i]: ways for total == offset + i
        for _ in range(count):
            prefix = [0]
            for ways in dense:
                prefix.append(prefix[-1] + ways)
            size = len(dense) + width - 1
            dense = [
                (prefix[min(i + 1, len(dense))] - prefix[max(0, i - width + 1)]) * weight
                for i in range(size)
            ]
        return {count * low + i: ways for i, ways in enumerate(dense)}

    def _keep(self, node: Dice, face_weights: _Weights, scores: dict[int, int]) -> _Weights:
        """Keep ``k`` of ``N`` dice: assign faces from the favoured end, counting kept ones.

        States are (dice assigned so far, score of the kept ones); a face taken by ``c`` of
        the remaining dice contributes ``C(remaining, c) * w**c`` ways, and only the first
        ``k`` dice assigned are kept.
        """
        count, keep = node.count, node.keep
        assert keep is not None  # _dice calls this only for a pool with a keep modifier
        kept = keep.kept(count)
        highest = keep.kind in ("kh", "pl")
        faces = sorted(face_weights, reverse=highest)
        states: dict[tuple[int, int], int] = {(0, 0): 1}
        for face in faces:
            w = face_weights[face]
            nxt: dict[tuple[int, int], int] = {}
            for (assigned, score), ways in states.items():
                left = count - assigned
                power = 1
                for c in range(left + 1):
                    take = min(c, max(0, kept - assigned))
                    key = (assigned + c, score + take * scores[face])
                    nxt[key] = nxt.get(key, 0) + ways * comb(left, c) * power
                    power *= w
                    if w == 0:
                        break
            states = nxt
        return {score: ways for (assigned, score), ways in states.items() if assigned == count}


def _face_weights(node: Dice) -> tuple[_Weights, int]:
    """Weight of each standing face of one die, and the denominator, after rerolls."""
    sides = node.sides
    reroll = node.reroll
    if reroll is None:
        return {f: 1 for f in range(1, sides + 1)}, sides
    matching = reroll.selector.faces(sides)
    if reroll.once:
        # P(f) = [f not rerolled]/M + (rerolled share)/M * 1/M, over M**2.
        return {
            f: (0 if reroll.selector.matches(f) else sides) + matching for f in range(1, sides + 1)
        }, sides * sides
    standing = {f: 1 for f in range(1, sides + 1) if not reroll.selector.matches(f)}
    return standing, len(standing)

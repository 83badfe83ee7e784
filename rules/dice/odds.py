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
* Work is bounded: past :data:`MAX_WORK` weight products the answer is ``odds_too_complex``.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import assert_never

from .ast import BinOp, Dice, Group, KeepOne, Neg, Node, Number
from .errors import DiceError
from .limits import MAX_RETHROWS
from .parser import parse

__all__ = [
    "MAX_WORK",
    "distribution",
    "keep_one_at_least",
    "keep_one_faces",
    "probability_at_least",
]

#: Upper bound on the weight products one query may compute (keeps /odds interactive).
MAX_WORK = 1_000_000

_Weights = dict[int, int]
_Dist = tuple[_Weights, int]  # (weight per value, common denominator)


def distribution(expression: str) -> dict[int, Fraction]:
    """Exact probability of every total of ``expression`` (sorted by total)."""
    weights, denominator = _Calculator().dist(parse(expression).root)
    return {value: Fraction(weights[value], denominator) for value in sorted(weights)}


def probability_at_least(expression: str, target: int) -> Fraction:
    """Exact chance that ``expression`` totals ``target`` or more.

    ``1o3d10`` plus or minus constants uses the closed form of :func:`keep_one_at_least`.
    """
    root = parse(expression).root
    shortcut = _keep_one_plus_constant(root)
    if shortcut is not None:
        node, constant = shortcut
        return keep_one_at_least(node.position, target - constant)
    weights, denominator = _Calculator().dist(root)
    return Fraction(sum(w for value, w in weights.items() if value >= target), denominator)


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
        face_weights, per_die = _face_weights(node)
        compare = node.compare
        if compare is not None and not node.is_test:
            scores = {f: int(compare.matches(f)) for f in face_weights}
        else:
            scores = {f: f for f in face_weights}
        if node.keep is None:
            return self._sum(node.count, face_weights, scores), per_die**node.count
        return self._keep(node, face_weights, scores), per_die**node.count

    def _sum(self, count: int, face_weights: _Weights, scores: dict[int, int]) -> _Weights:
        die: _Weights = {}
        for face, w in face_weights.items():
            die[scores[face]] = die.get(scores[face], 0) + w
        if len(set(die.values())) == 1 and max(die) - min(die) + 1 == len(die):
            return self._sum_uniform(count, min(die), max(die), next(iter(die.values())))
        span = max(die) - min(die)
        self._spend(sum((i * span + 1) * len(die) for i in range(count)))  # refuse up front
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
        self._spend(count * (count * (width - 1) // 2 + 2 * width))  # refuse before working
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
        top = kept * max(scores.values()) + 1
        self._spend(len(faces) * (count + 1) * top * (count + 2) // 2)  # refuse up front
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

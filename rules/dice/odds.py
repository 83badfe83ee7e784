"""Exact odds: the distribution of an expression's total, as :class:`fractions.Fraction`.

Distributions are built bottom-up as integer weights over a common denominator (big
integers are far faster than adding Fractions) and turned into Fractions at the end.

* ``NdM`` sums (with ``ro``/``r`` rerolls, ``kh``/``kl``/``ph``/``pl``, success counting
  ``>=N``/``<=N`` and single-die tests) are exact: convolution, or a dynamic programme over
  faces for keep/drop.  An open reroll (``r``) uses the faces it can stop on.
* The roller aborts a roll that would throw more than :data:`~rules.dice.limits.MAX_ROLLS`
  dice (``too_many_rolls``), which only open rerolls can reach (the parser refuses every
  bounded expression over the limit).  Every probability here is of a roll that *ends* with
  that total, so the odds of all totals add up to ``1 - abort_chance``: a die's standing face
  does not depend on how many throws it took, so the abort is independent of the total and
  :func:`abort_chance` computes it exactly (:func:`_all_stop_within`).  An open reroll
  together with a term whose throws depend on its faces (``ro``, ``1o3d10``) is refused
  (``unsupported_odds_abort``): there the two are not independent.
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
import math
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Literal, NamedTuple, assert_never

from .ast import BinOp, Dice, Group, KeepOne, Neg, Node, Number
from .errors import DiceError
from .limits import MAX_RETHROWS, MAX_ROLLS, bounds
from .parser import parse

__all__ = [
    "MAX_COST",
    "Odds",
    "abort_chance",
    "MAX_WORK",
    "check_cost",
    "distribution",
    "estimate_cost",
    "keep_one_at_least",
    "keep_one_faces",
    "odds_of",
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
    """Exact probability that a roll of ``expression`` ends with each total (sorted by total).

    They add up to ``1 - abort_chance(expression)``: 1 unless an open reroll can run past
    the roll's dice limit."""
    check_cost(expression)
    root = parse(expression).root
    ends = 1 - _abort(root)
    weights, denominator = _Calculator().dist(root)
    return {value: Fraction(weights[value], denominator) * ends for value in sorted(weights)}


def abort_chance(expression: str) -> Fraction:
    """Exact chance that rolling ``expression`` throws more than ``MAX_ROLLS`` dice and ends
    in ``too_many_rolls`` instead of a total (``1d1000r<1000``: about 61 %).

    Zero unless the expression has an open reroll (``r``); refused
    (``unsupported_odds_abort``) when an open reroll shares the roll with ``ro`` or ``1o3d10``.
    """
    return _abort(parse(expression).root)


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
    ends = 1 - _abort(root)
    weights, denominator = _Calculator().dist(root)
    return tuple(
        Fraction(sum(w for value, w in weights.items() if value >= target), denominator) * ends
        for target in targets
    )


class Odds(NamedTuple):
    """What ``/odds`` shows: the chances asked for, and the chance the roll never ends."""

    probabilities: tuple[Fraction, ...]
    abort: Fraction


def odds_of(expression: str, targets: tuple[int, ...], at_most: bool = False) -> Odds:
    """:func:`probabilities_at_least` (or ``_at_most``) and :func:`abort_chance` in one call:
    the job the bot sends to its worker process."""
    function = probabilities_at_most if at_most else probabilities_at_least
    return Odds(function(expression, targets), abort_chance(expression))


def probabilities_at_most(expression: str, targets: tuple[int, ...]) -> tuple[Fraction, ...]:
    """Exact chance that ``expression`` ends with ``target`` or less, for each target: the
    rolls that end, less those reaching ``target + 1`` (same work, same closed form for
    ``1o3d10``)."""
    ends = 1 - abort_chance(expression)
    at_least = probabilities_at_least(expression, tuple(t + 1 for t in targets))
    return tuple(ends - p for p in at_least)


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
    passed = sum(w for value, w in weights.items() if compare.matches(value))
    return Fraction(passed, denominator) * (1 - _abort(test))


def estimate_cost(expression: str) -> int:
    """Upper bound of the work :func:`probability_at_least` does, from the tree alone.

    Cheap (at most a few thousand steps, for 1,000-sided dice), so the bot calls it on its
    event loop before handing the query to a worker.  Raises ``unsupported_odds`` for
    exploding dice, like the calculation would.
    """
    root = parse(expression).root
    if _keep_one_plus_constant(root) is not None:
        return 1  # closed form
    return _estimate(root).cost + _abort_cost(root)


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
    """Weight of each standing face of one die, and the denominator, after rerolls and
    ``mi``/``ma``."""
    weights, denominator = _rerolled_weights(node)
    if not node.clamped:
        return weights, denominator
    clamped: _Weights = {}
    for face, w in weights.items():
        clamped[node.clamp(face)] = clamped.get(node.clamp(face), 0) + w
    return clamped, denominator


def _rerolled_weights(node: Dice) -> tuple[_Weights, int]:
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


# -- the roll's dice limit -------------------------------------------------------------------


def _terms(node: Node) -> list[Dice | KeepOne]:
    """The dice terms of a tree, left to right."""
    if isinstance(node, (Dice, KeepOne)):
        return [node]
    if isinstance(node, Neg):
        return _terms(node.operand)
    if isinstance(node, Group):
        return _terms(node.inner)
    if isinstance(node, BinOp):
        return _terms(node.left) + _terms(node.right)
    return []


def _open_rerolls(root: Node) -> tuple[dict[Fraction, int], int]:
    """The open rerolls' dice grouped by the chance one throw must be thrown again, and the
    throws every other term makes; refuses terms whose throws depend on their faces."""
    groups: dict[Fraction, int] = {}
    fixed = 0
    varying: Dice | KeepOne | None = None
    for term in _terms(root):
        if isinstance(term, Dice) and term.explode is not None:
            raise DiceError("unsupported_odds", None, {"what": str(term)})
        if isinstance(term, KeepOne) or (term.reroll is not None and term.reroll.once):
            varying = term
        elif term.reroll is None:
            fixed += term.count
        else:
            again = Fraction(term.reroll.selector.faces(term.sides), term.sides)
            groups[again] = groups.get(again, 0) + term.count
    if groups and varying is not None:
        raise DiceError("unsupported_odds_abort", None, {"what": str(varying)})
    return groups, fixed


def _abort(root: Node) -> Fraction:
    groups, fixed = _open_rerolls(root)
    if not groups:
        return Fraction(0)
    return 1 - _all_stop_within(groups, MAX_ROLLS - fixed)


def _abort_cost(root: Node) -> int:
    """Cost units of :func:`_abort`: a few products per throw the budget allows and group."""
    groups, fixed = _open_rerolls(root)  # refuses what the calculation would refuse
    if not groups:
        return 0
    steps = max(0, MAX_ROLLS - fixed - sum(groups.values()) + 1)
    common = math.lcm(*(again.denominator for again in groups))
    bits = steps * (common.bit_length() + steps.bit_length())
    return _weighted(2 * len(groups) * steps, bits)


def _all_stop_within(groups: dict[Fraction, int], budget: int) -> Fraction:
    """Chance that dice rerolled while they match all stop within ``budget`` throws.

    A die that must be thrown again with chance ``p`` takes a geometric number of throws
    (generating function ``q x / (1 - p x)``, ``q = 1 - p``); ``n`` such dice per chance
    ``p`` take ``T`` throws with ``G(x) = x**N * prod(q**n) * f(x)``, where
    ``f = prod (1 - p x)**-n`` and ``N`` counts every die.  ``P(T <= budget)`` is then
    ``prod(q**n)`` times the sum of ``f``'s first ``budget - N + 1`` coefficients.  From
    ``f' * P = f * S`` (``P = prod (1 - p x)``, ``S = sum n p prod_{other} (1 - p' x)``) the
    coefficients follow a recurrence of order ``len(groups)``, kept in integers:
    ``e_j = c_j * L**j * j!`` with ``L`` the common denominator of the chances.
    """
    dice = sum(groups.values())
    degree = budget - dice  # the highest coefficient needed
    if degree < 0:
        return Fraction(0)
    chances = list(groups.items())
    common = math.lcm(*(again.denominator for again, _n in chances))
    scaled = [(int(again * common), n) for again, n in chances]  # p = a / L
    # P(x) = prod(1 - a x / L): integer coefficients pi_l of L**l * P_l.
    poly = [1]
    for a, _n in scaled:
        poly = _times_linear(poly, a)
    # S(x) = sum n (a/L) prod_other (1 - a' x / L): s_l of L**(l+1) * S_l.
    series = [0] * len(scaled)
    for i, (a, n) in enumerate(scaled):
        others = [1]
        for j, (b, _m) in enumerate(scaled):
            if j != i:
                others = _times_linear(others, b)
        for power, coefficient in enumerate(others):
            series[power] += n * a * coefficient
    # (j+1) c_{j+1} = sum_k (S_k - P_{k+1} (j - k)) c_{j-k}, times L**(j+1) j!:
    # e_{j+1} = sum_k (s_k - pi_{k+1} (j - k)) e_{j-k} j!/(j-k)!.
    e = [1]  # e_0 = c_0 = 1
    for j in range(degree):
        falling = 1  # j! / (j - k)!
        value = 0
        for k in range(min(len(scaled), j + 1)):
            if k > 0:
                falling *= j - k + 1
            value += (series[k] - poly[k + 1] * (j - k)) * e[j - k] * falling
        e.append(value)
    # sum_j c_j = sum_j e_j / (L**j j!) over the common denominator L**degree * degree!
    total = 0
    weight = 1  # L**(degree - j) * degree! / j!, built from j = degree downwards
    for j in range(degree, -1, -1):
        total += e[j] * weight
        if j > 0:
            weight *= common * j
    denominator = weight  # = L**degree * degree!
    stop = Fraction(1)
    for again, n in chances:
        stop *= (1 - again) ** n
    return stop * Fraction(total, denominator)


def _times_linear(poly: list[int], a: int) -> list[int]:
    """``poly`` (coefficients of L**k x**k) times ``(1 - a x / L)``."""
    out = poly + [0]
    for k, coefficient in enumerate(poly):
        out[k + 1] -= a * coefficient
    return out

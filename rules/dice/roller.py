"""The roller: walks an AST with a dispatch table and throws dice from an injected RNG.

The hot path keeps no per-die objects: each dice term appends one compact record (a tuple
of faces, of die histories, or of 1o3d10 throws) to a list in evaluation order, and
:mod:`rules.dice.expression` turns the records into the full tree only when the tree or
the audit record is asked for (:mod:`rules.dice.stringify` renders the breakdown from the
records themselves).  The commonest shapes skip the tree walk altogether
(:func:`roll_parsed`).  Every die comes from ``rng.randint(1, sides)``, so a scripted ``random.Random``
subclass only needs to override ``randint``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import assert_never

from .ast import BinOp, Dice, Expression, Group, KeepOne, Neg, Node, Number, Reroll
from .errors import DiceError
from .limits import MAX_RETHROWS, MAX_ROLLS
from .result import Record, RollResult, make_result

__all__ = ["Roller", "fumbles", "keep_flags", "roll_parsed"]


def fumbles(faces: tuple[int, int, int], index: int) -> bool:
    """Seed 002 "Críticos y Pifias": a 1 on the kept die and <= 5 on the next one up.

    "Next one up" is the next *higher* die in sorted order (the seed warns a fumble is
    "peligrosísimo estando malherido", i.e. when keeping the lowest).  Keeping the highest
    there is no higher die: a kept 1 means all three are 1, and that is the fumble.
    """
    ordered = sorted(faces)
    if ordered[index] != 1:
        return False
    return index == 2 or ordered[index + 1] <= 5


def keep_flags(values: list[int], kind: str, n: int) -> tuple[bool, ...]:
    """Which dice survive ``kh``/``kl``/``ph``/``pl``; of equal dice the earlier is kept.

    ``sorted`` is stable (also with ``reverse=True``), so equal dice stay in throw order.
    """
    count = len(values)
    highest = kind in ("kh", "pl")
    order = sorted(range(count), key=values.__getitem__, reverse=highest)
    flags = [False] * count
    for i in order[: n if kind[0] == "k" else count - n]:
        flags[i] = True
    return tuple(flags)


def roll_parsed(expression: Expression, rng: random.Random) -> RollResult:
    """Roll a parsed expression, through its fast path when its shape has one.

    Most rolls are one dice term, plain, keeping some dice or rerolling some, with at most a
    constant added or taken away (``1d20``, ``1d20+5``, ``2d6-1``, ``100d6``, ``4d6kh3``,
    ``2d20kl1+3``, ``2d6ro<3``).
    For those a small function compiled once per parsed expression (kept in
    ``Expression.plans``) throws the dice and builds the result directly: the same result,
    records included, that :class:`Roller` gives, without an instance, a tree walk or a
    dispatch per node.  Every other shape goes through :class:`Roller`.
    """
    fast = expression.plans.get(Roller)
    if fast is None:
        fast = expression.plans[Roller] = _fast_path(expression)
    return fast(rng)


def _fast_path(expression: Expression) -> Callable[[random.Random], RollResult]:
    """The roll function for ``expression``'s shape (see :func:`roll_parsed`)."""
    term, offset = expression.root, 0
    if (
        isinstance(term, BinOp)
        and term.op in ("+", "-")
        and isinstance(term.left, Dice)
        and isinstance(term.right, Number)
    ):
        offset = term.right.value if term.op == "+" else -term.right.value
        term = term.left
    if not isinstance(term, Dice) or term.explode or term.compare or term.clamped:
        return lambda rng: Roller(rng).roll(expression)
    count, sides = term.count, term.sides  # the parser has checked count against MAX_ROLLS
    if term.reroll is not None:
        if term.keep is not None:
            return lambda rng: Roller(rng).roll(expression)
        return _rerolled(expression, count, sides, term.reroll, offset)
    keep = term.keep
    if keep is not None:
        kind, n = keep.kind, keep.n

        def keep_some(rng: random.Random) -> RollResult:
            randint = rng.randint
            faces = [randint(1, sides) for _ in range(count)]
            kept = keep_flags(faces, kind, n)
            total = sum([face for face, k in zip(faces, kept, strict=True) if k])
            record = (tuple(faces), kept, None)
            return make_result(total + offset, False, 0, None, expression, (record,))

        return keep_some
    if count == 1:

        def one_die(rng: random.Random) -> RollResult:
            face = rng.randint(1, sides)
            return make_result(face + offset, False, 0, None, expression, ((face,),))

        return one_die

    def pool(rng: random.Random) -> RollResult:
        randint = rng.randint
        faces = tuple([randint(1, sides) for _ in range(count)])
        return make_result(sum(faces) + offset, False, 0, None, expression, (faces,))

    return pool


def _rerolled(
    expression: Expression, count: int, sides: int, reroll: Reroll, offset: int
) -> Callable[[random.Random], RollResult]:
    """The fast path of a pool that only rerolls (``2d6ro<3``, ``3d6r1``): the dice, records
    and limit of :meth:`Roller._throw_pool` without explosions to look for."""
    low, high = reroll.selector.interval()
    once = reroll.once

    def reroll_some(rng: random.Random) -> RollResult:
        randint = rng.randint
        faces: list[int] = []
        detail: list[tuple[tuple[int, ...], bool, bool]] = []
        thrown = count
        for _ in range(count):
            face = randint(1, sides)
            if low <= face <= high:
                history: tuple[int, ...] = (face,)
                while True:
                    thrown += 1
                    if thrown > MAX_ROLLS:
                        raise DiceError(
                            "too_many_rolls", None, {"count": thrown, "limit": MAX_ROLLS}
                        )
                    face = randint(1, sides)
                    history += (face,)
                    if once or not low <= face <= high:
                        break
                detail.append((history, False, False))
            else:
                detail.append(((face,), False, False))
            faces.append(face)
        record = (tuple(faces), None, tuple(detail))
        return make_result(sum(faces) + offset, False, 0, None, expression, (record,))

    return reroll_some


def _clamp(node: Dice, faces: list[int], detail: Record | None) -> Record:
    """``miN``/``maN``: each die standing below (above) N shows N, its rolled face kept in
    its history (shown struck through, as a rerolled-away value)."""
    if detail is None:
        detail = tuple(((face,), False, False) for face in faces)
    clamped = []
    for i, (history, boom, extra) in enumerate(detail):
        face = node.clamp(faces[i])
        if face != faces[i]:
            faces[i] = face
            history = (*history, face)
        clamped.append((history, boom, extra))
    return tuple(clamped)


class Roller:
    """Rolls parsed expressions; one instance per roll (it holds that roll's counters)."""

    __slots__ = ("randint", "records", "thrown", "explosions", "fumble", "success")

    def __init__(self, rng: random.Random) -> None:
        self.randint: Callable[[int, int], int] = rng.randint
        self.records: list[Record] = []
        self.thrown = 0
        self.explosions = 0
        self.fumble = False
        self.success: bool | None = None

    def roll(self, expression: Expression) -> RollResult:
        total = self.eval(expression.root)
        if self.thrown > MAX_ROLLS:  # only open-ended rolls get here; their pools abort sooner
            raise DiceError("too_many_rolls", None, {"count": self.thrown, "limit": MAX_ROLLS})
        return make_result(
            total, self.fumble, self.explosions, self.success, expression, tuple(self.records)
        )

    def eval(self, node: Node) -> int:
        # match, not a dict of methods: each case narrows the type for mypy (commonest first).
        match node:
            case Dice():
                return self._eval_dice(node)
            case Number():
                return self._eval_number(node)
            case BinOp():
                return self._eval_binop(node)
            case KeepOne():
                return self._eval_keep_one(node)
            case Neg():
                return self._eval_neg(node)
            case Group():
                return self._eval_group(node)
            case _:
                assert_never(node)

    # -- nodes ----------------------------------------------------------------------------
    def _eval_number(self, node: Number) -> int:
        return node.value

    def _eval_neg(self, node: Neg) -> int:
        return -self.eval(node.operand)

    def _eval_group(self, node: Group) -> int:
        return self.eval(node.inner)

    def _eval_binop(self, node: BinOp) -> int:
        left = self.eval(node.left)
        right = self.eval(node.right)
        op = node.op
        if op == "+":
            return left + right
        if op == "-":
            return left - right
        if op == "*":
            return left * right
        if right == 0:  # the parser refuses divisors that can be 0; this is a backstop
            raise DiceError("division_by_zero", None, {"divisor": str(node.right)})
        return left // right

    def _eval_dice(self, node: Dice) -> int:
        randint, sides = self.randint, node.sides
        if node.plain:
            if node.count == 1:
                face = randint(1, sides)
                self.records.append((face,))
                self.thrown += 1
                return face
            faces = tuple([randint(1, sides) for _ in range(node.count)])
            self.records.append(faces)
            self.thrown += node.count
            return sum(faces)
        return self._eval_modified(node)

    def _eval_modified(self, node: Dice) -> int:
        if node.reroll is None and node.explode is None:  # keep/compare only: bounded
            randint, sides = self.randint, node.sides
            faces = [randint(1, sides) for _ in range(node.count)]
            self.thrown += node.count
            detail = None
        elif node.reroll is None:
            faces, detail = self._throw_exploding(node)
        else:
            faces, detail = self._throw_pool(node)
        if node.clamped:
            detail = _clamp(node, faces, detail)
        keep = node.keep
        kept = keep_flags(faces, keep.kind, keep.n) if keep is not None else None
        self.records.append((tuple(faces), kept, detail))
        standing = faces if kept is None else [f for f, k in zip(faces, kept, strict=True) if k]
        compare = node.compare
        if compare is None:
            return sum(standing)
        if node.count == 1:
            total = sum(standing)
            self.success = compare.matches(total)
            return total
        if compare.op == ">=":
            return sum(1 for f in standing if f >= compare.target)
        return sum(1 for f in standing if f <= compare.target)

    def _throw_exploding(self, node: Dice) -> tuple[list[int], Record]:
        """:meth:`_throw_pool` for the usual explosions without rerolls (``8d6!``): same
        dice, same records, without the reroll bookkeeping on every die."""
        randint, sides = self.randint, node.sides
        low, high = node.explode.interval()  # type: ignore[union-attr]  # caller: explode set
        faces: list[int] = []
        detail: list[tuple[tuple[int, ...], bool, bool]] = []
        thrown = self.thrown
        for _ in range(node.count):
            extra = False
            while True:
                thrown += 1
                if thrown > MAX_ROLLS:
                    raise DiceError("too_many_rolls", None, {"count": thrown, "limit": MAX_ROLLS})
                face = randint(1, sides)
                boom = low <= face <= high
                faces.append(face)
                detail.append(((face,), boom, extra))
                if not boom:
                    break
                self.explosions += 1
                extra = True
        self.thrown = thrown
        return faces, tuple(detail)

    def _throw_pool(self, node: Dice) -> tuple[list[int], Record]:
        """Throw a pool with rerolls and/or explosions, counting every die against the limit.

        A reroll applies to each die thrown; an explosion to every die, its own extra dice
        included (chains), whose extra dice are not rerolled.
        An exploding die's extra die is thrown right after it, so chains stay together in
        the breakdown.  Returns the standing faces and, per die, (history, exploded, extra).
        """
        randint, sides = self.randint, node.sides
        reroll, explode = node.reroll, node.explode
        r_low, r_high = reroll.selector.interval() if reroll is not None else (1, 0)
        open_reroll = reroll is not None and not reroll.once
        e_low, e_high = explode.interval() if explode is not None else (1, 0)
        faces: list[int] = []
        detail: list[tuple[tuple[int, ...], bool, bool]] = []
        thrown = self.thrown
        for _ in range(node.count):
            extra = False
            while True:
                thrown += 1
                if thrown > MAX_ROLLS:
                    raise DiceError("too_many_rolls", None, {"count": thrown, "limit": MAX_ROLLS})
                face = randint(1, sides)
                history: tuple[int, ...] = (face,)
                # Rerolls apply to the dice thrown, not to the extra dice explosions add
                # (the order written: reroll, then explode; as in avrae/d20).
                while not extra and r_low <= face <= r_high and (open_reroll or len(history) == 1):
                    thrown += 1
                    if thrown > MAX_ROLLS:
                        raise DiceError(
                            "too_many_rolls", None, {"count": thrown, "limit": MAX_ROLLS}
                        )
                    face = randint(1, sides)
                    history += (face,)
                boom = e_low <= face <= e_high
                faces.append(face)
                detail.append((history, boom, extra))
                if not boom:
                    break
                self.explosions += 1
                extra = True
        self.thrown = thrown
        return faces, tuple(detail)

    def _eval_keep_one(self, node: KeepOne) -> int:
        randint, index = self.randint, node.index
        faces = (randint(1, 10), randint(1, 10), randint(1, 10))
        kept = sorted(faces)[index]
        if kept != 10:  # the usual single throw, kept apart from the chain to stay fast
            self.thrown += 3
            self.records.append((faces,))
            if kept == 1 and fumbles(faces, index):
                self.fumble = True
            return kept
        throws = [faces]
        total = kept
        for _ in range(MAX_RETHROWS):
            faces = (randint(1, 10), randint(1, 10), randint(1, 10))
            throws.append(faces)
            kept = sorted(faces)[index]
            total += kept
            if kept != 10:
                break
        self.thrown += 3 * len(throws)
        self.explosions += len(throws) - 1
        self.records.append(tuple(throws))
        return total

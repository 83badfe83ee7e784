"""The roller: walks an AST with a dispatch table and throws dice from an injected RNG.

The hot path keeps no per-die objects: each dice term appends one compact record (a tuple
of faces, of die histories, or of 1o3d10 throws) to a list in evaluation order, and
:mod:`rules.dice.expression` turns the records into the full tree only when a breakdown is
asked for.  Every die comes from ``rng.randint(1, sides)``, so a scripted ``random.Random``
subclass only needs to override ``randint``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .ast import BinOp, Dice, Expression, Group, KeepOne, Neg, Node, Number
from .errors import DiceError
from .limits import MAX_RETHROWS, MAX_ROLLS
from .result import RollResult

__all__ = ["Roller", "fumbles", "keep_flags"]


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
    """Which dice survive ``kh``/``kl``/``ph``/``pl``; of equal dice the earlier is kept."""
    count = len(values)
    highest_first = sorted(range(count), key=lambda i: (-values[i], i))
    if kind == "kh":
        chosen = set(highest_first[:n])
    elif kind == "pl":
        chosen = set(highest_first[: count - n])
    else:
        lowest_first = sorted(range(count), key=lambda i: (values[i], i))
        chosen = set(lowest_first[:n] if kind == "kl" else lowest_first[: count - n])
    return tuple(i in chosen for i in range(count))


class Roller:
    """Rolls parsed expressions; one instance per roll (it holds that roll's counters)."""

    __slots__ = ("randint", "records", "thrown", "explosions", "fumble", "success")

    def __init__(self, rng: random.Random) -> None:
        self.randint: Callable[[int, int], int] = rng.randint
        self.records: list[tuple] = []
        self.thrown = 0
        self.explosions = 0
        self.fumble = False
        self.success: bool | None = None

    def roll(self, expression: Expression) -> RollResult:
        total = self.eval(expression.root)
        return RollResult(
            total,
            expression.notation,
            self.fumble,
            self.explosions,
            expression.label,
            expression.comment,
            self.success,
            expression,
            tuple(self.records),
        )

    def eval(self, node: Node) -> int:
        return self._nodes[type(node)](self, node)

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

    def _throw(self, sides: int) -> int:
        self.thrown += 1
        if self.thrown > MAX_ROLLS:
            raise DiceError("too_many_rolls", None, {"count": self.thrown, "limit": MAX_ROLLS})
        return self.randint(1, sides)

    def _eval_modified(self, node: Dice) -> int:
        sides, reroll, explode = node.sides, node.reroll, node.explode
        histories: list[tuple[int, ...]] = []
        exploded: list[bool] = []
        extra: list[bool] = []
        for _ in range(node.count):
            from_explosion = False
            while True:
                history = [self._throw(sides)]
                if reroll is not None and reroll.selector.matches(history[-1]):
                    history.append(self._throw(sides))
                    while not reroll.once and reroll.selector.matches(history[-1]):
                        history.append(self._throw(sides))
                boom = explode is not None and explode.matches(history[-1])
                histories.append(tuple(history))
                exploded.append(boom)
                extra.append(from_explosion)
                if not boom:
                    break
                self.explosions += 1
                from_explosion = True
        values = [h[-1] for h in histories]
        if node.keep is not None:
            kept = keep_flags(values, node.keep.kind, node.keep.n)
        else:
            kept = (True,) * len(values)
        self.records.append(tuple(zip(histories, exploded, extra, kept, strict=True)))
        total = sum(v for v, k in zip(values, kept, strict=True) if k)
        compare = node.compare
        if compare is None:
            return total
        if node.count == 1:
            self.success = compare.matches(total)
            return total
        return sum(1 for v, k in zip(values, kept, strict=True) if k and compare.matches(v))

    def _eval_keep_one(self, node: KeepOne) -> int:
        randint, index = self.randint, node.index
        throws = []
        total = 0
        for _ in range(MAX_RETHROWS + 1):
            faces = (randint(1, 10), randint(1, 10), randint(1, 10))
            throws.append(faces)
            kept = sorted(faces)[index]
            total += kept
            if kept != 10:
                break
        self.thrown += 3 * len(throws)
        self.explosions += len(throws) - 1
        if total == 1 and fumbles(throws[0], index):
            self.fumble = True
        self.records.append(tuple(throws))
        return total

    _nodes: dict[type, Callable[[Roller, Node], int]] = {
        Number: _eval_number,
        Neg: _eval_neg,
        Group: _eval_group,
        BinOp: _eval_binop,
        Dice: _eval_dice,
        KeepOne: _eval_keep_one,
    }

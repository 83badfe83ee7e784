"""What was rolled: the expression tree, rebuilt from the roller's compact records.

Each dice term lists its dice; each :class:`Die` keeps its whole history (rerolled values
first, the standing value last), whether it exploded, whether it was itself thrown by an
explosion, and whether it was kept.  A 1o3d10 term lists its throws and which die each
kept.  These are the nodes an audit log stores and the stringifiers print.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, assert_never

from . import ast
from .result import Record
from .roller import fumbles

__all__ = [
    "Constant",
    "Die",
    "DiceTerm",
    "KeepOneTerm",
    "Negation",
    "Operation",
    "Parenthesized",
    "Term",
    "Throw",
    "build",
]


@dataclass(frozen=True, slots=True)
class Die:
    """One die: ``rolls`` is its history, the last entry is the value that stands."""

    sides: int
    rolls: tuple[int, ...]
    kept: bool = True
    exploded: bool = False
    from_explosion: bool = False

    @property
    def value(self) -> int:
        return self.rolls[-1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "sides": self.sides,
            "rolls": list(self.rolls),
            "kept": self.kept,
            "exploded": self.exploded,
            "from_explosion": self.from_explosion,
        }


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """``NdM`` with its modifiers; ``value`` is the sum of kept dice or the success count."""

    node: ast.Dice
    dice: tuple[Die, ...]
    value: int
    success: bool | None = None

    def successes(self) -> tuple[bool, ...]:
        """Per die: does it count as a success (only for pools with a comparison)."""
        compare = self.node.compare
        if compare is None or self.node.is_test:
            return (False,) * len(self.dice)
        return tuple(d.kept and compare.matches(d.value) for d in self.dice)

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "dice",
            "notation": str(self.node),
            "label": self.node.label,
            "value": self.value,
            "success": self.success,
            "dice": [d.to_dict() for d in self.dice],
        }


@dataclass(frozen=True, slots=True)
class Throw:
    """One throw of 1o3d10's three dice, as they fell; ``kept_index`` points into ``faces``."""

    faces: tuple[int, int, int]
    kept_index: int

    @property
    def value(self) -> int:
        return self.faces[self.kept_index]

    def to_dict(self) -> dict[str, Any]:
        return {"faces": list(self.faces), "kept_index": self.kept_index}


@dataclass(frozen=True, slots=True)
class KeepOneTerm:
    """1o3d10: every throw of the chain; ``value`` is the sum of the kept dice."""

    node: ast.KeepOne
    throws: tuple[Throw, ...]
    value: int
    fumble: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "keep_one",
            "notation": str(self.node),
            "label": self.node.label,
            "position": self.node.position,
            "value": self.value,
            "fumble": self.fumble,
            "throws": [t.to_dict() for t in self.throws],
        }


@dataclass(frozen=True, slots=True)
class Constant:
    value: int
    label: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"type": "number", "value": self.value, "label": self.label}


@dataclass(frozen=True, slots=True)
class Negation:
    operand: Term
    value: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "neg", "value": self.value, "operand": self.operand.to_dict()}


@dataclass(frozen=True, slots=True)
class Parenthesized:
    inner: Term
    value: int
    label: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "group",
            "value": self.value,
            "label": self.label,
            "inner": self.inner.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class Operation:
    op: str
    left: Term
    right: Term
    value: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "binop",
            "op": self.op,
            "value": self.value,
            "left": self.left.to_dict(),
            "right": self.right.to_dict(),
        }


Term = DiceTerm | KeepOneTerm | Constant | Negation | Parenthesized | Operation


def build(root: ast.Node, records: tuple[Record, ...]) -> Term:
    """Rebuild the tree of one roll from its AST and the roller's records (same order)."""
    return _Builder(iter(records)).build(root)


class _Builder:
    def __init__(self, records: Iterator[Record]) -> None:
        self.records = records

    def build(self, node: ast.Node) -> Term:
        # match, not a dict of methods: each case narrows the type for mypy (commonest first).
        match node:
            case ast.Dice():
                return self._dice(node)
            case ast.Number():
                return self._number(node)
            case ast.BinOp():
                return self._binop(node)
            case ast.KeepOne():
                return self._keep_one(node)
            case ast.Neg():
                return self._neg(node)
            case ast.Group():
                return self._group(node)
            case _:
                assert_never(node)

    def _number(self, node: ast.Number) -> Term:
        return Constant(node.value, node.label)

    def _neg(self, node: ast.Neg) -> Term:
        operand = self.build(node.operand)
        return Negation(operand, -operand.value)

    def _group(self, node: ast.Group) -> Term:
        inner = self.build(node.inner)
        return Parenthesized(inner, inner.value, node.label)

    def _binop(self, node: ast.BinOp) -> Term:
        left, right = self.build(node.left), self.build(node.right)
        a, b = left.value, right.value
        value = {"+": a + b, "-": a - b, "*": a * b}.get(node.op)
        if value is None:
            value = a // b
        return Operation(node.op, left, right, value)

    def _dice(self, node: ast.Dice) -> Term:
        record = next(self.records)
        if node.plain:
            dice = tuple(Die(node.sides, (face,)) for face in record)
        else:
            faces, kept, detail = record
            kept = kept if kept is not None else (True,) * len(faces)
            if detail is None:
                detail = tuple(((face,), False, False) for face in faces)
            dice = tuple(
                Die(node.sides, history, keep, boom, extra)
                for (history, boom, extra), keep in zip(detail, kept, strict=True)
            )
        kept_values = [d.value for d in dice if d.kept]
        compare = node.compare
        if compare is None or node.is_test:
            value = sum(kept_values)
            success = compare.matches(value) if compare is not None else None
            return DiceTerm(node, dice, value, success)
        return DiceTerm(node, dice, sum(1 for v in kept_values if compare.matches(v)))

    def _keep_one(self, node: ast.KeepOne) -> Term:
        record = next(self.records)
        throws = tuple(Throw(faces, node.kept_index(faces)) for faces in record)
        value = sum(t.value for t in throws)
        fumble = value == 1 and fumbles(record[0], node.index)
        return KeepOneTerm(node, throws, value, fumble)

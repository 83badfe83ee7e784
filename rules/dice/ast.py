"""What was written: the parsed expression, cached by its text and printed back as notation.

Each node names the grammar rule it comes from (see ``docs/dice.md``).  Nodes are frozen so
one parsed expression can be shared by every roll of the same text.  ``str(node)`` is the
*normalized* notation: lower case, explicit counts (``d20`` → ``1d20``, ``d%`` → ``1d100``,
``kh`` → ``kh1``), spaces around binary operators, labels kept, comments dropped.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "BinOp",
    "Compare",
    "Dice",
    "Expression",
    "Group",
    "Keep",
    "KeepOne",
    "Neg",
    "Node",
    "Number",
    "Reroll",
    "Selector",
]

SelectorOp = Literal["=", ">=", "<="]
KeepKind = Literal["kh", "kl", "ph", "pl"]
Position = Literal["b", "m", "a"]


def _labelled(text: str, label: str | None) -> str:
    return f"{text} [{label}]" if label else text


@dataclass(frozen=True, slots=True)
class Selector:
    """Which faces a modifier acts on: ``N`` exactly, ``>=N`` N or more, ``<=N`` N or less.

    Always inclusive: the parser stores ``<3`` (below 3) as ``<=2``, so printing it back shows
    the reading applied, whichever convention the writer came from."""

    op: SelectorOp
    value: int

    def matches(self, face: int) -> bool:
        if self.op == "=":
            return face == self.value
        if self.op == ">=":
            return face >= self.value
        return face <= self.value

    def interval(self) -> tuple[float, float]:
        """The matching faces as ``low <= face <= high``: two comparisons on the hot path."""
        if self.op == "=":
            return self.value, self.value
        if self.op == ">=":
            return self.value, math.inf
        return -math.inf, self.value

    def faces(self, sides: int) -> int:
        """How many of the faces ``1..sides`` match (used to refuse endless conditions)."""
        return sum(1 for face in range(1, sides + 1) if self.matches(face))

    def __str__(self) -> str:
        return ("" if self.op == "=" else self.op) + str(self.value)


@dataclass(frozen=True, slots=True)
class Reroll:
    """``rS`` rerolls while the die matches ``S``; ``roS`` rerolls once."""

    selector: Selector
    once: bool

    def __str__(self) -> str:
        return ("ro" if self.once else "r") + str(self.selector)


@dataclass(frozen=True, slots=True)
class Keep:
    """``khN``/``klN`` keep the N highest/lowest dice, ``phN``/``plN`` drop them."""

    kind: KeepKind
    n: int

    def kept(self, count: int) -> int:
        """How many dice of a pool of ``count`` survive."""
        return self.n if self.kind[0] == "k" else count - self.n

    def __str__(self) -> str:
        return f"{self.kind}{self.n}"


@dataclass(frozen=True, slots=True)
class Compare:
    """``>=N``/``<=N`` after dice: count successes in a pool, or test a single die.

    ``>N``/``<N`` are stored as ``>=N+1``/``<=N-1`` (see :class:`Selector`)."""

    op: Literal[">=", "<="]
    target: int

    def matches(self, value: int) -> bool:
        return value >= self.target if self.op == ">=" else value <= self.target

    def __str__(self) -> str:
        return f"{self.op}{self.target}"


@dataclass(frozen=True, slots=True)
class Number:
    """``number := DIGITS`` (at most six digits)."""

    value: int
    label: str | None = None

    def __str__(self) -> str:
        return _labelled(str(self.value), self.label)


@dataclass(frozen=True, slots=True)
class Dice:
    """``dice := [DIGITS] ("d"|"D") (DIGITS|"%") modifier* [compare]``.

    ``explode`` is ``None`` for no explosion; a bare ``!`` is stored as ``>=sides``.
    Modifiers apply in a fixed order, the only order the parser accepts them in: reroll each
    die thrown, explode it (an explosion's extra dice are not rerolled), bound every die to
    ``miN``/``maN``, then keep/drop, then compare.  ``plain`` marks the fast path (no modifier).
    """

    count: int
    sides: int
    reroll: Reroll | None = None
    explode: Selector | None = None
    keep: Keep | None = None
    compare: Compare | None = None
    label: str | None = None
    #: avrae/d20's ``miN``/``maN``: each die shows at least / at most N (after explosions)
    floor: int | None = None
    ceiling: int | None = None

    @property
    def plain(self) -> bool:
        return (
            self.reroll is None
            and self.explode is None
            and self.keep is None
            and self.compare is None
            and self.floor is None
            and self.ceiling is None
        )

    @property
    def clamped(self) -> bool:
        return self.floor is not None or self.ceiling is not None

    def clamp(self, face: int) -> int:
        """``face`` as ``mi``/``ma`` leave it."""
        if self.floor is not None and face < self.floor:
            face = self.floor
        if self.ceiling is not None and face > self.ceiling:
            face = self.ceiling
        return face

    @property
    def is_test(self) -> bool:
        """A single die with a comparison is a pass/fail test, not a success count."""
        return self.compare is not None and self.count == 1

    def __str__(self) -> str:
        text = f"{self.count}d{self.sides}"
        if self.reroll is not None:
            text += str(self.reroll)
        if self.explode is not None:
            on_max = self.explode.value == self.sides and self.explode.op != "<="
            if on_max:  # "!" alone, or "!N" when a comparison follows (">=" would bind to "!")
                text += "!" if self.compare is None else f"!{self.sides}"
            else:
                text += f"!{self.explode}"
        if self.floor is not None:
            text += f"mi{self.floor}"
        if self.ceiling is not None:
            text += f"ma{self.ceiling}"
        if self.keep is not None:
            text += str(self.keep)
        if self.compare is not None:
            text += str(self.compare)
        return _labelled(text, self.label)


@dataclass(frozen=True, slots=True)
class KeepOne:
    """``keep_one := "1o3d10" ["a"|"m"|"b"]``: Núcleo's roll (seed 002, "Tiradas").

    Throw 3d10 and keep the lowest (``b``), middle (``m``, the default) or highest
    (``a``) die; a kept 10 adds and throws all three again (at most 20 re-throws).
    """

    position: Position = "m"
    label: str | None = None

    @property
    def index(self) -> int:
        """Index of the kept die in the ascending-sorted throw."""
        return {"b": 0, "m": 1, "a": 2}[self.position]

    def kept_index(self, faces: tuple[int, int, int]) -> int:
        """Which of the dice, as they fell, this roll keeps (of equal dice, the earlier one)."""
        return sorted(range(3), key=lambda i: (faces[i], i))[self.index]

    def __str__(self) -> str:
        return _labelled("1o3d10" + ("" if self.position == "m" else self.position), self.label)


@dataclass(frozen=True, slots=True)
class Neg:
    """``unary := "-" unary``."""

    operand: Node

    def __str__(self) -> str:
        return f"-{self.operand}"


@dataclass(frozen=True, slots=True)
class Group:
    """``"(" sum ")"``, kept so the notation prints back as written."""

    inner: Node
    label: str | None = None

    def __str__(self) -> str:
        return _labelled(f"({self.inner})", self.label)


@dataclass(frozen=True, slots=True)
class BinOp:
    """``sum := product (("+"|"-") product)*``, ``product := unary (("*"|"/") unary)*``.

    ``/`` is floor division (rounds down, as tabletop games halve).
    """

    op: Literal["+", "-", "*", "/"]
    left: Node
    right: Node

    def __str__(self) -> str:
        return f"{self.left} {self.op} {self.right}"


Node = Number | Dice | KeepOne | Neg | Group | BinOp


@dataclass(frozen=True, slots=True)
class Expression:
    """``expression := sum [comment]``: the root, with facts computed once at parse time.

    ``min_dice``/``max_dice`` bound how many dice a roll throws (``max_dice`` is ``None``
    when explosions or open rerolls make it unbounded); ``labels`` are in written order.

    ``plans`` is a cache for work that depends only on the expression, done once per parsed
    text and shared by every roll of it: the roller's fast path (key ``Roller``) and the
    stringifiers' render plans (keyed by stringifier class).  It is not part of the value:
    equality ignores it.
    """

    root: Node
    comment: str | None
    notation: str
    labels: tuple[str, ...]
    min_dice: int
    max_dice: int | None
    plans: dict[type, Callable[..., Any]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def label(self) -> str | None:
        return ", ".join(self.labels) if self.labels else None

    def __str__(self) -> str:
        return self.notation

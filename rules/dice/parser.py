"""A hand-written recursive-descent parser: text in, :class:`~rules.dice.ast.Expression` out.

Hand-written rather than generated because it needs no dependency, runs in microseconds,
and can say exactly which column broke and what would have been accepted there.  Grammar
(case-insensitive; ``D`` accepted as in Spanish books)::

    expression := sum [comment]
    comment    := "#" TEXT | WHITESPACE LETTER TEXT     (free text after a complete roll)
    sum        := product (("+" | "-") product)*
    product    := unary (("*" | "/") unary)*
    unary      := ("-" | "+") unary | atom
    atom       := (number | dice | keep_one | "(" sum ")") [label]
    label      := "[" TEXT "]"
    keep_one   := "1o3d10" ["a" | "m" | "b"]
    dice       := [DIGITS] "d" (DIGITS | "%") modifier* [compare]
    modifier   := ("k" | "p" | "d") ("h" | "l") [DIGITS]  |  "r" ["o" | "r"] selector
                | ("!" | "e") [selector]  |  ("mi" | "ma") DIGITS
    selector   := [">" | "<" | ">=" | "<="] DIGITS
    compare    := (">" | "<" | ">=" | "<=") DIGITS

Comparison signs mean what they mean in arithmetic (and in avrae/d20): ``<3`` is *below* 3,
``>4`` *above* 4, ``<=3``/``>=4`` include the number.  The tree stores every condition in its
inclusive form (``<3`` on a die is ``<=2``), so the normalized notation, and the breakdown that
starts with it, always shows the reading that was applied.  ``e`` and ``rr`` are avrae/d20's
spellings of ``!`` and ``r``, ``dh``/``dl`` Roll20's of ``ph``/``pl``.  Modifiers must be written in the order they apply (reroll,
explode, keep/drop, then the comparison): another order would mean something else in d20, so
it is refused with the order that works (docs/dice.md).
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache
from typing import Any, Literal

from .ast import (
    BinOp,
    Compare,
    Dice,
    Expression,
    Group,
    Keep,
    KeepKind,
    KeepOne,
    Neg,
    Node,
    Number,
    Position,
    Reroll,
    Selector,
)
from .errors import DiceError
from .limits import (
    MAX_DEPTH,
    MAX_DICE_PER_TERM,
    MAX_DIGITS,
    MAX_LENGTH,
    MAX_SIDES,
    MAX_TERMS,
    check,
)

__all__ = ["parse"]

_EXPECT_ATOM = "0-9, d, 1o3d10, ("
_EXPECT_AFTER = "+ - * / ) [ #"
_DICE_LETTERS = frozenset("dD")
# What a character may be, typed as the tree's literals (a lookup narrows ``str`` for mypy).
_SUM_OPS: dict[str, Literal["+", "-"]] = {"+": "+", "-": "-"}
_PRODUCT_OPS: dict[str, Literal["*", "/"]] = {"*": "*", "/": "/"}
_POSITIONS: dict[str, Position] = {"a": "a", "m": "m", "b": "b"}
#: ``dh``/``dl`` are Roll20's spellings of ``ph``/``pl`` (drop highest, drop lowest).
_KEEP_KINDS: dict[str, KeepKind] = {
    "kh": "kh",
    "kl": "kl",
    "ph": "ph",
    "pl": "pl",
    "dh": "ph",
    "dl": "pl",
}
_NOTATION_WORD = re.compile(
    r"(?:\d*d(?:\d|%)|[kpd][hl]\d*$|r[or]?[<>]?=?\d|e[<>]?=?\d|m[ia]\d|!)", re.IGNORECASE
)
#: The order modifiers apply in; written in another order they are refused (docs/dice.md).
_APPLY_ORDER = {"reroll": 0, "explode": 1, "floor": 2, "ceiling": 2, "keep": 3}
#: The largest number that prints back as digits (MAX_DIGITS nines).
_LARGEST = 10**MAX_DIGITS - 1


def _is_digit(char: str) -> bool:
    """ASCII digits only: ``str.isdigit`` also accepts ``²`` and other scripts."""
    return len(char) == 1 and "0" <= char <= "9"


@lru_cache(maxsize=2048)
def parse(expression: str) -> Expression:
    """Parse ``expression`` (cached by its exact text) or raise :class:`DiceError`."""
    if len(expression) > MAX_LENGTH:
        raise DiceError("too_long", None, {"length": len(expression), "limit": MAX_LENGTH})
    return _Parser(expression).parse()


class _Parser:
    """One parse; ``pos`` is a 0-based index, errors report 1-based columns."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.depth = 0
        self.terms = 0
        self.labels: list[str] = []

    # -- helpers ---------------------------------------------------------------------------
    def _peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def _skip_space(self) -> None:
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos].isspace():
            pos += 1
        self.pos = pos

    def _fail(self, expected: str) -> DiceError:
        if self.pos >= len(self.text):
            return DiceError("unexpected_end", self.pos + 1, {"expected": expected})
        char = self.text[self.pos]
        return DiceError("unexpected_char", self.pos + 1, {"char": char, "expected": expected})

    def _digits(self, expected: str = "0-9") -> int:
        start = self.pos
        text = self.text
        while self.pos < len(text) and "0" <= text[self.pos] <= "9":
            self.pos += 1
        if self.pos == start:
            raise self._fail(expected)
        if self.pos - start > MAX_DIGITS:
            raise DiceError(
                "number_too_long", start + 1, {"digits": self.pos - start, "limit": MAX_DIGITS}
            )
        return int(text[start : self.pos])

    def _enter(self, column: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise DiceError("too_deep", column, {"limit": MAX_DEPTH})

    # -- grammar -----------------------------------------------------------------------------
    def parse(self) -> Expression:
        self._skip_space()
        if self._peek() in ("", "#"):
            raise DiceError("empty", None, {})
        root = self._sum()
        comment = self._comment()
        if not isinstance(root, Dice) and _has_test(root):
            raise DiceError("test_in_expression", None, {})
        low, high = check(root)
        return Expression(
            root=root,
            comment=comment,
            notation=str(root),
            labels=tuple(self.labels),
            min_dice=low,
            max_dice=high,
        )

    def _comment(self) -> str | None:
        before = self.pos
        self._skip_space()
        char = self._peek()
        if char == "":
            return None
        if char == "#":
            return self.text[self.pos + 1 :].strip() or None
        if self.pos > before and char.isalpha() and not self._looks_like_notation():
            return self.text[self.pos :].strip()
        raise self._fail(_EXPECT_AFTER)

    def _looks_like_notation(self) -> bool:
        """Free text may not start like dice (``1d20 d6``: a missing operator) or like a
        modifier cut off by a space (``4d6 kh3``), which would otherwise be lost silently."""
        word = self.text[self.pos :].split(maxsplit=1)[0]
        return _NOTATION_WORD.match(word) is not None

    def _sum(self) -> Node:
        node = self._product()
        while True:
            save = self.pos
            self._skip_space()
            op = _SUM_OPS.get(self._peek())
            if op is None:
                self.pos = save  # leave the space: it tells free text from a typo
                return node
            self.pos += 1
            node = BinOp(op, node, self._product())

    def _product(self) -> Node:
        node = self._unary()
        while True:
            save = self.pos
            self._skip_space()
            op = _PRODUCT_OPS.get(self._peek())
            if op is None:
                self.pos = save
                return node
            self.pos += 1
            node = BinOp(op, node, self._unary())

    def _unary(self) -> Node:
        self._skip_space()
        sign = self._peek()
        if sign in ("-", "+"):
            self._enter(self.pos + 1)
            self.pos += 1
            operand = self._unary()
            self.depth -= 1
            return Neg(operand) if sign == "-" else operand
        return self._atom()

    def _atom(self) -> Node:
        self._skip_space()
        char = self._peek()
        start = self.pos
        if char == "(":
            self._enter(start + 1)
            self.pos += 1
            inner = self._sum()
            self._skip_space()
            if self._peek() != ")":
                raise self._fail(")")
            self.pos += 1
            self.depth -= 1
            node: Node = Group(inner)
        elif _is_digit(char) or char in _DICE_LETTERS:
            self.terms += 1
            if self.terms > MAX_TERMS:
                raise DiceError("too_many_terms", start + 1, {"limit": MAX_TERMS})
            node = self._number_or_dice()
        else:
            raise self._fail(_EXPECT_ATOM)
        label = self._label()
        if label is None:
            return node
        if isinstance(node, Group):
            return Group(node.inner, label)
        return type(node)(**{**_fields(node), "label": label})

    def _label(self) -> str | None:
        save = self.pos
        self._skip_space()
        if self._peek() != "[":
            self.pos = save
            return None
        end = self.text.find("]", self.pos + 1)
        if end < 0:
            self.pos = len(self.text)
            raise self._fail("]")
        label = " ".join(self.text[self.pos + 1 : end].split()) or None
        self.pos = end + 1
        if label is not None:
            self.labels.append(label)
        return label

    def _number_or_dice(self) -> Node:
        start = self.pos
        count = self._digits() if _is_digit(self._peek()) else None
        char = self._peek()
        if char in ("o", "O") and count is not None:
            return self._keep_one(start, count)
        if char not in _DICE_LETTERS:
            return Number(count if count is not None else 0)
        self.pos += 1
        if self._peek() == "%":
            self.pos += 1
            sides = 100
        else:
            sides_at = self.pos
            sides = self._digits("0-9, %")
            if sides == 0:
                raise DiceError("zero_sides", sides_at + 1, {})
            if sides > MAX_SIDES:
                raise DiceError(
                    "too_many_sides", sides_at + 1, {"sides": sides, "limit": MAX_SIDES}
                )
        if count is None:
            count = 1
        if count == 0:
            raise DiceError("zero_dice", start + 1, {})
        if count > MAX_DICE_PER_TERM:
            raise DiceError(
                "too_many_dice", start + 1, {"count": count, "limit": MAX_DICE_PER_TERM}
            )
        return self._modifiers(Dice(count, sides))

    def _keep_one(self, start: int, count: int) -> KeepOne:
        self.pos += 1
        pool = self._digits("3")
        if self._peek() not in _DICE_LETTERS:
            raise self._fail("d")
        self.pos += 1
        sides = self._digits("10")
        if (count, pool, sides) != (1, 3, 10):
            raise DiceError("bad_keep_one", start + 1, {"written": self.text[start : self.pos]})
        position = _POSITIONS.get(self._peek().lower())
        if position is not None:
            nxt = self.text[self.pos + 1 : self.pos + 2]
            if not nxt.isalpha():  # "1o3d10 alto" is free text, "1o3d10alto" is a typo
                self.pos += 1
                return KeepOne(position)
            self.pos += 1
            raise self._fail(_EXPECT_AFTER)
        return KeepOne("m")

    def _modifiers(self, dice: Dice) -> Dice:
        fields = _fields(dice)
        sides = dice.sides
        written: list[tuple[str, int, int]] = []  # (field, start, end), in written order
        while True:
            at = self.pos
            char = self._peek().lower()
            if char in ("k", "p") or (char == "d" and self._next_is_high_or_low()):
                self.pos += 1
                kind = _KEEP_KINDS.get(char + self._peek().lower())
                if kind is None:
                    raise self._fail("h, l")
                self.pos += 1
                n = self._digits() if _is_digit(self._peek()) else 1
                keep = Keep(kind, n)
                name = self._set(fields, "keep", keep, at)
                kept = keep.kept(dice.count)
                if n < 1 or kept < 1 or n > dice.count:
                    raise DiceError(
                        "keep_out_of_range", at + 1, {"modifier": str(keep), "count": dice.count}
                    )
            elif char == "r":
                self.pos += 1
                second = self._peek().lower()
                once = second == "o"
                if once or second == "r":  # "ro" once; "rr" is d20's spelling of "r"
                    self.pos += 1
                selector = self._selector(required=True)
                assert selector is not None  # required: _selector raised otherwise
                reroll = Reroll(selector, once)
                name = self._set(fields, "reroll", reroll, at)
                # Rerolling every face once still ends (1d1ro1); for ever, never.
                if not once and selector.faces(sides) == sides:
                    raise DiceError("always_matches", at + 1, {"modifier": str(reroll)})
            elif char == "m" and self._peek_at(1).lower() in ("i", "a"):
                self.pos += 2
                field = "floor" if self.text[self.pos - 1].lower() == "i" else "ceiling"
                value = self._digits()
                name = self._set(fields, field, value, at)
                if not 1 <= value <= sides:
                    raise DiceError(
                        "clamp_out_of_range",
                        at + 1,
                        {"modifier": self.text[at : self.pos], "sides": sides},
                    )
                if (fields["floor"] or 0) > (fields["ceiling"] or sides):
                    raise DiceError(
                        "clamp_out_of_range",
                        at + 1,
                        {"modifier": self.text[at : self.pos], "sides": sides},
                    )
            elif char == "!" or char == "e":
                self.pos += 1
                selector = self._selector(required=False) or Selector(">=", sides)
                name = self._set(fields, "explode", selector, at)
                if selector.faces(sides) == sides:
                    raise DiceError("always_matches", at + 1, {"modifier": f"!{selector}"})
            else:
                break
            written.append((name, at, self.pos))
        self._compare(fields)
        self._check_order(written, fields)
        return Dice(**fields)

    def _peek_at(self, offset: int) -> str:
        at = self.pos + offset
        return self.text[at] if at < len(self.text) else ""

    def _next_is_high_or_low(self) -> bool:
        return self.text[self.pos + 1 : self.pos + 2].lower() in ("h", "l")

    def _check_order(self, written: list[tuple[str, int, int]], fields: dict[str, Any]) -> None:
        """Refuse modifiers written out of the order they apply in, naming the order that works.

        ``4d6kh3e6`` means "keep 3, then explode the kept sixes" in avrae/d20 and "explode, then
        keep 3" here: rather than roll something other than what was written, say so."""
        for (before, start, end), (after, at, stop) in itertools.pairwise(written):
            if _APPLY_ORDER[after] < _APPLY_ORDER[before]:
                raise DiceError(
                    "modifier_order",
                    at + 1,
                    {
                        "modifier": self.text[at:stop],
                        "after": self.text[start:end],
                        "suggestion": str(Dice(**{**fields, "label": None})),
                    },
                )

    def _set(self, fields: dict[str, Any], name: str, value: object, at: int) -> str:
        if fields[name] is not None:
            raise DiceError("duplicate_modifier", at + 1, {"modifier": self.text[at : self.pos]})
        fields[name] = value
        return name

    def _selector(self, *, required: bool) -> Selector | None:
        """``N``, ``<N``, ``>N``, ``<=N`` or ``>=N``, stored inclusive (``<3`` → ``<=2``).

        A strict bound no face reaches stays within what prints back as digits (``<0`` →
        ``<=0``, ``>999999`` → ``>=999999``): the same faces match."""
        char = self._peek()
        if char == ">" or char == "<":
            self.pos += 1
            inclusive = self._peek() == "="
            if inclusive:
                self.pos += 1
            value = self._digits()
            if char == ">":
                return Selector(">=", value if inclusive else min(value + 1, _LARGEST))
            return Selector("<=", value if inclusive else max(value - 1, 0))
        if not _is_digit(char):
            if required:
                raise self._fail("0-9, <, >")
            return None
        return Selector("=", self._digits())

    def _compare(self, fields: dict[str, Any]) -> None:
        """``>N``/``<N`` (strictly) or ``>=N``/``<=N``, stored inclusive like selectors."""
        char = self._peek()
        if char != ">" and char != "<":
            return
        self.pos += 1
        inclusive = self._peek() == "="
        if inclusive:
            self.pos += 1
        target = self._digits()
        if char == ">":
            fields["compare"] = Compare(">=", target if inclusive else min(target + 1, _LARGEST))
        else:
            fields["compare"] = Compare("<=", target if inclusive else max(target - 1, 0))


def _fields(node: Node) -> dict[str, Any]:
    return {name: getattr(node, name) for name in node.__slots__}


def _has_test(node: Node) -> bool:
    """A pass/fail test (``1d20<=12``) must be the whole expression: its total is the die."""
    if isinstance(node, Dice):
        return node.is_test
    if isinstance(node, Neg):
        return _has_test(node.operand)
    if isinstance(node, Group):
        return _has_test(node.inner)
    if isinstance(node, BinOp):
        return _has_test(node.left) or _has_test(node.right)
    return False

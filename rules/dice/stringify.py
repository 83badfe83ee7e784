"""Pluggable breakdowns of a roll: plain text for logs and tests, Markdown for Discord.

The base class walks the expression tree with a dispatch table and leaves the look of one
die to subclasses.  Breakdowns use symbols only (no words), so they read the same in every
language: ``~x~``/``~~x~~`` a dropped or rerolled-away value, ``x!`` a die that exploded
(or a kept 10 that re-threw 1o3d10), ``→`` a reroll, ``✓``/``✗`` a test's outcome.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from typing import assert_never

from .expression import (
    Constant,
    DiceTerm,
    KeepOneTerm,
    Negation,
    Operation,
    Parenthesized,
    Term,
)
from .result import RollResult

__all__ = ["MarkdownStringifier", "PlainStringifier", "Stringifier"]

_MARKDOWN = re.compile(r"[\\*_~`|>\[]")


class Stringifier(ABC):
    """Turns a :class:`RollResult` into one line: ``<breakdown> = <total>``."""

    def stringify(self, result: RollResult) -> str:
        text = f"{self.term(result.tree)} = {self.total(result.total)}"
        if result.success is not None:
            text += " ✓" if result.success else " ✗"
        return text

    def term(self, node: Term) -> str:
        # match, not a dict of methods: each case narrows the type for mypy (commonest first).
        match node:
            case DiceTerm():
                return self._dice(node)
            case Constant():
                return self._constant(node)
            case Operation():
                return self._operation(node)
            case KeepOneTerm():
                return self._keep_one(node)
            case Negation():
                return self._negation(node)
            case Parenthesized():
                return self._parenthesized(node)
            case _:
                assert_never(node)

    def labelled(self, text: str, label: str | None) -> str:
        return f"{text} [{self.escape(label)}]" if label else text

    # -- look of a single value: what subclasses decide --------------------------------------
    def escape(self, text: str) -> str:
        """User-written text (labels) as it must appear in the output."""
        return text

    @abstractmethod
    def face(self, value: int, sides: int) -> str:
        """A standing value (Markdown bolds the extremes)."""

    @abstractmethod
    def dropped(self, text: str) -> str:
        """A value that does not count: dropped by keep/drop or rerolled away."""

    @abstractmethod
    def counted(self, text: str) -> str:
        """A die that counts as a success in a pool (``5d10>=7``)."""

    @abstractmethod
    def total(self, value: int) -> str:
        """The final total."""

    # -- nodes ---------------------------------------------------------------------------------
    def _constant(self, node: Constant) -> str:
        return self.labelled(str(node.value), node.label)

    def _negation(self, node: Negation) -> str:
        return f"-{self.term(node.operand)}"

    def _parenthesized(self, node: Parenthesized) -> str:
        return self.labelled(f"({self.term(node.inner)})", node.label)

    def _operation(self, node: Operation) -> str:
        return f"{self.term(node.left)} {node.op} {self.term(node.right)}"

    def _dice(self, node: DiceTerm) -> str:
        parts = []
        for die, success in zip(node.dice, node.successes(), strict=True):
            history = [self.dropped(str(v)) for v in die.rolls[:-1]]
            text = self.face(die.value, die.sides) + ("!" if die.exploded else "")
            if success:
                text = self.counted(text)
            if not die.kept:
                text = self.dropped(text)
            parts.append("→".join([*history, text]))
        notation = str(node.node)
        if node.node.label:
            notation = notation[: -len(node.node.label) - 3]
        return self.labelled(f"{notation} ({', '.join(parts)})", node.node.label)

    def _keep_one(self, node: KeepOneTerm) -> str:
        throws = []
        for throw in node.throws:
            parts = []
            for i, value in enumerate(throw.faces):
                if i == throw.kept_index:
                    rethrow = value == 10 and throw is not node.throws[-1]
                    parts.append(self.face(value, 10) + ("!" if rethrow else ""))
                else:
                    parts.append(self.dropped(str(value)))
            throws.append(", ".join(parts))
        notation = "1o3d10" + ("" if node.node.position == "m" else node.node.position)
        return self.labelled(f"{notation} ({' | '.join(throws)})", node.node.label)


class PlainStringifier(Stringifier):
    """For logs and tests: ``4d6kh3 (6, 5, 3, ~1~) = 14``."""

    def face(self, value: int, sides: int) -> str:
        return str(value)

    def dropped(self, text: str) -> str:
        return f"~{text}~"

    def counted(self, text: str) -> str:
        return f"{text}*"

    def total(self, value: int) -> str:
        return str(value)


class MarkdownStringifier(Stringifier):
    """For Discord: ``4d6kh3 (**6**, 5, 3, ~~**1**~~) = `14```."""

    def escape(self, text: str) -> str:
        """Labels are user text: their ``*``, ``_``, ``~``... must not restyle the line."""
        return _MARKDOWN.sub(r"\\\g<0>", text)

    def face(self, value: int, sides: int) -> str:
        return f"**{value}**" if value in (1, sides) else str(value)

    def dropped(self, text: str) -> str:
        return f"~~{text}~~"

    def counted(self, text: str) -> str:
        return f"__{text}__"

    def total(self, value: int) -> str:
        return f"`{value}`"

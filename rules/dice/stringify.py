"""Pluggable breakdowns of a roll: plain text for logs and tests, Markdown for Discord.

Breakdowns use symbols only (no words), so they read the same in every language:
``~~x~~`` a dropped or rerolled-away value (in every breakdown, plain or Markdown:
Discord strikes through only a doubled tilde, and the plain breakdowns of checks, initiative
and spells are shown on Discord as they are), ``x!`` a die that exploded (or a kept 10
that re-threw 1o3d10), ``→`` a reroll, ``✓``/``✗`` a test's outcome.

Every command that rolls shows its breakdown, so rendering is on the hot path and costs more
than the roll itself unless done with care.  A breakdown is static text (notation,
operators, constants, labels) around one rendered part per dice term, so the first time a
stringifier class meets a parsed expression it compiles a *render plan*: the static text
joined once, and per dice term a small function specialised for its shape (one plain die,
a plain pool, keep/drop only, explosions only, 1o3d10, or the general case) that reads the
roller's compact record directly.  No expression tree is built and nothing is walked per
roll.  The plan lives on the parsed expression (``Expression.plans``), which the parse cache
shares between rolls of the same text.

Subclasses decide only the look of single values (:meth:`Stringifier.face`,
:meth:`~Stringifier.dropped`, :meth:`~Stringifier.counted`, :meth:`~Stringifier.total`,
:meth:`~Stringifier.escape`).  Plans and face tables are cached per class, so those methods
must depend on their arguments alone.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, ClassVar, TypeAlias

from .ast import BinOp, Dice, Expression, Group, KeepOne, Neg, Node, Number

if TYPE_CHECKING:
    from .result import Record, RollResult

    #: Renders one dice term's record (see :mod:`rules.dice.roller`) as the text inside
    #: its parentheses.
    Render: TypeAlias = Callable[[Record], str]
    #: Renders a whole roll's records as its breakdown up to and including ``" = "``.
    Plan: TypeAlias = Callable[[tuple[Record, ...]], str]

__all__ = ["MARKDOWN", "PLAIN", "MarkdownStringifier", "PlainStringifier", "Stringifier"]

_MARKDOWN = re.compile(r"[\\*_~`|>\[]")

#: Dice with at most this many sides look their faces up in a precomputed table (shared by
#: every plan of a class); bigger dice format each face as it comes.  Bounded so that an
#: unusual die costs little memory and a hostile expression little compile time.
TABLE_SIDES = 100


class Stringifier(ABC):
    """Turns a :class:`RollResult` into one line: ``<breakdown> = <total>``."""

    #: Per class: face lookups by ``(sides, look)``, and both texts of a 1o3d10 throw by
    #: ``(kept position, faces)``.
    _tables: ClassVar[dict[tuple[int, str], Callable[[int], str]]] = {}
    _throws: ClassVar[dict[tuple[int, tuple[int, int, int]], tuple[str, str]]] = {}

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls._tables, cls._throws = {}, {}

    def stringify(self, result: RollResult) -> str:
        plans = result.ast.plans
        plan = plans.get(type(self))
        if plan is None:
            plan = plans[type(self)] = self.plan(result.ast)
        text = plan(result.records) + self.total(result.total)
        if result.success is None:
            return text
        return text + (" ✓" if result.success else " ✗")

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

    # -- compiling a plan ----------------------------------------------------------------------
    def plan(self, expression: Expression) -> Plan:
        """The render plan of ``expression``: its static text around one render per dice term.

        Dice terms are rendered in the order the roller records them (left to right), so
        the i-th render reads the i-th record.
        """
        static = [""]
        renders: list[Render] = []
        self._compile(expression.root, static, renders)
        static[-1] += " = "
        return _assemble(tuple(static), tuple(renders))

    def _compile(self, node: Node, static: list[str], renders: list[Render]) -> None:
        """Append ``node``'s text to ``static[-1]``; a dice term opens a new static part."""
        if isinstance(node, Number):
            static[-1] += self.labelled(str(node.value), node.label)
        elif isinstance(node, Neg):
            static[-1] += "-"
            self._compile(node.operand, static, renders)
        elif isinstance(node, Group):
            static[-1] += "("
            self._compile(node.inner, static, renders)
            static[-1] += self.labelled(")", node.label)
        elif isinstance(node, BinOp):
            self._compile(node.left, static, renders)
            static[-1] += f" {node.op} "
            self._compile(node.right, static, renders)
        elif isinstance(node, Dice):
            notation = str(node)
            if node.label:
                notation = notation[: -len(node.label) - 3]
            static[-1] += notation + " ("
            renders.append(self._dice_render(node))
            static.append(self.labelled(")", node.label))
        else:
            notation = "1o3d10" + ("" if node.position == "m" else node.position)
            static[-1] += notation + " ("
            renders.append(self._keep_one_render(node))
            static.append(self.labelled(")", node.label))

    def _dice_render(self, node: Dice) -> Render:
        """The cheapest render that gives ``node``'s shape the same text as the general one."""
        face = self._faces(node.sides, "face")
        if node.plain:  # the record is the faces
            if node.count == 1:
                return lambda record: face(record[0])
            return lambda record: ", ".join(map(face, record))
        if node.reroll is None and node.compare is None and not node.clamped:  # no history
            if node.explode is None:  # keep/drop only: record (faces, kept flags, None)
                dropped = self._faces(node.sides, "dropped")
                return lambda record: ", ".join(
                    [
                        face(v) if k else dropped(v)
                        for v, k in zip(record[0], record[1], strict=True)
                    ]
                )
            if node.keep is None:  # explosions only: record (faces, None, details)
                boom = self._faces(node.sides, "boom")
                return lambda record: ", ".join(
                    [
                        boom(v) if d[1] else face(v)
                        for v, d in zip(record[0], record[2], strict=True)
                    ]
                )
        if node.explode is None and node.keep is None and node.compare is None and not node.clamped:
            return self._reroll_render(node.sides, face)
        return partial(self._render_modified, node, face)

    def _reroll_render(self, sides: int, face: Callable[[int], str]) -> Render:
        """Rerolls only: record (faces, None, details); a die's rerolled-away values struck
        through before the one that stands, as :meth:`_render_modified` writes them."""
        dropped = self.dropped
        gone: Callable[[int], str] = (
            ("", *(dropped(str(v)) for v in range(1, sides + 1))).__getitem__
            if sides <= TABLE_SIDES
            else lambda v: dropped(str(v))
        )

        def render(record: Record) -> str:
            parts = []
            for value, (history, _boom, _extra) in zip(record[0], record[2], strict=True):
                if len(history) == 1:
                    parts.append(face(value))
                else:
                    parts.append("→".join([*map(gone, history[:-1]), face(value)]))
            return ", ".join(parts)

        return render

    def _render_modified(self, node: Dice, face: Callable[[int], str], record: Record) -> str:
        """Any dice term with modifiers: each die's history, marks, success and keep flag."""
        faces, kept, detail = record
        counts = node.compare if not node.is_test else None  # a pool counting successes
        parts = []
        for i, value in enumerate(faces):
            history, exploded, _ = detail[i] if detail is not None else ((value,), False, False)
            text = face(value) + "!" if exploded else face(value)
            standing = kept is None or kept[i]
            if counts is not None and standing and counts.matches(value):
                text = self.counted(text)
            if not standing:
                text = self.dropped(text)
            if len(history) > 1:
                text = "→".join([*(self.dropped(str(v)) for v in history[:-1]), text])
            parts.append(text)
        return ", ".join(parts)

    def _faces(self, sides: int, look: str) -> Callable[[int], str]:
        """Face value → its text as a standing die, a dropped die, or a die that exploded."""

        def text(value: int) -> str:
            shown = self.face(value, sides)
            if look == "dropped":
                return self.dropped(shown)
            return shown + "!" if look == "boom" else shown

        if sides > TABLE_SIDES:
            return text
        key = (sides, look)
        table = self._tables.get(key)
        if table is None:
            table = self._tables[key] = ("", *map(text, range(1, sides + 1))).__getitem__
        return table

    def _keep_one_render(self, node: KeepOne) -> Render:
        """1o3d10: throws joined by ``|``; a kept 10 that threw again is marked ``!``."""
        memo, index = self._throws, node.index

        def throw(faces: tuple[int, int, int]) -> tuple[str, str]:
            texts = memo.get((index, faces))
            return texts if texts is not None else self._throw(node, faces)

        def render(record: Record) -> str:
            if len(record) == 1:  # the usual single throw
                return throw(record[0])[0]
            last = len(record) - 1
            return " | ".join([throw(faces)[i != last] for i, faces in enumerate(record)])

        return render

    def _throw(self, node: KeepOne, faces: tuple[int, int, int]) -> tuple[str, str]:
        """One throw's text as the last of its chain and as one that threw again, memoized
        per class by ``(kept position, faces)``: at most 3,000 entries."""
        kept = node.kept_index(faces)
        parts = [self.dropped(str(value)) for value in faces]
        parts[kept] = self.face(faces[kept], 10)
        last = ", ".join(parts)
        if faces[kept] == 10:
            parts[kept] += "!"
        texts = self._throws[(node.index, faces)] = (last, ", ".join(parts))
        return texts


def _assemble(static: tuple[str, ...], renders: tuple[Render, ...]) -> Plan:
    """Join the static parts and the renders of one roll's records, in order."""
    if not renders:
        text = static[0]
        return lambda records: text
    if len(renders) == 1:
        (render,), (before, after) = renders, static
        return lambda records: before + render(records[0]) + after
    first, rest = static[0], static[1:]

    def plan(records: tuple[Record, ...]) -> str:
        pieces = [first]
        for render, record, text in zip(renders, records, rest, strict=True):
            pieces.append(render(record))
            pieces.append(text)
        return "".join(pieces)

    return plan


class PlainStringifier(Stringifier):
    """For logs, tests and the breakdowns inside checks: ``4d6kh3 (6, 5, 3, ~~1~~) = 14``.

    Its dropped values use Discord's strike-through (``~~x~~``) like :class:`MarkdownStringifier`
    does: a check, an initiative or a spell shows this breakdown on Discord, where a single
    tilde would print literally (issue 13)."""

    def face(self, value: int, sides: int) -> str:
        return str(value)

    def dropped(self, text: str) -> str:
        return f"~~{text}~~"

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


#: The stringifiers :class:`RollResult` uses for ``str()`` and ``markdown()``.
PLAIN = PlainStringifier()
MARKDOWN = MarkdownStringifier()

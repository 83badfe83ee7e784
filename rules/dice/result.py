"""The outcome of one roll: the numbers callers need, and the breakdown on demand.

The result keeps the parsed expression and the compact records of what each dice term
threw.  The full expression tree (:mod:`rules.dice.expression`) is built from them only
when :meth:`RollResult.to_dict` or :attr:`RollResult.tree` is used, so rolls that only need
a total stay cheap; ``str()`` and :meth:`RollResult.markdown` render straight from the
records through a plan compiled once per expression (:mod:`rules.dice.stringify`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .stringify import MARKDOWN, PLAIN

if TYPE_CHECKING:
    from .ast import Expression
    from .expression import Term

__all__ = ["RESULT_FIELDS", "RollResult", "make_result"]


#: What the roller notes about one dice term (faces, rethrows…), read back by
#: :func:`rules.dice.expression.build`; its shape depends on the term.
Record = tuple[Any, ...]


@dataclass(frozen=True, slots=True, repr=False)
class RollResult:
    """One roll.

    ``total`` is the value (a success count for pools like ``5d10>=7``; the die for a
    test like ``1d20<=12``, whose outcome is ``success``).  ``fumble`` is set only by a
    1o3d10 term whose first throw is a pifia; ``explosions`` counts exploding dice and
    1o3d10 re-throws.  ``label`` joins the written ``[labels]`` in order.
    """

    total: int
    fumble: bool
    explosions: int
    success: bool | None
    ast: Expression = field(repr=False)
    records: tuple[Record, ...] = field(repr=False)

    # Read from the (cached, shared) AST rather than stored: fewer fields make every roll
    # cheaper to build, and these never differ between two rolls of the same text.
    @property
    def expression(self) -> str:
        """The normalized notation (``d20+5`` → ``1d20 + 5``), without the comment."""
        return self.ast.notation

    @property
    def label(self) -> str | None:
        return self.ast.label

    @property
    def comment(self) -> str | None:
        return self.ast.comment

    def __repr__(self) -> str:
        return (
            f"RollResult({self.expression!r}, total={self.total}, fumble={self.fumble}, "
            f"explosions={self.explosions}, success={self.success})"
        )

    def is_critical(self, difficulty: int) -> bool:
        """Seed 002 "Críticos y Pifias": a critical beats the difficulty by 10 or more."""
        return self.total >= difficulty + 10

    @property
    def tree(self) -> Term:
        """The expression tree: every die with its history and kept/dropped flag."""
        from .expression import build

        return build(self.ast.root, self.records)

    def __str__(self) -> str:
        return PLAIN.stringify(self)

    def markdown(self) -> str:
        """Discord Markdown: dropped dice struck through, explosions marked, extremes bold."""
        return MARKDOWN.stringify(self)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-compatible record of the roll and its whole tree, for the audit log."""
        return {
            "expression": self.expression,
            "total": self.total,
            "fumble": self.fumble,
            "explosions": self.explosions,
            "label": self.label,
            "comment": self.comment,
            "success": self.success,
            "tree": self.tree.to_dict(),
        }


#: The fields :func:`make_result` sets, in order (a test checks they are all of them).
RESULT_FIELDS = ("total", "fumble", "explosions", "success", "ast", "records")
_new = object.__new__
_set_total, _set_fumble, _set_explosions, _set_success, _set_ast, _set_records = (
    getattr(RollResult, name).__set__ for name in RESULT_FIELDS
)


def make_result(
    total: int,
    fumble: bool,
    explosions: int,
    success: bool | None,
    ast: Expression,
    records: tuple[Record, ...],
) -> RollResult:
    """``RollResult(...)`` at half the cost, for the roller's hot path.

    A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``, which
    for six fields costs about as much as throwing a d20; the slots' own setters give the
    same object (equal, just as frozen afterwards) for half of that.
    """
    result = _new(RollResult)
    _set_total(result, total)
    _set_fumble(result, fumble)
    _set_explosions(result, explosions)
    _set_success(result, success)
    _set_ast(result, ast)
    _set_records(result, records)
    return result

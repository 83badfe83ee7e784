"""Compiled render plans give byte-identical text to walking the expression tree.

:mod:`rules.dice.stringify` renders from the roller's records through a plan compiled once
per parsed expression, with fast paths per dice shape.  The reference below is the former
renderer, which walked :attr:`RollResult.tree` die by die; every generated expression must
read the same through both, in both styles.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules.dice import DiceError, parse, roll
from rules.dice.expression import (
    Constant,
    DiceTerm,
    KeepOneTerm,
    Negation,
    Operation,
    Parenthesized,
    Term,
)
from rules.dice.stringify import (
    MARKDOWN,
    PLAIN,
    TABLE_SIDES,
    MarkdownStringifier,
    PlainStringifier,
    Stringifier,
)
from tests.rules.dice.test_properties import labelled
from tests.rules.helpers import Cells


def reference(style: Stringifier, result) -> str:
    """The tree-walking breakdown, written out plainly (the specification of the plans)."""

    def labelled_text(text: str, label: str | None) -> str:
        return f"{text} [{style.escape(label)}]" if label else text

    def term(node: Term) -> str:
        if isinstance(node, Constant):
            return labelled_text(str(node.value), node.label)
        if isinstance(node, Negation):
            return f"-{term(node.operand)}"
        if isinstance(node, Parenthesized):
            return labelled_text(f"({term(node.inner)})", node.label)
        if isinstance(node, Operation):
            return f"{term(node.left)} {node.op} {term(node.right)}"
        if isinstance(node, DiceTerm):
            parts = []
            for die, success in zip(node.dice, node.successes(), strict=True):
                history = [style.dropped(str(v)) for v in die.rolls[:-1]]
                text = style.face(die.value, die.sides) + ("!" if die.exploded else "")
                if success:
                    text = style.counted(text)
                if not die.kept:
                    text = style.dropped(text)
                parts.append("→".join([*history, text]))
            notation = str(node.node)
            if node.node.label:
                notation = notation[: -len(node.node.label) - 3]
            return labelled_text(f"{notation} ({', '.join(parts)})", node.node.label)
        assert isinstance(node, KeepOneTerm)
        throws = []
        for throw in node.throws:
            parts = []
            for i, value in enumerate(throw.faces):
                if i == throw.kept_index:
                    rethrow = value == 10 and throw is not node.throws[-1]
                    parts.append(style.face(value, 10) + ("!" if rethrow else ""))
                else:
                    parts.append(style.dropped(str(value)))
            throws.append(", ".join(parts))
        notation = "1o3d10" + ("" if node.node.position == "m" else node.node.position)
        return labelled_text(f"{notation} ({' | '.join(throws)})", node.node.label)

    text = f"{term(result.tree)} = {style.total(result.total)}"
    if result.success is not None:
        text += " ✓" if result.success else " ✗"
    return text


def assert_same_as_tree(text: str, rng: random.Random) -> None:
    result = roll(text, rng)
    assert str(result) == reference(PLAIN, result)
    assert result.markdown() == reference(MARKDOWN, result)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(labelled, st.integers(0, 2**32))
def test_plans_match_the_tree_walk_on_generated_expressions(text, seed):
    try:
        assert_same_as_tree(text, random.Random(seed))
    except DiceError as error:
        assume(False)  # test_properties checks which expressions must roll
        raise AssertionError from error  # pragma: no cover


EVERY_SHAPE = [
    "1d20",
    "1d20+5",
    "d20 - 2",
    "4d6kh3",
    "4d6pl1",
    "2d20kl1 [desventaja]",
    "8d6!",
    "5d10!>9",
    "4d6!kh3",  # explosions and keeping together: the general path
    "3d6r1",
    "2d6ro<3 + 1",
    "1d20mi10 + 2",
    "4d6ro1mi2ma5kh3",
    "3d1000r<900",  # beyond the face tables, rerolled
    "3d6ro<2!",
    "6d10>=7",
    "6d10!10kh4>=7",
    "1d20<=12",
    "100d6",
    "3d1000",  # beyond the face tables
    "1o3d10",
    "1o3d10a + 1o3d10b [tras] - 1o3d10m",
    "-(1d6 [fu*ego] + 2) * 2 [x_y]",
    "7",
    "(3 + 4) * 2 [constante]",
]


def test_plans_match_the_tree_walk_on_every_shape():
    """200 seeded rolls of every shape render as the tree walk does; a failure lists every
    shape that differs (with its first differing roll)."""
    cells = Cells()
    for text in EVERY_SHAPE:
        rng = random.Random(text)
        with cells.case(repr(text)):
            for _ in range(200):
                assert_same_as_tree(text, rng)
    cells.assert_all_match()


def test_kept_tens_chain_reads_the_same(scripted):
    faces = [10, 10, 3, 2, 10, 10, 10, 9, 4]  # of two 10s the earlier is kept; 9 ends it
    assert_same_as_tree("1o3d10 [sigilo]", scripted(faces))
    result = roll("1o3d10 [sigilo]", scripted(faces))
    assert result.markdown() == (
        "1o3d10 (**10**!, ~~10~~, ~~3~~ | ~~2~~, **10**!, ~~10~~ | ~~10~~, 9, ~~4~~)"
        " [sigilo] = `29`"
    )


def test_big_dice_are_formatted_without_a_table(scripted):
    sides = TABLE_SIDES + 1
    result = roll(f"2d{sides}", scripted([1, sides]))
    assert result.markdown() == f"2d{sides} (**1**, **{sides}**) = `{sides + 1}`"


def test_a_plan_is_compiled_once_per_expression_and_class(scripted):
    expression = parse("3d6kh2 + 1 [plan]")
    roll("3d6kh2 + 1 [plan]", scripted([1, 2, 3])).markdown()
    plan = expression.plans[MarkdownStringifier]
    assert PlainStringifier not in expression.plans
    text = roll("3d6kh2 + 1 [plan]", scripted([6, 5, 4])).markdown()
    assert expression.plans[MarkdownStringifier] is plan
    assert text == "3d6kh2 (**6**, 5, ~~4~~) + 1 [plan] = `12`"
    assert parse("3d6kh2 + 1 [plan]") == parse("3d6kh2+1 [plan]")  # plans are not the value


class Shouting(Stringifier):
    """A third look, to check that plans and face tables are kept per class."""

    def face(self, value: int, sides: int) -> str:
        return f"<{value}>" if value == sides else str(value)

    def dropped(self, text: str) -> str:
        return f"-{text}-"

    def counted(self, text: str) -> str:
        return f"{text}+"

    def total(self, value: int) -> str:
        return f"{value}!"


@pytest.mark.parametrize("text", ["4d6kh3", "8d6!", "5d10>=7", "1o3d10", "2d6ro1 + 3"])
def test_other_stringifiers_get_plans_of_their_own(text):
    rng = random.Random(14)
    for _ in range(50):
        result = roll(text, rng)
        assert Shouting().stringify(result) == reference(Shouting(), result)
        assert result.markdown() == reference(MARKDOWN, result)

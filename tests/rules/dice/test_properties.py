"""Property tests: any text either rolls or raises DiceError; valid rolls stay in bounds.

Expressions are generated from the grammar in :mod:`rules.dice.parser` (as avrae/d20's
``tests/custom_strategies.py`` does), so the strategies exercise every modifier.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules.dice import DiceError, parse, roll
from rules.dice.limits import bounds

NOTATION = "0123456789dDoOkKhHlLpPrR!<>=+-*/()[]#% abmx%"


def _roll_or_refuse(text: str, seed: int) -> None:
    try:
        result = roll(text, random.Random(seed))
    except DiceError as error:
        assert error.code
    else:
        assert isinstance(result.total, int)
    # How fast is measured by benchmarks/dice_limits_bench.py (timing is not a test).


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=250), st.integers(0, 2**32))
def test_any_text_rolls_or_raises_dice_error(text, seed):
    _roll_or_refuse(text, seed)


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet=NOTATION, max_size=80), st.integers(0, 2**32))
def test_notation_like_text_rolls_or_raises_dice_error(text, seed):
    _roll_or_refuse(text, seed)


# --- valid expressions from the grammar --------------------------------------------------------


@st.composite
def dice_terms(draw) -> str:
    count = draw(st.integers(1, 8))
    sides = draw(st.sampled_from([2, 4, 6, 8, 10, 12, 20, 100]))
    text = (
        f"{count if draw(st.booleans()) or count > 1 else ''}{draw(st.sampled_from('dD'))}{sides}"
    )
    if draw(st.booleans()):
        op = draw(st.sampled_from(["", "<", ">"]))
        face = draw(st.integers(1, sides))
        matching = {"": 1, "<": face, ">": sides - face + 1}[op]
        if matching < sides:
            text += draw(st.sampled_from(["r", "ro", "R"])) + op + str(face)
    compare = draw(st.booleans()) and count > 1
    if draw(st.booleans()) and sides > 2:
        # A bare "!" directly before ">=N" would take ">=N" as its own condition.
        bare = [] if compare else ["!"]
        text += draw(st.sampled_from([*bare, f"!>{sides - 1}", f"!{sides}"]))
    if draw(st.booleans()):
        kind = draw(st.sampled_from(["kh", "kl", "ph", "pl", "KH"]))
        n = draw(st.integers(1, count if kind.lower()[0] == "k" else max(1, count - 1)))
        if kind.lower()[0] == "k" or n < count:
            text += kind + str(n)
    if compare:
        text += draw(st.sampled_from([">=", "<="])) + str(draw(st.integers(1, sides)))
    return text


atoms = st.one_of(
    st.integers(0, 999).map(str),
    dice_terms(),
    st.sampled_from(["1o3d10", "1o3d10a", "1o3d10b", "1o3d10m", "1O3D10A"]),
)


def _combine(children):
    binary = st.tuples(children, st.sampled_from(["+", "-", "*", "/", " + ", " - "]), children).map(
        "".join
    )
    return st.one_of(binary, children.map(lambda c: f"({c})"), children.map(lambda c: f"-{c}"))


expressions = st.recursive(atoms, _combine, max_leaves=8)
labelled = st.tuples(
    expressions, st.sampled_from(["", " [ataque]", " # comentario", " sin almohadilla"])
).map("".join)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(labelled, st.integers(0, 2**32))
def test_valid_expressions_roll_within_their_bounds(text, seed):
    try:
        expression = parse(text)
    except DiceError as error:
        # The generator does not track these global limits; everything else must parse.
        assume(
            error.code
            not in {"division_by_zero", "too_many_rolls", "too_many_terms", "total_too_large"}
        )
        raise
    try:
        result = roll(text, random.Random(seed))
    except DiceError as error:  # an open-ended roll may hit the 500-dice ceiling
        assume(error.code not in {"too_many_rolls", "total_too_large"})
        raise
    low, high = bounds(expression.root)
    assert low <= result.total <= high
    assert result.tree.value == result.total
    assert str(parse(result.expression)) == result.expression
    assert str(result).endswith(f"= {result.total}" + _verdict(result.success))
    assert result.markdown().endswith(f"= `{result.total}`" + _verdict(result.success))
    assert result.to_dict()["total"] == result.total


def _verdict(success: bool | None) -> str:
    return "" if success is None else (" ✓" if success else " ✗")

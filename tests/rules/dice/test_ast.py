"""AST nodes: selectors, keep counts, flags and notation."""

from __future__ import annotations

import math

import pytest

from rules.dice.ast import Compare, Dice, Keep, KeepOne, Reroll, Selector


@pytest.mark.parametrize(
    ("selector", "matching", "interval", "text"),
    [
        (Selector("=", 3), [3], (3, 3), "3"),
        (Selector(">=", 5), [5, 6], (5, math.inf), ">=5"),
        (Selector("<=", 2), [1, 2], (-math.inf, 2), "<=2"),
    ],
)
def test_selectors(selector, matching, interval, text):
    assert [f for f in range(1, 7) if selector.matches(f)] == matching
    assert selector.faces(6) == len(matching)
    assert selector.interval() == interval
    assert str(selector) == text


@pytest.mark.parametrize(("kind", "kept"), [("kh", 3), ("kl", 3), ("ph", 2), ("pl", 2)])
def test_keep_counts(kind, kept):
    assert Keep(kind, 3).kept(5) == kept


def test_dice_flags_and_notation():
    assert Dice(3, 6).plain
    assert not Dice(3, 6, keep=Keep("kh", 2)).plain
    assert Dice(1, 20, compare=Compare("<=", 12)).is_test
    assert not Dice(5, 10, compare=Compare(">=", 7)).is_test
    full = Dice(4, 6, Reroll(Selector("=", 1), True), Selector(">=", 6), Keep("kh", 3), None, "x")
    assert str(full) == "4d6ro1!kh3 [x]"
    assert str(Dice(4, 6, explode=Selector(">=", 6), compare=Compare(">=", 5))) == "4d6!6>=5"
    assert str(Dice(4, 6, explode=Selector("<=", 2))) == "4d6!<=2"


def test_keep_one():
    assert [KeepOne(p).index for p in ("b", "m", "a")] == [0, 1, 2]
    assert str(KeepOne("m")) == "1o3d10"
    assert str(KeepOne("a", "iniciativa")) == "1o3d10a [iniciativa]"

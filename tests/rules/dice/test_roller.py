"""The roller against scripted dice: every operator, the seed's examples and the edge cases."""

from __future__ import annotations

import random

import pytest

from rules.dice import DiceError, roll
from rules.dice.roller import fumbles, keep_flags
from tests.rules.helpers import Cells


def test_plain_sum_and_constants(scripted):
    rng = scripted([3, 5, 17])
    result = roll("2d6 + 1d20 - 4", rng)
    assert result.total == 3 + 5 + 17 - 4
    assert rng.asked == [6, 6, 20] and rng.finished


ARITHMETIC = [
    ("2*3+4", [], 10),
    ("2*(3+4)", [], 14),
    ("-1d6+10", [4], 6),
    ("--3", [], 3),
    ("7/2", [], 3),
    ("-7/2", [], -4),  # floor division: halves round down, also below zero
    ("(1d6-3)/2", [2], -1),
    ("1d6*1d4", [5, 3], 15),
    ("d%", [100], 100),
    ("1D20+2", [20], 22),
    ("10 - 2 - 3", [], 5),  # left-associative
    ("12/2/3", [], 2),
]


def test_arithmetic(scripted):
    """Every operator's total against scripted dice, and every die used; a failure lists every
    wrong expression."""
    cells = Cells()
    for expression, faces, total in ARITHMETIC:
        with cells.case(f"{expression!r} with faces {faces}"):
            rng = scripted(faces)
            assert roll(expression, rng).total == total
            assert rng.finished
    cells.assert_all_match()


KEEP_AND_DROP = [
    ("4d6kh3", [6, 1, 3, 5], 14),
    ("4d6kh", [2, 6, 3, 5], 6),
    ("4d6kl1", [2, 6, 1, 5], 1),
    ("4d6kl2", [2, 6, 1, 5], 3),
    ("4d6ph1", [2, 6, 1, 5], 8),
    ("4d6pl1", [2, 6, 1, 5], 13),
    ("2d20kh1", [7, 15], 15),  # advantage
    ("2d20kl1", [7, 15], 7),  # disadvantage
    ("3d6kh2", [4, 4, 4], 8),  # ties keep equal values
    ("4d6KH", [1, 2, 3, 4], 4),
]


def test_keep_and_drop(scripted):
    """Keeping and dropping dice, with ties; a failure lists every wrong expression."""
    cells = Cells()
    for expression, faces, total in KEEP_AND_DROP:
        got = roll(expression, scripted(faces)).total
        cells.check(f"{expression!r} with faces {faces}", got, total)
    cells.assert_all_match()


def test_keep_flags_keep_the_earlier_of_equal_dice():
    assert keep_flags([5, 5, 5], "kh", 1) == (True, False, False)
    assert keep_flags([5, 5, 5], "kl", 2) == (True, True, False)
    assert keep_flags([1, 6, 1], "pl", 1) == (True, True, False)
    assert keep_flags([6, 6, 1], "ph", 1) == (True, False, True)
    assert keep_flags([3, 1, 2], "kh", 2) == (True, False, True)


def test_explosion_chains_as_in_seed_002(scripted):
    # Seed 002: "2d6, 4,6 = 10 y tiramos 1 dado de nuevo, si sale 6 de nuevo, se suma (16)".
    rng = scripted([4, 6, 6, 2])
    result = roll("2d6!", rng)
    assert result.total == 18
    assert result.explosions == 2
    assert rng.finished


def test_explosion_on_threshold(scripted):
    result = roll("3d6!>4", scripted([5, 6, 1, 2, 3]))
    # 5 explodes into 6 which explodes into 1; then 2 and 3.
    assert result.total == 5 + 6 + 1 + 2 + 3
    assert result.explosions == 2


def test_explosion_on_exact_face(scripted):
    assert roll("2d6!5", scripted([5, 6, 3])).total == 14  # 6 does not explode on "!5"


def test_exploded_dice_join_the_pool_for_keep(scripted):
    # 6 explodes into 2: the pool is 6, 2, 3 and kh2 keeps 6 and 3.
    assert roll("2d6!kh2", scripted([6, 2, 3])).total == 9


def test_reroll_while_matching(scripted):
    rng = scripted([1, 1, 1, 4, 6])
    result = roll("2d6r1", rng)
    assert result.total == 10
    assert rng.finished


def test_reroll_once_keeps_a_second_bad_roll(scripted):
    rng = scripted([1, 1, 6])
    assert roll("2d6ro1", rng).total == 1 + 6
    assert rng.finished


@pytest.mark.parametrize(
    ("expression", "faces", "total"),
    [
        ("1d6r<3", [2, 1, 3], 3),  # "<N" is below N, as in arithmetic and avrae/d20
        ("1d6r<=2", [2, 1, 3], 3),  # "<=N" is N or less
        ("1d6r>4", [6, 5, 2], 2),  # ">N" is above N
        ("1d6r>=5", [6, 5, 2], 2),  # ">=N" is N or more
        ("1d6ro<3", [2, 3], 3),  # a 2 is rerolled once
        ("1d6ro<3", [3], 3),  # a 3 is not below 3 (issue 23: it was rerolled)
        ("1d6ro2", [2, 2], 2),  # once, even if the new die matches again
    ],
)
def test_reroll_selectors(scripted, expression, faces, total):
    rng = scripted(faces)
    assert roll(expression, rng).total == total
    assert rng.finished


def test_rerolls_apply_to_the_dice_thrown_not_to_explosions_extras(scripted):
    # Issue 23: "8d6ro1!" read left to right rerolls the dice thrown, then explodes; the 1 an
    # explosion adds stands (it rerolled it before, as no reader expects nor avrae/d20 does).
    rng = scripted([6, 1, 3])
    result = roll("2d6ro1!", rng)
    assert result.total == 6 + 1 + 3
    assert rng.finished
    assert str(result) == "2d6ro1! (6!, 1, 3) = 10"
    rng = scripted([6, 1, 1, 4])  # an open reroll likewise: the extra 1 stands
    assert roll("1d6r1!", scripted([1, 6, 1])).total == 7
    assert roll("2d6r1!", rng).total == 6 + 1 + 4


def test_reroll_once_of_every_face_ends(scripted):
    rng = scripted([1, 1])
    result = roll("1d1ro1", rng)
    assert (result.total, str(result)) == (1, "1d1ro1 (~~1~~→1) = 1")
    assert rng.finished


def test_the_breakdown_shows_the_reading_of_a_selector(scripted):
    # "<3" is "below 3": the breakdown says "<=2", whichever convention the reader knows.
    assert str(roll("2d6ro<3", scripted([3, 2, 5]))) == "2d6ro<=2 (3, ~~2~~→5) = 8"
    assert str(roll("3d6!>4", scripted([5, 1, 4, 2]))) == "3d6!>=5 (5!, 1, 4, 2) = 12"
    assert str(roll("1d20>15", scripted([16]))) == "1d20>=16 (16) = 16 ✓"


def test_minimum_and_maximum_per_die(scripted):
    """avrae/d20's ``mi``/``ma`` (Reliable Talent: ``1d20mi10``): a die below shows the
    minimum, one above the maximum; its face is kept in its history."""
    result = roll("1d20mi10", scripted([4]))
    assert (result.total, str(result)) == (10, "1d20mi10 (~~4~~→10) = 10")
    assert roll("1d20mi10", scripted([15])).total == 15
    assert roll("3d6ma4", scripted([6, 2, 5])).total == 4 + 2 + 4
    # after an explosion (the 6 explodes, then shows 4), before keeping
    assert roll("2d6!ma4kh1", scripted([6, 1, 3])).total == 4
    assert roll("4d6mi2kh3", scripted([1, 1, 6, 5])).total == 6 + 5 + 2


def test_reroll_then_explode(scripted):
    # The rerolled 1 becomes a 6, which explodes into 3.
    assert roll("1d6r1!", scripted([1, 6, 3])).total == 9


def test_success_count_on_a_pool(scripted):
    result = roll("5d10>=7", scripted([7, 3, 10, 6, 9]))
    assert result.total == 3
    assert result.success is None


def test_success_count_at_most(scripted):
    assert roll("4d10<=3", scripted([1, 3, 4, 10])).total == 2


def test_success_count_uses_kept_dice_only(scripted):
    assert roll("4d10kh2>=5", scripted([9, 8, 7, 1])).total == 2


def test_success_count_after_explosion(scripted):
    # "!10" explodes on 10; ">=7" then counts 10, 8 and 7.
    assert roll("3d10!10>=7", scripted([10, 8, 2, 7])).total == 3


@pytest.mark.parametrize(
    ("expression", "face", "success"),
    [
        ("1d20<=12", 12, True),
        ("1d20<=12", 13, False),
        ("1d20>=15", 15, True),
        ("d20>=15", 3, False),
    ],
)
def test_roll_under_and_over_tests(scripted, expression, face, success):
    result = roll(expression, scripted([face]))
    assert result.total == face
    assert result.success is success


def test_no_test_means_success_is_none(scripted):
    assert roll("1d20+3", scripted([4])).success is None


# --- 1o3d10 (seed 002, "Tiradas") ---------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "kept"),
    [((5, 3, 9), 5), ((4, 4, 2), 4), ((8, 6, 1), 6), ((5, 5, 5), 5), ((1, 1, 1), 1)],
)
def test_middle_die_examples_from_the_seed(scripted, faces, kept):
    result = roll("1o3d10", scripted(faces))
    assert result.total == kept
    assert result.explosions == 0


@pytest.mark.parametrize(
    ("faces", "kept"), [((5, 3, 9), 9), ((4, 4, 2), 4), ((8, 6, 1), 8), ((5, 5, 5), 5)]
)
def test_highest_die_examples_from_the_seed(scripted, faces, kept):
    assert roll("1o3d10a", scripted(faces)).total == kept


@pytest.mark.parametrize(("faces", "kept"), [((5, 3, 9), 3), ((4, 4, 2), 2), ((8, 6, 1), 1)])
def test_lowest_die(scripted, faces, kept):
    assert roll("1o3d10b", scripted(faces)).total == kept


def test_middle_and_explicit_m_are_the_same_roll(scripted):
    assert roll("1o3d10m", scripted([8, 6, 1])).expression == "1o3d10"


@pytest.mark.parametrize("expression", ["1o3d10", "1o3d10a"])
def test_kept_ten_adds_and_throws_again(scripted, expression):
    # Seed: "10,7,10 = 10 suma y sigue"; the next throw keeps the same position.
    rng = scripted([10, 7, 10, 10, 10, 2, 6, 4, 1])
    result = roll(expression, rng)
    middle = expression == "1o3d10"
    assert result.total == 10 + 10 + (4 if middle else 6)
    assert result.explosions == 2
    assert rng.finished


def test_lowest_rethrows_only_on_three_tens(scripted):
    rng = scripted([10, 10, 10, 3, 9, 8])
    result = roll("1o3d10b", rng)
    assert result.total == 13 and result.explosions == 1


def test_rethrow_chain_is_capped_at_twenty(scripted):
    rng = scripted([10] * 3 * 21 + [1, 2, 3])
    result = roll("1o3d10", rng)
    assert result.explosions == 20
    assert result.total == 210  # the 21st throw's 10 counts but throws no more
    assert rng.faces == [1, 2, 3]


def test_keep_one_in_an_expression(scripted):
    result = roll("1o3d10b+12 [sigilo]", scripted([9, 1, 8]))
    assert result.total == 13
    assert result.label == "sigilo"
    assert result.fumble is False  # next higher die is 8


FUMBLES = [
    # middle: the kept die is 1 only with two 1s; the next higher is the third die
    ("1o3d10", (1, 1, 3), True),
    ("1o3d10", (3, 1, 1), True),
    ("1o3d10", (1, 1, 5), True),
    ("1o3d10", (1, 1, 6), False),
    ("1o3d10", (1, 3, 9), False),  # keeps the 3: no fumble (see the report/docs)
    ("1o3d10", (1, 1, 1), True),
    # lowest: kept 1, next higher <= 5
    ("1o3d10b", (1, 4, 8), True),
    ("1o3d10b", (8, 4, 1), True),
    ("1o3d10b", (1, 5, 5), True),
    ("1o3d10b", (1, 6, 8), False),
    ("1o3d10b", (2, 3, 4), False),
    # highest: only three 1s
    ("1o3d10a", (1, 1, 1), True),
    ("1o3d10a", (1, 1, 2), False),
]


def test_fumbles(scripted):
    """Seed 002's fumbles for the middle, lowest and highest die; a failure lists every wrong
    throw, through the roller and through ``fumbles``."""
    cells = Cells()
    for expression, faces, fumble in FUMBLES:
        index = {"1o3d10": 1, "1o3d10b": 0, "1o3d10a": 2}[expression]
        got = {
            "roll().fumble": roll(expression + "+4", scripted(faces)).fumble,
            "fumbles()": fumbles(faces, index),
        }
        for how, value in got.items():
            if value is not fumble:  # "is": a bool, not just something equal to one
                cells.fail(f"{expression} {faces} {how}", f"expected {fumble}, got {value!r}")
    cells.assert_all_match()


def test_fumble_is_judged_on_the_first_throw_only(scripted):
    # A kept 1 after a re-throw is not a fumble (and cannot be: the total already has 10).
    result = roll("1o3d10", scripted([10, 10, 10, 1, 1, 3]))
    assert result.total == 11
    assert result.fumble is False


@pytest.mark.parametrize(
    ("total", "difficulty", "critical"), [(25, 15, True), (24, 15, False), (30, 15, True)]
)
def test_critical_beats_difficulty_by_ten(scripted, total, difficulty, critical):
    result = roll(f"{total - 9} + 1o3d10", scripted([9, 9, 9]))
    assert result.total == total
    assert result.is_critical(difficulty) is critical


# --- labels, comments, the RNG --------------------------------------------------------------


def test_labels_and_comments(scripted):
    result = roll("1d20+5 [ataque] # con espada", scripted([10]))
    assert result.label == "ataque"
    assert result.comment == "con espada"
    assert result.expression == "1d20 + 5 [ataque]"


def test_free_text_after_the_roll_is_a_comment(scripted):
    result = roll("1d20+5 ataque con espada", scripted([10]))
    assert result.total == 15
    assert result.comment == "ataque con espada"
    assert result.label is None


def test_several_labels_are_joined(scripted):
    result = roll("1d6 [fuego] + 1d4 [frío]", scripted([3, 2]))
    assert result.label == "fuego, frío"


def test_repr_names_the_expression(scripted):
    assert repr(roll("d20+1", scripted([4]))) == (
        "RollResult('1d20 + 1', total=5, fumble=False, explosions=0, success=None)"
    )


def test_default_rng_rolls():
    assert 1 <= roll("1d6").total <= 6


def test_same_seed_same_roll():
    first = roll("4d6kh3 + 1o3d10 + 3d6!", random.Random(99))
    again = roll("4d6kh3 + 1o3d10 + 3d6!", random.Random(99))
    assert (first.total, str(first)) == (again.total, str(again))


def test_system_random_works():
    assert roll("1o3d10+2", random.SystemRandom()).total >= 3


def test_open_ended_rolls_abort_at_the_dice_limit(scripted):
    rng = scripted([2] * 600)
    with pytest.raises(DiceError) as caught:
        roll("1d2!", rng)
    assert caught.value.code == "too_many_rolls"
    assert len(rng.asked) == 500  # the 501st die is never thrown


def test_rerolls_count_towards_the_dice_limit(scripted):
    rng = scripted([1] * 600)
    with pytest.raises(DiceError) as caught:
        roll("1d6r1", rng)
    assert caught.value.code == "too_many_rolls"


def test_dice_after_an_open_ended_pool_still_count(scripted):
    # The explosion chain stops at 499 dice; the 100 plain dice after it cross the limit.
    rng = scripted([6] * 498 + [1] + [3] * 100)
    with pytest.raises(DiceError) as caught:
        roll("1d6! + 100d6", rng)
    assert caught.value.code == "too_many_rolls"
    assert rng.finished


# A table of expressions with the range every roll must fall in (as avrae/d20's tests keep);
# for the small ones 3,000 seeded rolls must also reach both ends.
RANGES = [
    ("1d20", 1, 20, True),
    ("d%", 1, 100, False),
    ("3d6", 3, 18, True),
    ("4d6kh3", 3, 18, True),
    ("4d6pl1", 3, 18, True),
    ("2d20kl1 + 5", 6, 25, True),
    ("3d6ro1", 3, 18, False),  # three 1s twice: 1 in 46,656
    ("3d6r<3", 9, 18, True),
    ("5d10>=7", 0, 5, True),
    ("1d20<=12", 1, 20, True),
    ("-1d6 + 10", 4, 9, True),
    ("(1d4+1)*2", 4, 10, True),
    ("1d20/2", 0, 10, True),
    ("1o3d10b + 12", 13, 222, False),
    ("10d10kh1", 1, 10, False),
    ("100d6", 100, 600, False),
]


def test_expression_ranges():
    """3,000 seeded rolls of every expression stay in its range (and reach both ends where
    marked); a failure lists every expression that does not."""
    cells = Cells()
    for expression, low, high, reached in RANGES:
        rng = random.Random(expression)
        totals = [roll(expression, rng).total for _ in range(3000)]
        seen = (min(totals), max(totals))
        if not (low <= seen[0] and seen[1] <= high):
            cells.fail(repr(expression), f"rolled {seen[0]}..{seen[1]}, outside {low}..{high}")
        if reached:
            cells.check(f"{expression!r} reaches both ends", seen, (low, high))
    cells.assert_all_match()

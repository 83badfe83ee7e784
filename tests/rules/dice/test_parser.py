"""The parser: normalized notation, labels and comments, and every refusal with its column."""

from __future__ import annotations

import random

import pytest

from rules.dice import DiceError, parse, roll
from rules.dice.ast import Dice, KeepOne
from tests.rules.helpers import Cells

NORMALIZED = [
    ("1d20", "1d20"),
    ("d20", "1d20"),
    ("D20", "1d20"),
    ("d%", "1d100"),
    ("3D6+2", "3d6 + 2"),
    ("  4d6kh3  ", "4d6kh3"),
    ("4d6KH", "4d6kh1"),
    ("4d6kl", "4d6kl1"),
    ("4d6ph1", "4d6ph1"),
    ("4d6PL1", "4d6pl1"),
    ("4d6dl1", "4d6pl1"),  # Roll20's "drop lowest"
    ("4d6DH", "4d6ph1"),
    ("8d6!", "8d6!"),
    # "<N" is below N and ">N" above N (arithmetic, avrae/d20); printed back inclusive, so the
    # breakdown shows the reading applied to whoever learnt Roll20's ">N" = "N or more".
    ("8d6!>4", "8d6!>=5"),
    ("8d6!>=5", "8d6!>=5"),
    ("8d6!>5", "8d6!"),  # above 5 on a d6 is the maximum
    ("8d6!5", "8d6!5"),
    ("8d6e6", "8d6!"),  # avrae/d20's "e"
    ("8d6E>4", "8d6!>=5"),
    ("3d6r1", "3d6r1"),
    ("3d6rr1", "3d6r1"),  # avrae/d20's "rr"
    ("3d6R<3", "3d6r<=2"),
    ("3d6r<=2", "3d6r<=2"),
    ("2d6ro<3", "2d6ro<=2"),
    ("3d6r<1", "3d6r<=0"),  # no face: nothing is rerolled
    ("3d6r<0", "3d6r<=0"),
    ("3d6r>999999", "3d6r>=999999"),
    ("3d6ro1", "3d6ro1"),
    ("1d1ro1", "1d1ro1"),  # once always ends
    ("3d6r1!kh2", "3d6r1!kh2"),
    ("1d20mi10", "1d20mi10"),  # avrae/d20's minimum and maximum per die
    ("4d6MI2kh3", "4d6mi2kh3"),
    ("2d6ma4mi2", "2d6mi2ma4"),
    ("8d6r1!mi2", "8d6r1!mi2"),
    ("5d10>=7", "5d10>=7"),
    ("5d10>6", "5d10>=7"),
    ("5d10!10>=7", "5d10!10>=7"),
    ("5d10!>9>=7", "5d10!10>=7"),
    ("5d10!>=10>=7", "5d10!10>=7"),
    ("5d10!>=9>6", "5d10!>=9>=7"),
    ("1d20<=12", "1d20<=12"),
    ("1d20<13", "1d20<=12"),
    ("1d20>15", "1d20>=16"),
    ("1d20<0", "1d20<=0"),
    ("1o3d10", "1o3d10"),
    ("1o3d10m", "1o3d10"),
    ("1O3D10A", "1o3d10a"),
    ("1o3d10b+12 [sigilo]", "1o3d10b + 12 [sigilo]"),
    ("7+1o3d10", "7 + 1o3d10"),
    ("(1d6+2)*3", "(1d6 + 2) * 3"),
    ("-(1d6)", "-(1d6)"),
    ("+5", "5"),
    ("1d6 [ fuego   sagrado ]", "1d6 [fuego sagrado]"),
    ("1d6[]", "1d6"),
    ("2d6 [a] + (1d4) [b]", "2d6 [a] + (1d4) [b]"),
    ("10/3", "10 / 3"),
]


def test_normalized_notation():
    """Every written form prints back normalized, and printing back is stable; a failure
    lists every form that prints wrong."""
    cells = Cells()
    for written, normalized in NORMALIZED:
        cells.check(f"str(parse({written!r}))", str(parse(written)), normalized)
        cells.check(f"str(parse({normalized!r})) (stable)", str(parse(normalized)), normalized)
    cells.assert_all_match()


def test_parse_is_cached_by_text():
    assert parse("4d6kh3 + 2") is parse("4d6kh3 + 2")


def test_nodes():
    dice = parse("4d6ro1!kh3").root
    assert isinstance(dice, Dice)
    assert (dice.count, dice.sides, dice.keep.kind, dice.keep.n) == (4, 6, "kh", 3)
    assert dice.reroll.once and dice.reroll.selector.value == 1
    assert dice.explode.op == ">=" and dice.explode.value == 6
    keep_one = parse("1o3d10b").root
    assert isinstance(keep_one, KeepOne) and keep_one.index == 0


COMMENTS = [
    ("1d20+5 # ataque", "ataque"),
    ("1d20+5#ataque con espada", "ataque con espada"),
    ("1d20+5 ataque con espada", "ataque con espada"),
    ("1o3d10 alto", "alto"),
    ("1d20 #", None),
    ("1d6 dardo envenenado", "dardo envenenado"),
    ("2d6 [fuego] bola de fuego", "bola de fuego"),
    ("1d20 ñu", "ñu"),
    ("1d20+2 derribo", "derribo"),  # "d" + letter is a word, not a die
    ("1d20+2 khopesh", "khopesh"),
    ("1d20+2 rompe 3 puertas", "rompe 3 puertas"),
    ("1d20+2 plano", "plano"),
]


def test_comments():
    """Free text after the expression (with or without "#") is the comment; lists every miss."""
    cells = Cells()
    for written, comment in COMMENTS:
        cells.check(f"parse({written!r}).comment", parse(written).comment, comment)
    cells.assert_all_match()


def _error(text: str) -> DiceError:
    with pytest.raises(DiceError) as caught:
        parse(text)
    return caught.value


REFUSALS = [
    ("", "empty", None),
    ("   ", "empty", None),
    ("# solo un comentario", "empty", None),
    ("1" * 201, "too_long", None),
    ("1d6 +", "unexpected_end", 6),
    ("1d6 $", "unexpected_char", 5),
    ("1d", "unexpected_end", 3),
    ("1dx", "unexpected_char", 3),
    ("1d20 d6", "unexpected_char", 6),  # a missing operator is not a comment
    ("1d20 5", "unexpected_char", 6),
    ("1d20 D%", "unexpected_char", 6),
    ("4d6 kh3", "unexpected_char", 5),  # a modifier cut off by a space is not a comment
    ("4d6 PL", "unexpected_char", 5),
    ("4d6 dl1", "unexpected_char", 5),
    ("4d6d2", "unexpected_char", 4),  # "d" after dice only as Roll20's "dh"/"dl"
    ("4d6k3", "unexpected_char", 5),  # keep the 3s (d20) or the 3 highest (Roll20)? refused
    ("3d6 ro1", "unexpected_char", 5),
    ("3d6 r<2", "unexpected_char", 5),
    ("3d6 !", "unexpected_char", 5),
    ("1d20ataque", "unexpected_char", 5),  # free text needs a space
    ("(1d6", "unexpected_end", 5),
    ("1d6)", "unexpected_char", 4),
    ("1d6 [fuego", "unexpected_end", 11),
    ("1d6>", "unexpected_end", 5),
    ("1d6=3", "unexpected_char", 4),
    ("4d6 e6", "unexpected_char", 5),  # a modifier cut off by a space is not a comment
    ("4d6 rr1", "unexpected_char", 5),
    ("4d6kx", "unexpected_char", 5),
    ("3d6r", "unexpected_end", 5),
    ("1o3d10alto", "unexpected_char", 8),
    ("1234567", "number_too_long", 1),
    ("1d1234567", "number_too_long", 3),
    ("1+" * 25 + "1", "too_many_terms", 51),
    ("(" * 11 + "1" + ")" * 11, "too_deep", 11),
    ("-" * 11 + "1", "too_deep", 11),
    ("101d6", "too_many_dice", 1),
    ("1d1001", "too_many_sides", 3),
    ("6*100d6", None, None),  # one throw of 100 dice, multiplied
    ("100d6+" * 5 + "1d6", "too_many_rolls", None),
    ("100d6ro1+100d6ro1+100d6ro1", "too_many_rolls", None),  # worst case 600 dice
    ("8*1o3d10", None, None),  # one 1o3d10 term: at most 63 dice
    ("1o3d10+" * 7 + "1o3d10+1o3d10", "too_many_rolls", None),
    ("0d6", "zero_dice", 1),
    ("d0", "zero_sides", 2),
    ("1d1!", "always_matches", 4),
    ("1d6r<7", "always_matches", 4),
    ("1d6!>0", "always_matches", 4),
    ("1d6!>=1", "always_matches", 4),
    ("2d6r<7", "always_matches", 4),
    ("2d6r<=6", "always_matches", 4),
    ("1d1r1", "always_matches", 4),
    ("1d1e1", "always_matches", 4),
    ("1d6!>1", None, None),  # 2 or more: a 1 stops it
    ("2d6r<6", None, None),  # a 6 stops it
    ("1d1ro1", None, None),
    ("1d6ro<7", None, None),
    ("1d6r1r2", "duplicate_modifier", 6),
    ("4d6kh3kl1", "duplicate_modifier", 7),
    ("4d6!!", "duplicate_modifier", 5),
    ("4d6!e6", "duplicate_modifier", 5),
    ("4d6r1rr2", "duplicate_modifier", 6),
    # written in another order than they apply (avrae/d20 would apply them as written)
    ("4d6kh3e6", "modifier_order", 7),
    ("4d6kh3!", "modifier_order", 7),
    ("4d6kh3ro1", "modifier_order", 7),
    ("8d6!ro1", "modifier_order", 5),
    ("8d6e6r1kh3", "modifier_order", 6),
    ("4d6kh3mi2", "modifier_order", 7),
    ("4d6mi2!", "modifier_order", 7),
    ("1d6mi7", "clamp_out_of_range", 4),
    ("1d6ma0", "clamp_out_of_range", 4),
    ("1d6mi4ma3", "clamp_out_of_range", 7),
    ("1d6mi2mi3", "duplicate_modifier", 7),
    ("1d6mx", "unexpected_char", 4),
    ("1d20 mi10", "unexpected_char", 6),
    ("4d6kh5", "keep_out_of_range", 4),
    ("4d6kh0", "keep_out_of_range", 4),
    ("4d6pl4", "keep_out_of_range", 4),
    ("4d6ph5", "keep_out_of_range", 4),
    ("2o3d10", "bad_keep_one", 1),
    ("1o4d10", "bad_keep_one", 1),
    ("1o3d6", "bad_keep_one", 1),
    ("1d20<=12+2", "test_in_expression", None),
    ("(1d20>=5)", "test_in_expression", None),
    ("10/0", "division_by_zero", None),
    ("10/(1d3-2)", "division_by_zero", None),
    ("10/(1d6-1d6)", "division_by_zero", None),
]


def test_refusals():
    """Every refusal with its code and column (code None: accepted); a failure lists every
    text refused wrongly, accepted wrongly or refused with the wrong code or column."""
    cells = Cells()
    for written, code, column in REFUSALS:
        where = f"parse({written[:40]!r})"
        try:
            parse(written)
        except DiceError as error:
            cells.check(f"{where} (code, column)", (error.code, error.column), (code, column))
        else:
            if code is not None:
                cells.fail(where, f"accepted, expected {code!r} at column {column}")
    cells.assert_all_match()


def test_refusal_params():
    error = _error("1d6 $")
    assert dict(error.params) == {"char": "$", "expected": "+ - * / ) [ #"}
    assert dict(_error("101d6").params) == {"count": 101, "limit": 100}
    assert dict(_error("x" * 300).params) == {"length": 300, "limit": 200}


def test_modifier_order_names_the_order_that_works():
    error = _error("4d6kh3e6 [daño]")
    assert dict(error.params) == {"modifier": "e6", "after": "kh3", "suggestion": "4d6!kh3"}
    assert _error("8d6!>4ro<3").params["suggestion"] == "8d6ro<=2!>=5"
    assert str(parse(_error("8d6!>4ro<3").params["suggestion"])) == "8d6ro<=2!>=5"


def test_safe_divisions_are_accepted():
    assert str(parse("10/(1d6+1)")) == "10 / (1d6 + 1)"
    assert str(parse("1d20/-2")) == "1d20 / -2"


class NoDice(random.Random):
    """An RNG that fails the test if any die is thrown."""

    def randint(self, a: int, b: int) -> int:
        raise AssertionError("a die was thrown before the refusal")

    def random(self) -> float:
        raise AssertionError("a die was thrown before the refusal")


@pytest.mark.parametrize(
    "text", ["(" * 200, "1d6" * 66, "9" * 200, "1d6!" + "+1d6!" * 39, "-" * 199 + "1", "1+" * 99]
)
def test_hostile_input_is_refused_before_any_die_is_thrown(text):
    # How fast (well under 50 ms) is measured by benchmarks/dice_limits_bench.py, not here.
    with pytest.raises(DiceError):
        roll(text, NoDice())

"""Checks (seed 002, «Tiradas», «Tiradas de Atributo/Habilidad», «Circunstancias Especiales»,
«Críticos y Pifias», «Dividir Acciones»)."""

from __future__ import annotations

from itertools import product

import pytest

from rules.nucleo.checks import (
    Keep,
    attribute_difficulties,
    expression,
    judge,
    kept_die,
    opposed_winner,
    probability,
    roll_check,
    skill_difficulties,
)
from rules.systems.base import Outcome


def test_difficulty_tables():
    """seed 002: atributo 9/12/15/18/21, habilidad 10/15/20/25/30."""
    assert attribute_difficulties() == {
        "Fácil": 9,
        "Normal": 12,
        "Difícil": 15,
        "Muy Difícil": 18,
        "Casi imposible": 21,
    }
    assert skill_difficulties() == {
        "Fácil": 10,
        "Normal": 15,
        "Difícil": 20,
        "Muy Difícil": 25,
        "Casi Imposible": 30,
    }


def test_middle_die_by_default_and_circumstances_choose_another():
    """seed 002 «Tiradas»: «por defecto, es el medio»; «Circunstancias Especiales» change it."""
    assert kept_die() is Keep.MIDDLE
    assert kept_die(malherido=True) is Keep.LOWEST
    assert kept_die(unknown_skill=True) is Keep.LOWEST
    assert kept_die(split_actions=True) is Keep.LOWEST
    assert kept_die(token_returned=True) is Keep.LOWEST
    assert kept_die(token=True) is Keep.HIGHEST


def test_lowest_does_not_stack():
    """seed 002 «Dividir Acciones»: «no aplicable si … ya está guardando dado menor»: still just the lowest."""
    assert (
        kept_die(malherido=True, unknown_skill=True, split_actions=True, token_returned=True)
        is Keep.LOWEST
    )


def test_token_against_a_lowest_circumstance_follows_the_setting():
    """seed 002 «Token» vs «Malherido»: not printed; default they cancel (docs/rules-decisions.md)."""
    assert kept_die(malherido=True, token=True) is Keep.MIDDLE
    assert kept_die(malherido=True, token=True, token_mode="token") is Keep.HIGHEST
    assert kept_die(malherido=True, token=True, token_mode="menor") is Keep.LOWEST
    with pytest.raises(ValueError):
        kept_die(token_mode="nunca")


def test_expression_uses_the_dice_engine_notation():
    """seed 002 «Tiradas»: «1o3d10», written for the dice engine (a = alto, b = bajo)."""
    assert expression(12, Keep.LOWEST) == "1o3d10b+12"
    assert expression(7) == "1o3d10+7"
    assert expression(0, Keep.HIGHEST) == "1o3d10a"
    assert expression(-2) == "1o3d10-2"


@pytest.mark.parametrize(
    ("keep", "total"),
    [(Keep.MIDDLE, 5), (Keep.HIGHEST, 9), (Keep.LOWEST, 3)],
)
def test_seed_examples_5_3_9(scripted, keep, total):
    """seed 002 «Tiradas»: «5, 3, 9 = 5» with the middle die, «= 9» with the highest."""
    check = roll_check(0, scripted([5, 3, 9]), keep)
    assert check.total == total and check.outcome is None


def test_a_kept_ten_adds_and_rolls_again(scripted):
    """seed 002 «Tiradas»: «10,7,10 = 10 suma y sigue»."""
    check = roll_check(6, scripted([10, 7, 10, 4, 5, 6]), Keep.MIDDLE, difficulty=12)
    assert check.total == 6 + 10 + 5
    assert (check.outcome, check.margin) == (Outcome.SUCCESS, 9)
    check = roll_check(6, scripted([10, 7, 10, 4, 5, 6]), Keep.MIDDLE, difficulty=11)
    assert check.outcome is Outcome.CRITICAL and check.critical


def test_attribute_check_against_normal(scripted):
    """seed 002 «Tiradas de Atributo»: atributo + 1o3d10 contra Normal 12."""
    assert roll_check(7, scripted([5, 3, 9]), difficulty=12).outcome is Outcome.SUCCESS
    assert roll_check(6, scripted([5, 3, 9]), difficulty=12).outcome is Outcome.FAILURE


def test_intermediate_difficulties_work(scripted):
    """seed 002 «Granularidad»: «hacer tiradas con dificultad de 12 o 18 también funciona»."""
    assert roll_check(13, scripted([5, 3, 9]), difficulty=18).outcome is Outcome.SUCCESS
    assert roll_check(12, scripted([5, 3, 9]), difficulty=18).outcome is Outcome.FAILURE


def test_critical_beats_the_difficulty_by_10():
    """seed 002 «Críticos y Pifias»: «una que supera en 10 la dificultad»."""
    assert judge(25, 15, fumble=False) is Outcome.CRITICAL
    assert judge(24, 15, fumble=False) is Outcome.SUCCESS
    assert judge(15, 15, fumble=False) is Outcome.SUCCESS
    assert judge(14, 15, fumble=False) is Outcome.FAILURE
    assert judge(14, None, fumble=False) is None


def test_fumble_from_the_dice_engine_always_fails(scripted):
    """seed 002 «Críticos y Pifias»: «un 1 en el dado guardado, y <=5 en el dado inmediatamente anterior»."""
    check = roll_check(20, scripted([1, 1, 4]), difficulty=10)
    assert check.fumble and check.outcome is Outcome.FUMBLE and check.total == 21
    assert not roll_check(20, scripted([1, 1, 6]), difficulty=10).fumble


def test_fumble_keeping_the_lowest_follows_the_setting(scripted):
    """seed 002: «peligrosísimo estando malherido»; with «solo_uno» a kept lowest 1 is enough."""
    assert roll_check(5, scripted([1, 3, 9]), Keep.LOWEST).fumble
    assert not roll_check(5, scripted([1, 7, 9]), Keep.LOWEST).fumble
    assert roll_check(5, scripted([1, 7, 9]), Keep.LOWEST, fumble_mode="solo_uno").fumble
    assert not roll_check(5, scripted([2, 7, 9]), Keep.LOWEST, fumble_mode="solo_uno").fumble
    with pytest.raises(ValueError):
        roll_check(5, scripted([2, 7, 9]), fumble_mode="nunca")


def test_exact_probability():
    """seed 002 «Tiradas»: P(bonus 10 + 1o3d10 ≥ 15) = P(middle ≥ 5) = 81/125; highest: 117/125."""
    assert probability(10, 15) == (81, 125)
    assert probability(10, 15, Keep.HIGHEST) == (117, 125)
    assert probability(10, 15, Keep.LOWEST) == (27, 125)


def test_probability_takes_fumbles_out_when_a_1_would_succeed():
    """seed 002 «Críticos y Pifias»: a fumble fails even when bonus + 1 reaches the difficulty.

    Middle die: a fumble is a kept 1 (two dice at 1) with the third ≤ 5: 1 + 3 × 4 = 13 throws
    of 1000.  Lowest die, «solo_uno»: any throw with a 1, 1000 − 729 = 271 throws.
    """
    assert probability(20, 10) == (987, 1000)
    assert probability(20, 10, Keep.LOWEST, "solo_uno") == (729, 1000)
    assert probability(8, 10) == (243, 250)  # middle ≥ 2 = 1 − 28/1000; fumbles fail anyway


def test_opposed_higher_wins():
    """seed 002: «En tirada enfrentada … el que saque la tirada más alta gana»."""
    assert opposed_winner(18, 12) == "a"
    assert opposed_winner(12, 18) == "b"
    assert opposed_winner(15, 15) == "tie"


@pytest.mark.parametrize("keep", list(Keep))
@pytest.mark.parametrize("mode", ["dado_siguiente", "solo_uno"])
def test_fumble_odds_agree_with_the_rolled_fumbles(scripted, keep, mode):
    """seed 002 «Críticos y Pifias»: the odds' fumble correction counts exactly the throws that
    :func:`roll_check` calls fumbles (all 1000 first throws, each scripted once)."""
    fumbled = sum(
        roll_check(20, scripted([*faces, 5, 5, 5]), keep, 10, mode).fumble
        for faces in product(range(1, 11), repeat=3)
    )
    numerator, denominator = probability(20, 10, keep, mode)
    assert fumbled == 1000 - numerator * 1000 // denominator

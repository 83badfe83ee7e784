"""Multiclassing, class change and the Paladín's vows (seed 000, "Personajes multiclase")."""

from __future__ import annotations

import pytest

from rules.swc.class_change import class_change_problems, dual_class_xp, paladin_vow_problems
from rules.swc.multiclass import (
    best_saving_throw,
    class_levels,
    hit_die_expression,
    multiclass_hit_dice,
    multiclass_xp_bonus,
    split_xp,
)

ELF = ["guerrero", "mago"]


@pytest.mark.parametrize(
    ("xp_each", "levels", "dice"),
    [
        (10_000, {"guerrero": 4, "mago": 4}, 4),  # "alcanza el nivel 4 ... con 10.000 PX": new die
        (
            16_000,
            {"guerrero": 4, "mago": 4},
            4,
        ),  # Guerrero capped at 4: "no se produce ningún cambio"
        (
            20_000,
            {"guerrero": 4, "mago": 5},
            5,
        ),  # "alcanza el nivel 5 como Mago ... se gana un dado"
    ],
)
def test_elf_fighter_magic_user_worked_example(xp_each, levels, dice):
    """The worked example of "Subir de nivel": an elf Guerrero/Mago at 10,000/16,000/20,000 XP."""
    xp = {"guerrero": xp_each, "mago": xp_each}
    assert class_levels("elfo", ELF, xp, {"Fuerza": 12, "Inteligencia": 12}) == levels
    assert multiclass_hit_dice(ELF, xp) == (dice, 0)
    assert hit_die_expression(ELF) == "1d8+1d4"


def test_no_die_when_one_class_lags():
    """ "10.000 PX como Mago pero no llegase a los 8.000 PX como Guerrero, no se ganaría"."""
    assert multiclass_hit_dice(ELF, {"guerrero": 7_999, "mago": 10_000}) == (3, 0)


def test_dwarf_fighter_thief_level_one_two():
    """ "un Enano Guerrero/Ladrón no ganaría un dado de golpe de Ladrón al subir a nivel 1/2"."""
    xp = {"guerrero": 1_250, "ladron": 1_250}
    assert class_levels("enano", ["guerrero", "ladron"], xp, {}) == {"guerrero": 1, "ladron": 2}
    assert multiclass_hit_dice(["guerrero", "ladron"], xp) == (1, 0)


def test_nine_dice_then_one_hit_point_per_level():
    """ "limitado a ganar 9 dados de golpe como máximo ... sólo suma 1 punto de golpe"."""
    xp = {"guerrero": 450_000, "ladron": 450_000}  # Guerrero 11, Ladrón 12
    assert multiclass_hit_dice(["guerrero", "ladron"], xp) == (9, 2)


def test_xp_split_evenly_and_no_bonus():
    """ "deben dividirse a partes iguales ... no reciben bonificación"."""
    assert split_xp(30_001, ["guerrero", "mago", "ladron"]) == {
        "guerrero": 10_000,
        "mago": 10_000,
        "ladron": 10_000,
    }
    assert multiclass_xp_bonus() == 0


def test_saving_throw_worked_example():
    """Elf Guerrero/Mago 1/1 against a spell: Mago 15 - 2 = 13, never Guerrero 14 with +2."""
    best = best_saving_throw({"guerrero": 1, "mago": 1}, {"conjuro"})
    assert (best.clase, best.base, best.bono, best.objetivo) == ("mago", 15, 2, 13)
    plain = best_saving_throw({"guerrero": 1, "mago": 1}, ())
    assert (plain.clase, plain.objetivo) == ("guerrero", 14)


def test_slow_advancement_lifts_a_limit():
    xp = {"guerrero": 16_000, "mago": 16_000}
    assert class_levels("elfo", ELF, xp, {}, sin_limite={"guerrero"})["guerrero"] == 5


@pytest.mark.parametrize(
    ("clases", "nueva", "atributos", "keys"),
    [
        (["guerrero"], "ladron", {"Destreza": 16}, []),
        (["guerrero"], "ladron", {"Destreza": 15}, ["swc.problem.class_change_attribute_low"]),
        (["mago"], "clerigo", {"Sabiduría": 18}, ["swc.problem.class_change_mago_clerigo"]),
        (["clerigo"], "mago", {"Inteligencia": 18}, ["swc.problem.class_change_mago_clerigo"]),
        (["guerrero"], "paladin", {"Fuerza": 18}, ["swc.problem.class_change_class_not_allowed"]),
        (["druida"], "guerrero", {"Fuerza": 18}, ["swc.problem.class_change_class_not_allowed"]),
        (
            ["guerrero", "mago"],
            "ladron",
            {"Destreza": 18},
            ["swc.problem.class_change_not_single_class"],
        ),
    ],
)
def test_class_change(clases, nueva, atributos, keys):
    """ "Cambiando de clase": four classes, not Mago↔Clérigo, 16 in the new prime attribute."""
    assert [p.key for p in class_change_problems(clases, nueva, atributos)] == keys


def test_dual_class_xp_option():
    """ "un Mago de nivel 5 que cambie a Guerrero ... dividir ... entre 5"."""
    assert dual_class_xp(1_000, 5) == 200


@pytest.mark.parametrize(
    ("clases", "alineamiento", "carisma", "keys"),
    [
        (["guerrero"], "legal", 17, []),
        (["guerrero"], "legal", 16, ["swc.problem.paladin_vows_charisma_low"]),
        (["guerrero"], "neutral", 18, ["swc.problem.paladin_vows_not_lawful"]),
        (["mago"], "legal", 18, ["swc.problem.paladin_vows_not_fighter"]),
    ],
)
def test_paladin_vows(clases, alineamiento, carisma, keys):
    """ "Tomando los votos del Paladín": a Legal Guerrero with Carisma 17+."""
    problems = paladin_vow_problems(clases, alineamiento, {"Carisma": carisma})
    assert [p.key for p in problems] == keys

"""Wounds and health states (seed 002, «Estados de Salud», «Circunstancias Especiales»,
«Recuperar el aliento», Ventajas Muro and Recuperación)."""

from __future__ import annotations

import pytest

import rules.nucleo
from rules.nucleo.health import apply_damage, heal, health_state, recover_breath, thresholds


def test_fisico_8_ranges_printed_in_the_seed():
    """seed 002 «Estados de Salud»: «Con Físico 8 … 0 / 24 / 32 / 48»."""
    limits = thresholds(8)
    assert (limits.malherido, limits.inconsciente, limits.muerto) == (24, 32, 48)
    states = {w: rules.nucleo.health_state(8, w) for w in (0, 23, 24, 31, 32, 47, 48, 100)}
    assert states == {
        0: "normal",
        23: "normal",
        24: "malherido",
        31: "malherido",
        32: "inconsciente",
        47: "inconsciente",
        48: "muerto",
        100: "muerto",
    }


@pytest.mark.parametrize("fisico", range(4, 11))
def test_malherido_by_wounds_agrees_with_pv_at_most_fisico(fisico):
    """seed 002: Malherido «si los PVs … son iguales a su físico, o inferior» = heridas ≥ Físico x3."""
    pv = fisico * 4
    for wounds in range(pv):
        by_pv = pv - wounds <= fisico
        assert (health_state(fisico, wounds) == "malherido") == by_pv


def test_muro_shifts_the_thresholds_by_one_fisico():
    """seed 002 «Muro: PV = Físico x5»: by default states follow the remaining PV (docs/rules-decisions.md)."""
    limits = thresholds(8, muro=True)
    assert (limits.malherido, limits.inconsciente, limits.muerto) == (32, 40, 56)
    assert health_state(8, 31, "Muro") == "normal"
    assert health_state(8, 32, "Muro") == "malherido"
    assert health_state(8, 40, "Muro") == "inconsciente"
    assert health_state(8, 55, "Muro") == "inconsciente"
    assert health_state(8, 56, "Muro") == "muerto"


def test_muro_fixed_mode_keeps_the_printed_multiples():
    """seed 002 «Estados de Salud» ×3/×4/×6 kept as printed under muro_estados = "fijo"."""
    limits = thresholds(8, muro=True, mode="fijo")
    assert (limits.malherido, limits.inconsciente, limits.muerto) == (24, 32, 48)
    assert health_state(8, 24, "Muro", mode="fijo") == "malherido"
    with pytest.raises(ValueError):
        thresholds(8, mode="otro")


def test_wounds_accumulate_and_heal():
    """seed 002: «las heridas, son el daño recibido, directamente»; Recuperación +2 on each healing."""
    assert apply_damage(10, 7) == 17
    assert apply_damage(10, -3) == 10
    assert heal(17, 5) == 12
    assert heal(17, 5, recuperacion=True) == 10
    assert heal(3, 5, recuperacion=True) == 0
    assert heal(3, 0, recuperacion=True) == 3


def test_recover_breath_heals_1d6(scripted):
    """seed 002 «Recuperar el aliento»: «recupera 1d6 puntos de vida»; a 6 does not explode (not damage)."""
    result = recover_breath(10, scripted([6]))
    assert (result.roll, result.healed, result.wounds) == (6, 6, 4)
    result = recover_breath(10, scripted([4]), recuperacion=True)
    assert (result.roll, result.healed, result.wounds) == (4, 6, 4)
    assert recover_breath(2, scripted([5])).wounds == 0

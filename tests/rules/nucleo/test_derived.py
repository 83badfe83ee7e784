"""Derived values (seed 002, «Valores Especiales», «Ventajas», «Magia» › «Notas»)."""

from __future__ import annotations

import rules.nucleo
from rules.nucleo.derived import compute, derived

from .conftest import ARDELIA, ARDELIA_PRINTED

EXAMPLE = {"Físico": 6, "Destreza": 7, "Inteligencia": 9, "Percepción": 8, "Carisma": 7}
EXAMPLE_SKILLS = {"Esquivar": 5, "Reflejos": 4}


def test_example_character_by_the_formulas():
    """seed 002 «Ejemplo» (issue 6): 6/7/9/8/7, Esquivar 5, Reflejos 4 → PV 24, Defensa 17,
    Iniciativa 12, Voluntad 21 (the formulas; the printed 13 and 19 are wrong)."""
    values = rules.nucleo.derived(EXAMPLE, EXAMPLE_SKILLS)
    assert values == {"pv": 24, "defensa": 17, "iniciativa": 12, "voluntad": 21, "mana": 27}


def test_ardelia_printed_values_disagree_where_the_formula_wins():
    """seed 002 «Ejemplo»: PV and Defensa match what is printed; Iniciativa and Voluntad do not."""
    values = derived(ARDELIA["atributos"], ARDELIA["habilidades"])
    assert values["pv"] == ARDELIA_PRINTED["pv"]
    assert values["defensa"] == ARDELIA_PRINTED["defensa"]
    assert (values["iniciativa"], ARDELIA_PRINTED["iniciativa"]) == (12, 13)
    assert (values["voluntad"], ARDELIA_PRINTED["voluntad"]) == (21, 19)


def test_pv_is_fisico_times_4_or_5_with_muro():
    """seed 002 «Valores Especiales»: PV = Físico x4; «Muro: PV = Físico x5»."""
    attrs = {**EXAMPLE, "Físico": 8, "Inteligencia": 7}
    assert derived(attrs, {})["pv"] == 32
    assert derived(attrs, {}, "Muro")["pv"] == 40


def test_defensa_is_esquivar_plus_5_and_defensor():
    """seed 002: «Defensa: Esquivar + 5 (Esquivar = Destreza + Nivel habilidad Esquivar)»; Defensor +1."""
    values = compute(EXAMPLE, {"Esquivar": 3})
    assert (values.esquivar, values.defensa) == (10, 15)
    assert derived(EXAMPLE, {"Esquivar": 3}, "Defensor")["defensa"] == 16
    assert compute(EXAMPLE, {}, defensa_bonus=1).defensa == 13


def test_iniciativa_is_percepcion_plus_reflejos_rapido_and_estorbo():
    """seed 002: «Iniciativa: Reflejos (Percepción + Reflejos)»; Rápido +2; «Estorbo … se aplica a iniciativa»."""
    assert derived(EXAMPLE, {"Reflejos": 2})["iniciativa"] == 10
    assert derived(EXAMPLE, {"Reflejos": 2}, "Rápido")["iniciativa"] == 12
    assert compute(EXAMPLE, {"Reflejos": 2}, estorbo=2).iniciativa == 8


def test_voluntad_is_carisma_plus_inteligencia_plus_5():
    """seed 002 «Valores Especiales»: «Voluntad: Carisma+Int+5»."""
    assert derived({**EXAMPLE, "Carisma": 4, "Inteligencia": 10, "Físico": 8}, {})["voluntad"] == 19


def test_mana_is_inteligencia_times_3_or_4():
    """seed 002 «Magia» › «Notas»: «El maná es Inteligencia x3»; Maná abundante: x4."""
    assert derived(EXAMPLE, {})["mana"] == 27
    assert derived(EXAMPLE, {}, "Maná abundante")["mana"] == 36


def test_unrelated_advantage_changes_nothing():
    """seed 002 «Ventajas»: Suerte has no effect on derived values."""
    assert derived(EXAMPLE, EXAMPLE_SKILLS, "Suerte") == derived(EXAMPLE, EXAMPLE_SKILLS)

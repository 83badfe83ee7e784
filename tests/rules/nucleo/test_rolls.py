"""Reading check requests (seed 002 «Circunstancias Especiales», «Dividir Acciones», attacks)."""

from __future__ import annotations

import pytest

from rules.nucleo.checks import Keep
from rules.nucleo.rolls import attack_bonus, effect_total, keep_for
from rules.nucleo.sheet import character
from rules.systems.base import RulesError

from .conftest import ARDELIA, keys


def _char(**changes):
    return character(dict(ARDELIA, **changes), {})


def test_keep_for_reads_the_sheet_and_notes_each_circumstance():
    """seed 002: Malherido from the wounds, the token from the circumstances."""
    notes: list[str] = []
    assert keep_for(_char(), frozenset(), {}, False, notes) is Keep.MIDDLE and notes == []
    notes = []
    assert keep_for(_char(heridas=18), frozenset({"token"}), {}, False, notes) is Keep.MIDDLE
    assert notes == ["nucleo.note.malherido", "nucleo.note.token"]
    assert (
        keep_for(
            _char(heridas=18), frozenset({"token"}), {"token_contra_menor": "menor"}, False, []
        )
        is Keep.LOWEST
    )
    assert keep_for(_char(), frozenset(), {}, True, []) is Keep.LOWEST


def test_keep_for_refusals():
    """seed 002 «Estados de Salud»: Inconsciente cannot act; the token must be held."""
    for char, circ in (
        (_char(heridas=24), frozenset()),
        (_char(token=False), frozenset({"token"})),
    ):
        with pytest.raises(RulesError) as info:
            keep_for(char, circ, {}, False, [])
        keys(info.value.problems)


def test_attack_bonus_melee_and_ranged():
    """seed 002: «Físico + Cuerpo a Cuerpo», «Destreza + Armas a Distancia»; Berseker +2 CC."""
    assert attack_bonus(_char(), "distancia", frozenset(), []) == (
        "Ataque a distancia",
        "Destreza",
        7 + 4,
        False,
    )
    strong = dict(
        ARDELIA,
        ventaja="Berseker",
        habilidades=dict(ARDELIA["habilidades"], **{"Armas cuerpo a cuerpo": 2}),
    )
    strong["atributos"] = dict(ARDELIA["atributos"], **{"Físico": 8, "Inteligencia": 7})
    char = character(strong, {})
    assert effect_total(char, "melee_attack") == 2
    label, attribute, bonus, unknown = attack_bonus(
        char, "cuerpo_a_cuerpo", frozenset({"flanqueando"}), []
    )
    assert (attribute, bonus, unknown) == ("Físico", 8 + 2 + 2 + 2, False)

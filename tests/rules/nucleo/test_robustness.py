"""Whatever a sheet holds (hand-edited JSON, an old export), the rules answer with problems or a
RulesError, never a crash: property tests over arbitrary values in every Núcleo sheet key."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.nucleo.system import SYSTEM
from rules.systems.base import CheckRequest, RulesError

from .conftest import ARDELIA, keys

_scalar = st.one_of(st.none(), st.booleans(), st.integers(-50, 50), st.text(max_size=12))
_value = st.recursive(
    _scalar,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=12), inner, max_size=3)
    ),
    max_leaves=8,
)
_attribute_names = st.sampled_from(
    ["Físico", "Destreza", "Inteligencia", "Percepción", "Carisma", "Fuerza"]
)
_sheets = st.fixed_dictionaries(
    {},
    optional={
        "atributos": st.one_of(
            _value, st.dictionaries(_attribute_names, st.one_of(st.integers(-5, 15), _scalar))
        ),
        "piramide": _value,
        "habilidades": st.one_of(
            _value,
            st.dictionaries(
                st.sampled_from(list(ARDELIA["habilidades"]) + ["Nadar"]), st.integers(-2, 9)
            ),
        ),
        "hechizos": st.one_of(
            _value,
            st.dictionaries(st.sampled_from(["Luz", "Curación", "Volar"]), st.integers(-1, 7)),
        ),
        "ventaja": _value,
        "raza": st.one_of(
            _value, st.sampled_from(["Humano", "Enano", "Androide", "Mediano", "Elfo del bosque"])
        ),
        "ventaja_racial": _value,
        "heridas": st.one_of(_value, st.integers(-5, 80)),
        "mana_gastado": _value,
        "token": _value,
        "px": _value,
        "equipo": st.one_of(
            _value,
            st.fixed_dictionaries({"armadura": _value, "arma_principal": _value, "escudo": _value}),
        ),
    },
)


@settings(max_examples=150, deadline=None)
@given(sheet=_sheets)
def test_validate_and_derive_never_crash(sheet):
    """seed 002 «Creando Personaje»: every rule reports through catalogue problems."""
    keys(SYSTEM.validate(sheet, {}))
    SYSTEM.derived(sheet, {})
    SYSTEM.check_options(sheet, {})


@settings(max_examples=100, deadline=None)
@given(
    sheet=_sheets,
    option=st.sampled_from(
        ["atributo:Físico", "habilidad:Sigilo", "iniciativa", "hechizo:Luz", "ataque:distancia"]
    ),
)
def test_checks_roll_or_refuse(sheet, option):
    """seed 002 «Tiradas»: a check either rolls or raises a translated RulesError."""
    try:
        SYSTEM.check(sheet, CheckRequest(option, difficulty=15), {}, random.Random(7))
    except RulesError as error:
        keys(error.problems)

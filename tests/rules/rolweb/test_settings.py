"""Tests of rules/rolweb/settings.py: the campaign settings seed 001 leaves to each group."""

from __future__ import annotations

import pytest

from rules.rolweb.settings import (
    DEFAULT_ATTRIBUTES,
    SETTING_SPECS,
    CreationMethod,
    DeathRule,
    NaturalRule,
    parse_settings,
)
from rules.systems.base import RulesError

from .conftest import assert_translatable


def test_defaults_are_the_family_defaults():
    # brief: eight attributes, 80 points each 5-15, standard array offered, natural rule off
    parsed = parse_settings({})
    assert parsed.attributes == DEFAULT_ATTRIBUTES and len(parsed.attributes) == 8
    assert {"Ágil", "Atento", "Diestro", "Discreto", "Fuerte", "Persuasivo"} <= set(
        parsed.attributes
    )
    assert (parsed.creation, parsed.pool, parsed.minimum, parsed.maximum) == (
        CreationMethod.POOL,
        80,
        5,
        15,
    )
    assert parsed.array == (15, 13, 11, 10, 10, 9, 7, 5)
    assert parsed.naturals is NaturalRule.NONE
    assert parsed.movement_to_combat is False and parsed.defence_costs_action is False
    assert parsed.run_squares == 5 and parsed.death_rule is DeathRule.SEED


def test_every_spec_default_parses_to_the_same_settings():
    raw = {spec.key: spec.default for spec in SETTING_SPECS}
    assert parse_settings(raw) == parse_settings({})


def test_campaign_can_edit_the_attribute_list():
    parsed = parse_settings({"atributos": "Ágil, Atento, Diestro, Discreto, Fuerte, Persuasivo"})
    assert len(parsed.attributes) == 6
    assert (
        parse_settings(
            {"atributos": ["Ágil", "Atento", "Diestro", "Discreto", "Fuerte", "Magia"]}
        ).attributes[-1]
        == "Magia"
    )


def test_attribute_list_cannot_drop_what_the_rules_read():
    with pytest.raises(RulesError) as error:
        parse_settings({"atributos": "Ágil, Atento, Diestro, Discreto"})
    assert [p.params["name"] for p in error.value.problems] == ["Fuerte"]
    assert_translatable(error.value.problems)


@pytest.mark.parametrize(
    "raw",
    [
        {"creacion": "dados"},
        {"naturales": "siempre"},
        {"creacion_puntos": "mucho"},
        {"creacion_minimo": 16},
        {"carrera_casillas": "6"},
        {"movimiento_a_combate": "quizá"},
        {"atributos": "Ágil, Ágil, Atento, Diestro, Discreto, Fuerte"},
    ],
)
def test_bad_settings_are_refused_with_a_translatable_problem(raw):
    with pytest.raises(RulesError) as error:
        parse_settings(raw)
    assert error.value.problems[0].key == "rolweb.problem.bad_setting"
    assert_translatable(error.value.problems)


def test_boolean_settings_accept_text():
    assert parse_settings(
        {"movimiento_a_combate": "sí", "defensa_gasta_accion": "true"}
    ).movement_to_combat
    assert not parse_settings({"movimiento_a_combate": "no"}).movement_to_combat

"""Tests of rules/rolweb/equipment.py: house-default weapons and armour, campaign overrides,
and the shield rules of seed 001 "ESCUDO"."""

from __future__ import annotations

import json

import pytest

from rules.rolweb.equipment import Quality, Shield, load_armour, load_weapons
from rules.rolweb.settings import parse_settings
from rules.systems.base import RulesError

from .conftest import assert_translatable


def test_default_weapons_cover_the_qualities_the_seed_names():
    # COMBATE CON ARMAS PREPARADAS (Larga), SORPRESA (Corta), ESCUDO (Pesada, a distancia)
    weapons = load_weapons()
    qualities = set().union(*(w.qualities for w in weapons))
    assert {Quality.LONG, Quality.SHORT, Quality.HEAVY, Quality.RANGED} <= qualities
    assert next(w for w in weapons if w.name == "Espada").damage == "1d8"


def test_default_armour_is_rolled_1d4_1d6_1d8():
    # DEFENSA: "el valor de daño del arma menos la tirada de la armadura"
    assert [a.protection for a in load_armour()] == ["1d4", "1d6", "1d8"]
    assert all(a.defence <= 0 for a in load_armour())


def test_data_is_labelled_house_default():
    from rules.rolweb._data import read_json

    assert read_json("weapons.json")["origen"] == "house default, not from the seed"
    assert read_json("armour.json")["origen"] == "house default, not from the seed"


def test_campaign_replaces_weapons_with_its_own_list():
    own = [{"nombre": "Garrote", "dano": "1d6", "cualidades": []}]
    weapons = load_weapons(parse_settings({"armas": json.dumps(own)}))
    assert [w.name for w in weapons] == ["Garrote"]


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        json.dumps([{"nombre": "Garrote", "dano": "mucho"}]),
        json.dumps([{"nombre": "Garrote", "dano": "1d6", "cualidades": ["Mágica"]}]),
        json.dumps([{"nombre": "X", "dano": "1d6"}, {"nombre": "X", "dano": "1d4"}]),
    ],
)
def test_broken_campaign_weapons_are_explained(text):
    with pytest.raises(RulesError) as error:
        load_weapons(parse_settings({"armas": text}))
    expected = "formats.json.invalid" if text == "not json" else "rolweb.problem.bad_data"
    assert error.value.problems[0].key == expected
    assert_translatable(error.value.problems)


def test_weapon_file_errors_read_as_text_not_python() -> None:
    """Was: «cualidad desconocida en Sable: ['Distancia', 'Voladora']» (issue 13)."""
    text = json.dumps([{"nombre": "Sable", "dano": "1d6", "cualidades": ["Distancia", "Voladora"]}])
    with pytest.raises(RulesError) as error:
        load_weapons(parse_settings({"armas": text}))
    detail = error.value.problems[0].params["detail"]
    assert "['" not in detail and "«Voladora»" in detail
    assert "Larga, Corta, Pesada, Distancia, Natural" in detail
    with pytest.raises(RulesError) as error:
        load_weapons(parse_settings({"armas": '[{"nombre": "Sable",, }]'}))
    (problem,) = error.value.problems
    assert problem.key == "formats.json.invalid"
    assert problem.params["line"] == 1 and problem.params["column"] == 21


def test_broken_campaign_armour_is_explained():
    with pytest.raises(RulesError):
        load_armour(
            parse_settings(
                {"armaduras": json.dumps([{"nombre": "Cota", "proteccion": "1d6", "defensa": 2}])}
            )
        )


def test_shield_and_rodela_both_give_plus_one():
    # ESCUDO: "+1 a la Defensa" ... "la rodela ... seguir beneficiando al usuario con un +1"
    assert Shield.SHIELD.defence == Shield.BUCKLER.defence == 1
    assert Shield.NONE.defence == 0
    assert Shield.SHIELD.occupies_hand and not Shield.BUCKLER.occupies_hand

"""Tests of rules/rolweb/attributes.py: the eight attributes and the creation rules.

Seed 001 names Ágil, Atento, Diestro, Discreto, Fuerte and Persuasivo (TIRADAS DE ACCIÓN,
ORDEN DE TURNO, SORPRESA, DEFENSA, RESISTENCIA, ESCENAS SOCIALES); creation rules are the
Symbaroum family's, as campaign settings.
"""

from __future__ import annotations

from rules.rolweb.attributes import describe, load_attributes, validate_attributes
from rules.rolweb.settings import parse_settings

from .conftest import assert_translatable

ARRAY_SHEET = {
    "Ágil": 15,
    "Astuto": 13,
    "Atento": 11,
    "Diestro": 10,
    "Discreto": 10,
    "Fuerte": 9,
    "Persuasivo": 7,
    "Tenaz": 5,
}


def test_data_ships_eight_and_marks_the_six_from_the_seed():
    attributes = load_attributes()
    assert len(attributes) == 8
    assert {a.name for a in attributes if a.in_seed} == {
        "Ágil",
        "Atento",
        "Diestro",
        "Discreto",
        "Fuerte",
        "Persuasivo",
    }
    assert {a.name for a in attributes if not a.in_seed} == {"Astuto", "Tenaz"}
    assert all(a.description for a in attributes)


def test_describe_falls_back_to_empty_for_campaign_attributes():
    assert "Defensa" in describe("Ágil")
    assert describe("Magia") == ""


def test_pool_of_80_with_each_between_5_and_15_is_legal():
    values = dict.fromkeys(ARRAY_SHEET, 10)
    assert validate_attributes(values, parse_settings({})) == []


def test_pool_must_be_spent_exactly():
    values = dict.fromkeys(ARRAY_SHEET, 10) | {"Ágil": 12}
    problems = validate_attributes(values, parse_settings({}))
    assert [p.key for p in problems] == ["rolweb.problem.pool_mismatch"]
    assert problems[0].params == {"total": 82, "pool": 80}
    assert_translatable(problems)


def test_pool_bounds_are_enforced_per_attribute():
    values = dict.fromkeys(ARRAY_SHEET, 10) | {"Ágil": 16, "Tenaz": 4}
    problems = validate_attributes(values, parse_settings({}))
    assert {p.path for p in problems} == {"atributos.Ágil", "atributos.Tenaz"}
    assert_translatable(problems)


def test_standard_array_in_any_order():
    settings = parse_settings({"creacion": "serie"})
    assert validate_attributes(ARRAY_SHEET, settings) == []
    shuffled = dict(zip(ARRAY_SHEET, reversed(list(ARRAY_SHEET.values())), strict=True))
    assert validate_attributes(shuffled, settings) == []
    problems = validate_attributes(dict.fromkeys(ARRAY_SHEET, 10), settings)
    assert [p.key for p in problems] == ["rolweb.problem.array_mismatch"]
    assert_translatable(problems)


def test_values_above_20_are_refused_even_when_free():
    # a d20 roll-under test needs attributes within 1..20
    problems = validate_attributes(
        ARRAY_SHEET | {"Ágil": 21}, parse_settings({"creacion": "libre"})
    )
    assert [p.key for p in problems] == ["rolweb.problem.attribute_out_of_bounds"]


def test_free_creation_checks_only_presence_and_range():
    values = dict.fromkeys(ARRAY_SHEET, 18)
    assert validate_attributes(values, parse_settings({"creacion": "libre"})) == []


def test_missing_and_unknown_attributes_are_reported():
    values = dict.fromkeys(ARRAY_SHEET, 10)
    del values["Tenaz"]
    values["Suerte"] = 10
    problems = validate_attributes(values, parse_settings({}))
    assert {p.key for p in problems} == {
        "rolweb.problem.attribute_missing",
        "rolweb.problem.unknown_attribute",
    }
    assert_translatable(problems)


def test_edited_list_with_its_own_pool():
    six = "Ágil, Atento, Diestro, Discreto, Fuerte, Persuasivo"
    settings = parse_settings({"atributos": six, "creacion_puntos": 60})
    values = dict.fromkeys(settings.attributes, 10)
    assert validate_attributes(values, settings) == []

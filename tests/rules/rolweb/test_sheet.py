"""Tests of rules/rolweb/sheet.py: the sheet shape documented in docs/systems/rolweb.md and
its validation against seed 001 ("RESISTENCIA", "ESCUDO", "PERSONAJES MORIBUNDOS")."""

from __future__ import annotations

import pytest

from rules.rolweb import sheet as sheets
from rules.rolweb.damage import LifeState
from rules.rolweb.equipment import Shield
from rules.rolweb.settings import parse_settings
from rules.systems.base import FieldKind, RulesError

from .conftest import assert_translatable

SETTINGS = parse_settings({})


def _sheet(**changes):
    sheet = sheets.new_sheet("Ardelia", SETTINGS)
    sheet["atributos"] |= {"Ágil": 13, "Fuerte": 12, "Tenaz": 7, "Astuto": 8}
    sheet["resistencia"]["actual"] = 12
    sheet.update(changes)
    return sheet


def test_new_sheet_is_legal_under_the_default_pool():
    sheet = sheets.new_sheet("Ardelia", SETTINGS)
    assert sheet["system"] == "rolweb" and sheet["estado"] == "activo"
    assert sheets.validate(sheet, SETTINGS) == []
    assert sheets.max_toughness(sheet) == 10  # RESISTENCIA: Fuerte 10, minimum 10


def test_a_complete_sheet_is_legal():
    sheet = _sheet(
        armas=["Espada", "daga"],
        armadura="Ligera",
        escudo="escudo",
        habilidades={"Medicus": "adepto"},
    )
    assert sheets.validate(sheet, SETTINGS) == []
    assert [w.name for w in sheets.weapons(sheet, SETTINGS)] == ["Espada", "Daga"]
    assert sheets.armour(sheet, SETTINGS).protection == "1d4"
    assert sheets.shield(sheet) is Shield.SHIELD


def test_weapons_may_be_text_or_inline_objects():
    sheet = _sheet(armas="Lanza, Arco")
    assert [w.name for w in sheets.weapons(sheet, SETTINGS)] == ["Lanza", "Arco"]
    sheet = _sheet(armas=[{"nombre": "Garrote", "dano": "1d6", "cualidades": []}])
    assert sheets.weapons(sheet, SETTINGS)[0].damage == "1d6"


def test_shield_with_heavy_weapon_is_illegal():
    # ESCUDO: "El escudo impide el uso de armas Pesadas y a distancia"
    problems = sheets.validate(_sheet(armas=["Mandoble"], escudo="escudo"), SETTINGS)
    assert [p.key for p in problems] == ["rolweb.problem.shield_forbids_weapon"]
    assert sheets.validate(_sheet(armas=["Mandoble"], escudo="rodela"), SETTINGS) == []
    assert_translatable(problems)


def test_toughness_above_maximum_is_illegal():
    # RESISTENCIA: the maximum is Fuerte (12 here)
    sheet = _sheet()
    sheet["resistencia"]["actual"] = 13
    problems = sheets.validate(sheet, SETTINGS)
    assert [p.key for p in problems] == ["rolweb.problem.toughness_out_of_bounds"]
    assert_translatable(problems)


def test_state_must_match_toughness():
    # PERSONAJES MORIBUNDOS: dying exactly at 0
    sheet = _sheet(estado="moribundo")
    problems = sheets.validate(sheet, SETTINGS)
    assert [p.key for p in problems] == ["rolweb.problem.state_mismatch"]
    sheet["resistencia"]["actual"] = 0
    assert sheets.validate(sheet, SETTINGS) == []
    assert sheets.state(sheet) is LifeState.DYING
    assert_translatable(problems)


@pytest.mark.parametrize(
    "changes,key",
    [
        ({"name": ""}, "rolweb.problem.name_missing"),
        ({"system": "swc"}, "rolweb.problem.wrong_system"),
        ({"habilidades": {"Volar": "adepto"}}, "rolweb.problem.unknown_ability"),
        ({"habilidades": {"Medicus": "experto"}}, "rolweb.problem.unknown_level"),
        ({"xp": {"total": 10, "gastada": 20}}, "rolweb.problem.bad_xp"),
        ({"armas": ["Bazuca"]}, "rolweb.problem.unknown_weapon"),
        ({"armadura": "Mithril"}, "rolweb.problem.unknown_armour"),
        ({"escudo": "torre"}, "rolweb.problem.unknown_shield"),
        ({"estado": "dormido"}, "rolweb.problem.unknown_state"),
        ({"resistencia": {}}, "rolweb.problem.toughness_missing"),
    ],
)
def test_each_illegal_field_is_named(changes, key):
    problems = sheets.validate(_sheet(**changes), SETTINGS)
    assert key in [p.key for p in problems]
    assert_translatable(problems)


def test_attribute_reader_refuses_a_missing_attribute():
    sheet = _sheet()
    del sheet["atributos"]["Fuerte"]
    with pytest.raises(RulesError):
        sheets.attribute(sheet, "Fuerte")
    assert "rolweb.problem.attribute_missing" in [p.key for p in sheets.validate(sheet, SETTINGS)]


def test_fields_cover_attributes_abilities_gear_and_xp():
    fields = {f.path: f for f in sheets.fields(SETTINGS)}
    assert (
        fields["atributos.Ágil"].kind is FieldKind.INTEGER
        and fields["atributos.Ágil"].maximum == 20
    )
    assert fields["habilidades.Medicus"].choices == ("ninguno", "principiante", "adepto", "maestro")
    assert "Ligera" in fields["armadura"].choices and "ninguna" in fields["armadura"].choices
    assert fields["escudo"].choices == ("ninguno", "escudo", "rodela")
    assert {"xp.total", "xp.gastada", "resistencia.actual", "estado", "armas"} <= set(fields)
    assert {"name", "notas", "dinero", "resistencia.maxima"} <= set(fields)
    # A player could otherwise free his attributes from the pool by declaring himself an NPC.
    assert "pnj" not in fields


def test_readers_do_not_mutate_and_copies_are_deep():
    sheet = _sheet()
    copied = sheets.copy_sheet(sheet)
    copied["atributos"]["Ágil"] = 1
    assert sheet["atributos"]["Ágil"] == 13

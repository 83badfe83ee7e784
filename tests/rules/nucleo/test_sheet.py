"""The sheet shape, settings and the typed view (seed 002 «Creando Personaje», modules)."""

from __future__ import annotations

from rules.nucleo.sheet import SETTINGS, character, equipment_items, new_sheet, normalise, setting

from .conftest import ARDELIA, keys


def test_settings_fall_back_to_defaults_and_refuse_unknown_choices():
    """seed 002 «Módulo de reglas»: modules and contradictions are campaign settings with defaults."""
    assert setting({}, "muro_estados") == "desplazar"
    assert setting({"muro_estados": "fijo"}, "muro_estados") == "fijo"
    assert setting({"muro_estados": "raro"}, "muro_estados") == "desplazar"
    assert setting({"magia": False}, "magia") is False
    assert len({s.key for s in SETTINGS}) == len(SETTINGS)


def test_new_sheet_shape():
    """seed 002 «Atributos»: every attribute starts at the minimum, 4."""
    sheet = new_sheet("Nadie")
    assert sheet["atributos"] == {
        "Físico": 4,
        "Destreza": 4,
        "Inteligencia": 4,
        "Percepción": 4,
        "Carisma": 4,
    }
    assert sheet["token"] is True and sheet["heridas"] == 0 and equipment_items(sheet) == []


def test_equipment_items():
    """seed 002 «Equipo»: main and second weapon, armour and «Escudo» are catalogue items; others are free."""
    sheet = {
        "equipo": {
            "arma_principal": "Daga",
            "armadura": "Cota de mallas",
            "escudo": True,
            "otros": ["Cuerda"],
        }
    }
    assert equipment_items(sheet) == ["Daga", "Cota de mallas", "Escudo"]
    assert equipment_items({"equipo": ["Daga"]}) == []


def test_normalise_turns_wrong_types_into_problems():
    """seed 002 «Creando Personaje»: a malformed sheet yields problems, not crashes."""
    clean, problems = normalise(
        {"atributos": [6, 7], "raza": 3, "equipo": {"armadura": ["x"]}, "hechizos": None}
    )
    assert keys(problems) == [
        "nucleo.problem.bad_table",
        "nucleo.problem.bad_text",
        "nucleo.problem.bad_text",
    ]
    assert (
        clean["atributos"] == {} and clean["raza"] is None and clean["equipo"]["armadura"] is None
    )
    assert clean["hechizos"] == {}
    assert normalise(ARDELIA)[1] == []


def test_character_view_applies_modules_race_and_equipment():
    """seed 002 «Razas»: Enano → Muro (PV × 5); «Equipo»: Cota de mallas absorción 4, estorbo 2."""
    sheet = dict(ARDELIA, raza="Enano", heridas=3, mana_gastado=5)
    sheet["equipo"] = {"armadura": "Cota de mallas"}
    char = character(sheet, {})
    assert char.advantages == {"Suerte", "Muro"} and char.derived.pv == 30
    assert (char.loadout.absorption, char.derived.iniciativa) == (4, 12 - 2)
    assert (char.wounds, char.state, char.mana_left) == (3, "normal", 27 - 5)
    plain = character(sheet, {"razas": False, "magia": False})
    assert plain.advantages == {"Suerte"} and plain.derived.pv == 24 and plain.spells == {}

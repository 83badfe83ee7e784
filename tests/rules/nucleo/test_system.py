"""Núcleo behind the common GameSystem interface (seed 002, every section through one object)."""

from __future__ import annotations

import copy
import re
import sys
from pathlib import Path

import pytest

from rules import systems
from rules.nucleo.system import SYSTEM
from rules.systems.base import CheckRequest, FieldKind, GameSystem, Outcome, RulesError

from .conftest import CATALOGUES, keys, render

DEFAULTS: dict = {}


def _derived(sheet, settings=DEFAULTS) -> dict:
    return {d.key: d.value for d in SYSTEM.derived(sheet, settings)}


def _raises(call) -> list[str]:
    with pytest.raises(RulesError) as info:
        call()
    return keys(info.value.problems)


def test_registered_and_implements_the_interface():
    """seed 002 is served as system ``nucleo`` behind the common interface."""
    assert systems.get("nucleo") is SYSTEM
    assert isinstance(SYSTEM, GameSystem)
    assert (SYSTEM.id, SYSTEM.seed) == ("nucleo", "002_2016ed9f803eee4c.txt")


def test_settings_cover_modules_and_contradictions():
    """seed 002 «Módulo de reglas»: razas, ventajas, magia, armaduras especiales are optional."""
    specs = {s.key: s for s in SYSTEM.settings()}
    assert {k: s.default for k, s in specs.items()} == {
        "razas": True,
        "ventajas": True,
        "magia": True,
        "armaduras_especiales": True,
        "armaduras_especiales_al_crear": False,
        "creacion_estricta": True,
        "muro_estados": "desplazar",
        "token_contra_menor": "anula",
        "dividir_con_menor": "permitido",
        "pifia_con_menor": "dado_siguiente",
        "salvacion": "fija",
        "dados_extra_distancia": False,
        "moneda": "créditos",
        "px_habilidad": 2,
        "px_atributo": 3,
        "mejoras_con_aprobacion": True,
        "recuperar_aliento": "una_por_combate",
        "curacion_por_dia": 1,
    }
    for spec in specs.values():
        if spec.kind is FieldKind.CHOICE:
            assert spec.default in spec.choices
        render(f"nucleo.setting.{spec.key}", "es")
        render(f"nucleo.setting.{spec.key}", "en")


def test_ardelia_is_legal_and_derives_by_the_formulas(ardelia):
    """seed 002 «Ejemplo»: PV 24, Defensa 17, Iniciativa 12 (printed 13), Voluntad 21 (printed 19)."""
    assert SYSTEM.validate(ardelia, DEFAULTS) == []
    values = _derived(ardelia)
    assert (values["pv"], values["defensa"], values["iniciativa"], values["voluntad"]) == (
        24,
        17,
        12,
        21,
    )
    assert (values["mana"], values["estado"], values["pv_restantes"]) == (27, "normal", 24)
    formulas = {d.key: d.formula for d in SYSTEM.derived(ardelia, DEFAULTS)}
    assert formulas["pv"] == "Físico 6 × 4" and formulas["defensa"] == "Esquivar 12 + 5"


def test_new_sheet_is_well_formed_but_incomplete():
    """seed 002 «Creando Personaje»: an empty sheet still lacks points, race and advantage."""
    sheet = SYSTEM.new_sheet("Nadie", DEFAULTS)
    assert sheet["system"] == "nucleo" and sheet["name"] == "Nadie"
    found = keys(SYSTEM.validate(sheet, DEFAULTS))
    assert {
        "nucleo.problem.race_missing",
        "nucleo.problem.attribute_total",
        "nucleo.problem.advantage_missing",
    } <= set(found)


def test_fields_follow_the_modules():
    """seed 002 «Módulo de reglas»: no spell, race or advantage fields when their module is off."""
    paths = {f.path for f in SYSTEM.fields(DEFAULTS)}
    assert {
        "atributos.Físico",
        "habilidades.Pilotar",
        "hechizos.Curación",
        "ventaja",
        "raza",
        "equipo.armadura",
    } <= paths
    off = {"magia": False, "razas": False, "ventajas": False, "armaduras_especiales": False}
    fields = {f.path: f for f in SYSTEM.fields(off)}
    assert not {"hechizos.Curación", "ventaja", "raza", "mana_gastado"} & set(fields)
    assert "Cota de Mithril" not in fields["equipo.armadura"].choices
    assert (fields["atributos.Carisma"].minimum, fields["atributos.Carisma"].maximum) == (4, 10)


def test_validation_of_race_pyramid_and_advantage(ardelia):
    """seed 002 «Razas»: Artificial, especialista only, no advantage, no armour."""
    sheet = copy.deepcopy(ardelia)
    sheet["raza"] = "Androide"
    sheet["equipo"]["armadura"] = "Armadura ligera"
    found = keys(SYSTEM.validate(sheet, DEFAULTS))
    assert set(found) == {
        "nucleo.problem.pyramid_race",
        "nucleo.problem.advantage_race_forbidden",
        "nucleo.problem.armour_race_forbidden",
    }
    assert keys(SYSTEM.validate(sheet, {"razas": False})) == []


def test_module_off_and_loose_creation(ardelia):
    """seed 002 «Magia» is a module; strict creation (37 points, exact pyramid) can be relaxed."""
    sheet = copy.deepcopy(ardelia)
    sheet["hechizos"] = {"Luz": 1}
    assert keys(SYSTEM.validate(sheet, DEFAULTS)) == [
        "nucleo.problem.pyramid_count",
        "nucleo.problem.strict_creation",  # names the rule that refuses it (issue 13 §3)
    ]
    assert keys(SYSTEM.validate(sheet, {"magia": False})) == ["nucleo.problem.module_disabled"]
    sheet["hechizos"] = {}
    sheet["atributos"]["Carisma"] = 9
    sheet["habilidades"]["Pilotar"] = 7
    assert "nucleo.problem.attribute_total" in keys(SYSTEM.validate(sheet, DEFAULTS))
    assert keys(SYSTEM.validate(sheet, {"creacion_estricta": False})) == [
        "nucleo.problem.skill_level"
    ]
    sheet["habilidades"]["Pilotar"] = 6
    assert SYSTEM.validate(sheet, {"creacion_estricta": False}) == []


def test_state_fields_validated(ardelia):
    """seed 002 «Estados de Salud» and «Magia»: wounds and spent mana are whole numbers within bounds."""
    sheet = copy.deepcopy(ardelia) | {"heridas": -1, "mana_gastado": 40, "system": "swc"}
    sheet["equipo"]["arma_principal"] = "Pistola"
    assert set(keys(SYSTEM.validate(sheet, DEFAULTS))) == {
        "nucleo.problem.bad_number",
        "nucleo.problem.mana_spent",
        "nucleo.problem.wrong_system",
        "nucleo.problem.item_unknown",
    }


def test_check_options(ardelia):
    """seed 002 «Tiradas»: attributes, every skill, initiative, attacks, saves and known spells."""
    options = {o.key for o in SYSTEM.check_options(ardelia | {"hechizos": {"Luz": 2}}, DEFAULTS)}
    assert {
        "atributo:Físico",
        "habilidad:Sigilo",
        "iniciativa",
        "salvacion:Inteligencia",
        "hechizo:Luz",
    } <= options
    assert "hechizo:Bola de fuego" not in options


def test_skill_check_with_probability(ardelia, scripted):
    """seed 002 «Tiradas de Habilidad»: Destreza 7 + Pilotar 6 + 1o3d10 vs 20."""
    result = SYSTEM.check(
        ardelia, CheckRequest("habilidad:Pilotar", difficulty=20), DEFAULTS, scripted([5, 3, 9])
    )
    assert (result.expression, result.total, result.outcome) == ("1o3d10+13", 18, Outcome.FAILURE)
    assert result.target == 20 and result.probability == (44, 125)
    assert result.notes == ()


def test_unknown_skill_keeps_lowest(ardelia, scripted):
    """seed 002: «Habilidad desconocida: … se guarda el dado menor»."""
    result = SYSTEM.check(ardelia, CheckRequest("habilidad:Nadar"), DEFAULTS, scripted([5, 3, 9]))
    assert result.total == 7 + 3 and result.notes == ("nucleo.note.habilidad_desconocida",)


def test_malherido_keeps_lowest_and_unconscious_cannot_roll(ardelia, scripted):
    """seed 002: Malherido «guarda el dado menor»; Físico 6: heridas 18–23 malherido, 24+ inconsciente."""
    hurt = ardelia | {"heridas": 18}
    result = SYSTEM.check(hurt, CheckRequest("atributo:Físico"), DEFAULTS, scripted([5, 3, 9]))
    assert result.total == 6 + 3 and "nucleo.note.malherido" in result.notes
    assert _raises(
        lambda: SYSTEM.check(
            ardelia | {"heridas": 24}, CheckRequest("atributo:Físico"), DEFAULTS, scripted([])
        )
    ) == ["nucleo.problem.cannot_act"]


def test_token_keeps_highest_and_must_be_held(ardelia, scripted):
    """seed 002 «Token»: given to the GM it keeps the highest; handed back it forces the lowest."""
    result = SYSTEM.check(
        ardelia,
        CheckRequest("atributo:Carisma", circumstances=frozenset({"token"})),
        DEFAULTS,
        scripted([5, 3, 9]),
    )
    assert result.total == 16 and result.extra["token_spent"]
    returned = SYSTEM.check(
        ardelia,
        CheckRequest("atributo:Carisma", circumstances=frozenset({"token_devuelto"})),
        DEFAULTS,
        scripted([5, 3, 9]),
    )
    assert returned.total == 10
    no_token = ardelia | {"token": False}
    assert _raises(
        lambda: SYSTEM.check(
            no_token,
            CheckRequest("atributo:Carisma", circumstances=frozenset({"token"})),
            DEFAULTS,
            scripted([]),
        )
    ) == ["nucleo.problem.token_unavailable"]


def test_split_actions_setting(ardelia, scripted):
    """seed 002 «Dividir Acciones»: lowest die; «no aplicable si … ya está guardando dado menor»."""
    split = CheckRequest("habilidad:Nadar", circumstances=frozenset({"dividir_acciones"}))
    assert SYSTEM.check(ardelia, split, DEFAULTS, scripted([5, 3, 9])).total == 10
    assert _raises(
        lambda: SYSTEM.check(ardelia, split, {"dividir_con_menor": "prohibido"}, scripted([]))
    ) == ["nucleo.problem.split_not_allowed"]


def test_estorbo_on_destreza_skills_out_of_combat(ardelia, scripted):
    """seed 002 «Estorbo»: «se aplica a todas las habilidades de destreza cuando no se está en combate»."""
    armoured = copy.deepcopy(ardelia)
    armoured["equipo"]["armadura"] = "Armadura ligera"
    out = SYSTEM.check(armoured, CheckRequest("habilidad:Pilotar"), DEFAULTS, scripted([5, 3, 9]))
    assert out.total == 13 + 5 - 1 and out.notes == ("nucleo.note.estorbo",)
    fighting = CheckRequest("habilidad:Pilotar", circumstances=frozenset({"combate"}))
    assert SYSTEM.check(armoured, fighting, DEFAULTS, scripted([5, 3, 9])).total == 18
    assert _derived(armoured)["iniciativa"] == 11


def test_infravision_in_the_dark(ardelia, scripted):
    """seed 002 «Razas»: Infravisión, «-2 a las tiradas de percepción» in the dark."""
    elf = ardelia | {"raza": "Alto Elfo"}
    dark = CheckRequest("habilidad:Buscar", circumstances=frozenset({"oscuridad"}))
    result = SYSTEM.check(elf, dark, DEFAULTS, scripted([5, 3, 9]))
    assert result.total == 8 + 3 + 5 - 2 and "nucleo.note.infravision" in result.notes


def test_attack_checks(ardelia, scripted):
    """seed 002 «Ataque cuerpo a cuerpo» (Físico + Armas cuerpo a cuerpo, por la espalda +4)
    and «Ataque a Distancia» (Destreza + Armas a distancia; Puntería +2)."""
    behind = CheckRequest(
        "ataque:cuerpo_a_cuerpo", difficulty=15, circumstances=frozenset({"por_la_espalda"})
    )
    result = SYSTEM.check(ardelia, behind, DEFAULTS, scripted([5, 3, 9]))
    assert result.total == 6 + 4 + 3  # no melee skill: lowest die
    sniper = ardelia | {
        "ventaja": "Suerte",
        "raza": "Elfo del bosque",
        "ventaja_racial": "Puntería",
    }
    ranged = SYSTEM.check(
        sniper, CheckRequest("ataque:distancia", difficulty=15), DEFAULTS, scripted([5, 3, 9])
    )
    assert ranged.total == 7 + 4 + 2 + 5
    two = CheckRequest("ataque:cuerpo_a_cuerpo", circumstances=frozenset({"dos_armas"}))
    assert _raises(lambda: SYSTEM.check(ardelia, two, DEFAULTS, scripted([]))) == [
        "nucleo.problem.two_weapons"
    ]
    dual = copy.deepcopy(ardelia)
    dual["equipo"] |= {"arma_principal": "Daga", "arma_secundaria": "Espada corta"}
    assert SYSTEM.check(dual, two, DEFAULTS, scripted([5, 3, 9])).total == 6 + 3 + 3


def test_spell_check_spends_mana_and_rolls_the_effect(ardelia, scripted):
    """seed 002 «Magia»: Inteligencia + nivel + 1o3d10 vs Dif; mana; burning; effect dice."""
    mage = ardelia | {"hechizos": {"Proyectil mágico": 1}}
    request = CheckRequest("hechizo:Proyectil mágico", circumstances=frozenset({"quemar:2"}))
    result = SYSTEM.check(mage, request, DEFAULTS, scripted([5, 3, 9, 4, 2]))
    assert (result.total, result.target, result.outcome) == (9 + 1 + 1 + 5, 16, Outcome.SUCCESS)
    assert result.extra["mana"] == 4 and result.extra["effect"]["total"] == 6
    assert "nucleo.note.quemar_mana" in result.notes
    broke = mage | {"mana_gastado": 25}
    assert _raises(lambda: SYSTEM.check(broke, request, DEFAULTS, scripted([]))) == [
        "nucleo.problem.not_enough_mana"
    ]
    assert _raises(lambda: SYSTEM.check(mage, request, {"magia": False}, scripted([]))) == [
        "nucleo.problem.unknown_option"
    ]


def test_arcano_adds_to_spells(ardelia, scripted):
    """seed 002 «Ventajas»: «Arcano (I8+): +1 a tiradas de hechizos»; Alto Elfo gets it free."""
    mage = ardelia | {"hechizos": {"Luz": 1}, "raza": "Alto Elfo"}
    result = SYSTEM.check(mage, CheckRequest("hechizo:Luz"), DEFAULTS, scripted([5, 3, 9]))
    assert result.total == 9 + 1 + 1 + 5


def test_unknown_option(ardelia, scripted):
    """seed 002 «Atributos»/«Lista de Habilidades»: anything else is refused with a message."""
    for option in ("atributo:Fuerza", "habilidad:Volar", "magia", "ataque:mordisco"):
        assert _raises(
            lambda o=option: SYSTEM.check(ardelia, CheckRequest(o), DEFAULTS, scripted([]))
        ) == ["nucleo.problem.unknown_option"]


def test_opposed_higher_wins_and_fumble_loses(ardelia, scripted):
    """seed 002: Sigilo vs Advertir/Notar, «el que saque la tirada más alta gana»."""
    hide, spot = CheckRequest("habilidad:Sigilo"), CheckRequest("habilidad:Advertir/Notar")
    result = SYSTEM.opposed(ardelia, hide, ardelia, spot, DEFAULTS, scripted([5, 3, 9, 5, 3, 9]))
    assert (result.a.total, result.b.total, result.winner) == (13, 18, "b")
    result = SYSTEM.opposed(ardelia, spot, ardelia, hide, DEFAULTS, scripted([1, 1, 2, 1, 3, 4]))
    assert result.a.outcome == "fumble" and result.winner == "b"


def test_initiative_through_the_interface(ardelia, scripted):
    """seed 002 «Combate»: Iniciativa + 1o3d10, 20+ two actions, a fumble goes last."""
    roll = SYSTEM.initiative(ardelia, DEFAULTS, scripted([8, 3, 9]))
    assert (roll.total, roll.actions, roll.goes_last) == (20, 2, False)
    fumbled = SYSTEM.initiative(ardelia, DEFAULTS, scripted([1, 1, 2]))
    assert fumbled.skips_first_round and fumbled.goes_last
    assert fumbled.sort_key < SYSTEM.initiative(ardelia, DEFAULTS, scripted([1, 2, 2])).sort_key


def test_damage_and_healing_change_state(ardelia):
    """seed 002 «Estados de Salud» (Físico 6: 18 / 24 / 36) and Recuperación."""
    change = SYSTEM.apply_damage(ardelia, 18, DEFAULTS)
    assert (change.sheet["heridas"], change.state, change.notes) == (
        18,
        "malherido",
        ("nucleo.note.estado_malherido",),
    )
    assert ardelia["heridas"] == 0
    dead = SYSTEM.apply_damage(change.sheet, 18, DEFAULTS)
    assert (dead.state, dead.notes) == ("muerto", ("nucleo.note.estado_muerto",))
    healed = SYSTEM.heal(change.sheet, 3, DEFAULTS)
    assert (healed.sheet["heridas"], healed.amount, healed.state) == (15, 3, "normal")
    strong = copy.deepcopy(ardelia) | {"heridas": 10, "ventaja": "Recuperación"}
    strong["atributos"] |= {"Físico": 8, "Inteligencia": 7}
    healed = SYSTEM.heal(strong, 3, DEFAULTS)
    assert (healed.sheet["heridas"], healed.notes) == (5, ("nucleo.note.recuperacion",))
    for note in (
        *change.notes,
        *dead.notes,
        *healed.notes,
        "nucleo.note.estado_normal",
        "nucleo.note.estado_inconsciente",
    ):
        render(note, "es")
        render(note, "en")


def test_muro_setting_through_the_interface(ardelia):
    """seed 002 Enano gets Muro: PV = Físico x5; states shift by default, stay ×3/×4/×6 when «fijo»."""
    dwarf = copy.deepcopy(ardelia) | {"raza": "Enano", "heridas": 18}
    assert _derived(dwarf)["pv"] == 30
    assert _derived(dwarf)["estado"] == "normal"
    assert _derived(dwarf, {"muro_estados": "fijo"})["estado"] == "malherido"


def test_xp_is_kept(ardelia):
    """seed 002 «Razas» names PX but no costs: they are only counted."""
    result = SYSTEM.grant_xp(ardelia, 3, DEFAULTS)
    assert (result.xp_before, result.xp_after, result.sheet["px"]) == (0, 3, 3)


def test_spells_list(ardelia):
    """seed 002 «Magia»: every spell with difficulty, cost and range type."""
    spells = {s.name: s for s in SYSTEM.spells(DEFAULTS)}
    assert len(spells) == 55
    assert (
        spells["Bola de fuego"].difficulty,
        spells["Bola de fuego"].cost,
        spells["Bola de fuego"].range,
    ) == (20, 4, "distancia")
    assert SYSTEM.spells({"magia": False}) == ()


def test_every_emitted_key_is_in_both_catalogues():
    """Every ``nucleo.problem.*`` / ``nucleo.note.*`` literal in rules/nucleo (seed 002) exists in es and en."""
    package = Path(sys.modules[SYSTEM.__module__].__file__).parent
    source = "\n".join(p.read_text(encoding="utf-8") for p in package.glob("*.py"))
    emitted = set(re.findall(r"nucleo\.(?:problem|note)\.[a-z_]+(?=\")", source))
    emitted |= {
        f"nucleo.note.estado_{state}" for state in ("normal", "malherido", "inconsciente", "muerto")
    }
    assert len(emitted) > 40
    for lang in ("es", "en"):
        assert emitted <= set(CATALOGUES[lang]), emitted - set(CATALOGUES[lang])
    assert set(CATALOGUES["es"]) == set(CATALOGUES["en"])


def test_saving_throw_is_an_attribute_check(ardelia, scripted):
    """seed 002 «Magia»: «Salvación: INT 15» is never defined; we roll Inteligencia + 1o3d10 vs 15
    (docs/rules-decisions.md); the spell Defensa mental gives «+4 a salvación contra magia»."""
    save = CheckRequest("salvacion:Inteligencia", difficulty=15)
    result = SYSTEM.check(ardelia, save, DEFAULTS, scripted([5, 3, 9]))
    assert (result.total, result.outcome) == (14, Outcome.FAILURE)
    shielded = CheckRequest(
        "salvacion:Inteligencia", difficulty=15, circumstances=frozenset({"defensa_mental"})
    )
    result = SYSTEM.check(ardelia, shielded, DEFAULTS, scripted([5, 3, 9]))
    assert (result.total, result.outcome, result.notes) == (
        18,
        Outcome.SUCCESS,
        ("nucleo.note.defensa_mental",),
    )

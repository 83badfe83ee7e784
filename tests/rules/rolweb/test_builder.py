"""Tests of the rolweb creation wizard (rules/rolweb/builder.py, npc_text.py) and of the
backpack and purse (belongings.py), through SYSTEM as the bot calls them.

Seed 001 gives no creation rules: the attributes follow the campaign's method (settings
``creacion*``), abilities cost 10 / 20 / 30 XP (MEJORA DE PERSONAJES) out of the starting XP
(``xp_inicial``), a shield forbids Pesada and ranged weapons (ESCUDO) and Resistencia is
Fuerte, minimum 10 (RESISTENCIA).
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from rules.rolweb.system import SYSTEM
from rules.systems.base import CharacterBuilder, RulesError, StepKind

from .conftest import assert_translatable

FIRST = {"Ágil": "13", "Astuto": "8", "Atento": "10", "Diestro": "11"}
SECOND = {"Discreto": "10", "Fuerte": "12", "Persuasivo": "9", "Tenaz": "7"}
PC_ANSWERS = {
    "atributos_1": FIRST,
    "atributos_2": SECOND,
    "habilidades_1": ["Medicus", "Recuperación"],
    "nivel_1": ["adepto"],
    "armas_1": ["Espada", "Arco"],
    "armadura": ["Ligera"],
    "escudo": ["rodela"],
}
NPC_ANSWERS = {
    "pnj_atributos_1": {"Ágil": "13", "Astuto": "5", "Atento": "10", "Diestro": "11"},
    "pnj_atributos_2": {"Discreto": "15", "Fuerte": "7", "Persuasivo": "5", "Tenaz": "5"},
    "pnj_combate": {
        "resistencia": "14",
        "armadura": "Piel gruesa 1d4",
        "escudo": "ninguno",
        "armas": "Daga, Cola 1d8 larga",
    },
}


def check_limits(step) -> None:
    """What Discord can show: ≤ 5 inputs with labels ≤ 45, ≤ 25 options, no ':' in keys."""
    assert ":" not in step.key
    assert len(step.options) <= 25 and len(step.fields) <= 5
    assert all(len(f.label) <= 45 for f in step.fields)
    assert step.kind is not StepKind.CHOOSE or step.options


def drive(answers, settings=None, *, npc=False, name="Eira"):
    """Answer every step from ``answers``; returns the final draft and the keys asked."""
    settings = settings or {}
    draft = SYSTEM.new_sheet(name, settings)
    done: tuple[str, ...] = ()
    rng = random.Random(6)
    while (step := SYSTEM.creation_step(draft, done, settings, npc=npc)) is not None:
        check_limits(step)
        before = copy.deepcopy(draft)
        outcome = SYSTEM.apply_creation_step(
            draft, step.key, answers[step.key], settings, rng, npc=npc
        )
        assert draft == before  # the given draft is never mutated
        assert outcome.rolls == ()  # rolweb creation is by points: nothing to log
        draft, done = dict(outcome.draft), (*done, step.key)
    return draft, done


def refusal(draft, key, answer, settings=None, *, npc=False):
    with pytest.raises(RulesError) as error:
        SYSTEM.apply_creation_step(draft, key, answer, settings or {}, random.Random(1), npc=npc)
    assert_translatable(error.value.problems)
    return [(p.key, dict(p.params)) for p in error.value.problems]


def at(key, settings=None, *, npc=False):
    """The draft as it stands when ``key`` is asked (answers from the default flow)."""
    settings = settings or {}
    answers = NPC_ANSWERS if npc else PC_ANSWERS
    draft = SYSTEM.new_sheet("Eira", settings)
    done: tuple[str, ...] = ()
    while (step := SYSTEM.creation_step(draft, done, settings, npc=npc)).key != key:
        draft = dict(
            SYSTEM.apply_creation_step(
                draft, step.key, answers[step.key], settings, random.Random(1), npc=npc
            ).draft
        )
        done = (*done, step.key)
    return draft, done, step


def test_system_implements_the_builder_protocol():
    assert isinstance(SYSTEM, CharacterBuilder)


def test_player_character_from_the_pool_to_a_legal_sheet():
    draft, done = drive(PC_ANSWERS)
    # 30 XP were left after two principiante abilities; Recuperación's level step needs 20
    # more after Medicus adepto and is passed over with 10 left.
    assert done == (
        "atributos_1",
        "atributos_2",
        "habilidades_1",
        "nivel_1",
        "armas_1",
        "armadura",
        "escudo",
    )
    assert SYSTEM.validate(draft, {}) == []
    assert draft["atributos"]["Fuerte"] == 12 and draft["resistencia"] == {"actual": 12}
    assert draft["habilidades"] == {"Medicus": "adepto", "Recuperación": "principiante"}
    assert draft["xp"] == {"total": 50, "gastada": 40}
    assert (draft["armas"], draft["armadura"], draft["escudo"]) == (
        ["Espada", "Arco"],
        "Ligera",
        "rodela",
    )
    derived = {d.key: d.value for d in SYSTEM.derived(draft, {})}
    assert (derived["resistencia"], derived["umbral_de_dolor"], derived["defensa"]) == (12, 6, 12)


def test_pool_prompt_counts_the_points_left_and_prefills_the_draft():
    _draft, _done, step = at("atributos_2")
    assert step.kind is StepKind.FORM and [f.key for f in step.fields] == list(SECOND)
    assert step.prompt.key == "rolweb.step.attributes_pool"
    assert step.prompt.params | {} == {
        "part": 2,
        "parts": 2,
        "pool": 80,
        "minimum": 5,
        "maximum": 15,
        "left": 38,
        "count": 4,
    }
    assert [f.default for f in step.fields] == ["10"] * 4
    assert step.summary[0] == "Ágil 13 · Astuto 8 · Atento 10 · Diestro 11"


def test_pool_refusals_name_each_attribute():
    draft = SYSTEM.new_sheet("Eira", {})
    problems = refusal(
        draft, "atributos_1", {**FIRST, "Ágil": "16", "Atento": "dos", "Astuto": " "}
    )
    assert problems == [
        (
            "rolweb.problem.attribute_out_of_bounds",
            {"name": "Ágil", "value": 16, "minimum": 5, "maximum": 15},
        ),
        ("rolweb.problem.attribute_missing", {"name": "Astuto"}),
        ("rolweb.problem.not_a_number", {"field": "Atento", "value": "dos"}),
    ]
    second, _done, _step = at("atributos_2")
    assert refusal(second, "atributos_2", {**SECOND, "Tenaz": "8"}) == [
        ("rolweb.problem.pool_mismatch", {"total": 81, "pool": 80})
    ]


def test_a_first_part_that_leaves_the_rest_impossible_is_refused_at_once():
    settings = {"creacion_puntos": 70}
    draft = SYSTEM.new_sheet("Eira", settings)
    greedy = {"Ágil": "15", "Astuto": "15", "Atento": "15", "Diestro": "15"}
    assert refusal(draft, "atributos_1", greedy, settings) == [
        ("rolweb.problem.points_left", {"left": 10, "count": 4, "low": 20, "high": 60})
    ]


def test_standard_array_assigns_each_value_once():
    settings = {"creacion": "serie"}
    draft = SYSTEM.new_sheet("Eira", settings)
    step = SYSTEM.creation_step(draft, (), settings)
    assert step.prompt.key == "rolweb.step.attributes_array"
    assert step.prompt.params["left"] == "15, 13, 11, 10, 10, 9, 7, 5"
    assert all(f.default == "" for f in step.fields)
    twice = {"Ágil": "15", "Astuto": "15", "Atento": "10", "Diestro": "12"}
    assert refusal(draft, "atributos_1", twice, settings) == [
        (
            "rolweb.problem.array_value_unavailable",
            {"name": "Astuto", "value": 15, "left": "13, 11, 10, 10, 9, 7, 5"},
        ),
        (
            "rolweb.problem.array_value_unavailable",
            {"name": "Diestro", "value": 12, "left": "13, 11, 10, 9, 7, 5"},
        ),
    ]
    answers = {
        **PC_ANSWERS,
        "atributos_1": {"Ágil": "15", "Astuto": "5", "Atento": "13", "Diestro": "11"},
        "atributos_2": {"Discreto": "10", "Fuerte": "10", "Persuasivo": "9", "Tenaz": "7"},
    }
    draft, _done = drive(answers, settings)
    assert SYSTEM.validate(draft, settings) == []
    first = SYSTEM.apply_creation_step(
        SYSTEM.new_sheet("Eira", settings),
        "atributos_1",
        answers["atributos_1"],
        settings,
        random.Random(),
    ).draft
    step = SYSTEM.creation_step(first, ("atributos_1",), settings)
    assert step.prompt.params["left"] == "10, 10, 9, 7"


def test_free_entry_only_needs_1_to_20():
    settings = {"creacion": "libre"}
    answers = {**PC_ANSWERS, "atributos_2": {**SECOND, "Fuerte": "20"}}
    draft, _done = drive(answers, settings)
    assert SYSTEM.validate(draft, settings) == [] and draft["resistencia"] == {"actual": 20}
    assert refusal(
        SYSTEM.new_sheet("Eira", settings), "atributos_1", {**FIRST, "Ágil": "21"}, settings
    ) == [
        (
            "rolweb.problem.attribute_out_of_bounds",
            {"name": "Ágil", "value": 21, "minimum": 1, "maximum": 20},
        )
    ]


def test_nine_attributes_take_three_modals():
    settings = {
        "atributos": "Ágil, Astuto, Atento, Diestro, Discreto, Fuerte, Persuasivo, Tenaz, Suerte"
    }
    settings |= {"creacion_puntos": 90}
    answers = {**PC_ANSWERS, "atributos_3": {"Suerte": "10"}}
    draft, done = drive(answers, settings)
    assert done[:3] == ("atributos_1", "atributos_2", "atributos_3")
    assert SYSTEM.validate(draft, settings) == []


def test_abilities_cost_the_starting_xp():
    draft, _done, step = at("habilidades_1", {"xp_inicial": 20})
    assert step.optional and step.max_choices == 2  # 20 XP buy two principiante abilities
    assert step.prompt.params == {"available": 20, "novice": 10, "adept": 20, "master": 30}
    three = ["Medicus", "Recuperación", "Imposición de manos"]
    assert refusal(draft, "habilidades_1", three, {"xp_inicial": 20}) == [
        ("rolweb.problem.not_enough_xp", {"cost": 30, "available": 20})
    ]
    assert refusal(draft, "habilidades_1", ["Alquimia"], {"xp_inicial": 20}) == [
        ("rolweb.problem.unknown_ability", {"name": "Alquimia"})
    ]


def test_without_starting_xp_abilities_come_later():
    draft, done = drive(PC_ANSWERS, {"xp_inicial": 0})
    assert "habilidades_1" not in done and draft["habilidades"] == {}
    assert SYSTEM.validate(draft, {"xp_inicial": 0}) == []


def test_level_step_offers_what_the_xp_affords():
    draft, _done, step = at("nivel_1", {"xp_inicial": 80})
    assert step.prompt.params == {"name": "Medicus", "available": 60}
    assert [o.label for o in step.options] == [
        "principiante",
        "adepto (+20 PX)",
        "maestro (+50 PX)",
    ]
    assert step.options[1].description.startswith("Cura 1D6")
    assert refusal(draft, "nivel_1", ["experto"], {"xp_inicial": 80}) == [
        ("rolweb.problem.unknown_level", {"name": "Medicus", "level": "experto"})
    ]
    assert refusal(draft, "nivel_1", ["ninguno"], {"xp_inicial": 80}) == [
        (
            "rolweb.problem.level_not_higher",
            {"nivel_actual": "principiante", "nivel_nuevo": "ninguno"},
        )
    ]
    master = SYSTEM.apply_creation_step(
        draft, "nivel_1", ["maestro"], {"xp_inicial": 80}, random.Random(1)
    ).draft
    assert master["xp"] == {"total": 80, "gastada": 70}
    # 10 XP left: Recuperación cannot rise, so the next question is the weapons.
    assert (
        SYSTEM.creation_step(
            master, ("atributos_1", "atributos_2", "habilidades_1", "nivel_1"), {"xp_inicial": 80}
        ).key
        == "armas_1"
    )


def test_gear_refusals():
    draft, _done, step = at("armas_1")
    assert "Puños" not in [o.value for o in step.options]  # natural weapons are not chosen
    assert refusal(draft, "armas_1", ["Pistola"]) == [
        ("rolweb.problem.unknown_weapon", {"name": "Pistola"})
    ]
    armed, _done, _step = at("armadura")
    assert refusal(armed, "armadura", ["Mithril"]) == [
        ("rolweb.problem.unknown_armour", {"name": "Mithril"})
    ]
    heavy = dict(armed, armas=["Mandoble", "Espada", "Ballesta"])
    assert refusal(heavy, "escudo", ["escudo"]) == [
        ("rolweb.problem.shield_forbids_weapon", {"name": "Mandoble"}),
        ("rolweb.problem.shield_forbids_weapon", {"name": "Ballesta"}),
    ]
    assert refusal(armed, "escudo", ["broquel"]) == [
        ("rolweb.problem.unknown_shield", {"name": "broquel"})
    ]


def test_long_campaign_lists_stay_within_discord_limits():
    weapons = [{"nombre": f"Arma {n}", "dano": "1d6", "cualidades": []} for n in range(30)]
    armour = [{"nombre": f"Cota {n}", "proteccion": "1d4", "defensa": -1} for n in range(30)]
    settings = {"armas": json.dumps(weapons), "armaduras": json.dumps(armour)}
    draft, _done, step = at("armas_1", settings)
    assert len(step.options) == 25
    draft = dict(
        SYSTEM.apply_creation_step(draft, "armas_1", ["Arma 0"], settings, random.Random()).draft
    )
    done = ("atributos_1", "atributos_2", "habilidades_1", "nivel_1", "armas_1")
    assert [o.value for o in SYSTEM.creation_step(draft, done, settings).options] == [
        f"Arma {n}" for n in range(25, 30)
    ]
    armour_step = SYSTEM.creation_step(draft, (*done, "armas_2"), settings)
    assert armour_step.kind is StepKind.FORM  # 31 choices do not fit one select
    worn = SYSTEM.apply_creation_step(
        draft, "armadura", {"armadura": "cota 29"}, settings, random.Random()
    ).draft
    assert worn["armadura"] == "Cota 29"


def test_npc_stat_block_to_a_legal_sheet():
    draft, done = drive(NPC_ANSWERS, npc=True, name="Drako")
    assert done == ("pnj_atributos_1", "pnj_atributos_2", "pnj_combate")
    # Free attributes (76 points): the campaign's pool binds only player characters.
    assert draft["pnj"] is True and SYSTEM.validate(draft, {}) == []
    assert draft["resistencia"] == {"actual": 14, "maxima": 14}
    assert draft["armadura"] == {"nombre": "Piel gruesa", "proteccion": "1d4", "defensa": 0}
    assert draft["armas"] == [
        "Daga",
        {"nombre": "Cola", "dano": "1d8", "cualidades": ["Larga"]},
    ]
    derived = {d.key: d for d in SYSTEM.derived(draft, {})}
    assert derived["resistencia"].value == 14 and derived["resistencia"].formula == "PNJ"
    assert derived["umbral_de_dolor"].value == 4  # still half Fuerte 7, rounded up
    assert derived["defensa"].value == 13 and derived["arma:Cola"].value == "1d8"


def test_npc_combat_defaults_and_refusals():
    draft, _done, step = at("pnj_combate", npc=True)
    assert [f.key for f in step.fields] == ["resistencia", "armadura", "escudo", "armas"]
    assert step.fields[0].default == "10" and step.prompt.params == {"toughness": 10}
    plain = SYSTEM.apply_creation_step(
        draft,
        "pnj_combate",
        {"resistencia": "", "armadura": "media", "escudo": "", "armas": ""},
        {},
        random.Random(),
        npc=True,
    ).draft
    assert plain["resistencia"] == {"actual": 10} and plain["armadura"] == "Media"
    assert plain["escudo"] == "ninguno" and plain["armas"] == []
    wrong = {
        "resistencia": "mucha",
        "armadura": "Piel",
        "escudo": "broquel",
        "armas": "Garras, Cola 1d8 afilada, 1d6",
    }
    assert refusal(draft, "pnj_combate", wrong, npc=True) == [
        ("rolweb.problem.not_a_number", {"field": "Resistencia", "value": "mucha"}),
        ("rolweb.problem.bad_armour_text", {"text": "Piel"}),
        ("rolweb.problem.unknown_shield", {"name": "broquel"}),
        ("rolweb.problem.bad_weapon_text", {"text": "Garras"}),
        ("rolweb.problem.unknown_quality", {"name": "afilada", "text": "Cola 1d8 afilada"}),
        ("rolweb.problem.bad_weapon_text", {"text": "1d6"}),
    ]
    assert refusal(
        draft,
        "pnj_combate",
        {"resistencia": "100", "escudo": "escudo", "armas": "Arco"},
        npc=True,
    ) == [("rolweb.problem.fixed_toughness_out_of_bounds", {"value": "100", "maximum": 99})]
    assert refusal(draft, "pnj_combate", {"escudo": "escudo", "armas": "Arco"}, npc=True) == [
        ("rolweb.problem.shield_forbids_weapon", {"name": "Arco"})
    ]
    eleven = ", ".join(["Daga"] * 11)
    assert refusal(draft, "pnj_combate", {"armas": eleven}, npc=True) == [
        ("rolweb.problem.too_many_weapons", {"limit": 10})
    ]


def test_answers_of_the_wrong_shape_or_step():
    draft = SYSTEM.new_sheet("Eira", {})
    assert refusal(draft, "atributos_1", ["13"]) == [
        ("rolweb.problem.bad_answer", {"step": "atributos_1"})
    ]
    assert refusal(draft, "escudo", "rodela") == [("rolweb.problem.bad_answer", {"step": "escudo"})]
    assert refusal(draft, "armadura", ["Ligera", "Media"]) == [
        ("rolweb.problem.bad_answer", {"step": "armadura"})
    ]
    assert refusal(draft, "conjuros", []) == [("rolweb.problem.unknown_step", {"step": "conjuros"})]
    # No abilities chosen: there is no level to ask; a PC has no NPC steps.
    assert refusal(draft, "nivel_1", ["adepto"]) == [
        ("rolweb.problem.unknown_step", {"step": "nivel_1"})
    ]
    assert refusal(draft, "pnj_combate", {}) == [
        ("rolweb.problem.unknown_step", {"step": "pnj_combate"})
    ]


def test_catalogue_for_autocomplete():
    assert [o.value for o in SYSTEM.catalogue("habilidad", {})] == [
        "Medicus",
        "Recuperación",
        "Imposición de manos",
    ]
    gear = [o.value for o in SYSTEM.catalogue("equipo", {})]
    assert "Espada" in gear and "Ligera" in gear and "rodela" in gear and "Puños" not in gear
    for kind in ("clase", "raza", "hechizo"):
        assert SYSTEM.catalogue(kind, {}) == ()


def sheet_with(**changes):
    draft, _done = drive(PC_ANSWERS)
    return {**draft, **changes}


def test_backpack_weapons_and_removals():
    sheet = sheet_with()
    packed = SYSTEM.adjust_inventory(sheet, "Cuerda", 2, {})
    assert packed["equipo"] == {"Cuerda": 2} and sheet["equipo"] == {}
    packed = SYSTEM.adjust_inventory(packed, "cuerda", -2, {})
    assert packed["equipo"] == {}
    armed = SYSTEM.adjust_inventory(sheet, "daga", 2, {})
    assert armed["armas"] == ["Espada", "Arco", "Daga", "Daga"]
    assert SYSTEM.adjust_inventory(armed, "Daga", -1, {})["armas"] == ["Espada", "Arco", "Daga"]
    spare = SYSTEM.adjust_inventory(sheet, "media", 1, {})
    assert spare["equipo"] == {"Media": 1} and spare["armadura"] == "Ligera"
    assert SYSTEM.validate(SYSTEM.adjust_inventory(armed, "Antorcha", 3, {}), {}) == []
    for item, quantity, expected in (
        (
            "Cuerda",
            -1,
            ("rolweb.problem.item_not_carried", {"name": "Cuerda", "have": 0, "wanted": 1}),
        ),
        (
            "Espada",
            -2,
            ("rolweb.problem.item_not_carried", {"name": "Espada", "have": 1, "wanted": 2}),
        ),
        ("  ", 1, ("sheet.problem.item_name", {"limit": 100})),
        ("Cuerda", 0, ("sheet.problem.zero_quantity", {})),
    ):
        with pytest.raises(RulesError) as error:
            SYSTEM.adjust_inventory(sheet, item, quantity, {})
        assert [(p.key, dict(p.params)) for p in error.value.problems] == [expected]
        assert_translatable(error.value.problems)


def test_purse_in_the_campaign_currency():
    sheet = sheet_with(dinero=5)
    assert SYSTEM.adjust_money(sheet, 25, None, {})["dinero"] == 30
    assert SYSTEM.adjust_money(sheet, -5, "Monedas", {})["dinero"] == 0
    assert SYSTEM.adjust_money(sheet, 3, "táleros", {"moneda": "Táleros"})["dinero"] == 8
    for amount, currency, expected in (
        (
            -6,
            None,
            ("rolweb.problem.not_enough_money", {"amount": 6, "have": 5, "currency": "monedas"}),
        ),
        (
            1,
            "ortegas",
            ("rolweb.problem.unknown_currency", {"name": "ortegas", "currency": "monedas"}),
        ),
    ):
        with pytest.raises(RulesError) as error:
            SYSTEM.adjust_money(sheet, amount, currency, {})
        assert [(p.key, dict(p.params)) for p in error.value.problems] == [expected]
        assert_translatable(error.value.problems)


def test_sheet_checks_belongings_and_fixed_toughness():
    problems = SYSTEM.validate(
        sheet_with(
            equipo={"Cuerda": 0}, dinero=-1, notas=3, resistencia={"actual": 12, "maxima": 20}
        ),
        {},
    )
    assert [p.key for p in problems] == [
        "rolweb.problem.fixed_toughness_npc_only",
        "rolweb.problem.bad_inventory",
        "rolweb.problem.bad_money",
        "rolweb.problem.bad_notes",
    ]
    assert_translatable(problems)
    npc, _done = drive(NPC_ANSWERS, npc=True)
    assert [
        p.key for p in SYSTEM.validate(dict(npc, resistencia={"actual": 15, "maxima": 14}), {})
    ] == ["rolweb.problem.toughness_out_of_bounds"]

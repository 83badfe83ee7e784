"""The Núcleo creation wizard, NPC stat blocks, backpack and purse (seed 002, «Creando
Personaje», «Equipo» and the Razas/Ventajas/Magia modules) through ``CharacterBuilder``."""

from __future__ import annotations

import copy
import random

import pytest

from rules.nucleo.data import catalogue
from rules.nucleo.system import SYSTEM
from rules.systems.base import (
    CharacterBuilder,
    CheckRequest,
    RulesError,
    StepKind,
    apply_effects,
)
from tests.examples import (
    ARDELIA_ANSWERS,
    ARDELIA_ATTRIBUTES,
    ARDELIA_HIGH_SKILLS,
    ARDELIA_LOW_SKILLS,
)
from tests.rules.nucleo.conftest import keys, render

ATTRIBUTES, HIGH, LOW = ARDELIA_ATTRIBUTES, ARDELIA_HIGH_SKILLS, ARDELIA_LOW_SKILLS


def drive(answers, settings=None, *, npc=False, name="Ardelia"):
    """Answer every step the builder asks, as the wizard service does (None = «Omitir»)."""
    settings = settings or {}
    draft, done, asked = SYSTEM.new_sheet(name, settings), (), []
    while (step := SYSTEM.creation_step(draft, done, settings, npc=npc)) is not None:
        asked.append(step)
        answer = answers[step.key]
        if answer is not None:
            before = copy.deepcopy(draft)
            outcome = SYSTEM.apply_creation_step(
                draft, step.key, answer, settings, random.Random(7), npc=npc
            )
            assert draft == before  # never mutated
            assert outcome.rolls == ()  # Núcleo creation is by points
            keys(outcome.notes)
            draft = outcome.draft
        else:
            assert step.optional
        done += (step.key,)
    return draft, asked


def refuse(draft, step, answer, settings=None, *, npc=False):
    """The problem keys an answer gets (each rendered in both languages)."""
    with pytest.raises(RulesError) as error:
        SYSTEM.apply_creation_step(draft, step, answer, settings or {}, random.Random(1), npc=npc)
    return keys(error.value.problems)


def reach(step_key, answers=ARDELIA_ANSWERS, settings=None):
    """The draft just before ``step_key`` is asked."""
    settings = settings or {}
    draft, done = SYSTEM.new_sheet("X", settings), ()
    while (step := SYSTEM.creation_step(draft, done, settings)) is not None:
        if step.key == step_key:
            return draft
        if answers[step.key] is not None:
            draft = SYSTEM.apply_creation_step(
                draft, step.key, answers[step.key], settings, random.Random(1)
            ).draft
        done += (step.key,)
    raise AssertionError(f"{step_key} never asked")


def test_the_system_is_a_character_builder():
    assert isinstance(SYSTEM, CharacterBuilder)


def test_the_wizard_builds_the_seed_example_and_validation_accepts_it():
    """seed 002 «Ejemplo»: Ardelia, Versátil, PV 24 / Defensa 17 (+1 shield) / Iniciativa 12."""
    draft, asked = drive(ARDELIA_ANSWERS)
    assert [s.key for s in asked] == list(ARDELIA_ANSWERS)
    assert SYSTEM.validate(draft, {}) == []
    values = {v.key: v.value for v in SYSTEM.derived(draft, {})}
    assert (values["pv"], values["defensa"], values["iniciativa"], values["voluntad"]) == (
        24,
        18,
        12,
        21,
    )
    assert draft["habilidades"]["Navegación Espacial"] == 4  # typed without the accent
    assert draft["equipo"] | {"otros": {}} == {
        "arma_principal": "Espada larga",
        "dos_manos": False,
        "arma_secundaria": None,
        "armadura": None,
        "escudo": True,
        "otros": {},
    }
    # Every step fits Discord: ≤ 25 options, ≤ 5 inputs with labels ≤ 45 characters.
    for step in asked:
        assert len(step.options) <= 25 and len(step.fields) <= 5
        assert all(len(f.label) <= 45 for f in step.fields)
        render(step.prompt)
        render(step.prompt, "en")
    assert asked[-1].summary[1] == "PV 24 · Defensa 17 · Iniciativa 12 · Voluntad 21"
    assert "Nivel 6: Pilotar" in asked[-1].summary


def test_skill_modals_name_each_level_and_its_count():
    """«Personaje Versátil: 1 habilidad a nivel 6, 2 de nivel 5 …»."""
    _, asked = drive(ARDELIA_ANSWERS)
    first, second = (s for s in asked if s.kind is StepKind.FORM and s.key.startswith("hab"))
    assert [f.label for f in first.fields] == ["Nivel 6 (1)", "Nivel 5 (2)", "Nivel 4 (3)"]
    assert [f.label for f in second.fields] == ["Nivel 3 (4)", "Nivel 2 (5)", "Nivel 1 (6)"]
    assert all(f.paragraph and f.required for f in first.fields + second.fields)


def test_attribute_answers_are_refused_naming_the_attribute_and_the_total():
    """«37 puntos a repartir entre 5 atributos … El mínimo es 4, el máximo es 10»."""
    draft = SYSTEM.new_sheet("X", {})
    assert refuse(draft, "atributos", {**ATTRIBUTES, "Físico": "11", "Carisma": "x"}) == [
        "nucleo.problem.attribute_range",
        "nucleo.problem.not_a_number",
    ]
    with pytest.raises(RulesError) as error:
        SYSTEM.apply_creation_step(
            draft, "atributos", {**ATTRIBUTES, "Físico": "7"}, {}, random.Random(1)
        )
    (problem,) = error.value.problems
    assert render(problem) == "Los atributos suman 38; hay que repartir exactamente 37 puntos."
    loose = {"creacion_estricta": False}
    outcome = SYSTEM.apply_creation_step(
        draft, "atributos", {**ATTRIBUTES, "Físico": "10"}, loose, random.Random(1)
    )
    assert outcome.draft["atributos"]["Físico"] == 10
    assert refuse(draft, "atributos", ["6"]) == ["nucleo.problem.bad_answer"]


def test_races_the_attributes_rule_out_are_named_and_refused():
    """«Mediano: Máximo 7 en físico»."""
    strong = {**ARDELIA_ANSWERS, "atributos": {**ATTRIBUTES, "Físico": "8", "Inteligencia": "7"}}
    draft = reach("raza", strong)
    step = SYSTEM.creation_step(draft, ("atributos",), {})
    assert "Mediano" not in [o.value for o in step.options]
    assert render(step.prompt).endswith("no permiten: Mediano (Físico ≤ 7).")
    assert refuse(draft, "raza", ["Mediano"]) == ["nucleo.problem.attribute_race_max"]
    assert refuse(draft, "raza", ["Orco"]) == ["nucleo.problem.race_unknown"]


def test_an_artificial_is_especialista_without_advantage_or_armour():
    """«Artificial … no puede llevar armaduras … No tiene ventaja … Solo … pirámide especialista»."""
    answers = {
        "atributos": ATTRIBUTES,
        "raza": ["Artificial"],
        "habilidades_1": {
            "nivel_6": "Pilotar",
            "nivel_5": "Esquivar, Reflejos, Buscar",
            "nivel_4": "Mecánica, Ingeniería, Informática",
        },
        "habilidades_2": {
            "nivel_3": "Conducir, Leyes, Medicina",
            "nivel_2": "Atletismo, Nadar, Sigilo",
            "nivel_1": "Labia, Etiqueta, Historia",
        },
        "arma": ["Bastón"],
        "escudo": None,
    }
    draft, asked = drive(answers)
    assert [s.key for s in asked] == list(answers)
    assert draft["piramide"] == "especialista"
    assert SYSTEM.validate(draft, {}) == []
    values = {v.key: v.value for v in SYSTEM.derived(draft, {})}
    assert values["absorcion"] == 5  # natural
    assert refuse(draft, "armadura", ["Armadura ligera"]) == ["nucleo.problem.unknown_step"]
    assert refuse(draft, "ventaja", ["Suerte"]) == ["nucleo.problem.unknown_step"]


def test_the_artificial_note_and_the_free_advantage_note():
    draft = reach("raza")
    notes = SYSTEM.apply_creation_step(draft, "raza", ["androide"], {}, random.Random(1)).notes
    assert [render(n) for n in notes] == [
        "La raza Artificial solo puede usar la pirámide Especialista: queda elegida."
    ]
    notes = SYSTEM.apply_creation_step(draft, "raza", ["Enano"], {}, random.Random(1)).notes
    assert [render(n) for n in notes] == ["La raza Enano recibe gratis: Muro."]


def test_the_wood_elf_chooses_its_free_advantage_and_cannot_take_it_again():
    """«Elfo del bosque: Recibe la ventaja Punteria o Certero de forma gratuita»."""
    answers = {
        **ARDELIA_ANSWERS,
        "atributos": {**ATTRIBUTES, "Destreza": "8", "Inteligencia": "8"},
        "raza": ["Elfo del bosque"],
        "ventaja_racial": ["Puntería"],
    }
    draft = reach("ventaja_racial", answers)
    assert refuse(draft, "ventaja_racial", ["Muro"]) == ["nucleo.problem.racial_advantage_choice"]
    draft = reach("ventaja", answers)
    step = SYSTEM.creation_step(
        draft,
        ("atributos", "raza", "ventaja_racial", "piramide", "habilidades_1", "habilidades_2"),
        {},
    )
    offered = [o.value for o in step.options]
    assert "Puntería" not in offered and "Defensor" in offered and "Muro" not in offered
    assert refuse(draft, "ventaja", ["Puntería"]) == ["nucleo.problem.advantage_duplicate"]
    assert refuse(draft, "ventaja", ["Muro"]) == ["nucleo.problem.advantage_requirement"]
    assert refuse(draft, "ventaja", ["Invisible"]) == ["nucleo.problem.advantage_unknown"]
    final, _ = drive({**answers, "ventaja": ["Defensor"]})
    assert SYSTEM.validate(final, {}) == []
    assert final["ventaja_racial"] == "Puntería"


def test_pyramid_answers_are_checked():
    draft = reach("piramide")
    assert refuse(draft, "piramide", ["piramidal"]) == ["nucleo.problem.pyramid_unknown"]


def test_each_skill_level_is_checked_exactly():
    """Unknown names, a skill in two levels and a wrong count are each named."""
    draft = reach("habilidades_1")
    problems = refuse(draft, "habilidades_1", {**HIGH, "nivel_5": "Esquivar, Pilotar, Volar"})
    assert problems == [
        "nucleo.problem.skill_repeated",
        "nucleo.problem.unknown_skill",
        "nucleo.problem.pyramid_count",
    ]
    draft = reach("habilidades_2")
    with pytest.raises(RulesError) as error:
        SYSTEM.apply_creation_step(
            draft,
            "habilidades_2",
            {**LOW, "nivel_1": "Regatear, Labia, Pilotar"},
            {},
            random.Random(1),
        )
    assert [render(p) for p in error.value.problems] == [
        "«Pilotar» aparece dos veces (nivel 1 y nivel 6): cada habilidad va en un solo nivel.",
        "Pirámide Versátil: hay 3 habilidades o hechizos a nivel 1 y deben ser 6.",
    ]


def test_spells_fill_the_pyramid_where_magic_is_on():
    """«Módulo de Magia»: spells «se compran como si fuesen habilidades»."""
    spell = next(iter(catalogue().spells))
    answers = {
        **ARDELIA_ANSWERS,
        "habilidades_2": {
            **LOW,
            "nivel_1": f"Regatear, Labia, Leyes, Atletismo, Etiqueta, {spell.lower()}",
        },
    }
    draft, _ = drive(answers)
    assert draft["hechizos"] == {spell: 1} and "Sigilo" not in draft["habilidades"]
    assert SYSTEM.validate(draft, {}) == []
    no_magic = {"magia": False}
    draft = reach("habilidades_2", settings=no_magic)
    assert refuse(draft, "habilidades_2", answers["habilidades_2"], no_magic) == [
        "nucleo.problem.unknown_skill"
    ]


def test_loose_creation_takes_any_count():
    loose = {"creacion_estricta": False}
    draft = reach("habilidades_1", settings=loose)
    step = SYSTEM.creation_step(draft, ("atributos", "raza", "piramide"), loose)
    assert [f.label for f in step.fields] == ["Nivel 6", "Nivel 5", "Nivel 4"]
    assert not any(f.required for f in step.fields)
    outcome = SYSTEM.apply_creation_step(
        draft, "habilidades_1", {"nivel_6": "Pilotar, Sigilo"}, loose, random.Random(1)
    )
    assert outcome.draft["habilidades"] == {"Pilotar": 6, "Sigilo": 6}


def test_modules_off_skip_race_and_advantage():
    settings = {"razas": False, "ventajas": False}
    answers = {k: v for k, v in ARDELIA_ANSWERS.items() if k not in ("raza", "ventaja")}
    draft, asked = drive(answers, settings)
    assert [s.key for s in asked] == list(answers)
    assert SYSTEM.validate(draft, settings) == []


def test_weapons_and_armour_follow_the_fisico_requirements():
    """«Mandoble (requiere físico 9)», «Cota de mallas … requiere Físico 7»."""
    draft = reach("arma")
    step = SYSTEM.creation_step(
        draft,
        ("atributos", "raza", "piramide", "habilidades_1", "habilidades_2", "ventaja"),
        {},
    )
    offered = {o.value: o.label for o in step.options}
    assert "Mandoble" not in offered and "Arco largo" not in offered
    assert offered["Espada larga|dos_manos"] == "Espada larga (2M)"
    assert step.optional
    assert refuse(draft, "arma", ["Mandoble"]) == ["nucleo.problem.item_requirement"]
    assert refuse(draft, "arma", ["Láser"]) == ["nucleo.problem.item_unknown"]
    two = SYSTEM.apply_creation_step(
        draft, "arma", ["Espada larga|dos_manos"], {}, random.Random(1)
    )
    assert two.draft["equipo"]["dos_manos"] is True
    # Two hands leave none for a shield: the shield step is not asked.
    done = ("atributos", "raza", "piramide", "habilidades_1", "habilidades_2", "ventaja", "arma")
    assert SYSTEM.creation_step(two.draft, done, {}).key == "armadura"
    assert SYSTEM.creation_step(two.draft, (*done, "armadura"), {}) is None
    bow = SYSTEM.apply_creation_step(draft, "arma", ["arco corto"], {}, random.Random(1))
    assert bow.draft["equipo"] == {
        **bow.draft["equipo"],
        "arma_principal": "Arco corto",
        "dos_manos": True,
    }
    assert refuse(draft, "armadura", ["Cota de mallas"]) == ["nucleo.problem.item_requirement"]
    assert refuse(draft, "armadura", ["Túnica de archimago"], {"armaduras_especiales": False}) == [
        "nucleo.problem.module_disabled"
    ]
    assert refuse(draft, "escudo", ["rodela"]) == ["nucleo.problem.item_unknown"]


def test_special_armour_is_not_offered_at_creation_unless_the_campaign_allows_it():
    """Issue 23 §5: «Escamas de dragón — Absorción 7» was offered to a new character, though
    seed 002 says such armour «costarían un ojo de la cara. O necesitarian hacer misiones
    especiales»: the GM hands it out in play unless ``armaduras_especiales_al_crear``."""
    draft = reach("arma")
    done = ("atributos", "raza", "piramide", "habilidades_1", "habilidades_2", "ventaja", "arma")
    offered = {o.value for o in SYSTEM.creation_step(draft, done, {}).options}
    assert "Armadura ligera" in offered and "Túnica de archimago" not in offered
    assert refuse(draft, "armadura", ["Túnica de archimago"]) == [
        "nucleo.problem.special_armour_in_play"
    ]
    allowed = {"armaduras_especiales_al_crear": True}
    assert "Túnica de archimago" in {
        o.value for o in SYSTEM.creation_step(draft, done, allowed).options
    }
    robe = SYSTEM.apply_creation_step(
        draft, "armadura", ["Túnica de archimago"], allowed, random.Random(1)
    )
    assert robe.draft["equipo"]["armadura"] == "Túnica de archimago"


def test_an_npc_stat_block_without_creation_limits():
    """No bestiary in seed 002: a creature is a character without the creation limits."""
    answers = {
        "pnj_atributos": {
            "Físico": "14",
            "Destreza": "6",
            "Inteligencia": "2",
            "Percepción": "5",
            "Carisma": "1",
        },
        "pnj_bloque": {
            "habilidades": "cuerpo a cuerpo 5, Esquivar 2; advertir/notar 3",
            "pv": "",
            "arma": "hacha de combate",
            "armadura": "",
            "escudo": "",
        },
    }
    draft, asked = drive(answers, npc=True, name="Troll")
    assert [s.key for s in asked] == ["pnj_atributos", "pnj_bloque"]
    assert len(asked[1].fields) == 5 and asked[1].fields[1].placeholder == "56 (Físico × 4)"
    assert draft["pnj"] is True and "pv_maximo" not in draft
    assert draft["habilidades"] == {"Armas cuerpo a cuerpo": 5, "Esquivar": 2, "Advertir/Notar": 3}
    assert draft["equipo"]["arma_principal"] == "Hacha de combate" and draft["equipo"]["dos_manos"]
    assert SYSTEM.validate(draft, {}) == []
    values = {v.key: v.value for v in SYSTEM.derived(draft, {})}
    assert (values["pv"], values["defensa"]) == (56, 13)
    # A fixed PV moves the health states with it: Malherido from ¾ of them.
    fixed = {**draft, "pv_maximo": 20, "heridas": 15}
    values = {v.key: v.value for v in SYSTEM.derived(fixed, {})}
    assert (values["pv"], values["estado"]) == (20, "malherido")
    assert {v.key: v.value for v in SYSTEM.derived({**fixed, "heridas": 14}, {})}[
        "estado"
    ] == "normal"


def test_npc_answers_are_refused_with_every_problem():
    draft = SYSTEM.new_sheet("Troll", {})
    assert refuse(draft, "pnj_atributos", {**ATTRIBUTES, "Físico": "21"}, npc=True) == [
        "nucleo.problem.attribute_range"
    ]
    block = SYSTEM.apply_creation_step(
        draft, "pnj_atributos", ATTRIBUTES, {}, random.Random(1), npc=True
    ).draft
    problems = refuse(
        block,
        "pnj_bloque",
        {
            "habilidades": "Garras 3, Esquivar, Sigilo 11, sigilo 2, Sigilo 3",
            "pv": "0",
            "arma": "Garrote",
            "armadura": "Piel",
            "escudo": "quizá",
        },
        npc=True,
    )
    assert problems == [
        "nucleo.problem.unknown_skill",
        "nucleo.problem.npc_skill_format",
        "nucleo.problem.npc_skill_level",
        "nucleo.problem.npc_skill_repeated",
        "nucleo.problem.npc_pv",
        "nucleo.problem.item_unknown",
        "nucleo.problem.item_unknown",
        "nucleo.problem.item_unknown",
    ]


def test_validation_of_stored_npc_and_player_sheets(ardelia):
    npc = {**ardelia, "pnj": True, "habilidades": {"Sigilo": 11, "Volar": 2}, "pv_maximo": -1}
    npc["atributos"] = {**ardelia["atributos"], "Físico": 0}
    assert keys(SYSTEM.validate(npc, {})) == [
        "nucleo.problem.attribute_range",
        "nucleo.problem.npc_skill_level",
        "nucleo.problem.unknown_skill",
        "nucleo.problem.npc_pv",
    ]
    assert keys(SYSTEM.validate({**ardelia, "pv_maximo": 30}, {})) == ["nucleo.problem.npc_only"]
    assert SYSTEM.validate({**ardelia, "pv_maximo": 0}, {}) == []  # how /sheet set clears it
    spell = next(iter(catalogue().spells))
    caster = {**npc, "habilidades": {}, "pv_maximo": 10, "hechizos": {spell: 2}}
    caster["atributos"] = ardelia["atributos"]
    assert SYSTEM.validate(caster, {}) == []
    assert keys(SYSTEM.validate(caster, {"magia": False})) == ["nucleo.problem.module_disabled"]
    assert keys(SYSTEM.validate({**ardelia, "dinero": -1}, {})) == ["nucleo.problem.bad_number"]
    bad_pack = {**ardelia, "equipo": {**ardelia["equipo"], "otros": {"Cuerda": 0}}}
    assert keys(SYSTEM.validate(bad_pack, {})) == ["nucleo.problem.bad_inventory"]


def test_unknown_steps_and_answer_shapes_are_refused():
    draft = SYSTEM.new_sheet("X", {})
    assert refuse(draft, "clase", ["Guerrero"]) == ["nucleo.problem.unknown_step"]
    assert refuse(draft, "pnj_bloque", {}, npc=False) == ["nucleo.problem.unknown_step"]
    assert refuse(reach("raza"), "raza", "Humano") == ["nucleo.problem.bad_answer"]


def test_catalogue_for_autocomplete():
    assert SYSTEM.catalogue("clase", {}) == ()
    assert len(SYSTEM.catalogue("habilidad", {})) == 36
    assert [o.value for o in SYSTEM.catalogue("raza", {})][:2] == ["Artificial", "Alto Elfo"]
    assert SYSTEM.catalogue("raza", {"razas": False}) == ()
    assert SYSTEM.catalogue("hechizo", {"magia": False}) == ()
    assert len(SYSTEM.catalogue("hechizo", {})) == len(catalogue().spells)
    gear = [o.value for o in SYSTEM.catalogue("equipo", {})]
    assert "Mandoble" in gear and "Cota de Mithril" in gear and "Escudo" in gear
    assert "Cota de Mithril" not in [
        o.value for o in SYSTEM.catalogue("equipo", {"armaduras_especiales": False})
    ]


def test_inventory_fills_free_hands_then_the_pack(ardelia):
    sheet = SYSTEM.adjust_inventory(ardelia, "daga", 1, {})
    assert sheet["equipo"]["arma_principal"] == "Daga"
    sheet = SYSTEM.adjust_inventory(sheet, "Espada corta", 2, {})
    assert sheet["equipo"]["arma_secundaria"] == "Espada corta"
    assert sheet["equipo"]["otros"] == {"Espada corta": 1}
    sheet = SYSTEM.adjust_inventory(sheet, "Linterna", 3, {})
    sheet = SYSTEM.adjust_inventory(sheet, "escudo", 1, {})
    assert sheet["equipo"]["escudo"] is True
    assert SYSTEM.validate(sheet, {}) == []
    assert {v.key: v.value for v in SYSTEM.derived(sheet, {})}["otros"] == (
        "Espada corta, Linterna ×3"
    )
    # Removing empties the pack first, then the hand.
    sheet = SYSTEM.adjust_inventory(sheet, "espada corta", -2, {})
    assert (
        sheet["equipo"]["arma_secundaria"] is None
        and "Espada corta" not in sheet["equipo"]["otros"]
    )
    with pytest.raises(RulesError) as error:
        SYSTEM.adjust_inventory(sheet, "LINTERNA", -4, {})
    assert render(error.value.problems[0]) == "Quieres quitar 4 de «Linterna» y solo lleva 3."
    assert ardelia["equipo"]["otros"] == []  # untouched
    for item, quantity in (("", 1), ("x" * 101, 1), ("Cuerda", 0)):
        with pytest.raises(RulesError) as error:
            SYSTEM.adjust_inventory(ardelia, item, quantity, {})
        keys(error.value.problems)
    legacy = {**ardelia, "equipo": {**ardelia["equipo"], "otros": ["Cuerda", "Cuerda"]}}
    assert SYSTEM.adjust_inventory(legacy, "cuerda", -1, {})["equipo"]["otros"] == {"Cuerda": 1}


def test_money_in_the_campaign_currency(ardelia):
    sheet = SYSTEM.adjust_money(ardelia, 100, None, {})
    sheet = SYSTEM.adjust_money(sheet, -30, "Créditos", {})
    assert sheet["dinero"] == 70 and "dinero" not in ardelia
    with pytest.raises(RulesError) as error:
        SYSTEM.adjust_money(sheet, -71, None, {})
    assert render(error.value.problems[0]) == (
        "No alcanza el dinero: quieres gastar 71 créditos y la ficha solo tiene 70."
    )
    with pytest.raises(RulesError) as error:
        SYSTEM.adjust_money(sheet, 5, "créditos", {"moneda": "coronas"})
    assert keys(error.value.problems) == ["nucleo.problem.unknown_currency"]
    assert SYSTEM.adjust_money(sheet, 5, "CORONAS", {"moneda": "coronas"})["dinero"] == 75


def test_the_token_moves_on_the_sheet_through_the_check(ardelia, scripted):
    """«Token … se puede dar al Director de Juego … El director de Juego puede devolverlo»."""
    given = SYSTEM.check(
        ardelia,
        CheckRequest("atributo:Carisma", circumstances=frozenset({"token"})),
        {},
        scripted([5, 6, 7]),
    )
    assert (
        given.extra["token_spent"] is True
        and apply_effects(ardelia, given.effects)["token"] is False
    )
    assert ardelia["token"] is True
    without = {**ardelia, "token": False}
    back = SYSTEM.check(
        without,
        CheckRequest("atributo:Carisma", circumstances=frozenset({"token_devuelto"})),
        {},
        scripted([5, 6, 7]),
    )
    assert back.total == 7 + 5 and apply_effects(without, back.effects)["token"] is True
    plain = SYSTEM.check(ardelia, CheckRequest("atributo:Carisma"), {}, scripted([5, 6, 7]))
    assert plain.effects == ()
    spent = {**ardelia, "token": False}
    with pytest.raises(RulesError) as refused:  # the token went elsewhere in the meantime
        apply_effects(spent, given.effects)
    assert refused.value.problems[0].key == "nucleo.problem.token_unavailable"


def test_a_spell_check_spends_its_mana_on_the_sheet(ardelia, scripted):
    """«Módulo de Magia»: the mana is spent whatever the outcome."""
    spell = next(s for s in catalogue().spells.values() if s.mana_cost and not s.damage)
    caster = {**ardelia, "hechizos": {spell.name: 1}, "mana_gastado": 2}
    result = SYSTEM.check(
        caster, CheckRequest(f"hechizo:{spell.name}"), {}, scripted([1, 1, 2, 3, 4, 5, 6])
    )
    assert apply_effects(caster, result.effects)["mana_gastado"] == 2 + spell.mana_cost


def test_no_advantage_step_when_none_qualifies():
    """A Mediano gets Suerte free, the only advantage without requirement; with Físico ≤ 7 and
    only Carisma above 7 nothing else qualifies, so there is no step and no missing advantage."""
    answers = {
        **ARDELIA_ANSWERS,
        "atributos": {
            "Físico": "7",
            "Destreza": "7",
            "Inteligencia": "7",
            "Percepción": "7",
            "Carisma": "9",
        },
        "raza": ["Mediano"],
    }
    del answers["ventaja"]
    draft, asked = drive(answers)
    assert "ventaja" not in [s.key for s in asked]
    assert draft["ventaja"] is None and SYSTEM.validate(draft, {}) == []
    human = {**draft, "raza": "Humano"}  # Suerte is open to a Humano: it must be chosen
    assert keys(SYSTEM.validate(human, {})) == ["nucleo.problem.advantage_missing"]


def test_show_lists_the_wound_thresholds_once(ardelia):
    values = {v.key: v for v in SYSTEM.derived(ardelia | {"heridas": 5}, {})}
    assert values["umbrales"].value == "18 / 24 / 36" and "heridas" not in values
    assert values["pv_restantes"].value == 19


def test_only_the_referee_sets_the_token_px_and_fixed_pv():
    """«Token … se puede dar al Director de Juego … puede devolverlo»: the GM's to give back."""
    specs = {s.path: s for s in SYSTEM.fields({})}
    assert {p for p, s in specs.items() if s.referee_only} == {"token", "px", "pv_maximo"}
    for player_edits in ("name", "notas", "heridas", "equipo.arma_principal", "dinero"):
        assert not specs[player_edits].referee_only


def test_the_contract_suite_builds_the_same_ardelia():
    """One Ardelia: the system contract's answers (tests/rules/contract) are tests/examples.py's."""
    import json
    from pathlib import Path

    contract = Path(__file__).resolve().parents[1] / "contract" / "nucleo.json"
    assert json.loads(contract.read_text(encoding="utf-8"))["character"] == ARDELIA_ANSWERS

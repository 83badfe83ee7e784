"""The swc creation wizard, NPC stat blocks, the shop, the backpack and the purse (seed 000).

Each test names the part of seed 000 it checks: "Crear un personaje" (3d6 in order), the race
and class sections, "Personajes multiclase" (hit points: the average of each class's die),
Tabla 3 (Constitución), "Tesoro inicial" (3d6 x 10), Tablas 20-25 (prices, weights, Mov) and
"Compra equipo" (1 mo = 10 mp = 100 mc).
"""

from __future__ import annotations

import copy
import random

import pytest

from rules.swc.attributes import ATTRIBUTE_ORDER, roll_attributes
from rules.swc.builder import PER_SELECT, hit_point_roll
from rules.swc.combat import monster_to_hit_target
from rules.swc.equipment import Category, catalogue
from rules.swc.races import RACE_IDS
from rules.swc.system import SYSTEM
from rules.systems.base import CharacterBuilder, CheckRequest, Outcome, RulesError, StepKind

SETTINGS: dict = {}


class Scripted(random.Random):
    """Dice in a known order: every die of the wizard comes from ``randint``."""

    def __init__(self, faces):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        face = self.faces.pop(0)
        assert a <= face <= b, (face, a, b)
        return face


def keys(error: RulesError) -> list[str]:
    return [p.key for p in error.problems]


def answer(draft, step, value, settings=SETTINGS, rng=None, npc=False):
    """Apply one answer and check the draft given was left untouched."""
    before = copy.deepcopy(draft)
    outcome = SYSTEM.apply_creation_step(
        draft, step, value, settings, rng or random.Random(1), npc=npc
    )
    assert draft == before
    return outcome


def with_scores(scores, settings=SETTINGS):
    """A draft whose attributes were rolled as ``scores`` (Fuerza … Carisma), in order."""
    faces = []
    for score in scores:  # three dice that add up to the score
        first = min(6, score - 2)
        second = min(6, score - first - 1)
        faces += [first, second, score - first - second]
    draft = SYSTEM.new_sheet("Aldara", settings)
    outcome = answer(draft, "atributos", {}, settings, Scripted(faces))
    assert [outcome.draft["atributos"][a] for a in ATTRIBUTE_ORDER] == list(scores)
    return outcome.draft


def test_swc_is_a_character_builder():
    assert isinstance(SYSTEM, CharacterBuilder)


def test_a_fighter_through_every_step_to_a_legal_sheet():
    """Crear un personaje: attributes, race, class, alignment, hit points, gold, equipment."""
    draft, done = SYSTEM.new_sheet("Aldara", SETTINGS), ()
    step = SYSTEM.creation_step(draft, done, SETTINGS)
    assert (step.key, step.kind) == ("atributos", StepKind.ROLL)
    # Fuerza 3+5+6, Destreza 4+4+4, Constitución 6+6+4 (Tabla 3: +1), then 10s.
    faces = [3, 5, 6, 4, 4, 4, 6, 6, 4, 3, 3, 4, 3, 3, 4, 3, 3, 4]
    out = answer(draft, "atributos", {}, rng=Scripted(faces))
    assert out.draft["atributos"] == dict(
        zip(ATTRIBUTE_ORDER, (14, 12, 16, 10, 10, 10), strict=True)
    )
    assert [(r.reason, r.breakdown) for r in out.rolls][:2] == [
        ("Fuerza", "3d6 (3, 5, 6) = 14"),
        ("Destreza", "3d6 (4, 4, 4) = 12"),
    ]
    assert len(out.rolls) == 6
    draft, done = out.draft, (*done, "atributos")

    step = SYSTEM.creation_step(draft, done, SETTINGS)
    assert step.key == "raza" and [o.value for o in step.options] == list(RACE_IDS)
    assert step.summary[0].startswith("Fuerza 14 · Destreza 12 · Constitución 16")
    draft, done = answer(draft, "raza", ["humano"]).draft, (*done, "raza")

    step = SYSTEM.creation_step(draft, done, SETTINGS)
    values = [o.value for o in step.options]
    assert "guerrero" in values and "monje" not in values  # Monje: only if the referee allows
    assert any(
        "Monje" in line and "«Monjes permitidos»" in line for line in step.summary
    )  # the setting's name, never its id (issue 13)
    assert not any("monjes_permitidos" in line for line in step.summary)
    draft, done = answer(draft, "clase", ["guerrero"]).draft, (*done, "clase")

    step = SYSTEM.creation_step(draft, done, SETTINGS)
    assert [o.value for o in step.options] == ["legal", "neutral", "caotico"]
    draft, done = answer(draft, "alineamiento", ["neutral"]).draft, (*done, "alineamiento")

    step = SYSTEM.creation_step(draft, done, SETTINGS)
    assert step.key == "puntos_de_golpe" and step.prompt.params == {"dados": "d8", "con": "+1"}
    out = answer(draft, "puntos_de_golpe", {}, rng=Scripted([5]))
    assert out.draft["pg"] == {"max": 6, "actual": 6}  # 1d8 (5) + Constitución 16 (+1)
    assert [(r.expression, r.total) for r in out.rolls] == [("1d8", 5)]
    draft, done = out.draft, (*done, "puntos_de_golpe")

    out = answer(draft, "oro", {}, rng=Scripted([6, 5, 4]))
    assert out.draft["monedas"] == {"mo": 150, "mp": 0, "mc": 0}  # 3d6 (15) x 10
    assert out.rolls[0].breakdown == "3d6 (6, 5, 4) = 15 × 10 = 150"
    draft, done = out.draft, (*done, "oro")

    step = SYSTEM.creation_step(draft, done, SETTINGS)
    assert step.key == "compra_armadura" and step.optional and step.kind == StepKind.CHOOSE
    described = {o.value: o.description for o in step.options}
    assert described["Cota de malla"] == "75 mo · 50 lb · CA -4 [+4]"
    draft = answer(draft, "compra_armadura", ["Cota de malla", "Escudo"]).draft
    assert (draft["armadura"], draft["escudo"], draft["monedas"]["mo"]) == (
        "Cota de malla",
        True,
        60,
    )
    done = (*done, "compra_armadura")
    draft = answer(draft, "compra_cuerpo", ["Espada larga"]).draft
    done = (*done, "compra_cuerpo")
    draft = answer(draft, "compra_proyectiles", ["Arco corto", "Flechas (20)"]).draft
    done = (*done, "compra_proyectiles")
    step = SYSTEM.creation_step(draft, done, SETTINGS)
    assert step.key == "compra_equipo_1" and step.prompt.params["oro"] == "28 mo"
    out = answer(draft, "compra_equipo_1", ["Antorcha", "Cuerda de cáñamo (50 pies)"])
    assert out.draft["monedas"] == {"mo": 26, "mp": 9, "mc": 9}  # 1 mo + 1 mc paid from 28 mo
    draft, done = out.draft, (*done, "compra_equipo_1", "compra_equipo_2")
    assert SYSTEM.creation_step(draft, done, SETTINGS) is None
    assert SYSTEM.validate(draft, SETTINGS) == []
    derived = {v.key: v for v in SYSTEM.derived(draft, SETTINGS)}
    assert derived["ca"].value == 4  # 9 - 4 (malla) - 1 (escudo), Destreza 12 changes nothing
    # malla 50 + escudo 10 + espada 10 + arco 5 + flechas 1 + 10 of normal gear + 44 coins / 10
    assert derived["carga"].value == 90.4  # a number: the bot writes «90,4» or «90.4»
    assert derived["movimiento"].value == 9  # Tabla 25: 76-100 lb
    assert "Espada larga" in derived["equipo"].value


def test_attributes_are_the_books_3d6_in_order():
    out = answer(SYSTEM.new_sheet("A", SETTINGS), "atributos", {}, rng=random.Random(42))
    assert out.draft["atributos"] == roll_attributes(random.Random(42))
    assert [r.reason for r in out.rolls] == list(ATTRIBUTE_ORDER)
    assert all(r.expression == "3d6" for r in out.rolls)


def test_the_summary_shows_load_movement_and_ac_in_the_campaigns_notation():
    ascending = {"ca_ascendente": True}
    draft = with_scores((10, 16, 10, 10, 10, 10), ascending)  # Destreza 16: AC improves 1
    draft = answer(draft, "raza", ["humano"], ascending).draft
    draft = answer(draft, "clase", ["ladron"], ascending).draft
    draft = answer(draft, "alineamiento", ["neutral"], ascending).draft
    draft = answer(draft, "puntos_de_golpe", {}, ascending, Scripted([3])).draft
    draft = answer(draft, "oro", {}, ascending, Scripted([1, 1, 1])).draft
    done = ("atributos", "raza", "clase", "alineamiento", "puntos_de_golpe", "oro")
    step = SYSTEM.creation_step(draft, done, ascending)
    assert step.key == "compra_armadura"
    assert [o.value for o in step.options] == ["Peto de cuero"]  # Ladrón: leather, no shield
    assert step.summary[-1] == "Carga: 13 lb · Movimiento 12 (Tabla 25) · CA [11]"


def test_a_multiclass_hit_die_is_the_average_of_each_class_die_rounded_up():
    """Personajes multiclase: "tira el dado apropiado para cada clase y calcula la media"."""
    total, how, rolls = hit_point_roll(("guerrero", "mago"), 10, Scripted([5, 2]))
    assert total == 4  # (5 + 2) / 2 = 3.5, half up
    assert how == "media de 1d8 (5), 1d4 (2) = 4; Constitución +0"
    assert [r.expression for r in rolls] == ["1d8", "1d4"]
    total, _, _ = hit_point_roll(("guerrero", "mago", "ladron"), 16, Scripted([8, 4, 1]))
    assert total == 5  # 13 / 3 = 4.33 -> 4, Constitución 16 adds 1 once


def test_the_explorador_starts_with_two_dice_and_constitution_on_each():
    """Tabla 10: the Explorador has 2 DG (d8) at level 1; Tabla 3 is per die."""
    total, how, rolls = hit_point_roll(("explorador",), 17, Scripted([3, 4]))
    assert (total, len(rolls)) == (9, 2)  # 3 + 4 + 2 x (+1)
    assert how == "1d8 (3) + 1d8 (4); Constitución +2"


def test_hit_points_are_at_least_one():
    total, _, _ = hit_point_roll(("mago",), 3, Scripted([1]))  # 1 - 1 (Constitución 3)
    assert total == 1


def test_the_original_minimums_close_classes_and_name_the_score():
    on = {"minimos_originales": True}
    draft = with_scores((10, 10, 10, 10, 10, 12), on)  # Carisma 12
    draft = answer(draft, "raza", ["humano"], on).draft
    step = SYSTEM.creation_step(draft, ("atributos", "raza"), on)
    values = [o.value for o in step.options]
    assert "paladin" not in values and "druida" not in values and "guerrero" in values
    assert "✗ Paladín — Carisma 12 < 17 (Paladín)" in step.summary
    with pytest.raises(RulesError) as error:
        answer(draft, "clase", ["paladin"], on)
    assert keys(error.value) == ["swc.problem.below_original_minimum"]
    assert dict(error.value.problems[0].params) == {
        "clase": "paladin",
        "atributo": "Carisma",
        "valor": 12,
        "minimo": 17,
    }
    # Without the setting the same scores may take the Paladín.
    plain = answer(with_scores((10, 10, 10, 10, 10, 12)), "raza", ["humano"]).draft
    assert answer(plain, "clase", ["paladin"]).draft["clases"] == ["paladin"]


def test_monks_only_when_the_referee_allows_them():
    allowed = {"monjes_permitidos": True}
    draft = answer(with_scores((10,) * 6, allowed), "raza", ["humano"], allowed).draft
    assert answer(draft, "clase", ["monje"], allowed).draft["clases"] == ["monje"]
    with pytest.raises(RulesError) as error:
        answer(draft, "clase", ["monje"])
    assert keys(error.value) == ["swc.problem.monk_not_allowed"]


def test_race_and_class_refusals_name_the_rule():
    draft = answer(with_scores((10,) * 6), "raza", ["enano"]).draft
    with pytest.raises(RulesError) as error:
        answer(draft, "clase", ["mago"])
    assert keys(error.value) == ["swc.problem.class_not_allowed_for_race"]
    with pytest.raises(RulesError) as error:
        answer(draft, "clase", ["guerrero/mago"])
    assert keys(error.value) == ["swc.problem.combination_not_allowed_for_race"]
    with pytest.raises(RulesError) as error:
        answer(draft, "clase", ["bardo"])
    assert keys(error.value) == ["swc.problem.unknown_class"]
    with pytest.raises(RulesError) as error:
        answer(with_scores((10,) * 6), "raza", ["orco"])
    assert keys(error.value) == ["swc.problem.unknown_race"]


def test_every_race_and_setting_fits_in_one_select():
    for settings in ({}, {"monjes_permitidos": True, "enano_guerrero_clerigo": True}):
        base = with_scores((18,) * 6, settings)
        for raza in RACE_IDS:
            draft = answer(base, "raza", [raza], settings).draft
            step = SYSTEM.creation_step(draft, ("atributos", "raza"), settings)
            assert 1 <= len(step.options) <= PER_SELECT
            for option in step.options:  # every offered option is accepted
                answer(draft, "clase", [option.value], settings)


def test_the_alignment_must_suit_every_class():
    draft = answer(with_scores((10,) * 6), "raza", ["humano"]).draft
    draft = answer(draft, "clase", ["paladin"]).draft
    step = SYSTEM.creation_step(draft, ("atributos", "raza", "clase"), SETTINGS)
    assert [o.value for o in step.options] == ["legal"]
    with pytest.raises(RulesError) as error:
        answer(draft, "alineamiento", ["caotico"])
    assert keys(error.value) == ["swc.problem.alignment_not_allowed"]
    with pytest.raises(RulesError) as error:
        answer(draft, "alineamiento", ["bueno"])
    assert keys(error.value) == ["swc.problem.unknown_alignment"]


def shopping(clases, gold, raza="humano", alignment="neutral"):
    draft = answer(with_scores((10,) * 6), "raza", [raza]).draft
    draft = answer(draft, "clase", ["/".join(clases)]).draft
    draft = answer(draft, "alineamiento", [alignment]).draft
    draft = answer(draft, "puntos_de_golpe", {}, rng=Scripted([1] * len(clases))).draft
    draft = dict(draft)
    draft["monedas"] = {"mo": gold, "mp": 0, "mc": 0}
    return draft


def test_a_purchase_over_the_gold_names_the_exact_shortfall():
    draft = shopping(["guerrero"], 80)
    with pytest.raises(RulesError) as error:
        answer(draft, "compra_armadura", ["Cota de malla", "Escudo"])  # 75 + 15
    assert keys(error.value) == ["swc.problem.not_enough_money"]
    assert dict(error.value.problems[0].params) == {
        "coste": "90 mo",
        "tienes": "80 mo",
        "falta": "10 mo",
    }
    with pytest.raises(RulesError) as error:
        answer(draft, "compra_armadura", ["Cota de malla", "Coraza"])
    assert keys(error.value) == ["swc.problem.one_armour"]


def test_each_aisle_offers_only_what_the_classes_may_use():
    """Mago: no armour, "Daga, bastón y dardos"; Clérigo: blunt weapons and the sling."""
    mago = shopping(["mago"], 100)
    done = ("atributos", "raza", "clase", "alineamiento", "puntos_de_golpe", "oro")
    step = SYSTEM.creation_step(mago, done, SETTINGS)
    assert step.key == "compra_cuerpo"  # no armour aisle for a Mago
    assert [o.value for o in step.options] == ["Bastón", "Daga"]
    with pytest.raises(RulesError) as error:
        answer(mago, "compra_cuerpo", ["Espada larga"])
    assert keys(error.value) == ["swc.problem.cannot_buy"]
    with pytest.raises(RulesError) as error:
        answer(mago, "compra_armadura", ["Peto de cuero"])
    assert keys(error.value) == ["swc.problem.unknown_step"]
    step = SYSTEM.creation_step(mago, (*done, "compra_cuerpo"), SETTINGS)
    assert [o.value for o in step.options] == ["Dardo"]
    clerigo = shopping(["clerigo"], 100, alignment="legal")
    cuerpo = SYSTEM.creation_step(clerigo, (*done, "compra_armadura"), SETTINGS)
    assert [o.value for o in cuerpo.options] == [
        "Bastón",
        "Martillo de guerra",
        "Mayal",
        "Maza pesada",
        "Porra o Garrote",
    ]


def test_a_multiclass_character_may_buy_what_any_class_uses():
    draft = shopping(["guerrero", "mago"], 100, raza="elfo")
    assert answer(draft, "compra_cuerpo", ["Espada larga"]).draft["equipo"] == [
        {"nombre": "Espada larga", "cantidad": 1}
    ]


def test_general_gear_comes_in_two_selects_holding_all_of_tabla_20():
    draft = shopping(["guerrero"], 10)
    done = ("atributos", "raza", "clase", "alineamiento", "puntos_de_golpe", "oro")
    done += ("compra_armadura", "compra_cuerpo", "compra_proyectiles")
    first = SYSTEM.creation_step(draft, done, SETTINGS)
    second = SYSTEM.creation_step(draft, (*done, "compra_equipo_1"), SETTINGS)
    assert (first.prompt.params["parte"], second.prompt.params["partes"]) == (1, 2)
    names = [o.value for o in first.options + second.options]
    assert len(first.options) <= PER_SELECT and len(second.options) <= PER_SELECT
    assert sorted(names) == sorted(e.name for e in catalogue(Category.GEAR))
    assert SYSTEM.creation_step(draft, (*done, "compra_equipo_1", "compra_equipo_2"), {}) is None


def test_answers_of_the_wrong_shape_are_refused():
    draft = SYSTEM.new_sheet("A", SETTINGS)
    with pytest.raises(RulesError) as error:
        answer(with_scores((10,) * 6), "raza", "humano")
    assert keys(error.value) == ["swc.problem.bad_answer"]
    with pytest.raises(RulesError) as error:
        answer(with_scores((10,) * 6), "raza", ["humano", "elfo"])
    assert keys(error.value) == ["swc.problem.bad_answer"]
    with pytest.raises(RulesError) as error:
        answer(draft, "pnj_perfil", {})
    assert keys(error.value) == ["swc.problem.unknown_step"]


# -- NPC stat blocks --------------------------------------------------------------------

ORC = {
    "dados_golpe": "1+1",
    "ca": "6 [13]",
    "ataques": "1 arma (1d8)",
    "movimiento": "9",
    "valor_px": "15",
}


def npc(settings=SETTINGS, form=ORC, faces=(5,)):
    draft = SYSTEM.new_sheet("Orco", settings)
    step = SYSTEM.creation_step(draft, (), settings, npc=True)
    assert (step.key, step.kind) == ("pnj_perfil", StepKind.FORM)
    assert len(step.fields) <= 5 and all(len(f.label) <= 45 for f in step.fields)
    draft = answer(draft, "pnj_perfil", form, settings, npc=True).draft
    step = SYSTEM.creation_step(draft, ("pnj_perfil",), settings, npc=True)
    assert (step.key, step.kind) == ("pnj_pg", StepKind.ROLL)
    out = answer(draft, "pnj_pg", {}, settings, Scripted(list(faces)), npc=True)
    assert SYSTEM.creation_step(out.draft, ("pnj_perfil", "pnj_pg"), settings, npc=True) is None
    return out


def test_an_npc_stat_block_to_a_legal_sheet_with_save_and_tabla_32():
    out = npc()
    sheet = out.draft
    assert sheet["pg"] == {"max": 6, "actual": 6}  # 1d8 (5) + 1
    assert out.rolls[0].expression == "1d8+1"
    assert SYSTEM.validate(sheet, SETTINGS) == []
    derived = {v.key: v for v in SYSTEM.derived(sheet, SETTINGS)}
    assert derived["salvacion"].value == 17  # 1 DG
    assert derived["ca"].value == "6"
    line = derived["impactar"].value.split()
    assert line[0] == f"9:{monster_to_hit_target('1+1', 9)}" and len(line) == 10
    assert "bono de ataque +1" in derived["impactar"].formula
    result = SYSTEM.check(sheet, CheckRequest("salvacion", modifier=2), SETTINGS, Scripted([15]))
    assert (result.total, result.target, result.outcome) == (17, 17, Outcome.SUCCESS)
    assert result.probability == (3, 10)  # 15-20 on the d20 with +2
    with pytest.raises(RulesError):
        SYSTEM.check(sheet, CheckRequest("ladron:escalar_muros"), SETTINGS, random.Random(1))
    with pytest.raises(RulesError) as error:
        SYSTEM.grant_xp(sheet, 100, SETTINGS)
    assert keys(error.value) == ["swc.problem.npc_no_xp"]


def test_npc_armour_class_in_either_notation_and_a_fixed_save():
    ascending = {"ca_ascendente": True}
    sheet = npc(ascending, {**ORC, "ca": "13"}).draft
    assert sheet["ca"] == 6
    assert {v.key: v.value for v in SYSTEM.derived(sheet, ascending)}["ca"] == "[13]"
    fixed = {**sheet, "salvacion": 12}
    assert {v.key: v.value for v in SYSTEM.derived(fixed, SETTINGS)}["salvacion"] == 12
    half = npc(form={**ORC, "dados_golpe": "1/2"}, faces=(3,)).draft
    assert half["pg"]["max"] == 3  # 1/2 DG: 1d4


def test_npc_form_problems_are_all_named():
    with pytest.raises(RulesError) as error:
        answer(
            SYSTEM.new_sheet("Orco", SETTINGS),
            "pnj_perfil",
            {
                "dados_golpe": "muchos",
                "ca": "6 [12]",
                "ataques": "garras, 1 mordisco (1dx)",
                "movimiento": "rápido",
                "valor_px": "-5",
            },
            npc=True,
        )
    assert keys(error.value) == [
        "swc.problem.npc_ac_mismatch",
        "swc.problem.npc_bad_number",
        "swc.problem.npc_bad_number",
        "swc.problem.npc_bad_hit_dice",
        "swc.problem.npc_attack_without_damage",
        "swc.problem.npc_bad_damage",
    ]
    assert dict(error.value.problems[0].params) == {"ca": "6", "ascendente": "12", "esperada": 13}


def test_each_shape_refuses_the_others_fields():
    sheet = npc().draft
    assert [p.key for p in SYSTEM.validate({**sheet, "raza": "elfo"}, SETTINGS)] == [
        "swc.problem.character_field_on_npc"
    ]
    pc = shopping(["guerrero"], 10)
    assert [p.key for p in SYSTEM.validate({**pc, "ca": 5}, SETTINGS)] == [
        "swc.problem.npc_field_on_character"
    ]


# -- catalogue, backpack and purse --------------------------------------------------------


def test_catalogue_for_autocomplete():
    classes = [o.value for o in SYSTEM.catalogue("clase", SETTINGS)]
    assert "guerrero/mago/ladron" in classes and "monje" not in classes
    assert "monje" in [o.value for o in SYSTEM.catalogue("clase", {"monjes_permitidos": True})]
    assert [o.label for o in SYSTEM.catalogue("raza", SETTINGS)][2] == "Elfo"
    equipo = {o.value: o.description for o in SYSTEM.catalogue("equipo", SETTINGS)}
    assert len(equipo) == len(catalogue()) and equipo["Antorcha"] == "1 mc"
    assert "ladron:forzar_cerraduras" in [o.value for o in SYSTEM.catalogue("habilidad", {})]
    # seed 000 has no spell list: the campaign's defined spells (issue 23 §3), healing by default
    assert [o.value for o in SYSTEM.catalogue("hechizo", SETTINGS)] == [
        "Curar heridas leves",
        "Curar heridas graves",
    ]


def test_the_backpack_adds_merges_and_removes_by_table_name():
    sheet = {**shopping(["guerrero"], 10), "equipo": ["Antorcha"]}  # an older bare name
    before = copy.deepcopy(sheet)
    added = SYSTEM.adjust_inventory(sheet, "antorcha", 5, SETTINGS)
    assert sheet == before
    assert added["equipo"] == [{"nombre": "Antorcha", "cantidad": 6}]
    added = SYSTEM.adjust_inventory(added, "jabalina", 20, SETTINGS)
    assert SYSTEM.validate(added, SETTINGS) == []
    derived = {v.key: v.value for v in SYSTEM.derived(added, SETTINGS)}
    assert derived["equipo"] == "6× Antorcha, 20× Jabalina"
    assert derived["movimiento"] == 6  # 20 x 5 lb + 10 + 1 lb of coins: 101-150 lb
    removed = SYSTEM.adjust_inventory(added, "Antorcha", -6, SETTINGS)
    assert removed["equipo"] == [{"nombre": "Jabalina", "cantidad": 20}]
    with pytest.raises(RulesError) as error:
        SYSTEM.adjust_inventory(added, "Jabalina", -21, SETTINGS)
    assert keys(error.value) == ["swc.problem.not_enough_items"]
    assert dict(error.value.problems[0].params) == {
        "objeto": "Jabalina",
        "tienes": 20,
        "quitas": 21,
    }
    with pytest.raises(RulesError) as error:
        SYSTEM.adjust_inventory(added, "Espada vorpal", 1, SETTINGS)
    assert keys(error.value) == ["swc.problem.unknown_item"]
    assert "Espada" in error.value.problems[0].params["sugerencias"]


def test_the_purse_in_mo_mp_mc_with_change():
    """Compra equipo: "Una moneda de oro (mo) equivale a 10 monedas de plata (mp) o 100 mc"."""
    sheet = {**shopping(["guerrero"], 10)}
    before = copy.deepcopy(sheet)
    richer = SYSTEM.adjust_money(sheet, 15, "plata", SETTINGS)
    assert sheet == before
    assert richer["monedas"] == {"mo": 10, "mp": 15, "mc": 0}
    spent = SYSTEM.adjust_money(richer, -3, None, SETTINGS)
    assert spent["monedas"] == {"mo": 7, "mp": 15, "mc": 0}
    broken = SYSTEM.adjust_money(spent, -7, "mc", SETTINGS)  # breaks a silver piece
    assert broken["monedas"] == {"mo": 7, "mp": 14, "mc": 3}
    with pytest.raises(RulesError) as error:
        SYSTEM.adjust_money(broken, -9, "mo", SETTINGS)
    assert dict(error.value.problems[0].params) == {
        "coste": "9 mo",
        "tienes": "8 mo 4 mp 3 mc",
        "falta": "5 mp 7 mc",
    }
    with pytest.raises(RulesError) as error:
        SYSTEM.adjust_money(broken, 1, "platino", SETTINGS)
    assert keys(error.value) == ["swc.problem.unknown_currency"]


# -- /save (cogs/checks.py SAVE_OPTION = "salvacion") --------------------------------------


def fighter():
    draft = shopping(["guerrero"], 10)
    return {**draft, "atributos": dict.fromkeys(ATTRIBUTE_ORDER, 10)}


def test_save_names_the_threat_and_refuses_an_unknown_one():
    """Tiradas de salvación: the class and race bonuses come from the threat."""
    request = CheckRequest("salvacion", circumstances=frozenset({"amenaza:aliento"}))
    result = SYSTEM.check(fighter(), request, SETTINGS, Scripted([14]))
    assert (result.target, result.outcome, result.notes) == (14, Outcome.SUCCESS, ())
    request = CheckRequest("salvacion", circumstances=frozenset({"amenaza:venenno"}))
    with pytest.raises(RulesError) as error:
        SYSTEM.check(fighter(), request, SETTINGS, random.Random(1))
    assert keys(error.value) == ["swc.problem.unknown_threat"]


def test_save_under_tabla_28_takes_the_row_from_the_threat():
    """With salvaciones_alternativas, /save's threat picks the Tabla 28 row."""
    alt = {"salvaciones_alternativas": True}
    sheet = fighter()
    for threat, category in (("veneno", "veneno_muerte"), ("aliento", "aliento")):
        by_threat = SYSTEM.check(
            sheet,
            CheckRequest("salvacion", circumstances=frozenset({f"amenaza:{threat}"})),
            alt,
            Scripted([10]),
        )
        by_row = SYSTEM.check(sheet, CheckRequest(f"salvacion:{category}"), alt, Scripted([10]))
        assert by_threat.target == by_row.target
    with pytest.raises(RulesError) as error:
        SYSTEM.check(sheet, CheckRequest("salvacion"), alt, random.Random(1))
    assert keys(error.value) == ["swc.problem.save_category_needed"]


def test_a_race_whose_every_class_is_closed_is_listed_with_the_reasons(monkeypatch):
    """No seed-000 race is closed by scores alone (each can be a Guerrero); the wizard still
    handles one: a race offering only the Paladín, with the original minimums and Carisma 12."""
    from rules.swc import builder

    real = builder._combos
    monkeypatch.setattr(
        builder, "_combos", lambda raza, s: (("paladin",),) if raza == "enano" else real(raza, s)
    )
    on = {"minimos_originales": True}
    draft = with_scores((10, 10, 10, 10, 10, 12), on)
    step = SYSTEM.creation_step(draft, ("atributos",), on)
    assert "enano" not in [o.value for o in step.options]
    assert "✗ Enano: Paladín — Carisma 12 < 17 (Paladín)" in step.summary
    with pytest.raises(RulesError) as error:
        answer(draft, "raza", ["enano"], on)
    assert keys(error.value) == [
        "swc.problem.race_no_class",
        "swc.problem.below_original_minimum",
    ]


def leaf_paths(sheet, prefix=""):
    for key, value in sheet.items():
        if isinstance(value, dict):
            yield from leaf_paths(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}"


@pytest.mark.parametrize("kind", ["pc", "npc"])
def test_every_value_the_wizard_writes_has_a_field_for_show_and_set(kind):
    """/sheet show lists FieldSpecs; the backpack shows as a derived value, system/pnj are tags."""
    sheet = npc().draft if kind == "npc" else answer(fighter(), "compra_cuerpo", ["Daga"]).draft
    specs = {s.path: s for s in SYSTEM.fields(SETTINGS)}
    missing = set(leaf_paths(sheet)) - set(specs) - {"system", "pnj", "equipo"}
    assert missing == set()
    players = {p for p, s in specs.items() if not s.referee_only and p in set(leaf_paths(sheet))}
    if kind == "pc":
        assert {"name", "notas", "pg.actual", "armadura"} <= players
        assert {"xp", "pg.max", "raza", "clases", "atributos.Fuerza"}.isdisjoint(players)

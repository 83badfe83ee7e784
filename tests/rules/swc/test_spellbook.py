"""S&W's SpellBook: slots by spell level from the advancement tables (seed 000), no spell list."""

from __future__ import annotations

import random

import pytest

from rules import systems
from rules.swc.advancement import xp_for_level
from rules.systems.base import RulesError, SpellBook, SpellRequest

SWC = systems.get("swc")
RNG = random.Random(0)


def caster(clases, level, **changes):
    base = SWC.new_sheet("Zoltan", {})
    base.update(
        raza="humano",
        clases=clases,
        alineamiento="legal",
        atributos={
            "Fuerza": 13,
            "Destreza": 12,
            "Constitución": 13,
            "Inteligencia": 15,
            "Sabiduría": 13,
            "Carisma": 9,
        },
        pg={"max": 4, "actual": 4},
        xp=xp_for_level(clases[0], level),
    )
    base.update(changes)
    assert SWC.validate(base, {}) == []
    return base


def test_no_spell_list_in_the_book_but_the_campaigns():
    """Seed 000 ends before its spells: the list is the campaign's (issue 23 §3)."""
    assert isinstance(SWC, SpellBook)
    listed = SWC.spell_list({})
    assert listed.notice == "swc.note.spell_slots"
    assert [(s.name, s.level) for s in listed.spells] == [
        ("Curar heridas leves", 1),
        ("Curar heridas graves", 4),
    ]
    assert SWC.spell_list({"conjuros": '{"conjuros": []}'}).spells == ()


def test_a_defined_healing_spell_takes_its_level_and_heals():
    """«Curar heridas leves» spent the slot and healed nobody: now its level comes from the
    caster's list and the cast rolls its healing (house default 1d6+1)."""
    cleric = caster(["clerigo"], 2)
    cast = SWC.cast(cleric, SpellRequest(spell="curar heridas leves"), {}, random.Random(3))
    assert cast.label == "Curar heridas leves" and cast.pool.key == "clerigo.clerigo.1"
    assert cast.effect is not None and cast.effect.kind == "healing" and 2 <= cast.effect.total <= 7
    with pytest.raises(RulesError) as error:
        SWC.cast(cleric, SpellRequest(spell="Curar heridas graves"), {}, RNG)
    assert error.value.problems[0].key == "swc.problem.spell_not_on_lists"
    with pytest.raises(RulesError) as error:
        SWC.cast(cleric, SpellRequest(spell="Curar heridas leves", amount=3), {}, RNG)
    assert error.value.problems[0].key == "swc.problem.spell_rolls"


def test_an_undefined_spell_heals_what_the_caster_says():
    cleric = caster(["clerigo"], 2)
    told = SWC.cast(cleric, SpellRequest(spell="Bendición menor", level=1, amount=4), {}, RNG)
    assert told.effect is not None and (told.effect.kind, told.effect.total) == ("healing", 4)
    plain = SWC.cast(cleric, SpellRequest(spell="Luz", level=1), {}, RNG)
    assert plain.effect is None


def test_a_campaign_defines_its_own_spells_and_a_bad_list_is_refused():
    own = '{"conjuros": [{"nombre": "Bálsamo", "listas": {"clerigo": 1}, "curacion": "2d4"}]}'
    cast = SWC.cast(caster(["clerigo"], 2), SpellRequest(spell="Bálsamo"), {"conjuros": own}, RNG)
    assert cast.effect is not None and cast.effect.expression == "2d4"
    for bad in ("{", '{"conjuros": [{"nombre": "X", "listas": {"bardo": 1}}]}'):
        with pytest.raises(RulesError):
            SWC.spell_list({"conjuros": bad})


def test_a_mago_has_the_slots_of_tabla_16():
    # Tabla 16 (Tabla de Avance del Mago), nivel 3 (5.000 PX): 3 conjuros de nivel 1 y 1 de nivel 2.
    state = SWC.spell_state(caster(["mago"], 3), {})
    assert [(p.key, p.label, p.left) for p in state.pools] == [
        ("mago.mago.1", "Mago, nivel 1", 3),
        ("mago.mago.2", "Mago, nivel 2", 1),
    ]


def test_casting_spends_a_slot_and_refuses_when_none_is_left():
    sheet = caster(["mago"], 3)
    first = SWC.cast(sheet, SpellRequest("Dormir", level=1), {}, RNG)
    assert (first.label, first.spent, first.pool.left, first.check) == ("Dormir", 1, 2, None)
    second = SWC.cast(first.sheet, SpellRequest(level=1), {}, RNG)
    third = SWC.cast(second.sheet, SpellRequest(level=1), {}, RNG)
    assert third.label == "Mago, nivel 1" and third.sheet["conjuros_gastados"] == {"mago.mago.1": 3}
    assert "conjuros_gastados" not in sheet  # the rules never change the sheet they are given
    with pytest.raises(RulesError) as error:
        SWC.cast(third.sheet, SpellRequest(level=1), {}, RNG)
    assert error.value.problems[0].key == "spell.problem.no_slot_left"
    for request, key in (
        (SpellRequest("Dormir"), "spell.problem.level_needed"),
        (SpellRequest(level=3), "spell.problem.no_slots_at_level"),
    ):
        with pytest.raises(RulesError) as error:
            SWC.cast(sheet, request, {}, RNG)
        assert error.value.problems[0].key == key


def test_a_new_day_brings_the_slots_back():
    spent = SWC.cast(caster(["mago"], 3), SpellRequest(level=2), {}, RNG).sheet
    rested = SWC.rest(spent, {})
    assert "conjuros_gastados" not in rested.sheet
    assert [p.left for p in rested.before] == [3, 0] and [p.left for p in rested.after] == [3, 1]


def test_the_explorador_names_its_clerical_or_magic_list():
    # Tabla 10: from level 9 the Explorador prepares clerical and (from 10) magic spells.
    sheet = caster(["explorador"], 10)
    assert {p.key for p in SWC.spell_state(sheet, {}).pools} >= {
        "explorador.clerigo.1",
        "explorador.mago.1",
    }
    with pytest.raises(RulesError) as error:
        SWC.cast(sheet, SpellRequest(level=1), {}, RNG)
    assert error.value.problems[0].key == "spell.problem.which_list"
    # the lists by their ids, for the bot to name (tests/bot/test_names.py)
    assert error.value.problems[0].params["listas"] == "clerigo/mago"
    cast = SWC.cast(sheet, SpellRequest(level=1, spell_list="Mago"), {}, RNG)
    assert cast.pool.key == "explorador.mago.1"


def test_a_mago_in_armour_cannot_cast_unless_an_elf_in_magical_armour():
    # «un Elfo o un Semielfo no podrán lanzar conjuros mientras vistan una armadura que no sea
    # mágica» (seed 000, multiclase): magical armour lets them cast.
    sheet = caster(["guerrero", "mago"], 3, raza="elfo", alineamiento="neutral")
    sheet["armadura"] = "Cota de malla"
    with pytest.raises(RulesError) as error:
        SWC.cast(sheet, SpellRequest(level=1), {}, RNG)
    assert error.value.problems[0].key == "spell.problem.armour_blocks"
    magical = SWC.cast({**sheet, "armadura_magica": True}, SpellRequest(level=1), {}, RNG)
    assert magical.pool.key == "mago.mago.1"


def test_classes_without_spells_have_no_pools():
    fighter = caster(["guerrero"], 5)
    assert SWC.spell_state(fighter, {}).pools == ()
    with pytest.raises(RulesError):
        SWC.cast(fighter, SpellRequest(level=1), {}, RNG)


def test_an_illegal_sheet_shows_no_slots_and_cannot_cast():
    broken = {**caster(["mago"], 3), "raza": "orco"}
    assert SWC.spell_state(broken, {}).pools == ()
    with pytest.raises(RulesError) as error:
        SWC.cast(broken, SpellRequest(level=1), {}, RNG)
    assert error.value.problems[0].key == "swc.problem.unknown_race"

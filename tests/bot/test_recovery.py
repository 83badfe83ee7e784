"""Healing between fights on real databases (issue 23 §3): days of rest for the party, the
herbs spent from the backpack, Núcleo's breath after a fight, S&W's once-a-day powers, the
GM's ``/heal`` in and out of a fight, and ``salud_por_comandos`` keeping players' hands off
their health — each write versioned and audited, concurrent ones never spending twice."""

from __future__ import annotations

import asyncio
import json

import pytest
from sqlmodel import col, select

from bot.db.models import RollLog, saved_id
from bot.services import Actor, Place
from bot.services.campaigns.service import SettingsChange
from bot.services.campaigns.settings import resolved_settings
from bot.services.shared.audience import Part
from bot.services.shared.errors import DomainError, NotAllowed, NotReferee
from rules import systems
from rules.swc.advancement import xp_for_level
from rules.systems.base import RulesError
from tests.examples import ardelia, swc_character, swc_cleric

GUILD = 1000
HERE = Place(GUILD, 23, (23,))
GM = Actor(1, "Máster", can_manage_channels=True)
ANA = Actor(2, "Ana")
BRUNO = Actor(3, "Bruno")


CLERIC = {
    "Fuerza": 10,
    "Destreza": 10,
    "Constitución": 12,
    "Inteligencia": 10,
    "Sabiduría": 15,
    "Carisma": 8,
}


def rolweb(name: str, **changes) -> dict:
    system = systems.get("rolweb")
    sheet = system.new_sheet(name, resolved_settings(system.settings(), {}))
    sheet.update(changes)
    return sheet


async def _campaign(services, system: str) -> None:
    await services.campaigns.create(
        HERE, GM, name="Mesa", system=system, target_id=23, kind="channel"
    )


async def _sheet(services, name: str) -> dict:
    _c, stored, _s, _set = await services.characters.sheet_of(HERE, GM, name)
    return dict(stored.sheet)


@pytest.fixture
async def foro(services):
    await _campaign(services, "rolweb")
    eira = rolweb("Eira", habilidades={"Medicus": "principiante"})
    eira["equipo"] = {"Hierbas curativas": 1}
    await services.characters.create(HERE, ANA, eira)
    await services.characters.create(HERE, BRUNO, rolweb("Bram", resistencia={"actual": 3}))
    return services


async def test_the_gm_rests_the_party_and_the_rest_is_audited_and_undoable(foro):
    with pytest.raises(NotReferee):
        await foro.recovery.rest(HERE, BRUNO, 2, character="Bram")
    with pytest.raises(DomainError):
        await foro.recovery.rest(HERE, GM, 2)  # nobody named
    view = await foro.recovery.rest(HERE, GM, 2, party=True)
    healed = {line.name: line.healed for line in view.lines}
    assert healed == {"Eira": 0, "Bram": 2} and view.kind == "rest" and view.fight is None
    assert (await _sheet(foro, "Bram"))["resistencia"]["actual"] == 5
    bram = next(line for line in view.lines if line.name == "Bram")
    async with foro.sessions() as session:
        row = await session.get(RollLog, bram.undo.log_id)
    assert row.kind == "rest" and row.total == 2
    await foro.undo.undo(HERE, GM, bram.undo.log_id)
    assert (await _sheet(foro, "Bram"))["resistencia"]["actual"] == 3


async def test_herbs_are_spent_once_even_by_two_uses_at_once(foro):
    """Eira carries one dose: two first aids at the same moment heal Bram once; the other is
    refused with nothing written (the payment and the heal are one transaction)."""
    jobs = [
        foro.abilities.use(HERE, ANA, "Hierbas curativas", target="Bram"),
        foro.abilities.use(HERE, ANA, "Medicus", target="Bram", herbs=True),
    ]
    results = await asyncio.gather(*jobs, return_exceptions=True)
    done = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, RulesError)]
    assert len(done) == 1 and len(refused) == 1, results
    assert refused[0].problems[0].key == "rolweb.problem.no_herbs"
    assert "Hierbas curativas" not in (await _sheet(foro, "Eira")).get("equipo", {})
    assert (await _sheet(foro, "Bram"))["resistencia"]["actual"] == 3 + done[0].healed
    with pytest.raises(RulesError, match="no_herbs"):
        await foro.abilities.use(HERE, ANA, "Medicus", target="Bram", herbs=True)


async def test_the_spent_herb_is_on_the_record_and_the_gm_can_give_it_back(foro):
    await foro.abilities.use(HERE, ANA, "Hierbas curativas", target="Bram")
    async with foro.sessions() as session:
        rows = (
            await session.exec(
                select(RollLog).where(RollLog.kind == "ability").order_by(col(RollLog.id))
            )
        ).all()
    paid = next(r for r in rows if r.character_name == "Eira")
    assert paid.expression == "-hierbas" and paid.reason.startswith("Hierbas curativas")
    await foro.undo.undo(HERE, GM, saved_id(paid))
    assert (await _sheet(foro, "Eira"))["equipo"] == {"Hierbas curativas": 1}


async def test_the_gms_heal_works_out_of_a_fight_and_refreshes_the_panel_in_one(foro):
    with pytest.raises(NotReferee):
        await foro.recovery.heal(HERE, BRUNO, "Bram", 2)
    out = await foro.recovery.heal(HERE, GM, "Bram", 2)
    assert out.lines[0].healed == 2 and out.fight is None
    await foro.combat.start(HERE, GM, "turns")
    await foro.combat.join(HERE, BRUNO)
    inside = await foro.recovery.heal(HERE, GM, "Bram", 1)
    assert inside.fight is not None and inside.fight.active
    assert (await _sheet(foro, "Bram"))["resistencia"]["actual"] == 6


async def test_players_keep_their_hands_off_their_health_unless_the_campaign_allows(foro):
    with pytest.raises(NotAllowed, match="health_field"):
        await foro.characters.set_field(HERE, BRUNO, "Bram", "resistencia.actual", "10")
    await foro.characters.set_field(HERE, GM, "Bram", "resistencia.actual", "4")  # the GM may
    await foro.characters.set_field(HERE, BRUNO, "Bram", "notas", "herido")  # the rest is his
    _name, exported = await foro.sheet_exchange.export(HERE, BRUNO, "Bram")
    document = json.loads(exported)
    document["sheet"]["resistencia"]["actual"] = 10
    with pytest.raises(NotAllowed, match="import_health"):
        await foro.sheet_exchange.import_sheet(
            HERE, BRUNO, json.dumps(document).encode(), replace=True
        )
    del document["sheet"]["resistencia"]["actual"]
    document["sheet"]["notas"] = "curado a mano no"
    await foro.sheet_exchange.import_sheet(HERE, BRUNO, json.dumps(document).encode(), replace=True)
    after = await _sheet(foro, "Bram")
    assert after["resistencia"]["actual"] == 4 and after["notas"] == "curado a mano no"
    change = SettingsChange(system_setting=("salud_por_comandos", "no"))
    await foro.campaigns.update_settings(HERE, GM, change)
    await foro.characters.set_field(HERE, BRUNO, "Bram", "resistencia.actual", "9")
    assert (await _sheet(foro, "Bram"))["resistencia"]["actual"] == 9


async def test_a_hidden_npcs_rest_is_the_gms_alone(foro):
    await foro.characters.create(HERE, GM, rolweb("Vigía", pnj=True), is_npc=True, hidden=True)
    view = await foro.recovery.rest(HERE, GM, 1, character="Vigía")
    assert view.secrecy.npc_id is not None and Part.RECORD in view.secrecy.npc_sealed


@pytest.fixture
async def nucleo(services):
    await _campaign(services, "nucleo")
    await services.characters.create(HERE, ANA, ardelia(heridas=10))
    return services


async def test_breath_comes_after_a_fight_once(nucleo):
    with pytest.raises(RulesError, match="breath_no_fight"):
        await nucleo.recovery.breath(HERE, ANA)
    await nucleo.combat.start(HERE, GM, "turns")
    await nucleo.combat.join(HERE, ANA)
    with pytest.raises(DomainError, match="still_fighting"):
        await nucleo.recovery.breath(HERE, ANA)
    await nucleo.combat.end(HERE, GM)
    view = await nucleo.recovery.breath(HERE, ANA)
    line = view.lines[0]
    assert line.roll is not None and line.roll.startswith("1d6")
    assert (await _sheet(nucleo, "Ardelia"))["heridas"] == 10 - line.healed
    with pytest.raises(RulesError, match="breath_taken"):
        await nucleo.recovery.breath(HERE, ANA)
    with pytest.raises(DomainError, match="rest.error.who"):
        await nucleo.recovery.rest(HERE, GM, 1, character="Ardelia", party=True)


async def test_two_breaths_at_once_heal_once(nucleo):
    await nucleo.combat.start(HERE, GM, "turns")
    await nucleo.combat.join(HERE, ANA)
    await nucleo.combat.end(HERE, GM)
    results = await asyncio.gather(
        nucleo.recovery.breath(HERE, ANA), nucleo.recovery.breath(HERE, GM, "Ardelia"),
        return_exceptions=True,
    )  # fmt: skip
    done = [r for r in results if not isinstance(r, BaseException)]
    assert len(done) == 1, results
    assert isinstance(next(r for r in results if r not in done), RulesError)
    assert (await _sheet(nucleo, "Ardelia"))["heridas"] == 10 - done[0].lines[0].healed


async def test_a_day_of_rest_heals_and_refills_the_mana(nucleo):
    await nucleo.characters.set_field(HERE, GM, "Ardelia", "mana_gastado", "2")
    view = await nucleo.recovery.rest(HERE, GM, 3, party=True)
    assert view.lines[0].healed == 3 and "rest.restored.mana" in view.lines[0].restored
    sheet = await _sheet(nucleo, "Ardelia")
    assert sheet["heridas"] == 7 and sheet["mana_gastado"] == 0


def paladin(name: str = "Aldric", level: int = 3) -> dict:
    scores = {"Fuerza": 13, "Destreza": 10, "Constitución": 12, "Inteligencia": 10}
    scores |= {"Sabiduría": 12, "Carisma": 17}
    xp = xp_for_level("paladin", level)
    return swc_character(name, "paladin", scores, 20, xp=xp, pg={"max": 20, "actual": 20})


@pytest.fixture
async def mesa(services):
    await _campaign(services, "swc")
    await services.characters.create(HERE, ANA, paladin())
    await services.characters.create(
        HERE, BRUNO, swc_character("Borin", "clerigo", CLERIC, 6, pg={"max": 6, "actual": 1})
    )
    return services


async def test_lay_on_hands_once_a_day_even_when_asked_twice_at_once(mesa):
    jobs = [
        mesa.abilities.use(HERE, ANA, "Imposición de manos", target="Borin", amount=2),
        mesa.abilities.use(
            HERE, GM, "Imposición de manos", target="Borin", character="Aldric", amount=3
        ),
    ]
    results = await asyncio.gather(*jobs, return_exceptions=True)
    done = [r for r in results if not isinstance(r, BaseException)]
    assert len(done) == 1, results
    refused = next(r for r in results if isinstance(r, BaseException))
    assert isinstance(refused, RulesError) and "power_used_today" in str(refused)
    assert (await _sheet(mesa, "Borin"))["pg"]["actual"] == 1 + done[0].healed
    assert (await _sheet(mesa, "Aldric"))["usos_del_dia"] == ["imposicion_de_manos"]
    await mesa.recovery.rest(HERE, GM, 1, party=True)
    assert "usos_del_dia" not in await _sheet(mesa, "Aldric")
    before = (await _sheet(mesa, "Borin"))["pg"]["actual"]
    again = await mesa.abilities.use(HERE, ANA, "Imposición de manos", target="Borin")
    assert (await _sheet(mesa, "Borin"))["pg"]["actual"] == min(6, before + 6)
    assert again.healed == min(6, before + 6) - before


async def test_players_cannot_reset_their_spent_spells_by_hand(mesa):
    await mesa.spells.cast(HERE, BRUNO, _order(level=1, character="Borin"))
    _name, exported = await mesa.sheet_exchange.export(HERE, BRUNO, "Borin")
    document = json.loads(exported)
    document["sheet"].pop("conjuros_gastados")
    await mesa.sheet_exchange.import_sheet(HERE, BRUNO, json.dumps(document).encode(), replace=True)
    assert (await _sheet(mesa, "Borin"))["conjuros_gastados"] == {"clerigo.clerigo.1": 1}
    document["sheet"]["conjuros_gastados"] = {}
    with pytest.raises(NotAllowed, match="import_health"):
        await mesa.sheet_exchange.import_sheet(
            HERE, BRUNO, json.dumps(document).encode(), replace=True
        )


def _order(**fields):
    from bot.services.play.spells import CastOrder

    return CastOrder(**fields)


async def test_a_healing_spell_heals_its_target_and_an_undefined_one_what_the_caster_says(mesa):
    """The play-test: `/spell cast «Curar heridas leves» target:Borin` spent the slot and
    healed nothing.  Now the campaign's spell (the default file) heals; in a fight the panel
    comes back with it."""
    await mesa.characters.create(HERE, ANA, swc_cleric(xp=xp_for_level("clerigo", 2)))
    await mesa.combat.start(HERE, GM, "turns")
    await mesa.combat.join(HERE, BRUNO)
    order = _order(spell="curar heridas leves", character="Aldara", target="Borin")
    view = await mesa.spells.cast(HERE, ANA, order)
    assert view.result.effect is not None and view.result.effect.kind == "healing"
    assert view.landed is not None and view.landed.health is not None
    healed = view.landed.health.amount
    assert healed > 0 and view.fight is not None
    assert (await _sheet(mesa, "Borin"))["pg"]["actual"] == 1 + healed
    assert (await _sheet(mesa, "Aldara"))["conjuros_gastados"] == {"clerigo.clerigo.1": 1}
    await mesa.recovery.rest(HERE, GM, 1, character="Aldara")
    told = _order(spell="Bendición", level=1, character="Aldara", target="Borin", heal=1)
    before = (await _sheet(mesa, "Borin"))["pg"]["actual"]
    view = await mesa.spells.cast(HERE, ANA, told)
    assert (await _sheet(mesa, "Borin"))["pg"]["actual"] == min(6, before + 1)


async def test_a_players_init_heal_is_the_gms_under_salud_por_comandos(foro):
    await foro.combat.start(HERE, GM, "turns")
    await foro.combat.join(HERE, BRUNO)
    with pytest.raises(NotReferee, match="heal_gm_only"):
        await foro.combat.heal(HERE, BRUNO, "Bram", 5)
    await foro.combat.damage(HERE, BRUNO, "Bram", 1)  # reporting damage stays his
    change = SettingsChange(system_setting=("salud_por_comandos", "no"))
    await foro.campaigns.update_settings(HERE, GM, change)
    healed = await foro.combat.heal(HERE, BRUNO, "Bram", 5)
    assert healed.amount == 5 and healed.fight is not None  # the panel comes back with it


async def test_curacion_heals_by_its_mana_out_of_a_fight_with_recuperacion(nucleo):
    """Seed 002 line 330: «Cura 1d6 pv por punto de maná gastado, con un máximo de 3»; line
    305: Recuperación «Cura 2 PV adicional en cada curación … mágica»."""
    from tests.examples import ardelia_the_mage

    healer = ardelia_the_mage({"Curación": 1}) | {"name": "Sanadora"}
    await nucleo.characters.create(HERE, BRUNO, healer)
    tough = ardelia(name="Roca", heridas=20, ventaja="Recuperación")
    tough["atributos"] = {**tough["atributos"], "Físico": 8, "Inteligencia": 7}
    await nucleo.characters.create(HERE, GM, tough, is_npc=True)
    order = _order(spell="Curación", mana=2, modifier=50, character="Sanadora", target="Roca")
    view = await nucleo.spells.cast(HERE, BRUNO, order)
    assert view.result.spent >= 2 and view.landed is not None and view.landed.health is not None
    effect = view.result.effect
    assert effect is not None and effect.kind == "healing"  # 2d6 (3d6 on a critical)
    healed = view.landed.health.amount
    assert healed == min(20, effect.total + 2)  # Recuperación's +2 on a magical healing
    assert "nucleo.note.recuperacion" in view.landed.health.notes
    assert (await _sheet(nucleo, "Roca"))["heridas"] == 20 - healed
    assert (await _sheet(nucleo, "Sanadora"))["mana_gastado"] == view.result.spent


async def test_a_campaign_defines_its_spells_and_a_broken_list_is_refused_when_set(mesa):
    """Seed 000 has no spell descriptions: the GM's ``conjuros`` replaces the default file;
    a list the rules cannot read is refused when set, and nothing changes."""
    broken = SettingsChange(system_setting=("conjuros", '{"conjuros": [{"nombre": "X"}]}'))
    with pytest.raises(RulesError, match="bad_spells"):
        await mesa.campaigns.update_settings(HERE, GM, broken)
    own = '{"conjuros": [{"nombre": "Bálsamo", "listas": {"clerigo": 1}, "curacion": "5"}]}'
    await mesa.campaigns.update_settings(HERE, GM, SettingsChange(system_setting=("conjuros", own)))
    await mesa.characters.create(HERE, ANA, swc_cleric(xp=xp_for_level("clerigo", 2)))
    view = await mesa.spells.cast(HERE, ANA, _order(spell="balsamo", target="Borin"))
    assert view.result.label == "Bálsamo" and view.landed.health.amount == 5
    with pytest.raises(RulesError, match="level_needed"):  # no longer defined: say the level
        await mesa.spells.cast(HERE, ANA, _order(spell="Curar heridas leves", target="Borin"))

"""/spell on real databases: one transaction per cast (sheet + log), no system branching."""

from __future__ import annotations

import json

import pytest
from sqlmodel import select

from bot.db.models import RollLog
from bot.services import Actor, Place
from bot.services.play.spells import PAGE_SIZE, CastOrder
from bot.services.shared.errors import DomainError, NotAllowed
from rules import systems
from rules.swc.advancement import xp_for_level
from rules.systems.base import RulesError
from tests.examples import ardelia_the_mage
from tests.rules.nucleo.conftest import ScriptedRandom

GUILD = 1000
GM = Actor(1, "Máster", can_manage_channels=True)
ANA = Actor(2, "Ana")
BRUNO = Actor(3, "Bruno")


def place(channel: int) -> Place:
    return Place(GUILD, channel, (channel,))


NUCLEO_HERE, SWC_HERE, ROLWEB_HERE = place(11), place(12), place(13)


maga = ardelia_the_mage


def mago() -> dict:
    swc = systems.get("swc")
    sheet = swc.new_sheet("Zoltan", {})
    sheet.update(
        raza="humano",
        clases=["mago"],
        alineamiento="neutral",
        atributos={
            "Fuerza": 9,
            "Destreza": 12,
            "Constitución": 10,
            "Inteligencia": 15,
            "Sabiduría": 10,
            "Carisma": 9,
        },
        pg={"max": 4, "actual": 4},
        xp=xp_for_level("mago", 2),
    )
    return sheet


@pytest.fixture
async def table(services):
    for here, system in ((NUCLEO_HERE, "nucleo"), (SWC_HERE, "swc"), (ROLWEB_HERE, "rolweb")):
        await services.campaigns.create(
            here, GM, name=system, system=system, target_id=here.channel_id, kind="channel"
        )
    await services.characters.create(NUCLEO_HERE, ANA, json.loads(json.dumps(maga())))
    await services.characters.create(SWC_HERE, ANA, mago())
    return services


async def logged(services) -> list[RollLog]:
    async with services.sessions() as session:
        return list((await session.exec(select(RollLog).where(RollLog.kind == "spell"))).all())


async def test_list_pages_filters_and_shows_the_casters_mana(table):
    first = await table.spells.list(NUCLEO_HERE, ANA)
    assert (first.matches, first.pages, len(first.spells)) == (55, 4, PAGE_SIZE)
    assert first.character_name == "Ardelia" and first.state.pools[0].left == 27
    last = await table.spells.list(NUCLEO_HERE, ANA, page=99)
    assert last.page == 4 and len(last.spells) == 55 - 3 * PAGE_SIZE
    band = await table.spells.list(
        NUCLEO_HERE, GM, level=7
    )  # Dif 24: Tormenta de fuego, Teleportarse
    assert {s.name for s in band.spells} == {"Tormenta de fuego", "Teleportarse"}
    assert band.state is None  # the GM has no active character: no pools, no error
    found = await table.spells.list(NUCLEO_HERE, ANA, search="curacion")
    assert [s.name for s in found.spells][0] == "Curación"


async def test_show_and_autocomplete_put_the_known_spells_first(table):
    view = await table.spells.show(NUCLEO_HERE, ANA, "proyectil MAGICO")
    assert (view.spell.name, view.spell.difficulty, view.known_level) == ("Proyectil mágico", 16, 1)
    names = await table.spells.names(NUCLEO_HERE, ANA, "")
    assert names[0] == ("★ Proyectil mágico (1)", "Proyectil mágico") and len(names) == 25
    with pytest.raises(DomainError) as error:
        await table.spells.show(NUCLEO_HERE, ANA, "Bola de nieve")
    assert error.value.key == "spell.error.unknown_spell"


async def test_a_cast_spends_mana_and_lands_in_the_log_in_one_go(table):
    view = await table.spells.cast(
        NUCLEO_HERE, ANA, CastOrder(spell="Proyectil mágico", target="el orco")
    )
    assert (view.character_name, view.result.spent, view.result.pool.left) == ("Ardelia", 2, 25)
    assert (await table.characters.show(NUCLEO_HERE, ANA)).sheet["mana_gastado"] == 2
    (row,) = await logged(table)
    assert (row.id, row.character_name, row.total, row.difficulty) == (
        view.log_id,
        "Ardelia",
        view.result.check.total,
        16,
    )
    assert row.reason == "Proyectil mágico → el orco" and row.detail["spent"] == 2


async def test_burning_mana_can_make_a_critical_with_an_extra_die(table):
    table.spells.rng = ScriptedRandom([3, 10, 10, 2, 4, 5, 3, 1, 1])
    view = await table.spells.cast(
        NUCLEO_HERE, ANA, CastOrder(spell="Proyectil mágico", extra_mana=8)
    )
    result = view.result
    assert (str(result.check.outcome), result.spent, result.pool.left) == ("critical", 10, 17)
    assert result.critical_benefits == ("dado",) and result.effect.expression == "2d6!+1d6!"
    (row,) = await logged(table)
    assert row.outcome == "critical" and row.detail["effect"]["total"] == 5


async def test_refusals_change_nothing(table):
    with pytest.raises(RulesError):
        await table.spells.cast(
            NUCLEO_HERE, ANA, CastOrder(spell="Curación")
        )  # not known (level 0)
    with pytest.raises(NotAllowed):
        await table.spells.cast(
            NUCLEO_HERE, BRUNO, CastOrder(spell="Proyectil mágico", character="Ardelia")
        )
    with pytest.raises(DomainError):
        await table.spells.cast(
            NUCLEO_HERE, ANA, CastOrder(spell="Proyectil mágico", extra_mana=-1)
        )
    assert await logged(table) == []
    assert (await table.characters.show(NUCLEO_HERE, ANA)).sheet["mana_gastado"] == 0


async def test_rest_brings_the_mana_back(table):
    await table.spells.cast(NUCLEO_HERE, ANA, CastOrder(spell="Proyectil mágico"))
    rested = await table.spells.rest(NUCLEO_HERE, ANA)
    assert (rested.result.before[0].left, rested.result.after[0].left) == (25, 27)
    assert (await table.characters.show(NUCLEO_HERE, ANA)).sheet["mana_gastado"] == 0


async def test_swc_spends_slots_by_level_until_none_is_left(table):
    listing = await table.spells.list(SWC_HERE, ANA)
    # seed 000 lists no spells: the campaign's defined ones (issue 23 §3: healing by default)
    assert [s.name for s in listing.spells] == ["Curar heridas leves", "Curar heridas graves"]
    assert listing.notice == "swc.note.spell_slots"
    assert [(p.label, p.left) for p in listing.state.pools] == [("Mago, nivel 1", 2)]
    for left in (1, 0):
        view = await table.spells.cast(SWC_HERE, ANA, CastOrder(spell="Dormir", level=1))
        assert (view.result.label, view.result.pool.left, view.result.check) == (
            "Dormir",
            left,
            None,
        )
    with pytest.raises(RulesError) as error:
        await table.spells.cast(SWC_HERE, ANA, CastOrder(level=1))
    assert error.value.problems[0].key == "spell.problem.no_slot_left"
    rows = await logged(table)
    assert [(r.reason, r.total) for r in rows] == [("Dormir", 1), ("Dormir", 0)]
    await table.spells.rest(SWC_HERE, ANA)
    assert (await table.spells.list(SWC_HERE, ANA)).state.pools[0].left == 2


async def test_rolweb_refuses_and_points_to_the_abilities(table):
    listing = await table.spells.list(ROLWEB_HERE, GM)
    assert listing.notice == "rolweb.note.no_spells"
    with pytest.raises(RulesError) as error:
        await table.spells.show(ROLWEB_HERE, GM, "Imposición de manos")
    assert error.value.problems[0].key == "rolweb.note.no_spells"


async def test_campaign_settings_decide_whether_players_rest_and_change_money(table):
    """Issue 13 §3: `descanso_libre` and `dinero_libre` (on by default) off make the GM do it;
    the refusal names the setting and nothing changes."""
    from bot.i18n import t
    from bot.services.campaigns.service import SettingsChange

    await table.spells.cast(NUCLEO_HERE, ANA, CastOrder(spell="Proyectil mágico"))
    for key in ("descanso_libre", "dinero_libre"):
        await table.campaigns.update_settings(
            NUCLEO_HERE, GM, SettingsChange(system_setting=(key, "no"))
        )
    before = await table.characters.show(NUCLEO_HERE, ANA)
    with pytest.raises(NotAllowed) as rest:
        await table.spells.rest(NUCLEO_HERE, ANA)
    with pytest.raises(NotAllowed) as money:
        await table.characters.adjust_money(NUCLEO_HERE, ANA, 5)
    assert (rest.value.key, money.value.key) == ("flows.rest_gm_only", "flows.money_gm_only")
    for locale in ("es", "en"):
        assert "descanso_libre" in t("flows.rest_gm_only", locale)
        assert "dinero_libre" in t("flows.money_gm_only", locale)
    after = await table.characters.show(NUCLEO_HERE, ANA)
    assert after.version == before.version and after.sheet["mana_gastado"] > 0
    rested = await table.spells.rest(NUCLEO_HERE, GM, "Ardelia")  # the GM still may
    assert rested.result.after[0].left == 27
    paid, _purse = await table.characters.adjust_money(NUCLEO_HERE, GM, 5, None, "Ardelia")
    assert paid.version == after.version + 2
    await table.campaigns.update_settings(
        NUCLEO_HERE, GM, SettingsChange(system_setting=("dinero_libre", "sí"))
    )
    mine, _purse = await table.characters.adjust_money(NUCLEO_HERE, ANA, 1)
    assert mine.version == paid.version + 1

"""Experience grants on real databases: referee only, applied by the system, recorded."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.services import Place
from bot.services.campaigns.service import SettingsChange
from bot.services.campaigns.settings import resolved_settings
from bot.services.shared.errors import DomainError, NotAllowed, NotReferee
from rules import systems
from rules.systems.base import RulesError
from tests.bot.table import ANA, BRUNO, GM, GUILD, HERE, estrellas
from tests.examples import ARDELIA, nucleo_android, swc_fighter


@pytest.fixture
async def party(services):
    await estrellas(services)
    await services.characters.create(
        HERE, BRUNO, dict(json.loads(json.dumps(ARDELIA)), name="Bram")
    )
    return services


async def test_only_the_referee_grants(party):
    with pytest.raises(NotReferee):
        await party.xp.grant(HERE, ANA, 3, character="Ardelia")


async def test_a_grant_is_applied_and_recorded(party):
    view = await party.xp.grant(HERE, GM, 3, character="ardelia", reason="Sesión 1")
    (line,) = view.lines
    assert (line.character_name, line.xp_before, line.xp_after) == ("Ardelia", 0, 3)
    assert (await party.characters.show(HERE, ANA)).sheet["px"] == 3
    ((entry,),) = [[shown.value for shown in await party.xp.log(HERE, ANA)]]
    assert (entry.character_name, entry.amount, entry.xp_after, entry.reason) == (
        "Ardelia",
        3,
        3,
        "Sesión 1",
    )


async def test_the_whole_party_and_corrections(party):
    view = await party.xp.grant(HERE, GM, 2, party=True)
    assert sorted(line.character_name for line in view.lines) == ["Ardelia", "Bram"]
    await party.xp.grant(HERE, GM, -1, character="Bram", reason="error")
    # a party grant is a session's award: Bram, Humano, got 2 + 1
    assert (await party.characters.show(HERE, BRUNO)).sheet["px"] == 2
    assert [e.value.amount for e in await party.xp.log(HERE, GM, character="Bram")] == [-1, 3]


async def test_a_session_award_adds_each_race_bonus_once(party):
    """Seed 002, Razas: Humano «Recibe 1px más por partida», Artificial «Gana 1px menos por
    partida» (issue 23 §4: ``session_px_bonus`` was never called)."""
    await party.characters.create(HERE, ANA, nucleo_android(), make_active=False)
    view = await party.xp.grant(HERE, GM, 3, party=True, reason="Sesión 1")
    assert view.session
    got = {line.character_name: line for line in view.lines}
    assert {
        name: (line.xp_after, line.session_bonus, line.bonus_source) for name, line in got.items()
    } == {
        "Ardelia": (4, 1, "Humano"),
        "Bram": (4, 1, "Humano"),
        "Unidad 7": (2, -1, "Artificial"),
    }
    ledger = {e.value.character_name: e.value.amount for e in await party.xp.log(HERE, GM)}
    assert ledger == {"Ardelia": 4, "Bram": 4, "Unidad 7": 2}
    # a one-off grant to one character is not a session's award, unless the GM says so
    one = await party.xp.grant(HERE, GM, 2, character="Bram")
    assert (one.session, one.lines[0].xp_after, one.lines[0].session_bonus) == (False, 6, 0)
    marked = await party.xp.grant(HERE, GM, 2, character="Bram", session=True)
    assert (marked.session, marked.lines[0].xp_after) == (True, 9)
    # and a party grant the GM marks as no session carries no bonus
    plain = await party.xp.grant(HERE, GM, 1, party=True, session=False)
    assert {line.character_name: line.xp_after for line in plain.lines} == {
        "Ardelia": 5,
        "Bram": 10,
        "Unidad 7": 3,
    }


async def test_undoing_a_session_award_takes_back_what_it_gave(party):
    view = await party.xp.grant(HERE, GM, 3, character="Bram", session=True)
    (line,) = view.lines
    assert line.xp_after == 4
    await party.undo.undo(HERE, GM, line.undo.log_id)
    assert (await party.characters.show(HERE, BRUNO)).sheet["px"] == 0


async def test_no_bonus_without_the_races_module_nor_on_a_correction(party):
    await party.campaigns.update_settings(HERE, GM, SettingsChange(system_setting=("razas", "no")))
    view = await party.xp.grant(HERE, GM, 3, party=True)
    assert {line.xp_after for line in view.lines} == {3}
    with pytest.raises(DomainError) as error:
        await party.xp.grant(HERE, GM, -1, party=True, session=True)
    assert error.value.key == "xp.error.session_correction"
    corrected = await party.xp.grant(HERE, GM, -1, party=True)  # a correction, never a session
    assert {line.xp_after for line in corrected.lines} == {2}


async def test_bad_requests_name_the_problem(party):
    for kwargs, key in (
        ({"amount": 0, "character": "Bram"}, "xp.error.bad_amount"),
        ({"amount": 5}, "xp.error.who"),
        ({"amount": 5, "character": "Bram", "party": True}, "xp.error.who"),
        ({"amount": 5, "character": "Bram", "reason": "x" * 201}, "xp.error.reason_too_long"),
    ):
        amount = kwargs.pop("amount")
        with pytest.raises(DomainError) as error:
            await party.xp.grant(HERE, GM, amount, **kwargs)
        assert error.value.key == key
    assert await party.xp.log(HERE, GM) == ()


async def test_swc_levels_come_from_the_system(services):
    place = Place(GUILD, 12, (12,))
    await services.campaigns.create(
        place, GM, name="S&W", system="swc", target_id=12, kind="channel"
    )
    system = systems.get("swc")
    settings = resolved_settings(system.settings(), {})
    sheet = swc_fighter(constitution=12)
    assert system.validate(sheet, settings) == []
    await services.characters.create(place, ANA, sheet)
    view = await services.xp.grant(place, GM, 2000, character="Borin")
    (line,) = view.lines
    assert line.levels == (("guerrero", 1, 2),)
    assert "swc.note.level_up" in line.notes


async def test_spending_buys_a_rolweb_ability(services, party):
    place = Place(GUILD, 13, (13,))
    await services.campaigns.create(
        place, GM, name="Foro", system="rolweb", target_id=13, kind="channel"
    )
    system = systems.get("rolweb")
    sheet = system.new_sheet("Eira", resolved_settings(system.settings(), {}))
    await services.characters.create(place, ANA, sheet)
    await services.xp.grant(place, GM, 30, character="Eira")
    offered = await services.xp.purchases(place, ANA, None)
    assert [o.label for o in offered][0] == "Medicus → principiante (10 PX)"
    with pytest.raises(NotAllowed):
        await services.xp.spend(place, BRUNO, "Medicus", character="Eira")
    line = await services.xp.spend(place, ANA, "medicus")
    assert (line.xp_before, line.xp_after, line.levels) == (30, 20, (("Medicus", 0, 1),))
    line = await services.xp.spend(place, ANA, "Medicus")
    assert (line.xp_after, line.levels) == (0, (("Medicus", 1, 2),))
    with pytest.raises(RulesError):  # maestro costs 30: nothing left
        await services.xp.spend(place, ANA, "Medicus")
    assert (await services.characters.show(place, ANA)).sheet["habilidades"] == {
        "Medicus": "adepto"
    }


# -- Núcleo's advancement table, with the GM's approval (issue 23 §4) ----------------------


async def test_a_nucleo_purchase_waits_for_the_gm_and_is_bought_on_approval(party):
    """`/xp spend` answered «XP is not spent» in Núcleo: the house-rule table buys a new
    skill (2 PX at level 1); the player's purchase waits for the GM, who buys or drops it."""
    await party.xp.grant(HERE, GM, 10, character="Ardelia", session=False)
    offered = {o.value: o.label for o in await party.xp.purchases(HERE, ANA, None)}
    assert offered["habilidad:Nadar"] == "Nadar 0 → 1 (2 PX)"
    waiting = await party.xp.spend(HERE, ANA, "habilidad:Nadar")
    assert waiting.waiting == "Nadar 0 → 1 (2 PX)" and waiting.character_id
    sheet = (await party.characters.show(HERE, ANA)).sheet
    assert sheet["px"] == 10 and "Nadar" not in sheet["habilidades"]  # nothing bought yet
    with pytest.raises(NotReferee):
        await party.xp.decide_purchase(HERE, ANA, waiting.character_id, approve=True)
    line, asked = await party.xp.decide_purchase(HERE, GM, waiting.character_id, approve=True)
    assert (asked, line.xp_before, line.xp_after, line.levels) == (
        "habilidad:Nadar",
        10,
        8,
        (("Nadar", 0, 1),),
    )
    sheet = (await party.characters.show(HERE, ANA)).sheet
    assert sheet["habilidades"]["Nadar"] == 1 and sheet["px"] == 8
    with pytest.raises(DomainError) as twice:
        await party.xp.decide_purchase(HERE, GM, waiting.character_id, approve=True)
    assert twice.value.key == "xp.error.nothing_pending"
    # rejected: nothing spent; the GM's own purchase for a character needs no approval
    again = await party.xp.spend(HERE, ANA, "Rastrear")
    _line, asked = await party.xp.decide_purchase(HERE, GM, again.character_id, approve=False)
    assert asked == "habilidad:Rastrear"
    assert (await party.characters.show(HERE, ANA)).sheet["px"] == 8
    direct = await party.xp.spend(HERE, GM, "Rastrear", character="Ardelia")
    assert (direct.waiting, direct.xp_after) == (None, 6)


async def test_an_impossible_purchase_is_refused_at_once_and_approval_can_be_off(party):
    with pytest.raises(RulesError) as broke:  # no PX: refused now, not when the GM approves
        await party.xp.spend(HERE, ANA, "Nadar")
    assert [p.key for p in broke.value.problems] == ["nucleo.problem.advance_px"]
    await party.campaigns.update_settings(
        HERE, GM, SettingsChange(system_setting=("mejoras_con_aprobacion", "no"))
    )
    await party.xp.grant(HERE, GM, 2, character="Ardelia", session=False)
    bought = await party.xp.spend(HERE, ANA, "Nadar")
    assert (bought.waiting, bought.xp_after) == (None, 0)


async def test_two_approvals_at_once_buy_once(party):
    await party.xp.grant(HERE, GM, 10, character="Ardelia", session=False)
    waiting = await party.xp.spend(HERE, ANA, "Nadar")
    results = await asyncio.gather(
        party.xp.decide_purchase(HERE, GM, waiting.character_id, approve=True),
        party.xp.decide_purchase(HERE, GM, waiting.character_id, approve=True),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["DomainError", "tuple"], results
    assert (await party.characters.show(HERE, ANA)).sheet["px"] == 8

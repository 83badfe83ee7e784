"""Experience grants on real databases: referee only, applied by the system, recorded."""

from __future__ import annotations

import json

import pytest

from bot.services import Place
from bot.services.campaigns.settings import resolved_settings
from bot.services.shared.errors import DomainError, NotAllowed, NotReferee
from rules import systems
from rules.systems.base import RulesError
from tests.bot.table import ANA, BRUNO, GM, GUILD, HERE, estrellas
from tests.examples import ARDELIA, swc_fighter


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
    (entry,) = await party.xp.log(HERE, ANA)
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
    assert (await party.characters.show(HERE, BRUNO)).sheet["px"] == 1
    assert [e.amount for e in await party.xp.log(HERE, GM, character="Bram")] == [-1, 2]


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


async def test_spending_buys_a_rolweb_ability_and_other_systems_say_why_not(services, party):
    with pytest.raises(DomainError) as nucleo:
        await party.xp.spend(HERE, ANA, "Pilotar")
    assert nucleo.value.key == "xp.error.nothing_to_buy"
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

"""One range for every stored number, on every write path and both databases (issue 22 §4).

After ``/sheet set px 2147483647``, ``/xp grant 1`` failed on PostgreSQL with «Algo ha
fallado» (``value out of int32 range`` in the XP ledger) while SQLite stored 2,147,483,648;
``/sheet money`` past the bound was accepted and the bot's own export of that sheet was then
refused by its own import.  Now ``rules.values.MAX_STORED`` bounds them all, the same way on
both databases, and whatever the writes accept the import accepts.
"""

from __future__ import annotations

import json

import pytest

from bot.services import Actor, Place
from bot.services.shared.errors import DomainError
from rules.systems.base import RulesError
from rules.values import MAX_STORED
from tests.examples import ARDELIA

GUILD, CHANNEL = 1000, 11
HERE = Place(GUILD, CHANNEL, (CHANNEL,))
GM = Actor(1, "Máster", can_manage_channels=True)
ANA = Actor(2, "Ana")


@pytest.fixture
async def table(services):
    await services.campaigns.create(
        HERE, GM, name="Mesa", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    await services.characters.create(HERE, ANA, json.loads(json.dumps(ARDELIA)))
    return services


async def _sheet(services) -> dict:
    return (await services.characters.show(HERE, ANA, "Ardelia")).sheet


async def test_xp_at_the_bound_takes_no_more_and_nothing_changes(table):
    await table.characters.set_field(HERE, GM, "Ardelia", "px", str(MAX_STORED))
    with pytest.raises(DomainError) as caught:
        await table.xp.grant(HERE, GM, 1, character="Ardelia")
    assert caught.value.key == "sheet.error.number_out_of_store"
    assert caught.value.params == {"field": "PX", "value": MAX_STORED + 1, "limit": MAX_STORED}
    assert (await _sheet(table))["px"] == MAX_STORED
    assert await table.xp.log(HERE, GM) == ()  # no ledger row either
    # a correction downwards still works
    view = await table.xp.grant(HERE, GM, -5, character="Ardelia")
    assert view.lines[0].xp_after == MAX_STORED - 5


async def test_a_typed_number_past_the_bound_is_refused_with_the_range(table):
    for typed in (str(MAX_STORED + 1), "9" * 30):
        with pytest.raises(RulesError) as caught:
            await table.characters.set_field(HERE, GM, "Ardelia", "px", typed)
        (problem,) = caught.value.problems
        assert problem.key == "sheet.problem.out_of_range"
        assert (problem.params["minimum"], problem.params["maximum"]) == (0, MAX_STORED)
    with pytest.raises(RulesError):
        await table.characters.set_field(HERE, ANA, "Ardelia", "dinero", str(-MAX_STORED - 1))


async def test_money_past_the_bound_is_refused(table):
    await table.characters.adjust_money(HERE, ANA, MAX_STORED - 10)
    with pytest.raises(DomainError) as caught:
        await table.characters.adjust_money(HERE, ANA, 11)
    assert caught.value.params["value"] == MAX_STORED + 1
    assert (await _sheet(table))["dinero"] == MAX_STORED - 10 + ARDELIA.get("dinero", 0)


async def test_what_the_writes_accept_the_import_accepts(table):
    await table.characters.set_field(HERE, GM, "Ardelia", "px", str(MAX_STORED))
    await table.characters.adjust_money(
        HERE, ANA, MAX_STORED - (await _sheet(table)).get("dinero", 0)
    )
    _name, exported = await table.sheet_exchange.export(HERE, ANA, "Ardelia")
    document = json.loads(exported)
    assert (document["sheet"]["px"], document["sheet"]["dinero"]) == (MAX_STORED, MAX_STORED)
    await table.characters.delete(HERE, ANA, "Ardelia")
    imported = await table.sheet_exchange.import_sheet(HERE, GM, exported)
    assert imported.sheet["px"] == MAX_STORED

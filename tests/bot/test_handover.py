"""``/campaign transfer`` (issue 23 §5) on SQLite and PostgreSQL: the GM offers, only the named
member takes it, a changed campaign refuses a stale offer, and two answers at once give one."""

from __future__ import annotations

import asyncio

import pytest

from bot.services import Actor, Place
from bot.services.campaigns.service import SettingsChange
from bot.services.shared.errors import DomainError, NotAllowed

GUILD, CHANNEL = 1000, 11
HERE = Place(GUILD, CHANNEL, (CHANNEL,))
GM = Actor(1, "Máster", can_manage_channels=True)
ANA = Actor(2, "Ana")
BRUNO = Actor(3, "Bruno")
ADMIN = Actor(9, "Admin", is_admin=True)


@pytest.fixture
async def table(services):
    await services.campaigns.create(
        HERE, GM, name="Estrellas", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    return services


async def _gm(services) -> int:
    return (await services.campaigns.require(HERE)).gm_user_id


async def test_the_member_named_takes_the_campaign_by_accepting(table):
    offer = await table.handover.offer(HERE, GM, ANA.user_id)
    assert (offer.from_user_id, offer.to_user_id, offer.status) == (
        GM.user_id,
        ANA.user_id,
        "offered",
    )
    assert await _gm(table) == GM.user_id  # nothing changes until she accepts
    with pytest.raises(NotAllowed, match="transfer_not_you"):
        await table.handover.answer(HERE, BRUNO, offer.campaign_id, offer.version, accept=True)
    done = await table.handover.answer(HERE, ANA, offer.campaign_id, offer.version, accept=True)
    assert done.status == "accepted" and await _gm(table) == ANA.user_id
    with pytest.raises(DomainError, match="transfer_stale"):  # pressed again
        await table.handover.answer(HERE, ANA, offer.campaign_id, offer.version, accept=True)
    # the new GM referees: the settings are hers
    await table.campaigns.update_settings(HERE, ANA, SettingsChange(gm_channel_id=77))


async def test_who_may_offer_and_to_whom(table):
    with pytest.raises(NotAllowed, match="transfer_gm_only"):
        await table.handover.offer(HERE, ANA, BRUNO.user_id)
    with pytest.raises(DomainError, match="transfer_same"):
        await table.handover.offer(HERE, GM, GM.user_id)
    with pytest.raises(DomainError, match="transfer_bot"):
        await table.handover.offer(HERE, GM, 55, member_is_bot=True)
    assert (await table.handover.offer(HERE, ADMIN, BRUNO.user_id)).to_user_id == BRUNO.user_id


async def test_a_newer_offer_or_a_change_makes_an_offer_stale(table):
    first = await table.handover.offer(HERE, GM, ANA.user_id)
    second = await table.handover.offer(HERE, GM, BRUNO.user_id)
    with pytest.raises(DomainError, match="transfer_stale"):
        await table.handover.answer(HERE, ANA, first.campaign_id, first.version, accept=True)
    await table.campaigns.update_settings(HERE, GM, SettingsChange(gm_channel_id=77))
    with pytest.raises(DomainError, match="transfer_stale"):
        await table.handover.answer(HERE, BRUNO, second.campaign_id, second.version, accept=True)
    assert await _gm(table) == GM.user_id


async def test_declining_or_withdrawing_changes_nothing(table):
    offer = await table.handover.offer(HERE, GM, ANA.user_id)
    withdrawn = await table.handover.answer(
        HERE, GM, offer.campaign_id, offer.version, accept=False
    )
    assert withdrawn.status == "declined" and await _gm(table) == GM.user_id
    again = await table.handover.offer(HERE, GM, ANA.user_id)
    await table.handover.answer(HERE, ANA, again.campaign_id, again.version, accept=False)
    assert await _gm(table) == GM.user_id


async def test_accept_and_withdraw_at_once_give_one_outcome(table):
    offer = await table.handover.offer(HERE, GM, ANA.user_id)
    results = await asyncio.gather(
        table.handover.answer(HERE, ANA, offer.campaign_id, offer.version, accept=True),
        table.handover.answer(HERE, GM, offer.campaign_id, offer.version, accept=False),
        return_exceptions=True,
    )
    done = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(done) == 1 and len(refused) == 1, results
    assert isinstance(refused[0], DomainError) and refused[0].key.endswith("transfer_stale")
    expected = ANA.user_id if done[0].status == "accepted" else GM.user_id
    assert await _gm(table) == expected

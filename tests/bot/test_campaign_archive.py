"""Archived campaigns are listed with their dates and reopened by their GM (issue 13 §3)."""

from __future__ import annotations

import asyncio

import pytest

from bot.services import Actor, Place
from bot.services.shared.errors import ConcurrentChange, DomainError, NotAllowed

GUILD, CHANNEL, OTHER_CHANNEL = 1000, 11, 12
HERE = Place(GUILD, CHANNEL, (CHANNEL,))
ELSEWHERE = Place(GUILD, OTHER_CHANNEL, (OTHER_CHANNEL,))
GM = Actor(1, "Máster", can_manage_channels=True)
OTHER_GM = Actor(4, "Otra máster", can_manage_channels=True)
PLAYER = Actor(2, "Ana")
ADMIN = Actor(3, "Admin", is_admin=True)


async def test_archived_campaigns_are_listed_and_reopened_by_their_gm(services):
    old = await services.campaigns.create(
        HERE, GM, name="Ñandú", system="swc", target_id=CHANNEL, kind="channel"
    )
    await services.campaigns.create(
        ELSEWHERE, OTHER_GM, name="Viva", system="nucleo", target_id=OTHER_CHANNEL, kind="channel"
    )
    await services.campaigns.end(HERE, GM)
    rows = await services.campaign_archive.list(HERE)
    assert [(r.name, r.status) for r in rows] == [("Viva", "active"), ("Ñandú", "archived")]
    assert rows[1].ended_at is not None and rows[1].created_at <= rows[1].ended_at
    live = await services.campaign_archive.list(HERE, archived=False)
    assert [r.name for r in live] == ["Viva"]
    with pytest.raises(NotAllowed) as player:
        await services.campaign_archive.reopen(HERE, PLAYER, "nandu")
    assert player.value.key == "flows.reopen_gm_only"
    with pytest.raises(NotAllowed):
        await services.campaign_archive.reopen(HERE, OTHER_GM, "nandu")
    with pytest.raises(DomainError) as missing:
        await services.campaign_archive.reopen(HERE, GM, "Viva")  # live, not archived
    assert missing.value.key == "flows.reopen_not_found"
    reopened = await services.campaign_archive.reopen(HERE, GM, "ÑANDÚ")
    assert (reopened.id, reopened.status, reopened.ended_at) == (old.id, "active", None)
    assert (await services.campaigns.find(HERE)).id == old.id  # answers in its channel again
    await services.campaigns.end(HERE, GM)
    assert (await services.campaign_archive.reopen(HERE, ADMIN, "Ñandú")).status == "active"


async def test_reopening_is_refused_when_the_channel_has_another_live_campaign(services):
    await services.campaigns.create(
        HERE, GM, name="Vieja", system="swc", target_id=CHANNEL, kind="channel"
    )
    await services.campaigns.end(HERE, GM)
    await services.campaigns.create(
        HERE, OTHER_GM, name="Nueva", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    with pytest.raises(DomainError) as taken:
        await services.campaign_archive.reopen(HERE, GM, "Vieja")
    assert taken.value.key == "flows.reopen_taken"
    assert taken.value.params["other"] == "Nueva"
    assert (await services.campaigns.find(HERE)).name == "Nueva"


async def test_two_reopens_at_once_reopen_once(services):
    await services.campaigns.create(
        HERE, GM, name="Vieja", system="swc", target_id=CHANNEL, kind="channel"
    )
    ended = await services.campaigns.end(HERE, GM)
    results = await asyncio.gather(
        services.campaign_archive.reopen(HERE, GM, "Vieja"),
        services.campaign_archive.reopen(HERE, GM, "Vieja"),
        return_exceptions=True,
    )
    done = [r for r in results if not isinstance(r, BaseException)]
    assert len(done) == 1 and done[0].version == ended.version + 1, results
    assert all(
        isinstance(e, (ConcurrentChange, DomainError))
        for e in results
        if isinstance(e, BaseException)
    ), results

"""The one compare-and-set (bot/services/shared/versioned.py) and the one retry policy
(bot/services/shared/retry.py), with concurrent writers on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest
from sqlmodel import col, select

from bot.db.models import Campaign, CreationDraft, saved_id
from bot.services import Actor, Place
from bot.services.shared.errors import ConcurrentChange
from bot.services.shared.retry import retrying
from bot.services.shared.versioned import StaleWrite, delete_versioned, update_versioned

HERE = Place(1000, 11, (11,))
GM = Actor(1, "Máster", can_manage_channels=True)


@pytest.fixture
async def campaign_id(services) -> int:
    view = await services.campaigns.create(
        HERE, GM, name="Mesa", system="nucleo", target_id=11, kind="channel"
    )
    return view.id


async def _read(services, campaign_id: int) -> Campaign:
    async with services.sessions() as session:
        return await session.get_one(Campaign, campaign_id)


async def test_concurrent_retried_writes_lose_no_increment(services, campaign_id):
    """Read, add one, compare-and-set, retried through the one policy: twelve writers at
    once, every increment kept, one version each."""
    before = (await _read(services, campaign_id)).version

    async def increment() -> None:
        async def attempt() -> None:
            async with services.sessions() as session, session.begin():
                row = await session.get_one(Campaign, campaign_id)
                count = int((row.settings or {}).get("count", 0))
                await update_versioned(
                    session,
                    Campaign,
                    col(Campaign.id) == campaign_id,
                    row.version,
                    settings={**(row.settings or {}), "count": count + 1},
                )

        await retrying(attempt, limit=100)

    await asyncio.gather(*(increment() for _ in range(12)))
    after = await _read(services, campaign_id)
    assert after.settings["count"] == 12
    assert after.version == before + 12


async def test_a_reported_clash_writes_nothing_and_names_its_message(services, campaign_id):
    """Two writes on the version both saw: the first wins, the second is refused whole (its
    transaction rolled back) with the message it asked for."""
    seen = (await _read(services, campaign_id)).version
    async with services.sessions() as session, session.begin():
        await update_versioned(session, Campaign, col(Campaign.id) == campaign_id, seen, name="A")
    with pytest.raises(StaleWrite) as clash:
        async with services.sessions() as session, session.begin():
            await update_versioned(
                session, Campaign, col(Campaign.id) == campaign_id, seen, gm_role_id=7
            )
            await update_versioned(  # never reached: the first clash rolls back everything
                session, Campaign, col(Campaign.id) == campaign_id, seen + 1, name="B"
            )
    assert isinstance(clash.value, ConcurrentChange)
    assert clash.value.key == "errors.concurrent_change"
    row = await _read(services, campaign_id)
    assert (row.name, row.gm_role_id, row.version) == ("A", None, seen + 1)


async def test_a_condition_that_no_longer_holds_is_a_clash(services, campaign_id):
    seen = (await _read(services, campaign_id)).version
    with pytest.raises(StaleWrite):
        async with services.sessions() as session, session.begin():
            await update_versioned(
                session,
                Campaign,
                col(Campaign.id) == campaign_id,
                seen,
                col(Campaign.status) == "archived",
                status="active",
                stale="flows.reopen_taken",
            )
    assert (await _read(services, campaign_id)).version == seen


async def test_a_versioned_delete_of_a_stale_row_deletes_nothing(services, campaign_id):
    async with services.sessions() as session, session.begin():
        draft = CreationDraft(guild_id=HERE.guild_id, campaign_id=campaign_id, user_id=2, sheet={})
        session.add(draft)
    draft_id = saved_id(draft)
    with pytest.raises(StaleWrite) as clash:
        async with services.sessions() as session, session.begin():
            await delete_versioned(
                session,
                CreationDraft,
                col(CreationDraft.id) == draft_id,
                draft.version + 1,
                stale="sheet.error.draft_stale",
            )
    assert clash.value.key == "sheet.error.draft_stale"
    async with services.sessions() as session, session.begin():
        await delete_versioned(
            session, CreationDraft, col(CreationDraft.id) == draft_id, draft.version
        )
        assert (await session.exec(select(CreationDraft))).all() == []


async def test_the_policy_gives_up_after_its_attempts_and_retries_nothing_else():
    calls = 0

    async def always_stale() -> None:
        nonlocal calls
        calls += 1
        raise StaleWrite()

    with pytest.raises(StaleWrite):
        await retrying(always_stale, limit=4)
    assert calls == 4

    calls = 0

    async def refused() -> None:
        nonlocal calls
        calls += 1
        raise ConcurrentChange("post.error.changed_meanwhile")  # reported, never retried

    with pytest.raises(ConcurrentChange):
        await retrying(refused)
    assert calls == 1


async def test_the_sheet_writer_hands_a_callers_clash_back_at_once(services, campaign_id):
    """A clash in the caller's own write inside the sheet's transaction (a roll request's
    record) is the caller's: the writer does not repeat it with the caller's stale reads."""
    from tests.examples import ARDELIA

    await services.characters.create(HERE, GM, dict(ARDELIA))
    calls = 0

    async def callers_write(session, log_id) -> None:
        nonlocal calls
        calls += 1
        raise StaleWrite("request.error.closed")

    from bot.services.sheets.changes import SetField

    with pytest.raises(StaleWrite) as clash:
        await services.writer.apply(
            HERE,
            GM,
            SetField("name", "Ardelia", validate=False),
            name="Ardelia",
            same_transaction=callers_write,
        )
    assert calls == 1 and clash.value.key == "request.error.closed"

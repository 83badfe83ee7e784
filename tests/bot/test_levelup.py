"""S&W level-up on real databases: the grant's hit die is rolled once, on the grant's level,
by the owner or the GM; it blocks the grant's undo until it is undone itself."""

from __future__ import annotations

import asyncio

import pytest

from bot.db.models import RollLog
from bot.services import Actor, Place
from bot.services.shared.errors import DomainError, NotAllowed
from tests.examples import swc_fighter

GUILD = 1000
HERE = Place(GUILD, 12, (12,))
GM = Actor(1, "Máster", can_manage_channels=True)
ANA = Actor(2, "Ana")
BRUNO = Actor(3, "Bruno")


def borin() -> dict:
    return swc_fighter()


@pytest.fixture
async def table(services):
    await services.campaigns.create(
        HERE, GM, name="S&W", system="swc", target_id=12, kind="channel"
    )
    await services.characters.create(HERE, ANA, borin())
    return services


async def test_the_player_rolls_the_new_hit_die_once(table):
    grant = await table.xp.grant(HERE, GM, 2000, character="Borin")
    (line,) = grant.lines
    assert line.hit_die and line.levels == (("guerrero", 1, 2),)
    with pytest.raises(NotAllowed):
        await table.levelup.roll_hit_die(HERE, BRUNO, line.undo.log_id)
    view = await table.levelup.roll_hit_die(HERE, ANA, line.undo.log_id)
    # seeded: the d10 shows 8; Constitución 15 gives +1 per die (Tabla 3)
    assert (view.gained, view.breakdown) == (9, "8 +1 = 9 (Constitución +1 por dado)")
    assert view.hit_points == (17, 17)
    assert view.levels == (("guerrero", 1, 2),)
    assert ("Nivel (Guerrero)", "1", "2") in view.changes
    assert ("Salvación (Guerrero)", "14", "13") in view.changes
    async with table.sessions() as session:  # /history and /catch-up read what it was
        row = await session.get(RollLog, view.undo.log_id)
    assert row.reason == f"dado de golpe (registro n.º {line.undo.log_id})", row.reason
    _c, stored, _s, _set = await table.characters.sheet_of(HERE, GM, "Borin")
    assert stored.sheet["pg"] == {"max": 17, "actual": 17}
    with pytest.raises(DomainError, match="xp.error.hit_die_rolled"):
        await table.levelup.roll_hit_die(HERE, GM, line.undo.log_id)

    # the grant cannot be undone under its hit die; undo the die, then the grant
    with pytest.raises(DomainError, match="undo.error.hit_die_first"):
        await table.undo.undo(HERE, GM, line.undo.log_id)
    await table.undo.undo(HERE, GM, view.undo.log_id)
    await table.undo.undo(HERE, GM, line.undo.log_id)
    _c, stored, _s, _set = await table.characters.sheet_of(HERE, GM, "Borin")
    assert stored.sheet["pg"] == {"max": 8, "actual": 8} and stored.sheet["xp"] == 0
    with pytest.raises(DomainError, match="xp.error.hit_die_stale"):
        await table.levelup.roll_hit_die(HERE, ANA, line.undo.log_id)


async def test_a_grant_without_a_new_level_offers_no_die(table):
    (line,) = (await table.xp.grant(HERE, GM, 10, character="Borin")).lines
    assert not line.hit_die
    with pytest.raises(Exception, match="no_hit_die_owed"):
        await table.levelup.roll_hit_die(HERE, GM, line.undo.log_id)


async def test_player_and_gm_clicking_at_once_roll_one_die(table):
    (line,) = (await table.xp.grant(HERE, GM, 2000, character="Borin")).lines
    results = await asyncio.gather(
        table.levelup.roll_hit_die(HERE, ANA, line.undo.log_id),
        table.levelup.roll_hit_die(HERE, GM, line.undo.log_id),
        return_exceptions=True,
    )
    landed = [r for r in results if not isinstance(r, BaseException)]
    assert len(landed) == 1, results
    refused = next(r for r in results if isinstance(r, BaseException))
    assert isinstance(refused, DomainError) and refused.key in (
        "xp.error.hit_die_rolled",
        "xp.error.hit_die_stale",
    )
    _c, stored, _s, _set = await table.characters.sheet_of(HERE, GM, "Borin")
    assert stored.sheet["pg"]["max"] == 8 + landed[0].gained

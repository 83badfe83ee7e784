"""Who plays what (issue 12 §2b) against real databases: new characters wait for the GM where
the campaign asks for it, and ``/sheet transfer`` hands a character over keeping its history."""

from __future__ import annotations

import asyncio
import json

import pytest
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import ActiveCharacter, RollLog, XpAward
from bot.services import Actor
from bot.services.campaigns.service import APPROVE_CHARACTERS, SettingsChange
from bot.services.play.attacks import AttackOrder
from bot.services.play.checks import CheckOrder
from bot.services.play.spells import CastOrder
from bot.services.shared.errors import ConcurrentChange, DomainError, NotAllowed, NotReferee
from rules.systems.base import RulesError
from tests.bot.table import ANA, BRUNO, CHANNEL, GM, GUILD, HERE
from tests.examples import ARDELIA, ardelia, ardelia_the_mage

OPTION = "habilidad:Pilotar"


@pytest.fixture
async def table(services):
    await services.campaigns.create(
        HERE, GM, name="Estrellas", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    return services


async def _ask_for_approval(services) -> None:
    await services.campaigns.update_settings(
        HERE, GM, SettingsChange(system_setting=(APPROVE_CHARACTERS, "sí"))
    )


async def _active(services, user_id: int) -> int | None:
    async with services.sessions() as session:
        row = await session.get(ActiveCharacter, (1, user_id))
    return row.character_id if row else None


async def test_without_the_setting_characters_play_at_once(table):
    view = await table.characters.create(HERE, ANA, json.loads(json.dumps(ARDELIA)))
    assert view.approval == "approved"
    assert await _active(table, ANA.user_id) == view.id


async def test_a_new_character_waits_for_the_gm_and_cannot_play(table):
    await _ask_for_approval(table)
    view = await table.characters.create(HERE, ANA, json.loads(json.dumps(ARDELIA)))
    assert view.approval == "pending"
    assert await _active(table, ANA.user_id) is None  # not made active
    with pytest.raises(NotAllowed, match="approval.error.awaiting"):
        await table.characters.use(HERE, ANA, "Ardelia")
    with pytest.raises(NotAllowed, match="approval.error.awaiting"):
        await table.checks.check(HERE, ANA, CheckOrder(OPTION, character="Ardelia"))
    with pytest.raises(NotAllowed, match="approval.error.awaiting"):  # not even by the GM
        await table.checks.check(HERE, GM, CheckOrder(OPTION, character="Ardelia"))
    with pytest.raises(RulesError) as asked:  # nor asked for a roll: the reason why
        await table.requests.create(HERE, GM, who="Ardelia", option=OPTION)
    assert [p.key for p in asked.value.problems] == ["approval.error.awaiting"]
    await table.combat.start(HERE, GM)
    with pytest.raises(NotAllowed, match="approval.error.awaiting"):  # nor fights
        await table.combat.join(HERE, ANA, "Ardelia")
    with pytest.raises(NotAllowed, match="approval.error.awaiting"):
        await table.attacks.attack(HERE, ANA, AttackOrder(target="Ardelia", character="Ardelia"))
    # the player may still fix the sheet while it waits
    await table.characters.set_field(HERE, ANA, "Ardelia", "raza", "Humano")
    with pytest.raises(NotReferee):
        await table.approvals.decide(HERE, ANA, view.id, approve=True)
    approved = await table.approvals.decide(HERE, GM, view.id, approve=True)
    assert approved.approval == "approved" and approved.made_active
    assert await _active(table, ANA.user_id) == view.id
    await table.checks.check(HERE, ANA, CheckOrder(OPTION))
    with pytest.raises(DomainError, match="already_approved"):
        await table.approvals.decide(HERE, GM, view.id, approve=False)
    async with table.sessions() as session:
        kinds = [r.kind for r in (await session.exec(select(RollLog))).all()]
    assert "approval" in kinds


async def test_a_pending_mage_casts_nothing(table):
    await _ask_for_approval(table)
    await table.characters.create(HERE, ANA, ardelia_the_mage())
    order = CastOrder(spell="Proyectil mágico", character="Ardelia")
    with pytest.raises(NotAllowed, match="approval.error.awaiting"):
        await table.spells.cast(HERE, ANA, order)


@pytest.mark.parametrize("spell", ["Curación", "Toque eléctrico"])
async def test_a_pending_mage_casts_nothing_on_a_target_either(table, spell):
    """A cast on another character (both sheets in one write) and a touch spell (its melee
    attack first) are the caster acting too: refused, nothing written on either sheet."""
    await table.characters.create(HERE, BRUNO, dict(ardelia_the_mage(), name="Bram"))
    await _ask_for_approval(table)
    await table.characters.create(HERE, ANA, ardelia_the_mage({spell: 1}))
    order = CastOrder(spell=spell, character="Ardelia", target="Bram", mana=1)
    with pytest.raises(NotAllowed, match="approval.error.awaiting"):
        await table.spells.cast(HERE, ANA, order)
    bram = await table.characters.show(HERE, GM, "Bram")
    assert (bram.version, bram.sheet["heridas"]) == (1, 0)


async def test_the_gms_own_characters_need_no_approval(table):
    await _ask_for_approval(table)
    view = await table.characters.create(HERE, GM, ardelia(name="Gaspar"))
    assert view.approval == "approved"


async def test_a_rejected_character_can_still_be_approved_and_keeps_the_active_one(table):
    await table.characters.create(HERE, ANA, json.loads(json.dumps(ARDELIA)))
    await _ask_for_approval(table)
    second = await table.characters.create(HERE, ANA, ardelia(name="Otra"))
    rejected = await table.approvals.decide(HERE, GM, second.id, approve=False)
    assert rejected.approval == "rejected"
    with pytest.raises(NotAllowed, match="approval.error.rejected"):
        await table.characters.use(HERE, ANA, "Otra")
    with pytest.raises(DomainError, match="already_rejected"):
        await table.approvals.decide(HERE, GM, second.id, approve=False)
    with pytest.raises(NotReferee):
        await table.approvals.decide_by_name(HERE, ANA, "Otra", approve=True)
    approved = await table.approvals.decide_by_name(HERE, GM, "otra", approve=True)
    assert approved.character_id == second.id
    assert not approved.made_active  # Ardelia stays her active character
    await table.characters.use(HERE, ANA, "Otra")


async def test_two_decisions_at_once_leave_one(table):
    await _ask_for_approval(table)
    view = await table.characters.create(HERE, ANA, json.loads(json.dumps(ARDELIA)))
    results = await asyncio.gather(
        table.approvals.decide(HERE, GM, view.id, approve=True),
        table.approvals.decide(HERE, GM, view.id, approve=False),
        return_exceptions=True,
    )
    done = [r for r in results if not isinstance(r, Exception)]
    assert len(done) == 1, results
    assert all(isinstance(r, (ConcurrentChange, DomainError)) for r in results if r not in done)
    final = await table.characters.show(HERE, GM, "Ardelia")
    assert final.approval == done[0].approval
    assert final.version == view.version + 1


# -- transfer ----------------------------------------------------------------------------


async def test_transfer_hands_the_character_over_with_its_history(table):
    view = await table.characters.create(HERE, ANA, json.loads(json.dumps(ARDELIA)))
    await table.xp.grant(HERE, GM, 2, character="Ardelia")
    await table.checks.check(HERE, ANA, CheckOrder(OPTION))
    with pytest.raises(NotReferee):
        await table.approvals.transfer(HERE, ANA, "Ardelia", BRUNO.user_id, "Bruno")
    moved = await table.approvals.transfer(HERE, GM, "ardelia", BRUNO.user_id, "Bruno")
    assert (moved.character_id, moved.previous_owner_id, moved.new_owner_id) == (view.id, 2, 3)
    assert moved.cleared_active and await _active(table, ANA.user_id) is None
    # Bruno had no character here: it is his active one, no `/sheet use` needed (issue 23 §5)
    assert moved.made_active and await _active(table, BRUNO.user_id) == view.id
    await table.checks.check(HERE, BRUNO, CheckOrder(OPTION))
    shown = await table.characters.show(HERE, BRUNO, "Ardelia")
    assert shown.owner_user_id == BRUNO.user_id and shown.id == view.id
    assert shown.version == view.version + 2  # the XP grant, then the transfer
    # the new owner plays it; the previous one no longer can
    await table.characters.use(HERE, BRUNO, "Ardelia")
    await table.checks.check(HERE, BRUNO, CheckOrder(OPTION))
    with pytest.raises(NotAllowed):
        await table.checks.check(HERE, ANA, CheckOrder(OPTION, character="Ardelia"))
    async with table.sessions() as session:
        awards = (await session.exec(select(XpAward))).all()
        log = (await session.exec(select(RollLog).order_by(RollLog.id))).all()
    assert [a.character_id for a in awards] == [view.id]
    assert [r.kind for r in log if r.character_name == "Ardelia"] == [
        "xp",
        "check",
        "transfer",
        "check",
        "check",
    ]
    with pytest.raises(DomainError, match="same_owner"):
        await table.approvals.transfer(HERE, GM, "Ardelia", BRUNO.user_id, "Bruno")


async def test_transfers_at_once_each_apply_to_the_owner_they_saw(table):
    """Two transfers at once: each one that succeeds was computed on the owner left by the
    previous one (a chain, never two from the same owner), the rest are refused."""
    view = await table.characters.create(HERE, ANA, json.loads(json.dumps(ARDELIA)))
    results = await asyncio.gather(
        table.approvals.transfer(HERE, GM, "Ardelia", BRUNO.user_id, "Bruno"),
        table.approvals.transfer(HERE, GM, "Ardelia", GM.user_id, "Máster"),
        return_exceptions=True,
    )
    done = sorted((r for r in results if not isinstance(r, Exception)), key=lambda r: r.log_id)
    assert done, results
    assert all(isinstance(r, ConcurrentChange) for r in results if isinstance(r, Exception))
    assert done[0].previous_owner_id == ANA.user_id
    for before, after in zip(done, done[1:], strict=False):
        assert after.previous_owner_id == before.new_owner_id
    shown = await table.characters.show(HERE, GM, "Ardelia")
    assert shown.owner_user_id == done[-1].new_owner_id
    assert shown.version == view.version + len(done)


async def test_a_transfer_leaves_the_new_owners_active_character_alone(table):
    await table.characters.create(HERE, ANA, json.loads(json.dumps(ARDELIA)))
    own = await table.characters.create(
        HERE, BRUNO, dict(json.loads(json.dumps(ARDELIA)), name="Bram")
    )
    moved = await table.approvals.transfer(HERE, GM, "Ardelia", BRUNO.user_id, "Bruno")
    assert not moved.made_active and await _active(table, BRUNO.user_id) == own.id


async def test_two_characters_handed_to_one_member_at_once_make_one_active(table):
    """Two transfers to Carla at once: both stand, one of the two is her active character."""
    carla = Actor(4, "Carla")
    await table.characters.create(HERE, ANA, json.loads(json.dumps(ARDELIA)))
    await table.characters.create(HERE, BRUNO, dict(json.loads(json.dumps(ARDELIA)), name="Bram"))
    results = await asyncio.gather(
        table.approvals.transfer(HERE, GM, "Ardelia", carla.user_id, "Carla"),
        table.approvals.transfer(HERE, GM, "Bram", carla.user_id, "Carla"),
    )
    assert sorted(r.made_active for r in results) == [False, True]
    winner = next(r for r in results if r.made_active)
    assert await _active(table, carla.user_id) == winner.character_id
    names = {c.name for c in await table.characters.list(HERE, GM) if c.owner_user_id == 4}
    assert names == {"Ardelia", "Bram"}


async def test_an_active_character_inserted_meanwhile_rolls_back_only_its_savepoint(
    table, monkeypatch
):
    """The race the savepoint covers, made certain: between our read (no active character)
    and our insert, another transaction gave Carla one.  The insert's key clash rolls back
    its savepoint only; the transfer's own write commits."""
    carla = Actor(4, "Carla")
    await table.characters.create(HERE, ANA, json.loads(json.dumps(ARDELIA)))
    own = await table.characters.create(
        HERE, BRUNO, dict(json.loads(json.dumps(ARDELIA)), name="Bram")
    )
    await table.approvals.transfer(HERE, GM, "Bram", carla.user_id, "Carla")
    assert await _active(table, carla.user_id) == own.id
    real_get = AsyncSession.get

    async def blind_get(self, entity, ident, **kwargs):  # the read before the other commit
        if entity is ActiveCharacter:
            return None
        return await real_get(self, entity, ident, **kwargs)

    monkeypatch.setattr(AsyncSession, "get", blind_get)
    moved = await table.approvals.transfer(HERE, GM, "Ardelia", carla.user_id, "Carla")
    monkeypatch.undo()
    assert not moved.made_active
    assert (await table.characters.show(HERE, GM, "Ardelia")).owner_user_id == carla.user_id
    assert await _active(table, carla.user_id) == own.id


async def test_erasure_unties_the_transfer_records(table):
    await table.characters.create(HERE, ANA, json.loads(json.dumps(ARDELIA)))
    await table.approvals.transfer(HERE, GM, "Ardelia", BRUNO.user_id, "Bruno")
    await table.privacy.delete(GUILD, ANA.user_id, characters="to_gm")
    async with table.sessions() as session:
        (row,) = (await session.exec(select(RollLog).where(RollLog.kind == "transfer"))).all()
    assert row.detail["from"] == 0 and row.detail["to"] == BRUNO.user_id

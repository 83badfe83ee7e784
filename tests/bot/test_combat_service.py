"""/init use cases on real databases: permissions, versions, health through the sheets."""

from __future__ import annotations

import asyncio
import json

import pytest
from sqlmodel import select

from bot.db.models import CombatRecord
from bot.services import Place
from bot.services.shared.errors import DomainError, NotAllowed, NotReferee
from rules.systems.base import RulesError
from tests.bot.table import ANA, BRUNO, CHANNEL, GM, GUILD, HERE
from tests.examples import ARDELIA


def ardelia(name: str = "Ardelia") -> dict:
    return dict(json.loads(json.dumps(ARDELIA)), name=name)


@pytest.fixture
async def fight(services):
    await services.campaigns.create(
        HERE, GM, name="Estrellas", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    await services.characters.create(HERE, ANA, ardelia())
    await services.characters.create(HERE, BRUNO, ardelia("Bram"))
    await services.characters.create(HERE, GM, ardelia("Capitán"), is_npc=True)
    await services.combat.start(HERE, GM)
    return services


async def test_only_the_referee_starts_and_one_fight_per_channel(services):
    await services.campaigns.create(
        HERE, GM, name="E", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    with pytest.raises(NotReferee):
        await services.combat.start(HERE, ANA)
    await services.combat.start(HERE, GM)
    with pytest.raises(DomainError, match="already_active"):
        await services.combat.start(HERE, GM)


async def test_players_join_with_their_own_and_the_gm_adds_npcs(fight):
    view = await fight.combat.join(HERE, ANA)
    assert [line.name for line in view.lines] == ["Ardelia"]
    with pytest.raises(NotAllowed):
        await fight.combat.join(HERE, ANA, "Bram")
    with pytest.raises(NotReferee):
        await fight.combat.add(HERE, ANA, "Capitán")
    view = await fight.combat.add(HERE, GM, "Capitán")
    view = await fight.combat.add(HERE, GM, "3 trasgos", initiative=15, count=3)
    assert {line.name: line.kind for line in view.lines} == {
        "Ardelia": "character",
        "Capitán": "character",
        "3 trasgos": "adhoc",
    }
    with pytest.raises(DomainError, match="adhoc_needs_initiative"):
        await fight.combat.add(HERE, GM, "Lobo")
    with pytest.raises(RulesError, match="already_in"):
        await fight.combat.join(HERE, ANA)


async def test_roll_then_turns_only_the_owner_or_gm_may_pass(fight):
    await fight.combat.join(HERE, ANA)
    await fight.combat.join(HERE, BRUNO)
    with pytest.raises(RulesError, match="missing_initiative"):
        await fight.combat.next(HERE, GM)
    mine = await fight.combat.roll(HERE, ANA)
    assert [line.name for line in mine.rolled] == ["Ardelia"]
    everyone = await fight.combat.roll(HERE, GM)
    assert [line.name for line in everyone.rolled] == ["Bram"]
    view = await fight.combat.next(HERE, GM)
    assert view.round == 1 and view.turn is not None and view.turn.new_round
    owner = {ANA.user_id: ANA, BRUNO.user_id: BRUNO}[view.current.owner_id]
    other = BRUNO if owner is ANA else ANA
    with pytest.raises(NotAllowed, match="not_your_turn"):
        await fight.combat.next(HERE, other)
    after = await fight.combat.next(HERE, owner)
    assert after.version == view.version + 1


async def test_a_button_from_an_older_message_is_stale(fight):
    await fight.combat.add(HERE, GM, "Orcos", initiative=12)
    first = await fight.combat.next(HERE, GM)
    await fight.combat.next(HERE, GM, seen=(first.id, first.version))
    with pytest.raises(DomainError, match="stale"):
        await fight.combat.next(HERE, GM, seen=(first.id, first.version))


async def test_damage_goes_to_the_sheet_and_reports_the_health_state(fight):
    await fight.combat.join(HERE, ANA)
    await fight.combat.add(HERE, GM, "Trasgos", initiative=3)
    scratch = await fight.combat.damage(HERE, ANA, "Ardelia", 3)
    assert scratch.state == "normal" and scratch.notes == ()
    hurt = await fight.combat.damage(HERE, GM, "Ardelia", 17)
    assert hurt.state == "malherido" and hurt.notes == ("nucleo.note.estado_malherido",)
    assert (await fight.characters.show(HERE, ANA)).sheet["heridas"] == 20
    healed = await fight.combat.heal(HERE, GM, "Ardelia", 20)
    assert healed.healed and (await fight.characters.show(HERE, ANA)).sheet["heridas"] == 0
    with pytest.raises(DomainError, match="no_sheet"):
        await fight.combat.damage(HERE, GM, "Trasgos", 1)
    await fight.combat.join(HERE, BRUNO)
    with pytest.raises(NotAllowed):
        await fight.combat.damage(HERE, ANA, "Bram", 1)


async def test_end_archives_and_a_new_fight_may_start(fight):
    await fight.combat.add(HERE, GM, "Orcos", initiative=12)
    with pytest.raises(NotReferee):
        await fight.combat.end(HERE, ANA)
    ended = await fight.combat.end(HERE, GM)
    assert not ended.active
    with pytest.raises(DomainError, match="combat.error.none"):
        await fight.combat.next(HERE, GM)
    await fight.combat.start(HERE, GM)
    async with fight.sessions() as session:
        rows = (await session.exec(select(CombatRecord))).all()
    assert sorted(r.status for r in rows) == ["active", "ended"]


async def test_many_nexts_at_once_advance_one_turn_each(fight):
    for name, initiative in (("A", 9), ("B", 6), ("C", 3)):
        await fight.combat.add(HERE, GM, name, initiative=initiative)
    start = await fight.combat.next(HERE, GM)
    results = await asyncio.gather(
        *(fight.combat.next(HERE, GM) for _ in range(12)), return_exceptions=True
    )
    done = [r for r in results if not isinstance(r, Exception)]
    assert all(isinstance(r, DomainError) for r in results if isinstance(r, Exception))
    versions = sorted(r.version for r in done)
    assert versions == list(range(start.version + 1, start.version + 1 + len(done)))
    final = await fight.combat.show(HERE, GM)
    turns = (final.round - 1) * 3 + [line.current for line in final.lines].index(True)
    assert turns == len(done) and final.version == start.version + len(done)


async def test_many_clicks_on_one_button_apply_once(fight):
    await fight.combat.add(HERE, GM, "A", initiative=9)
    await fight.combat.add(HERE, GM, "B", initiative=5)
    start = await fight.combat.next(HERE, GM)
    results = await asyncio.gather(
        *(fight.combat.next(HERE, GM, seen=(start.id, start.version)) for _ in range(8)),
        return_exceptions=True,
    )
    assert len([r for r in results if not isinstance(r, Exception)]) == 1
    assert (await fight.combat.show(HERE, GM)).version == start.version + 1


async def test_rolweb_waiting_and_swc_sides(services):
    other = Place(GUILD, 12, (12,))
    await services.campaigns.create(
        other, GM, name="R", system="rolweb", target_id=12, kind="channel"
    )
    await services.combat.start(other, GM)
    for name, agil in (("Ana", 15), ("Bea", 12), ("Cid", 10)):
        await services.combat.add(other, GM, name, initiative=agil)
    await services.combat.next(other, GM)
    view = await services.combat.wait(other, GM, "Cid")
    assert [line.name for line in view.lines] == ["Bea", "Cid", "Ana"]
    assert view.current.name == "Bea" and view.lines[2].waited_after == "Cid"


async def _noop(_due) -> None:
    return None


async def _turn_due(fight):
    """When the fight's turn reminder fires: its timer, the one place that moment is kept."""
    from bot.db.models import Timer

    async with fight.sessions() as session:
        return (await session.exec(select(Timer.due_at).where(Timer.kind == "combat.turn"))).first()


async def test_a_turn_that_waits_too_long_is_reminded_once(fight):
    from datetime import timedelta

    from bot.db.models import utcnow

    await fight.combat.join(HERE, ANA)
    await fight.combat.add(HERE, GM, "Trasgos", initiative=1)
    await fight.combat.move(HERE, GM, "Ardelia", 30)
    with pytest.raises(NotReferee):
        await fight.combat.set_deadline(HERE, ANA, 12)
    await fight.combat.set_deadline(HERE, GM, 12)
    assert await _turn_due(fight) is None, "no timer before the first turn"
    view = await fight.combat.next(HERE, GM)
    due = await _turn_due(fight)
    assert due is not None and timedelta(hours=11) < due - utcnow() <= timedelta(hours=12)
    timers = fight.combat.timers
    timers.register("combat.turn", _noop)
    assert await timers.claim(utcnow()) == []
    (due,) = await timers.claim(utcnow() + timedelta(hours=13))
    reminder = await fight.combat.reminder(due)
    assert (reminder.name, reminder.mention_id, reminder.round, reminder.hours) == (
        "Ardelia",
        ANA.user_id,
        1,
        12,
    )
    assert reminder.nonce == due.nonce
    assert await timers.done(due)
    assert await timers.claim(utcnow() + timedelta(days=9)) == [], "each turn reminds once"
    assert (await fight.combat.show(HERE, GM)).version == view.version, "reminding is no change"
    await fight.combat.next(HERE, ANA)
    (npc_due,) = await timers.claim(utcnow() + timedelta(hours=13))
    npc_turn = await fight.combat.reminder(npc_due)
    assert (npc_turn.name, npc_turn.mention_id) == ("Trasgos", GM.user_id)
    assert npc_due.nonce != due.nonce
    assert await timers.done(npc_due)
    await fight.combat.set_deadline(HERE, GM, 0)
    await fight.combat.next(HERE, GM)
    assert await _turn_due(fight) is None
    await fight.combat.set_deadline(HERE, GM, 1)
    await fight.combat.end(HERE, GM)
    assert await _turn_due(fight) is None, "an ended fight reminds nobody"


async def test_a_turn_passed_while_its_reminder_is_posted_keeps_the_new_timer(fight):
    """Claimed, then the turn moves before the record: the old firing deletes nothing."""
    from datetime import timedelta

    from bot.db.models import utcnow

    timers = fight.combat.timers
    timers.register("combat.turn", _noop)
    await fight.combat.join(HERE, ANA)
    await fight.combat.add(HERE, GM, "Trasgos", initiative=1)
    await fight.combat.move(HERE, GM, "Ardelia", 30)
    await fight.combat.set_deadline(HERE, GM, 1)
    await fight.combat.next(HERE, GM)
    (old,) = await timers.claim(utcnow() + timedelta(hours=2))
    await fight.combat.next(HERE, GM)  # the turn passes while the reminder is in flight
    assert not await timers.done(old), "the moved timer is not the claimed one"
    (new,) = await timers.claim(utcnow() + timedelta(hours=2))
    assert new.id == old.id and new.generation > old.generation and new.nonce != old.nonce
    await fight.combat.end(HERE, GM)
    assert await fight.combat.reminder(new) is None, "an ended fight reminds nobody"
    assert await timers.claim(utcnow() + timedelta(days=30)) == []

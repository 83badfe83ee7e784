"""``/catch-up`` and the GM digest's "who owes what" (issue 25 §2), on both databases.

A scene where the GM and Bruno posted after Ana's last post, a GM-only post, a private scene
Ana is not in, rolls about Ardelia (hers, a hidden NPC's attack with its target sealed, her
check opposed by a hidden NPC, a hidden request's roll, the GM's private roll), an open roll
request and a fight on Ardelia's turn.  Sentinels mark what Ana must never read.  The rows
carry the audience their write paths give them (bot.services.shared.audience): the catch-up
reads them through the one rule, reveals included.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import select

from bot.db.models import Absence, Post, Reveal, RollLog, Scene, Timer, saved_id
from bot.services import Place
from bot.services.shared.audience import NPC_NUMBERS, PUBLIC, Part, Secrecy, request_seals
from bot.services.shared.errors import DomainError
from bot.services.table.absences import BACK_TIMER
from bot.services.table.pacing import DECLARE, POST, ROLL, TURN
from tests.bot.test_pace import (
    ANA,
    BRUNO,
    GM,
    HERE,
    NOW,
    SCENE_CHANNEL,
    character_id,
    due_of,
    new_scene,
    post,
    setting,
    table,  # noqa: F401 - the fixture
)

SECRET = "Zafiro-7731"
FIGHT = Place(HERE.guild_id, 600, (600, 11))


async def add_post(services, scene_id: int, text: str, at, **columns) -> None:
    async with services.sessions() as session, session.begin():
        campaign = await services.campaigns.require(HERE, session)
        session.add(
            Post(
                guild_id=HERE.guild_id,
                campaign_id=saved_id(campaign),
                channel_id=columns.pop("channel_id", SCENE_CHANNEL),
                scene_id=scene_id,
                author_user_id=columns.pop("author", GM.user_id),
                speaker_name=columns.pop("speaker", "Narrador"),
                gm_post=columns.pop("gm_post", True),
                text=text,
                created_at=at,
                message_ids=[9001],
                **columns,
            )
        )


async def add_roll(services, user, name: str, total: int, at, **columns) -> None:
    async with services.sessions() as session, session.begin():
        campaign = await services.campaigns.require(HERE, session)
        session.add(
            RollLog(
                guild_id=HERE.guild_id,
                channel_id=SCENE_CHANNEL,
                campaign_id=saved_id(campaign),
                user_id=user.user_id,
                user_name=user.name,
                character_name=name,
                kind=columns.pop("kind", "check"),
                expression="1o3d10+5",
                breakdown="…",
                total=total,
                created_at=at,
                **columns,
            )
        )


@pytest.fixture
async def missed(table):  # noqa: F811 - the fixture of test_pace
    s = table
    scene = await new_scene(s, created_at=NOW - timedelta(days=5))
    await post(s, scene, GM, None, NOW - timedelta(days=3))
    await post(s, scene, ANA, "Ardelia", NOW - timedelta(days=2))
    await post(s, scene, BRUNO, "Bertrán", NOW - timedelta(days=1))
    await post(s, scene, GM, None, NOW - timedelta(hours=20))
    await add_post(  # as /post private writes it: its author's (the GM's) alone
        s,
        scene,
        f"Solo para el máster: {SECRET}",
        NOW - timedelta(hours=10),
        gm_only=True,
        **Secrecy.private(GM.user_id).columns(),
    )
    await add_post(
        s,
        scene,
        "Bertrán mira la puerta. " * 20,
        NOW - timedelta(hours=5),
        author=BRUNO.user_id,
        speaker="Bertrán",
        gm_post=False,
    )
    hidden_scene = await new_scene(s, channel=700, players=[BRUNO.user_id])
    async with s.sessions() as session, session.begin():
        row = await session.get(Scene, hidden_scene)
        row.private = True
        session.add(row)
    await add_post(
        s,
        hidden_scene,
        f"Escena privada {SECRET}",
        NOW - timedelta(hours=3),
        channel_id=700,
        **Secrecy.private(BRUNO.user_id).columns(),
    )
    ardelia = await character_id(s, "Ardelia")
    await add_roll(s, ANA, "Ardelia", 14, NOW - timedelta(hours=30), reason="Percepción")
    await add_roll(
        s,
        GM,
        "Sombra",
        19,
        NOW - timedelta(hours=8),
        kind="attack",
        detail={"secret": {"target": 12}, "undo": {"character_id": ardelia}},
        # as attack_record writes a secret attack: its target and the GM's numbers sealed
        **PUBLIC.sealing(Part.DETAIL, Part.DIFFICULTY).columns(),
    )
    await add_roll(  # her check opposed by a hidden NPC: its numbers sealed until revealed
        s,
        ANA,
        "Ardelia",
        17,
        NOW - timedelta(hours=9),
        outcome="failure",
        detail={"hidden_opponent": True},
        **PUBLIC.hiding_npc(await character_id(s, "Bertrán"), NPC_NUMBERS).columns(),
    )
    await add_roll(
        s,
        ANA,
        "Ardelia",
        11,
        NOW - timedelta(hours=7),
        private=True,
        outcome="success",
        detail={"hidden_request": "outcome"},
        **Secrecy.private(ANA.user_id).sealing(*request_seals("outcome")).columns(),
    )
    await add_roll(
        s,
        GM,
        SECRET,
        3,
        NOW - timedelta(hours=6),
        private=True,
        kind="damage",
        detail={"undo": {"character_id": ardelia}},
        **Secrecy.private(GM.user_id).columns(),
    )
    return s, scene


async def test_a_player_catches_up_on_what_they_may_see(missed):
    s, scene = missed
    view = await s.pace.catch_up(HERE, ANA, now=NOW)
    assert view.since == NOW - timedelta(days=2)  # her last post
    (seen,) = view.scenes  # the private scene she is not in is left out
    assert seen.scene_id == scene and seen.unanswered == 3  # Bertrán, the GM, Bertrán
    assert [p.speaker for p in seen.posts] == ["Bertrán", "Narrador", "Bertrán"]
    assert seen.posts[-1].excerpt.endswith("…") and len(seen.posts[-1].excerpt) <= 120
    assert seen.posts[0].message_id == 9001 or seen.posts[0].message_id is None
    texts = repr(view)
    assert SECRET not in texts
    rolls = {(r.character, r.kind, r.outcome): r for r in view.rolls}
    assert set(rolls) == {
        ("Sombra", "attack", None),
        ("Ardelia", "check", None),
        ("Ardelia", "check", "failure"),
        ("Ardelia", "check", "success"),
    }
    assert rolls[("Ardelia", "check", None)].total == 14  # her own roll, in full
    attack = rolls[("Sombra", "attack", None)]
    # the attack's total is everyone's (its reply in the channel shows it); its target is not
    assert attack.about == "Ardelia" and attack.total == 19
    opposed = rolls[("Ardelia", "check", "failure")]
    assert opposed.total is None and opposed.expression == ""  # sealed: a hidden NPC's numbers
    hidden = rolls[("Ardelia", "check", "success")]
    assert hidden.total is None and hidden.expression == ""  # a hidden request: the outcome
    assert [(d.kind, d.character) for d in view.owed] == [(POST, "Ardelia")]
    assert view.owed[0].since == NOW - timedelta(hours=20)


async def test_a_reveal_lifts_what_the_npc_sealed_in_the_catch_up(missed):
    """The catch-up reads the rule, reveals included: once the GM reveals the NPC, the
    opposed check's total it sealed is hers to read (a hidden request's stays sealed)."""
    s, _scene = missed
    async with s.sessions() as session, session.begin():
        campaign = await s.campaigns.require(HERE, session)
        session.add(
            Reveal(
                guild_id=HERE.guild_id,
                campaign_id=saved_id(campaign),
                character_id=await character_id(s, "Bertrán"),
                by_user_id=GM.user_id,
                created_at=NOW - timedelta(hours=1),
            )
        )
    view = await s.pace.catch_up(HERE, ANA, now=NOW)
    totals = {(r.kind, r.outcome, r.total) for r in view.rolls}
    assert ("check", "failure", 17) in totals and ("check", "success", None) in totals


async def test_since_a_day_shows_more_within_the_bound(missed):
    s, _scene = missed
    view = await s.pace.catch_up(HERE, ANA, "01/11/2026", now=NOW)
    assert view.scenes[0].unanswered == 4  # every post by others since that day (not hers)
    assert {r.total for r in view.rolls} >= {14}  # her roll of the 30 hours before
    with pytest.raises(DomainError):
        await s.pace.catch_up(HERE, ANA, "31/02/2027", now=NOW)
    far = await s.pace.catch_up(HERE, ANA, "01/01/2020", now=NOW)
    assert far.since == NOW - timedelta(days=90)  # bounded


async def test_requests_and_the_fight_turn_owed(missed):
    s, _scene = missed
    await s.requests.create(HERE, GM, who="<@2>", option="habilidad:Pilotar")
    await s.combat.start(FIGHT, GM)
    await s.combat.join(FIGHT, ANA)
    await s.combat.roll(FIGHT, GM)
    await s.combat.next(FIGHT, GM)  # round 1 begins: Ardelia's turn
    view = await s.pace.catch_up(HERE, ANA, now=NOW)
    kinds = [(d.kind, d.character) for d in view.owed]
    assert (ROLL, "Ardelia") in kinds and (POST, "Ardelia") in kinds
    fight = await s.combat.show(FIGHT, GM)
    assert fight.round == 1  # the tracker is on Ardelia's turn: she owes it
    assert (TURN, "Ardelia") in kinds
    assert next(d for d in view.owed if d.kind == TURN).channel_id == FIGHT.channel_id
    bruno = await s.pace.catch_up(HERE, BRUNO, now=NOW)
    assert all(d.user_id == BRUNO.user_id for d in bruno.owed)


async def test_a_roll_made_or_in_a_closed_scene_is_owed_no_more(missed):
    """Was: /catch-up and the digest listed «tirar Buscar con Dorn» after Dorn had pressed
    (issue 26 keeps each roll in its entry row, which the owed list did not read), and a
    request left in a closed scene, whose buttons refuse every press."""
    s, scene = missed
    asked = await s.requests.create(HERE, GM, who="<@2> <@3>", option="habilidad:Pilotar")
    ardelia = next(e for e in asked.entries if e.name == "Ardelia")
    await s.requests.roll(HERE, ANA, asked.id, ardelia.character_id)
    owed = {(d.kind, d.character) for d in (await s.pace.catch_up(HERE, ANA, now=NOW)).owed}
    assert (ROLL, "Ardelia") not in owed
    bruno = {(d.kind, d.character) for d in (await s.pace.catch_up(HERE, BRUNO, now=NOW)).owed}
    assert (ROLL, "Bertrán") in bruno  # he has not pressed yet
    in_scene = Place(HERE.guild_id, SCENE_CHANNEL, (SCENE_CHANNEL, 11))
    await s.requests.create(in_scene, GM, who="<@2>", option="habilidad:Pilotar")
    async with s.sessions() as session, session.begin():
        closed = await session.get(Scene, scene)
        assert closed is not None
        closed.status = "closed"
        session.add(closed)
    owed = {(d.kind, d.channel_id) for d in (await s.pace.catch_up(HERE, ANA, now=NOW)).owed}
    assert (ROLL, SCENE_CHANNEL) not in owed


async def test_the_digest_lists_who_owes_what(missed):
    s, _scene = missed
    await setting(s, "plazo_publicacion", "24")
    await s.requests.create(HERE, GM, who="<@3>", option="habilidad:Pilotar")
    campaign = await s.campaigns.require(HERE)
    view = await s.pace.digest(due_of("pace.digest", str(saved_id(campaign)), NOW), NOW)
    owed = {(d.kind, d.user_id, d.character) for d in view.owed}
    assert (POST, ANA.user_id, "Ardelia") in owed
    assert (ROLL, BRUNO.user_id, "Bertrán") in owed
    assert not view.empty


async def test_an_absence_with_catch_up_fires_it_on_return_and_cancelling_stops_it(table):  # noqa: F811
    s = table
    view = await s.pace.declare_absence(
        HERE, ANA, "02/12/2026", "04/12/2026", catch_up=True, locale="es", now=NOW
    )
    assert view.catch_up
    async with s.sessions() as session:
        timer = (await session.exec(select(Timer).where(Timer.kind == BACK_TIMER))).one()
    assert timer.ref == str(view.id)
    # 00:00 of 05/12 in Madrid is 23:00 UTC of 04/12
    assert timer.due_at.replace(tzinfo=None).isoformat() == "2026-12-04T23:00:00"
    back = await s.pace.back(due_of(BACK_TIMER, str(view.id), NOW + timedelta(days=4)))
    assert back is not None and back.user_id == ANA.user_id
    await s.pace.cancel_absence(HERE, ANA, view.id)
    async with s.sessions() as session:
        assert (await session.exec(select(Timer).where(Timer.kind == BACK_TIMER))).all() == []
    assert await s.pace.back(due_of(BACK_TIMER, str(view.id), NOW)) is None
    plain = await s.pace.declare_absence(HERE, BRUNO, "02/12/2026", "03/12/2026", now=NOW)
    assert not plain.catch_up
    assert await s.pace.back(due_of(BACK_TIMER, str(plain.id), NOW)) is None
    async with s.sessions() as session:
        rows = (await session.exec(select(Absence))).all()
    assert {r.catch_up for r in rows} == {True, False}


async def test_a_fight_by_declarations_owes_each_declaration_until_its_deadline(missed):
    """Issue 25 §1's rounds of declarations: the open round waits for each combatant's
    declaration (no turn is owed), until the round's deadline."""
    s, _scene = missed
    await s.combat.start(FIGHT, GM, mode="declarations")
    await s.combat.join(FIGHT, ANA)
    await s.combat.join(FIGHT, BRUNO)
    await s.rounds.next(FIGHT, GM)  # the GM opens round 1
    view = await s.pace.catch_up(HERE, ANA, now=NOW)
    (declare,) = [d for d in view.owed if d.kind in (TURN, DECLARE)]
    assert declare.kind == DECLARE and declare.character == "Ardelia" and declare.where == "1"
    assert declare.until is not None and declare.channel_id == FIGHT.channel_id
    bruno = await s.pace.catch_up(HERE, BRUNO, now=NOW)
    assert [d.character for d in bruno.owed if d.kind == DECLARE] == ["Bertrán"]

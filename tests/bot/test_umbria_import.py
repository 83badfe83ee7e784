"""``/campaign import`` of an Umbría game and ``/sheet claim``, on real databases (SQLite and
PostgreSQL), from the hand-written fixtures (tests/fixtures/umbria/)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import func
from sqlmodel import col, select

from bot.db.models import (
    Campaign,
    Character,
    CharacterNote,
    CharacterProfile,
    ImportedPlayer,
    Post,
    PostImage,
    RollLog,
    Scene,
)
from bot.services import Actor, Place
from bot.services.chronicle.service import ArchiveProblems
from bot.services.chronicle.umbria_import import UmbriaSummary
from bot.services.shared.errors import ConcurrentChange, DomainError, NotReferee
from bot.services.sheets.access import NO_SHEET
from tests.examples import ARDELIA
from tests.umbria_fixture import fixture_zip

GUILD, FORUM = 3000, 31
HERE = Place(GUILD, FORUM, (FORUM,))
GM = Actor(1, "Dama", can_manage_channels=True)
ANA = Actor(2, "Ana")


async def imported(services) -> UmbriaSummary:
    summary = await services.chronicle.import_archive(
        HERE, GM, fixture_zip(), target_id=FORUM, kind="forum", system="nucleo"
    )
    assert isinstance(summary, UmbriaSummary)
    return summary


async def rows(services, model, *where):
    async with services.sessions() as session:
        return (await session.exec(select(model).where(*where))).all()


async def test_an_umbria_game_becomes_a_campaign_in_one_go(services):
    summary = await imported(services)
    assert summary.name == "La Torre de Sal" and summary.gm_user_id == GM.user_id
    assert summary.counts["posts"] == 7 and summary.counts["rolls"] == 2
    assert summary.missing_images == 1 and summary.unknown_speakers == ("Narrador",)
    (campaign,) = await rows(services, Campaign)
    assert (campaign.name, campaign.system, campaign.gm_user_id) == ("La Torre de Sal", "nucleo", 1)
    scenes = await rows(services, Scene)
    assert [(s.title, s.status) for s in sorted(scenes, key=lambda s: s.id)] == [
        ("El muelle", "closed"),
        ("La subida", "closed"),
        ("Epílogo", "closed"),
    ]
    muelle = min(scenes, key=lambda s: s.id)
    assert muelle.opening_text == "El grupo espera al *Albatros* en el muelle de Vell."
    assert muelle.created_at.replace(tzinfo=UTC) == datetime(2019, 3, 2, 17, 5, tzinfo=UTC)


async def test_posts_keep_their_character_date_notes_and_audience(services):
    await imported(services)
    posts = {p.source_ref: p for p in await rows(services, Post)}
    assert len(posts) == 7  # the post on two pages is one post
    aldara = posts["umbria:5002"]
    character = (await rows(services, Character, Character.id == aldara.character_id))[0]
    assert character.name == "Aldara" and aldara.speaker_name == "Aldara"
    assert aldara.author_user_id == 0  # its Umbría player's until claimed
    assert aldara.notes == "Uso **Acechar** con la bonificación de la capa."
    assert aldara.created_at.replace(tzinfo=UTC) == datetime(2019, 3, 2, 20, 40, tzinfo=UTC)
    assert posts["umbria:5004"].gm_only and not aldara.gm_only
    assert posts["umbria:5001"].character_id is None  # «Narrador» is no character
    (image,) = await rows(services, PostImage, PostImage.post_id == aldara.id)
    assert (image.name, image.media_type) == ("mapa.png", "image/png")


async def test_rolls_are_log_rows_marked_imported(services):
    await imported(services)
    logged = sorted(await rows(services, RollLog, RollLog.kind == "imported"), key=lambda r: r.id)
    assert [(r.expression, r.reason, r.total, r.breakdown) for r in logged] == [
        ("1d100+31", "Acechar", 105, "[74] +31 = 105"),
        ("2d10", "Iniciativa", 15, "[10, 5] = 15"),
    ]
    assert logged[0].detail["dice"] == [74] and logged[0].detail["modifier"] == 31
    assert logged[0].user_name == "lluvia_de_marzo" and logged[0].character_name == "Aldara"
    post = (await rows(services, Post, Post.source_ref == "umbria:5002"))[0]
    assert post.roll_log_id == logged[0].id
    history = await services.rolls.history(HERE, GM)
    assert {e.imported for e in history.entries} == {True}


async def test_characters_come_with_profiles_notes_and_no_sheet(services):
    await imported(services)
    characters = {c.name: c for c in await rows(services, Character)}
    assert set(characters) == {"Aldara", "Brom", "Capitán Orrel"}
    assert {c.approval for c in characters.values()} == {NO_SHEET}
    assert characters["Capitán Orrel"].is_npc and not characters["Aldara"].is_npc
    profile = (await rows(services, CharacterProfile))[0]
    aldara = await services.profiles.show(HERE, GM, "Aldara")
    assert aldara.description == "Exploradora de ojos grises y capa *verde*."
    assert aldara.history and aldara.history.startswith("Creció en los muelles")
    assert aldara.avatar is not None and aldara.avatar.kind == "png"
    assert aldara.gm_note and aldara.gm_note.startswith("**Ficha**")
    assert profile is not None
    (note,) = await rows(
        services, CharacterNote, CharacterNote.character_id == characters["Aldara"].id
    )
    assert note.audience == "gm"


async def test_the_gm_note_is_only_the_referees(services):
    await imported(services)
    shown = await services.profiles.show(HERE, ANA, "Aldara")
    assert shown.gm_note is None and shown.description


async def test_a_character_without_a_sheet_does_not_play_until_the_wizard_builds_it(services):
    await imported(services)
    with pytest.raises(DomainError) as refused:
        await services.approvals.decide_by_name(HERE, GM, "Aldara", approve=True)
    assert refused.value.key == "umbria.error.no_sheet"
    with pytest.raises(DomainError) as refused:
        await services.characters.use(HERE, GM, "Aldara")
    assert refused.value.key == "umbria.error.no_sheet"
    built = await services.characters.create(HERE, GM, dict(ARDELIA, name="Aldara"))
    (aldara,) = await rows(services, Character, Character.name == "Aldara")
    assert built.id == aldara.id and aldara.approval == "approved"  # the same character
    assert aldara.sheet["atributos"] == ARDELIA["atributos"]
    assert aldara.owner_user_id == GM.user_id  # its owner is unchanged (the GM until claimed)


async def test_claiming_a_player_gives_the_member_their_characters_posts_and_rolls(services):
    await imported(services)
    with pytest.raises(NotReferee):
        await services.claims.claim(HERE, ANA, "Aldara", ANA.user_id, "Ana")
    view = await services.claims.claim(HERE, GM, "Aldara", ANA.user_id, "Ana")
    assert (view.player, view.characters, view.posts, view.rolls) == (
        "lluvia_de_marzo",
        ("Aldara",),
        3,
        1,
    )
    (aldara,) = await rows(services, Character, Character.name == "Aldara")
    assert aldara.owner_user_id == ANA.user_id
    posts = await rows(services, Post, col(Post.author_user_id) == ANA.user_id)
    assert sorted(p.source_ref for p in posts) == ["umbria:5002", "umbria:5004", "umbria:6002"]
    (roll,) = await rows(services, RollLog, RollLog.user_id == ANA.user_id)
    assert (roll.reason, roll.user_name) == ("Acechar", "Ana")
    (player,) = await rows(services, ImportedPlayer, ImportedPlayer.external_id == "9002")
    assert player.claimed_by == ANA.user_id and player.version == 2
    with pytest.raises(DomainError) as again:
        await services.claims.claim(HERE, GM, "Aldara", ANA.user_id, "Ana")
    assert again.value.key == "umbria.error.already_claimed"
    with pytest.raises(DomainError) as npc:
        await services.claims.claim(HERE, GM, "Capitán Orrel", ANA.user_id, "Ana")
    assert npc.value.key in ("sheet.error.not_found", "umbria.error.no_player")


async def test_two_claims_at_once_apply_one(services):
    import asyncio

    await imported(services)
    results = await asyncio.gather(
        services.claims.claim(HERE, GM, "Aldara", 7, "Siete"),
        services.claims.claim(HERE, GM, "Aldara", 8, "Ocho"),
        return_exceptions=True,
    )
    won = [r for r in results if not isinstance(r, BaseException)]
    assert len(won) >= 1
    assert all(isinstance(r, ConcurrentChange | DomainError) for r in results if r not in won)
    (player,) = await rows(services, ImportedPlayer, ImportedPlayer.external_id == "9002")
    assert player.version == 1 + len(won)
    owners = {
        p.author_user_id for p in await rows(services, Post, Post.imported_player_id == player.id)
    }
    assert owners == {player.claimed_by}  # every post follows the last claim applied


async def test_an_umbria_zip_needs_a_system_and_writes_nothing_when_refused(services):
    with pytest.raises(DomainError) as refused:
        await services.chronicle.import_archive(
            HERE, GM, fixture_zip(), target_id=FORUM, kind="forum"
        )
    assert refused.value.key == "umbria.error.system_needed"
    with pytest.raises(ArchiveProblems) as broken:
        await services.chronicle.import_archive(
            HERE, GM, fixture_zip("rota"), target_id=FORUM, kind="forum", system="nucleo"
        )
    assert broken.value.problems[0][0] == "umbria.problem.post_incomplete"
    async with services.sessions() as session:
        assert (await session.exec(select(func.count()).select_from(Campaign))).one() == 0


async def test_the_chronicle_of_an_umbria_game_moves_whole(services):
    """Exported, the game keeps everything the import brought (opening texts, histories, the
    GM's notes, the Umbría players and their marks on unclaimed posts); imported elsewhere,
    its sheetless characters are accepted and a player can still be claimed."""
    import io
    import json
    import zipfile

    await imported(services)
    await services.claims.claim(HERE, GM, "Brom", 5, "Bruno")
    chronicle = await services.chronicle.export(HERE, GM, "es", 50 * 2**20)
    files = zipfile.ZipFile(io.BytesIO(chronicle.payload))
    public = files.read("scenes/001-el-muelle.md").decode()
    assert "El grupo espera al *Albatros*" in public  # the opening text
    assert "Umbría: lluvia_de_marzo" in public and "Umbría: tejon" not in public  # claimed
    profiles = json.loads(files.read("characters/profiles.json"))
    assert any(p.get("history", "").startswith("Creció") for p in profiles)
    assert "Acechar 31" not in json.dumps(profiles)  # the GM's note is not public
    assert "Acechar 31" in files.read("gm/characters.json").decode()

    there = Place(4000, 41, (41,))
    moved = await services.chronicle.import_archive(
        there, GM, chronicle.payload, target_id=41, kind="channel"
    )
    assert moved.counts["posts"] == 7
    async with services.sessions() as session:
        campaign = (await session.exec(select(Campaign).where(Campaign.guild_id == 4000))).one()
    characters = await rows(services, Character, Character.campaign_id == campaign.id)
    assert {c.approval for c in characters} == {NO_SHEET}
    players = await rows(services, ImportedPlayer, ImportedPlayer.campaign_id == campaign.id)
    assert {(p.external_id, p.claimed_by) for p in players} == {
        ("9001", None),
        ("9002", None),
        ("9003", 5),
    }
    aldara = await services.profiles.show(there, GM, "Aldara")
    assert aldara.gm_note and aldara.history
    scenes = await rows(services, Scene, Scene.campaign_id == campaign.id)
    assert any(s.opening_text for s in scenes)
    view = await services.claims.claim(there, GM, "Aldara", ANA.user_id, "Ana")
    assert view.posts == 3 and view.rolls == 1


async def test_a_member_who_claimed_an_umbria_player_can_erase_themselves(services):
    """/privacy delete after /sheet claim: the characters (with their GM notes), the posts'
    text and images, and the Umbría player (their Umbría name) go; nothing can hand the
    erased posts to another member later."""
    await imported(services)
    await services.claims.claim(HERE, GM, "Aldara", ANA.user_id, "Ana")
    await services.privacy.delete(GUILD, ANA.user_id, characters="delete")
    assert await rows(services, ImportedPlayer, ImportedPlayer.external_id == "9002") == []
    assert await rows(services, Character, Character.name == "Aldara") == []
    erased = (await rows(services, Post, Post.source_ref == "umbria:5002"))[0]
    assert erased.text == "" and erased.imported_player_id is None
    assert await rows(services, PostImage, PostImage.post_id == erased.id) == []
    with pytest.raises(DomainError):
        await services.claims.claim(HERE, GM, "Aldara", 8, "Ocho")  # gone with its player


async def test_the_posting_job_walks_its_steps_and_resumes_from_its_row(services):
    """links: a thread per scene, made then closed, in order; posts: every public post in
    between; each step moves the row by compare-and-set (a stale step is refused), and a
    new service (a restarted bot) reads the next step from the row."""
    from bot.services.chronicle.publication import PublicationService
    from bot.services.chronicle.umbria_import import UmbriaSummary

    summary = await services.chronicle.import_archive(
        HERE, GM, fixture_zip(), target_id=FORUM, kind="forum", system="nucleo",
        publish="posts", parent_id=FORUM,
    )  # fmt: skip
    assert isinstance(summary, UmbriaSummary) and summary.publication is not None
    job = summary.publication
    assert (job.mode, job.scenes, job.posts) == ("posts", 3, 6)  # 7 posts, 1 for the GM only
    assert job.seconds == int((3 * 2 + 6) * 2.5) + 1
    service = services.publication
    done: list[tuple[str, str]] = []
    thread = 900
    while (step := await service.next_step(job.id)) is not None and step.kind != "done":
        if step.kind == "thread":
            thread += 1
            await service.thread_made(step, thread)
            done.append(("thread", step.scene.title))
        elif step.kind == "post":
            await service.post_sent(step, [thread * 10])
            done.append(("post", step.post.speaker))
        else:
            await service.thread_closed(step)
            done.append(("close", ""))
        with pytest.raises(ConcurrentChange):  # the same step again: stale
            await service.thread_closed(step)
        service = PublicationService(services.sessions, services.timers)  # a restart
    assert step is not None and step.kind == "done"
    await service.finish(step)
    assert done == [
        ("thread", "El muelle"),
        ("post", "Narrador"),
        ("post", "Aldara"),
        ("post", "Brom"),
        ("post", "Capitán Orrel"),
        ("close", ""),
        ("thread", "La subida"),
        ("post", "Capitán Orrel"),
        ("post", "Aldara"),
        ("close", ""),
        ("thread", "Epílogo"),
        ("close", ""),
    ]
    scenes = sorted(await rows(services, Scene), key=lambda s: s.id)
    assert [s.channel_id for s in scenes] == [901, 902, 903]  # the scenes live in their threads
    secret = (await rows(services, Post, Post.source_ref == "umbria:5004"))[0]
    assert secret.message_ids == [] and secret.channel_id == 901
    with pytest.raises(DomainError):
        await services.publication.stop(HERE, GM, job.id)  # over: nothing to stop


async def test_the_gm_stops_the_posting_job(services):
    summary = await services.chronicle.import_archive(
        HERE, GM, fixture_zip(), target_id=FORUM, kind="forum", system="nucleo",
        parent_id=FORUM,
    )  # fmt: skip
    job = summary.publication
    assert job is not None and job.mode == "links" and job.posts == 0
    with pytest.raises(NotReferee):
        await services.publication.stop(HERE, ANA, job.id)
    stopped = await services.publication.stop(HERE, GM, job.id)
    assert stopped.status == "stopped"
    assert await services.publication.next_step(job.id) is None


async def test_a_large_umbria_game_is_written_in_batches_nobody_sees_until_the_last(
    services, monkeypatch
):
    """Like the chronicle's own restore (issue 22 §2, tests/bot/test_chronicle_restore.py):
    an Umbría game used to be written in one transaction, holding SQLite's one connection
    for as long as the whole game took.  Now each batch is its own transaction, under a
    campaign no command finds until the last is in and it is bound with its posting job;
    another server's roll is written meanwhile."""
    import asyncio

    from bot.services.chronicle import service as chronicle_service

    monkeypatch.setattr(chronicle_service, "BATCH", 1)  # a batch per row: many of them
    real = chronicle_service._batch
    calls, reached, go = 0, asyncio.Event(), asyncio.Event()

    async def gated(*args, **kwargs):
        nonlocal calls
        calls += 1
        if calls == 6:
            reached.set()
            await go.wait()
        return await real(*args, **kwargs)

    monkeypatch.setattr(chronicle_service, "_batch", gated)
    job = asyncio.ensure_future(
        services.chronicle.import_archive(
            HERE,
            GM,
            fixture_zip(),
            target_id=FORUM,
            kind="forum",
            system="nucleo",
            publish="posts",
            parent_id=FORUM,
        )  # fmt: skip
    )
    await asyncio.wait_for(reached.wait(), 60)
    assert await rows(services, Character) != []  # half-written
    assert await services.campaigns.find(HERE) is None  # and invisible
    elsewhere = Place(GUILD + 1, 41, (41,))
    await services.campaigns.create(
        elsewhere, GM, name="Otra", system="nucleo", target_id=41, kind="channel"
    )
    roll = await asyncio.wait_for(services.rolls.roll(elsewhere, GM, "1d20"), 60)
    assert roll.log_id and not job.done()
    go.set()
    summary = await asyncio.wait_for(job, 60)
    assert calls > 20  # many short transactions, not one
    assert (await services.campaigns.find(HERE)).id == summary.campaign_id
    assert summary.publication is not None and summary.publication.scenes == 3


async def test_an_umbria_import_that_fails_on_the_way_leaves_nothing(services, monkeypatch):
    from bot.services.chronicle import service as chronicle_service

    monkeypatch.setattr(chronicle_service, "BATCH", 1)
    real = chronicle_service._batch
    calls = 0

    async def failing(*args, **kwargs):
        nonlocal calls
        calls += 1
        if calls == 12:
            raise RuntimeError("the disk went away")
        return await real(*args, **kwargs)

    monkeypatch.setattr(chronicle_service, "_batch", failing)
    with pytest.raises(RuntimeError):
        await imported(services)
    monkeypatch.setattr(chronicle_service, "_batch", real)
    for model in (Campaign, Character, ImportedPlayer, Scene, Post, RollLog, PostImage):
        assert await rows(services, model) == [], model.__name__
    assert await services.campaigns.find(HERE) is None
    await imported(services)  # the place is free: a new try works

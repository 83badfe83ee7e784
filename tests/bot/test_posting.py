"""The /post service on real databases: who may speak as whom, the record, edits and deletions
(compare-and-set, raced), the GM's round of posts, private threads and public profiles."""

from __future__ import annotations

import asyncio
import json

import pytest
from sqlmodel import select

from bot.db.models import Post, RollLog, Scene, saved_id
from bot.services import Actor, Place
from bot.services.shared.audience import Reader, Secrecy, sight
from bot.services.shared.errors import ConcurrentChange, DomainError, NotAllowed, NotReferee
from bot.services.sheets.profiles import ProfileChange
from bot.services.table.posting import NARRATOR, PostDraft, rolls_seen
from tests.examples import ARDELIA, image

GUILD, CHANNEL, SCENE_THREAD = 1000, 11, 12
HERE = Place(GUILD, CHANNEL, (CHANNEL,))
IN_SCENE = Place(GUILD, SCENE_THREAD, (SCENE_THREAD, CHANNEL))
GM = Actor(1, "Máster", can_manage_channels=True)
ANA = Actor(2, "Ana")
BRUNO = Actor(3, "Bruno")
PNG = image("png")


def sheet(name: str) -> dict:
    return dict(json.loads(json.dumps(ARDELIA)), name=name)


@pytest.fixture
async def table(services):
    await services.campaigns.create(
        HERE, GM, name="Estrellas", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    await services.characters.create(HERE, ANA, sheet("Ardelia"))
    await services.characters.create(HERE, BRUNO, sheet("Bram"))
    await services.characters.create(HERE, GM, sheet("Trasgo"), is_npc=True)
    await services.characters.create(HERE, GM, sheet("Espía"), is_npc=True, hidden=True)
    return services


async def _scene(services) -> Scene:
    async with services.sessions() as session, session.begin():
        campaign = await services.campaigns.require(HERE, session)
        scene = Scene(
            guild_id=GUILD,
            campaign_id=saved_id(campaign),
            channel_id=SCENE_THREAD,
            parent_id=CHANNEL,
            title="La posada",
            opened_by=GM.user_id,
        )
        session.add(scene)
    return scene


async def _post(services, place, actor, name=None, *, text="Hola.", ids=(500,), **draft):
    speaker = await services.posting.speaker(place, actor, name)
    return await services.posting.record(
        place,
        actor,
        speaker,
        PostDraft(channel_id=place.channel_id, message_ids=ids, text=text, notes=None, **draft),
    )


async def test_players_speak_only_as_their_own_characters(table):
    mine = await table.posting.speaker(HERE, ANA, None)
    assert (mine.name, mine.gm_post, mine.hidden) == ("Ardelia", False, False)
    with pytest.raises(NotAllowed) as refused:
        await table.posting.speaker(HERE, BRUNO, "Ardelia")
    assert refused.value.key == "sheet.error.not_your_character"
    with pytest.raises(NotAllowed):
        await table.posting.speaker(HERE, ANA, "Trasgo")  # NPCs are the GM's
    with pytest.raises(NotReferee) as narrator:
        await table.posting.speaker(HERE, ANA, "Narrador")
    assert narrator.value.key == "post.error.narrator_gm_only"
    with pytest.raises(DomainError) as hidden:  # a hidden NPC is not even found
        await table.posting.speaker(HERE, ANA, "Espía")
    assert hidden.value.key == "sheet.error.not_found"


async def test_the_gm_speaks_as_any_npc_the_narrator_or_a_player_character(table):
    trasgo = await table.posting.speaker(HERE, GM, "trasgo")
    assert (trasgo.name, trasgo.gm_post, trasgo.hidden) == ("Trasgo", True, False)
    assert (await table.posting.speaker(HERE, GM, "Espía")).hidden
    narrator = await table.posting.speaker(HERE, GM, "narrator")
    assert (narrator.name, narrator.character_id, narrator.gm_post) == (NARRATOR, None, True)
    with pytest.raises(DomainError) as no_active:
        await table.posting.speaker(HERE, GM, None)
    assert no_active.value.key == "post.error.gm_needs_as"
    assert (await table.posting.speaker(HERE, GM, "Ardelia")).gm_post
    assert await table.posting.speakers(HERE, GM, "") == [
        NARRATOR,
        "Ardelia",
        "Bram",
        "Espía",
        "Trasgo",
    ]
    assert await table.posting.speakers(HERE, ANA, "") == ["Ardelia"]


async def test_refused_webhook_names_are_adapted_and_the_real_name_kept(table):
    await table.characters.create(HERE, GM, sheet("Clyde el Discordante"), is_npc=True)
    speaker = await table.posting.speaker(HERE, GM, "Clyde el Discordante")
    assert speaker.name == "Clyde el Discordante"
    assert "clyde" not in speaker.webhook_name.casefold()
    assert "discord" not in speaker.webhook_name.casefold()
    view = await _post(table, HERE, GM, "Clyde el Discordante")
    assert (view.speaker_name, view.webhook_name) == (speaker.name, speaker.webhook_name)


async def test_a_post_records_who_really_wrote_it_and_its_messages(table):
    view = await _post(table, HERE, GM, "Ardelia", ids=(501, 502), notes_private=True)
    assert (view.author_user_id, view.speaker_name, view.message_ids) == (1, "Ardelia", (501, 502))
    for message_id in (501, 502):
        assert (await table.posting.find(HERE, GM, message_id)).id == view.id
    with pytest.raises(DomainError) as unknown:
        await table.posting.find(HERE, GM, 999)
    assert unknown.value.key == "post.error.not_a_post"


async def test_a_gm_post_starts_the_scenes_round_a_players_does_not(table):
    scene = await _scene(table)
    player = await _post(table, IN_SCENE, ANA)
    async with table.sessions() as session:
        assert (await session.get(Scene, scene.id)).round_started_at is None
    gm = await _post(table, IN_SCENE, GM, "Trasgo", ids=(600,))
    async with table.sessions() as session:
        stored = await session.get(Scene, scene.id)
    assert player.scene_id == gm.scene_id == scene.id
    assert stored.round_started_at == gm.created_at.replace(tzinfo=None) or (
        stored.round_started_at.replace(tzinfo=None) == gm.created_at.replace(tzinfo=None)
    )
    assert stored.version == 2
    # a GM-only post (to the GM channel) does not open a round
    await _post(
        table, IN_SCENE, GM, "Trasgo", ids=(601,), gm_only=True, origin_channel_id=SCENE_THREAD
    )
    async with table.sessions() as session:
        assert (await session.get(Scene, scene.id)).version == 2


async def test_concurrent_gm_posts_each_move_the_round_once(table):
    scene = await _scene(table)
    await asyncio.gather(*(_post(table, IN_SCENE, GM, "Trasgo", ids=(700 + i,)) for i in range(4)))
    async with table.sessions() as session:
        stored = await session.get(Scene, scene.id)
        posts = (await session.exec(select(Post).where(Post.scene_id == scene.id))).all()
    assert stored.version == 5 and len(posts) == 4


async def test_the_attached_roll_is_logged_with_the_speaker(table):
    speaker = await table.posting.speaker(HERE, ANA, None)
    rolled = (await table.posting.roll(HERE, ANA, speaker, "2d6+1"))[0]
    checked = (await table.posting.roll(HERE, ANA, speaker, "Pilotar"))[0]
    async with table.sessions() as session:
        dice = await session.get(RollLog, rolled.log_id)
        check = await session.get(RollLog, checked.log_id)
    assert (dice.character_name, dice.kind, dice.private) == ("Ardelia", "roll", False)
    assert (check.character_name, check.kind) == ("Ardelia", "check")
    assert await table.posting.roll_of(GUILD, rolled.log_id) == rolled
    spy = await table.posting.speaker(HERE, GM, "Espía")
    secret = (await table.posting.roll(HERE, GM, spy, "1d20"))[0]
    # a hidden NPC's numbers are sealed in its roll's record: the scene reads that it rolled,
    # the GM channel's copy has them (the audience rule, issue 22 §1)
    assert secret.secrecy.npc_id == spy.character_id and not secret.private
    seen = rolls_seen([secret], Reader.everyone())
    assert [s.value for s in seen.shown] == [None]
    assert [s.value for s in seen.for_gm] == [secret]
    assert rolls_seen([secret], Reader.gm()).for_gm == ()
    assert await table.posting.roll_of(GUILD, secret.log_id) == secret
    narrator = await table.posting.speaker(HERE, GM, NARRATOR)
    with pytest.raises(DomainError) as no_sheet:
        await table.posting.roll(HERE, GM, narrator, "Pilotar")
    assert no_sheet.value.key == "post.error.narrator_check"


async def test_only_the_author_or_the_gm_edits_and_the_roll_stays(table):
    speaker = await table.posting.speaker(HERE, ANA, None)
    rolled = (await table.posting.roll(HERE, ANA, speaker, "1d6"))[0]
    view = await _post(table, HERE, ANA, roll_log_id=rolled.log_id)
    with pytest.raises(NotAllowed) as refused:
        await table.posting.find(HERE, BRUNO, 500)
    assert refused.value.key == "post.error.not_yours"
    with pytest.raises(NotAllowed):
        await table.posting.edit(HERE, BRUNO, view.id, view.version, "Otro texto", None)
    edited = await table.posting.edit(HERE, ANA, view.id, view.version, " Nuevo ", "nota")
    assert (edited.text, edited.notes, edited.version) == ("Nuevo", "nota", 2)
    assert edited.edited_at is not None and edited.roll_log_id == rolled.log_id
    by_gm = await table.posting.edit(HERE, GM, view.id, edited.version, "Corregido", None)
    assert by_gm.version == 3
    with pytest.raises(DomainError) as empty:
        await table.posting.edit(HERE, ANA, view.id, by_gm.version, "   ", None)
    assert empty.value.key == "post.error.empty"


async def test_two_concurrent_edits_one_wins_the_other_is_refused(table):
    view = await _post(table, HERE, ANA)
    results = await asyncio.gather(
        *(
            table.posting.edit(HERE, who, view.id, view.version, f"Versión {n}", None)
            for n, who in enumerate((ANA, GM, ANA))
        ),
        return_exceptions=True,
    )
    won = [r for r in results if not isinstance(r, BaseException)]
    lost = [r for r in results if isinstance(r, ConcurrentChange)]
    assert len(won) == 1 and len(lost) == 2, results
    assert lost[0].key == "post.error.changed_meanwhile"
    stored = await table.posting.find(HERE, ANA, 500)
    assert (stored.version, stored.text) == (2, won[0].text)


async def test_delete_is_soft_and_races_with_an_edit(table):
    view = await _post(table, HERE, ANA)
    deleted, edited = await asyncio.gather(
        table.posting.delete(HERE, ANA, view.id, view.version),
        table.posting.edit(HERE, ANA, view.id, view.version, "tarde", None),
        return_exceptions=True,
    )
    # one wins; the other is refused: raced (changed meanwhile) or, after it, no post any more
    refused = [r for r in (deleted, edited) if isinstance(r, DomainError)]
    assert len(refused) == 1, (deleted, edited)
    assert refused[0].key in ("post.error.changed_meanwhile", "post.error.not_a_post")
    if not isinstance(deleted, BaseException):
        assert deleted.deleted_at is not None and deleted.text == "Hola."
        with pytest.raises(DomainError):
            await table.posting.find(HERE, ANA, 500)
    async with table.sessions() as session:
        assert (await session.get(Post, view.id)) is not None  # the record stays


async def test_an_edit_that_needs_more_messages_records_them(table):
    view = await _post(table, HERE, ANA, ids=(800,))
    edited = await table.posting.edit(HERE, ANA, view.id, view.version, "largo", None)
    moved = await table.posting.set_messages(HERE, view.id, edited.version, (800, 801))
    assert moved.message_ids == (800, 801) and moved.version == 3
    assert (await table.posting.find(HERE, ANA, 801)).id == view.id
    with pytest.raises(ConcurrentChange):
        await table.posting.set_messages(HERE, view.id, edited.version, (800,))


async def test_one_private_thread_per_player_and_gm_even_when_raced(table):
    ana = (ANA.user_id,)
    assert await table.posting.private_thread(HERE, GM, ana) is None
    kept = await asyncio.gather(
        *(table.posting.keep_private_thread(HERE, GM, ana, CHANNEL, t) for t in (91, 92))
    )
    assert kept[0] == kept[1] in (91, 92)
    assert await table.posting.private_thread(HERE, GM, ana) == kept[0]
    assert await table.posting.is_private_thread(GUILD, kept[0])
    await table.posting.forget_private_thread(HERE, kept[0])
    assert await table.posting.private_thread(HERE, GM, ana) is None


async def test_a_players_private_post_goes_to_a_thread_with_the_gm(table):
    """Issue 24: a player whispers to other players (a split party): the thread holds them,
    the player and the campaign's GM; the same members find the same thread, whoever of the
    players opens it, and it is not the GM ↔ player thread."""
    members = await table.posting.thread_members(HERE, ANA, (BRUNO.user_id,))
    assert members == tuple(sorted((ANA.user_id, BRUNO.user_id, GM.user_id)))
    assert await table.posting.keep_private_thread(HERE, ANA, (BRUNO.user_id,), CHANNEL, 93) == 93
    assert await table.posting.private_thread(HERE, BRUNO, (ANA.user_id,)) == 93
    assert await table.posting.private_thread(HERE, GM, (ANA.user_id,)) is None
    assert await table.posting.private_thread(HERE, GM, (ANA.user_id, BRUNO.user_id)) == 93
    for wrong in ((), (ANA.user_id,), tuple(range(100, 105))):
        with pytest.raises(DomainError) as refused:
            await table.posting.thread_members(HERE, ANA, wrong)
        assert refused.value.key == "post.error.bad_player"
    # who may read each post there: every member it was addressed to and the GM, whoever
    # of them wrote it (issue 24: each finds it in /history, /catch-up, /privacy export)
    whisper = Place(GUILD, 93, (93, CHANNEL))
    members = {ANA.user_id, BRUNO.user_id, GM.user_id}
    for who, name, ids in (
        (ANA, "Ardelia", (950,)),
        (BRUNO, "Bram", (951,)),
        (GM, "Trasgo", (952,)),
    ):
        view = await _post(table, whisper, who, name, ids=ids)
        async with table.sessions() as session:
            row = await session.get(Post, view.id)
        secrecy = Secrecy.of_row(row)
        assert (row.audience, row.audience_user_id) == ("members", who.user_id)
        assert secrecy.members == members
        for reader in (ANA, BRUNO):
            assert sight(secrecy, Reader.member(reader.user_id)) is not None
        assert sight(secrecy, Reader.member(77)) is None
        assert sight(secrecy, Reader.everyone()) is None


async def test_profiles_public_face_avatar_checks_and_racing_writers(table):
    view = await table.profiles.update(HERE, ANA, None, ProfileChange(concept="Piloto", avatar=PNG))
    assert (view.concept, view.avatar.kind, view.full_sheet) == ("Piloto", "png", True)
    speaker = await table.posting.speaker(HERE, ANA, None)
    assert speaker.avatar == view.avatar and speaker.concept == "Piloto"
    seen = await table.profiles.show(HERE, BRUNO, "Ardelia")
    assert not seen.full_sheet and seen.concept == "Piloto"
    with pytest.raises(NotAllowed):
        await table.profiles.update(HERE, BRUNO, "Ardelia", ProfileChange(concept="Robado"))
    with pytest.raises(DomainError) as bad:
        await table.profiles.update(HERE, ANA, None, ProfileChange(avatar=b"<svg/>"))
    assert bad.value.key == "post.error.bad_avatar"
    await asyncio.gather(
        *(
            table.profiles.update(HERE, who, "Bram", ProfileChange(description=f"Texto {n}"))
            for n, who in enumerate((BRUNO, GM, BRUNO, GM))
        )
    )
    final = await table.profiles.show(HERE, BRUNO, "Bram")
    assert final.version == 4 and final.description.startswith("Texto")
    cleared = await table.profiles.update(HERE, ANA, None, ProfileChange(clear_avatar=True))
    assert cleared.avatar is None and cleared.concept == "Piloto"


async def test_two_first_profile_writes_race_on_the_new_row(table):
    await asyncio.gather(
        table.profiles.update(HERE, BRUNO, "Bram", ProfileChange(concept="Uno")),
        table.profiles.update(HERE, GM, "Bram", ProfileChange(description="Dos")),
    )
    view = await table.profiles.show(HERE, BRUNO, "Bram")
    assert (view.concept, view.description, view.version) == ("Uno", "Dos", 2)


class Reposted:
    """A reposter that records what it was asked (the cog's Discord side)."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []
        self.deleted: list[tuple[int, ...]] = []

    async def send(self, post, speaker, rolls, locale):
        self.sent.append((speaker.name, post.text))
        return (7000 + len(self.sent),)

    async def delete(self, channel_id, message_ids):
        self.deleted.append(tuple(message_ids))


async def test_reproxy_moves_ones_last_post_to_another_speaker(table):
    await table.characters.create(HERE, ANA, sheet("Cora"))
    first = await _post(table, HERE, ANA, "Ardelia", text="Primera.", ids=(600,))
    last = await _post(table, HERE, ANA, "Ardelia", text="Me equivoqué.", ids=(601, 602))
    reposter = Reposted()
    view = await table.posting.reproxy(HERE, ANA, "Cora", reposter)
    assert (view.id, view.speaker_name, view.message_ids) == (last.id, "Cora", (7001,))
    assert reposter.sent == [("Cora", "Me equivoqué.")] and reposter.deleted == [(601, 602)]
    assert (await table.posting.find(HERE, ANA, 7001)).id == last.id  # the menus follow it
    with pytest.raises(DomainError):
        await table.posting.find(HERE, ANA, 601)
    assert (await table.posting.find(HERE, ANA, 600)).id == first.id  # the earlier one stays
    with pytest.raises(DomainError) as same:
        await table.posting.reproxy(HERE, ANA, "Cora", Reposted())
    assert same.value.key == "post.error.reproxy_same"
    with pytest.raises(NotAllowed):  # players speak as their own characters only
        await table.posting.reproxy(HERE, ANA, "Bram", Reposted())
    with pytest.raises(DomainError) as none:
        await table.posting.reproxy(HERE, BRUNO, None, Reposted())
    assert none.value.key == "post.error.reproxy_none"


async def test_reproxy_refuses_old_posts_and_sheet_rolls_and_loses_a_race_cleanly(table):
    from datetime import timedelta

    from bot.db.models import utcnow

    await table.characters.create(HERE, ANA, sheet("Cora"))
    speaker = await table.posting.speaker(HERE, ANA, "Ardelia")
    check = (await table.posting.roll(HERE, ANA, speaker, "Pilotar"))[0]
    await _post(table, HERE, ANA, "Ardelia", ids=(610,), roll_log_id=check.log_id)
    with pytest.raises(DomainError) as sheet_roll:
        await table.posting.reproxy(HERE, ANA, "Cora", Reposted())
    assert sheet_roll.value.key == "post.error.reproxy_check"
    old = await _post(table, HERE, ANA, "Ardelia", ids=(611,))
    async with table.sessions() as session, session.begin():
        row = await session.get(Post, old.id)
        row.created_at = utcnow() - timedelta(minutes=6)
    with pytest.raises(DomainError) as late:
        await table.posting.reproxy(HERE, ANA, "Cora", Reposted())
    assert late.value.key == "post.error.reproxy_none"
    # an edit lands between the repost and its record: the new messages go, the post stays
    recent = await _post(table, HERE, ANA, "Ardelia", ids=(612,))

    class EditedMeanwhile(Reposted):
        async def send(self, post, speaker, rolls, locale):
            await table.posting.edit(HERE, ANA, post.id, post.version, "Editado.", None)
            return await super().send(post, speaker, rolls, locale)

    racing = EditedMeanwhile()
    with pytest.raises(ConcurrentChange):
        await table.posting.reproxy(HERE, ANA, "Cora", racing)
    assert racing.deleted == [(7001,)]
    kept = await table.posting.find(HERE, ANA, 612)
    assert (kept.id, kept.speaker_name, kept.text) == (recent.id, "Ardelia", "Editado.")

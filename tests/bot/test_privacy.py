"""``/privacy export`` and ``/privacy delete`` on real databases (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import gzip
import json
from datetime import datetime, timedelta

import pytest
from sqlalchemy import func, select

from bot.db.models import (
    ActiveCharacter,
    Campaign,
    Character,
    CombatRecord,
    CreationDraft,
    RollLog,
    XpAward,
)
from bot.services import Actor, Place
from bot.services.privacy.privacy import ANONYMOUS
from bot.services.shared.errors import DomainError
from tests.examples import ARDELIA, image

GUILD, CHANNEL, OTHER_GUILD = 1000, 11, 2000
HERE = Place(GUILD, CHANNEL, (CHANNEL,))
THERE = Place(OTHER_GUILD, 21, (21,))
GM = Actor(1, "Máster", can_manage_channels=True)
ANA = Actor(2, "Ana")
BRUNO = Actor(3, "Bruno")


def sheet(name: str) -> dict:
    return dict(json.loads(json.dumps(ARDELIA)), name=name)


@pytest.fixture
async def table(services):
    """Two campaigns in two guilds; Ana plays in both, and has rolled, drafted and fought."""
    for place, name in ((HERE, "Estrellas"), (THERE, "Otra")):
        await services.campaigns.create(
            place, GM, name=name, system="nucleo", target_id=place.channel_id, kind="channel"
        )
    await services.characters.create(HERE, ANA, sheet("Ardelia"))
    await services.characters.create(HERE, BRUNO, sheet("Bram"))
    await services.characters.create(THERE, ANA, sheet("Ardelia"))
    await services.characters.create(HERE, GM, sheet("Trasgo"), is_npc=True)
    await services.xp.grant(HERE, GM, 3, character="Ardelia", reason="sesión 1")
    await services.xp.grant(HERE, GM, 1, character="Bram")
    for who in (ANA, ANA, BRUNO):
        await services.rolls.roll(HERE, who, "1o3d10+2", reason="trepar", private=who is ANA)
    await services.rolls.roll(THERE, ANA, "3d6")
    await services.creation.start(HERE, ANA, "Borrador")
    await services.combat.start(HERE, GM)
    await services.combat.join(HERE, ANA)
    await services.combat.join(HERE, BRUNO)
    return services


async def count(services, model, *where) -> int:
    async with services.sessions() as session:
        return (await session.exec(select(func.count()).select_from(model).where(*where))).one()[0]


async def test_export_has_everything_of_the_member_in_this_guild_only(table):
    document = await table.privacy.export(GUILD, ANA.user_id)
    assert document["format"] == "arbitro-member-data"
    assert [c["name"] for c in document["characters"]] == ["Ardelia"]
    assert document["characters"][0]["sheet"]["name"] == "Ardelia"
    assert len(document["rolls"]) == 2 and all(r["user_id"] == 2 for r in document["rolls"])
    assert {r["reason"] for r in document["rolls"]} == {"trepar"}
    assert [a["amount"] for a in document["xp_awards_to_your_characters"]] == [3]
    assert [d["sheet"]["draft"]["name"] for d in document["drafts"]] == ["Borrador"]
    assert len(document["active_characters"]) == 1
    (fight,) = document["combats"]
    assert [c["name"] for c in fight["your_combatants"]] == ["Ardelia"]
    assert document["campaigns_you_run"] == []
    json.dumps(document)  # everything is JSON
    # times say their zone (stored naive UTC): a program reading the file cannot mistake them
    stamp = document["characters"][0]["created_at"]
    assert stamp.endswith("+00:00") and datetime.fromisoformat(stamp).utcoffset() == timedelta(0)
    gm = await table.privacy.export(GUILD, GM.user_id)
    assert [c["name"] for c in gm["campaigns_you_run"]] == ["Estrellas"]
    assert len(gm["xp_awards_you_granted"]) == 2
    assert [c["name"] for c in gm["characters"]] == ["Trasgo"]


async def test_a_member_with_nothing_stored_gets_an_empty_document(table):
    document = await table.privacy.export(GUILD, 999)
    assert all(document[k] == [] for k in ("characters", "rolls", "drafts", "combats"))


async def test_a_big_export_is_compressed_and_a_huge_one_refused(table):
    document = await table.privacy.export(GUILD, ANA.user_id)
    name, payload = await table.privacy.encode(document, 1 << 20)
    assert name.endswith(".json") and json.loads(payload) == document
    name, payload = await table.privacy.encode(document, 3000)
    assert name.endswith(".json.gz") and json.loads(gzip.decompress(payload)) == document
    with pytest.raises(DomainError) as caught:
        await table.privacy.encode(document, 10)
    assert caught.value.key == "privacy.error.too_big"


async def test_delete_removes_characters_and_anonymises_rolls(table):
    preview = await table.privacy.preview(GUILD, ANA.user_id)
    assert (preview.characters, preview.rolls, preview.drafts) == (("Ardelia",), 2, 1)
    summary = await table.privacy.delete(GUILD, ANA.user_id, characters="delete")
    assert summary.deleted_characters == ("Ardelia",)
    assert summary.handed_characters == ()
    assert (summary.rolls_anonymised, summary.drafts_deleted, summary.awards_deleted) == (2, 1, 1)
    s = table
    assert await count(s, Character, Character.guild_id == GUILD, Character.owner_user_id == 2) == 0
    assert await count(s, RollLog, RollLog.guild_id == GUILD, RollLog.user_id == 2) == 0
    assert await count(s, RollLog, RollLog.guild_id == GUILD, RollLog.user_id == ANONYMOUS) == 2
    assert await count(s, RollLog, RollLog.user_name == "Ana", RollLog.guild_id == GUILD) == 0
    assert await count(s, CreationDraft, CreationDraft.user_id == 2) == 0
    assert (
        await count(
            s, ActiveCharacter, ActiveCharacter.guild_id == GUILD, ActiveCharacter.user_id == 2
        )
        == 0
    )
    assert await count(s, XpAward, XpAward.character_name == "Ardelia") == 0
    async with s.sessions() as session:
        (fight,) = (await session.exec(select(CombatRecord))).all()
    owners = {c["name"]: c["owner_id"] for c in fight[0].state["combatants"]}
    assert owners == {"Ardelia": None, "Bram": BRUNO.user_id}  # the referees' now
    # the campaign's record is kept: the rolls, the two grants' rows, Bram, his award, the NPC
    assert await count(s, RollLog, RollLog.guild_id == GUILD) == 5
    async with s.sessions() as session:
        grants = [r[0] for r in await session.exec(select(RollLog).where(RollLog.kind == "xp"))]
    # the grant to her deleted character forgets her name and the sheet values it recorded
    assert sorted((g.character_name or "", "undo" in g.detail) for g in grants) == [
        ("", False),
        ("Bram", True),
    ]
    assert await count(s, Character, Character.guild_id == GUILD) == 2
    # the other guild is untouched
    assert (
        await count(s, Character, Character.guild_id == OTHER_GUILD, Character.owner_user_id == 2)
        == 1
    )
    assert await count(s, RollLog, RollLog.guild_id == OTHER_GUILD, RollLog.user_id == 2) == 1
    # her history still shows the rolls, without her name
    history = await s.rolls.history(HERE, GM)
    assert {e.user_name for e in history.entries} == {"", "Bruno", "Máster"}  # + his grants
    # and the export now finds nothing of hers here
    document = await s.privacy.export(GUILD, ANA.user_id)
    assert document["characters"] == document["rolls"] == document["drafts"] == []


async def test_delete_can_hand_the_characters_to_the_gm(table):
    summary = await table.privacy.delete(GUILD, ANA.user_id, characters="to_gm")
    assert summary.handed_characters == ("Ardelia",) and summary.deleted_characters == ()
    view = await table.characters.show(HERE, GM, "Ardelia")
    assert view.owner_user_id == GM.user_id
    assert view.sheet["px"] == 3  # the character's XP ledger stays with the character
    assert await count(table, XpAward, XpAward.character_name == "Ardelia") == 1
    assert (
        await count(
            table, ActiveCharacter, ActiveCharacter.user_id == 2, ActiveCharacter.guild_id == GUILD
        )
        == 0
    )
    async with table.sessions() as session:
        (fight,) = (await session.exec(select(CombatRecord))).all()
    owners = {c["name"]: c["owner_id"] for c in fight[0].state["combatants"]}
    assert owners == {"Ardelia": GM.user_id, "Bram": BRUNO.user_id}
    assert (await table.characters.show(HERE, GM, "Ardelia")).name == "Ardelia"


async def test_a_gm_deleting_without_a_co_gm_archives_the_campaign(table):
    """Issue 23 §5: the campaign was left to an anonymous GM; with nobody to take it over it
    is archived (nothing deleted), and an administrator can reopen it."""
    preview = await table.privacy.preview(GUILD, GM.user_id)
    assert preview.campaigns_as_gm == ("Estrellas",)
    ((campaign_id, name, _role),) = preview.gm_campaigns
    assert name == "Estrellas" and preview.participants[campaign_id] == (BRUNO.user_id, ANA.user_id)
    summary = await table.privacy.delete(GUILD, GM.user_id, characters="to_gm")
    assert (summary.campaigns_archived, summary.campaigns_handed) == (("Estrellas",), ())
    assert (
        await count(table, Campaign, Campaign.gm_user_id == GM.user_id, Campaign.guild_id == GUILD)
        == 0
    )
    assert (
        await count(table, Campaign, Campaign.status == "archived", Campaign.guild_id == GUILD) == 1
    )
    assert await count(table, XpAward, XpAward.granted_by == GM.user_id) == 0
    assert await count(table, CombatRecord, CombatRecord.created_by == GM.user_id) == 0
    # an administrator brings it back: the group is not locked out
    admin = Actor(9, "Admin", is_admin=True)
    await table.campaign_archive.reopen(HERE, admin, "Estrellas")
    await table.xp.grant(HERE, admin, 1, character="Bram")
    # the other guild keeps its GM
    assert await count(table, Campaign, Campaign.gm_user_id == GM.user_id) == 1


async def test_a_gm_deleting_hands_the_campaign_and_its_characters_to_a_co_gm(table):
    preview = await table.privacy.preview(GUILD, GM.user_id)
    ((campaign_id, _name, _role),) = preview.gm_campaigns
    summary = await table.privacy.delete(
        GUILD, GM.user_id, characters="to_gm", successors={campaign_id: BRUNO.user_id}
    )
    assert (summary.campaigns_handed, summary.campaigns_archived) == (
        (("Estrellas", BRUNO.user_id),),
        (),
    )
    bruno_gm = Actor(BRUNO.user_id, "Bruno")
    await table.xp.grant(HERE, bruno_gm, 1, character="Ardelia")  # Bruno referees now
    # the NPC the GM made is Bruno's to run, not nobody's
    assert (await table.characters.show(HERE, bruno_gm, "Trasgo")).owner_user_id == BRUNO.user_id


async def test_a_failed_delete_keeps_only_what_makes_her_more_private(table, monkeypatch):
    """The bulk of it (her rolls, her posts) goes in short batches first, so a member with
    thousands of them does not hold the database from everyone else (issue 22 §2); the rest
    is one transaction.  If that fails, the batches stay done — her rolls anonymous, as she
    asked — and everything else is untouched; asking again finishes it."""
    from bot.services.privacy import privacy

    async def boom(*_args, **_kwargs):
        raise RuntimeError("disk full")

    real = privacy._untie_combats
    monkeypatch.setattr(privacy, "_untie_combats", boom)
    with pytest.raises(RuntimeError):
        await table.privacy.delete(GUILD, ANA.user_id, characters="delete")
    assert await count(table, RollLog, RollLog.user_id == 2, RollLog.guild_id == GUILD) == 0
    assert (
        await count(table, Character, Character.owner_user_id == 2, Character.guild_id == GUILD)
        == 1
    )
    assert await count(table, CreationDraft, CreationDraft.user_id == 2) == 1
    monkeypatch.setattr(privacy, "_untie_combats", real)
    done = await table.privacy.delete(GUILD, ANA.user_id, characters="delete")
    assert done.deleted_characters == ("Ardelia",) and done.drafts_deleted == 1
    assert await count(table, CreationDraft, CreationDraft.user_id == 2) == 0


async def test_a_members_many_rolls_and_posts_go_in_batches(table, monkeypatch):
    """Each transaction touches a bounded number of her rows; the summary counts them all."""
    from bot.services.privacy import privacy

    for _ in range(5):
        await table.rolls.roll(HERE, ANA, "1d20")
    monkeypatch.setattr(privacy, "WRITE_BATCH", 2)
    monkeypatch.setattr(privacy, "POST_BATCH", 1)
    monkeypatch.setattr(privacy, "LOG_BATCH", 1)
    written: list[int] = []
    real = privacy._anonymise_rolls

    async def counted(*args, **kwargs):
        done = await real(*args, **kwargs)
        written.append(done)
        return done

    monkeypatch.setattr(privacy, "_anonymise_rolls", counted)
    summary = await table.privacy.delete(GUILD, ANA.user_id, characters="delete")
    assert summary.rolls_anonymised == 7  # the fixture's two and these five
    assert max(written) <= 2 and len(written) >= 4
    assert await count(table, RollLog, RollLog.user_id == 2, RollLog.guild_id == GUILD) == 0


async def test_delete_twice_is_harmless(table):
    await table.privacy.delete(GUILD, ANA.user_id, characters="delete")
    again = await table.privacy.delete(GUILD, ANA.user_id, characters="delete")
    assert again.deleted_characters == () and again.rolls_anonymised == 0


@pytest.mark.parametrize("choice", ["delete", "to_gm"])
async def test_delete_against_concurrent_grants_loses_no_confirmed_change(table, choice):
    """Grants to her character race the deletion: each grant is either in the final sheet
    (handed to the GM) or refused; nothing half-done, no award left pointing at nothing."""

    async def grant() -> bool:
        try:
            await table.xp.grant(HERE, GM, 1, character="Ardelia")
        except DomainError:
            return False
        return True

    results = await asyncio.gather(
        *[grant() for _ in range(6)],
        table.privacy.delete(GUILD, ANA.user_id, characters=choice),
        *[grant() for _ in range(6)],
    )
    confirmed = sum(1 for r in results if r is True)
    if choice == "to_gm":
        view = await table.characters.show(HERE, GM, "Ardelia")
        assert view.owner_user_id == GM.user_id
        assert view.sheet["px"] == 3 + confirmed
        assert await count(table, XpAward, XpAward.character_name == "Ardelia") == 1 + confirmed
    else:
        assert (
            await count(table, Character, Character.name == "Ardelia", Character.guild_id == GUILD)
            == 0
        )
        assert (
            await count(
                table, XpAward, XpAward.character_name == "Ardelia", XpAward.guild_id == GUILD
            )
            == 0
        )
    assert await count(table, RollLog, RollLog.user_id == 2, RollLog.guild_id == GUILD) == 0


async def test_a_long_history_is_read_in_batches_and_exported_whole(table):
    from bot.services.privacy.privacy import BATCH

    async with table.sessions() as session, session.begin():
        for n in range(BATCH * 2 + 7):
            session.add(
                RollLog(
                    guild_id=GUILD,
                    channel_id=CHANNEL,
                    user_id=ANA.user_id,
                    user_name="Ana",
                    expression="1d20",
                    breakdown=str(n),
                    detail={},
                    total=n,
                )
            )
    document = await table.privacy.export(GUILD, ANA.user_id)
    rolls = [r for r in document["rolls"] if r["expression"] == "1d20"]
    assert [r["total"] for r in rolls] == list(range(BATCH * 2 + 7))
    name, payload = await table.privacy.encode(document, 1 << 30)
    assert json.loads(payload) == json.loads(json.dumps(document))


GM_CHANNEL = 4242


async def _posts(services) -> tuple[int, int]:
    """Ana posts as Ardelia (with a profile) and the GM posts as Ardelia; a private thread."""
    from bot.services.sheets.profiles import ProfileChange
    from bot.services.table.posting import PostDraft

    await services.profiles.update(
        HERE, ANA, "Ardelia", ProfileChange(concept="Piloto", avatar=image("gif"))
    )
    from bot.services.campaigns.service import SettingsChange

    await services.campaigns.update_settings(HERE, GM, SettingsChange(gm_channel_id=GM_CHANNEL))
    ids = []
    for who, message in ((ANA, 900), (GM, 901)):
        speaker = await services.posting.speaker(HERE, who, "Ardelia")
        view = await services.posting.record(
            HERE,
            who,
            speaker,
            PostDraft(
                channel_id=CHANNEL,
                message_ids=(message,),
                text="Entro.",
                notes="nota",
                notes_private=True,  # the notes' copy in the GM channel
                gm_message_ids=(message + 50,),
            ),
        )
        ids.append(view.id)
    await services.posting.keep_private_thread(HERE, GM, (ANA.user_id,), CHANNEL, 77)
    return ids[0], ids[1]


async def test_delete_erases_the_members_posts_with_her_characters(table):
    from bot.db.models import CharacterProfile, Post, PrivateThread

    anas, gms = await _posts(table)
    exported = await table.privacy.export(GUILD, ANA.user_id)
    assert [p["text"] for p in exported["posts"]] == ["Entro."]
    assert [t["thread_id"] for t in exported["private_threads"]] == [77]
    preview = await table.privacy.preview(GUILD, ANA.user_id)
    assert (preview.posts, preview.gm_copies) == (1, 1)
    summary = await table.privacy.delete(GUILD, ANA.user_id, characters="delete")
    # the post's message and the bot's copy of her private notes in the GM channel
    assert summary.posts_erased == 1
    assert summary.erased_messages == ((CHANNEL, 900), (GM_CHANNEL, 950))
    async with table.sessions() as session:
        erased, kept = await session.get(Post, anas), await session.get(Post, gms)
        profiles = (await session.exec(select(func.count()).select_from(CharacterProfile))).one()[0]
        threads = (await session.exec(select(func.count()).select_from(PrivateThread))).one()[0]
    assert (erased.author_user_id, erased.text, erased.notes) == (ANONYMOUS, "", None)
    assert erased.deleted_at is not None and erased.character_id is None
    # the GM's post as her (deleted) character stays the GM's, no longer tied to the sheet
    assert (kept.author_user_id, kept.text, kept.character_id) == (GM.user_id, "Entro.", None)
    assert (profiles, threads) == (0, 0)
    with pytest.raises(DomainError):
        await table.posting.find(HERE, GM, 900)


async def test_handing_characters_to_the_gm_keeps_the_posts_anonymous(table):
    from bot.db.models import Post

    anas, _gms = await _posts(table)
    summary = await table.privacy.delete(GUILD, ANA.user_id, characters="to_gm")
    assert (summary.posts_erased, summary.posts_anonymised, summary.erased_messages) == (0, 1, ())
    async with table.sessions() as session:
        post = await session.get(Post, anas)
    assert (post.author_user_id, post.text, post.deleted_at) == (ANONYMOUS, "Entro.", None)
    assert (await table.posting.find(HERE, GM, 900)).id == anas


async def _typing_rows(services) -> None:
    """Ana's tags for Ardelia and Bram's (the GM let her add one), and her sticky character."""
    from bot.db.models import Scene, SceneSpeaker, saved_id

    await services.proxy_tags.add(HERE, ANA, "Ardelia", "A:")
    await services.proxy_tags.add(HERE, GM, "Bram", "B:")
    await services.macros.add(HERE, ANA, "ataque", "1d20+5", character="Ardelia")
    async with services.sessions() as session, session.begin():
        campaign = await services.campaigns.require(HERE, session)
        scene = Scene(
            guild_id=GUILD,
            campaign_id=saved_id(campaign),
            channel_id=55,
            parent_id=CHANNEL,
            title="Posada",
            opened_by=GM.user_id,
        )
        session.add(scene)
        await session.flush()
        ardelia = (
            await session.exec(
                select(Character.id).where(Character.guild_id == GUILD, Character.name == "Ardelia")
            )
        ).one()[0]
        session.add(
            SceneSpeaker(
                scene_id=saved_id(scene), user_id=ANA.user_id, guild_id=GUILD, character_id=ardelia
            )
        )


@pytest.mark.parametrize("choice", ["delete", "to_gm"])
async def test_delete_forgets_typing_tags_and_sticky_characters(table, choice):
    from bot.db.models import Macro, ProxyTag, SceneSpeaker

    await _typing_rows(table)
    await table.privacy.delete(GUILD, ANA.user_id, characters=choice)
    async with table.sessions() as session:
        tags = (await session.exec(select(ProxyTag.prefix, ProxyTag.created_by))).all()
        stuck = (await session.exec(select(func.count()).select_from(SceneSpeaker))).one()[0]
    expected = (
        {("B:", GM.user_id)} if choice == "delete" else {("B:", GM.user_id), ("A:", ANONYMOUS)}
    )
    assert set(map(tuple, tags)) == expected
    assert stuck == 0
    async with table.sessions() as session:
        macros = (await session.exec(select(Macro.name, Macro.created_by))).all()
    assert [tuple(m) for m in macros] == ([] if choice == "delete" else [("ataque", ANONYMOUS)])


async def test_a_whisper_unties_a_deleted_member_and_stays_for_the_others(table):
    """Issue 24: a whisper names every member it was addressed to; each exports it, and a
    member's /privacy delete takes his id out of its list (the others still read it)."""
    from bot.db.models import Post
    from bot.services.shared.audience import Reader, Secrecy, sight
    from bot.services.table.posting import PostDraft

    members = (ANA.user_id, BRUNO.user_id, GM.user_id)
    await table.posting.keep_private_thread(HERE, BRUNO, (ANA.user_id,), CHANNEL, 93)
    whisper = Place(GUILD, 93, (93, CHANNEL))
    speaker = await table.posting.speaker(whisper, BRUNO, "Bram", here=False)
    await table.posting.record(
        whisper, BRUNO, speaker, PostDraft(93, (990,), "SUSURRO a medianoche", None)
    )
    exported = await table.privacy.export(GUILD, ANA.user_id)
    assert [p["text"] for p in exported["posts_addressed_to_you"]] == ["SUSURRO a medianoche"]
    assert (await table.privacy.export(GUILD, BRUNO.user_id))["posts_addressed_to_you"] == []
    await table.privacy.delete(GUILD, ANA.user_id, characters="to_gm")
    async with table.sessions() as session:
        ((post,),) = (await session.exec(select(Post).where(Post.channel_id == 93))).all()
    secrecy = Secrecy.of_row(post)
    assert sorted(secrecy.members) == sorted({ANONYMOUS, *members} - {ANA.user_id})
    assert sight(secrecy, Reader.member(ANA.user_id)) is None
    assert sight(secrecy, Reader.member(BRUNO.user_id)) is not None


async def test_the_audiences_are_untied_in_short_batches_before_the_last_transaction(
    table, monkeypatch
):
    """Issue 22 §2: the records whose audience names the member are untied a range of ids
    per transaction before the deletion's last one (no index finds them: one UPDATE over a
    guild's log held SQLite's one connection), and that one looks only past the batches."""
    from bot.services.privacy import privacy

    monkeypatch.setattr(privacy, "AUDIENCE_BATCH", 1)  # one id a transaction: many ranges
    for _ in range(3):
        await table.rolls.roll(HERE, ANA, "1d6", private=True)
    _rolls, _erased, _kept, _sent, marks = await privacy._in_batches(
        table.sessions, GUILD, ANA.user_id, erase=False
    )
    assert await count(table, RollLog, RollLog.audience_user_id == ANA.user_id) == 0
    assert await count(table, RollLog, RollLog.audience_user_id == ANONYMOUS) == 5
    assert marks.audiences["roll_log"] == max(
        r.id for r in await _all(table, RollLog) if r.guild_id == GUILD
    )
    late = await table.rolls.roll(HERE, ANA, "1d8", private=True)  # after the batches
    await table.privacy.delete(GUILD, ANA.user_id, characters="to_gm")
    async with table.sessions() as session:
        row = await session.get(RollLog, late.log_id)
    assert row.audience_user_id == ANONYMOUS


async def _all(services, model):
    async with services.sessions() as session:
        return [row[0] for row in (await session.exec(select(model))).all()]

"""Posting by typing, the services on real databases (SQLite and PostgreSQL): proxy tags
(unique per campaign even when raced), who speaks (tags, the sticky character, the GM's NPCs
and the narrator), and what a typed message in a scene records."""

from __future__ import annotations

import asyncio
import itertools
import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import select

from bot.db.models import Post, ProxyTag
from bot.services import Actor, Place
from bot.services.shared.audience import Part
from bot.services.shared.errors import DomainError, NotAllowed
from bot.services.table.typing import SentPost, TypedMessage, TypedOutcome
from tests.examples import ARDELIA

GUILD, CHANNEL, THREAD = 2400, 21, 22
HERE = Place(GUILD, CHANNEL, (CHANNEL,))
SCENE = Place(GUILD, THREAD, (THREAD, CHANNEL))
GM = Actor(1, "Máster", can_manage_channels=True)
ANA = Actor(2, "Ana")
BRUNO = Actor(3, "Bruno")
MESSAGE_IDS = itertools.count(9000)


def sheet(name: str) -> dict:
    return dict(json.loads(json.dumps(ARDELIA)), name=name)


@pytest.fixture
async def table(services):
    await services.campaigns.create(
        HERE, GM, name="Estrellas", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    await services.campaigns.update_settings(HERE, GM, _setting("escribir_como_personaje", "sí"))
    await services.characters.create(HERE, ANA, sheet("Ardelia"))
    await services.characters.create(HERE, ANA, sheet("Cora"))
    await services.characters.create(HERE, BRUNO, sheet("Bram"))
    await services.characters.create(HERE, GM, sheet("Trasgo"), is_npc=True)
    await services.characters.create(HERE, GM, sheet("Espía"), is_npc=True, hidden=True)
    return services


def _setting(key: str, value: str):
    from bot.services.campaigns.service import SettingsChange

    return SettingsChange(system_setting=(key, value))


class Recorder:
    """A sender that posts nothing: it records what the service asked of Discord."""

    def __init__(self, *, missing: tuple[str, ...] = (), now: str | None = "") -> None:
        self.missing = missing
        self.now = now  # the text at the message's turn ("" : as written, None: deleted)
        self.written = ""
        self.sent: list[tuple[str, str]] = []
        self.posts: list = []
        self.told: list[str] = []
        self.answered: list = []
        self.deleted = False

    def missing_permissions(self):
        return self.missing

    def turn(self):
        import contextlib

        return contextlib.nullcontext()

    def latest_text(self):
        return self.now if self.now != "" else self.written

    async def send(self, post):
        self.sent.append((post.speaker.name, post.text))
        self.posts.append(post)
        return SentPost(THREAD, (next(MESSAGE_IDS),), last_url="https://discord.com/x")

    async def unsend(self, sent):
        self.sent.pop()

    async def delete_original(self):
        self.deleted = True
        return True

    async def tell_author(self, locale, key, **params):
        self.told.append(key)

    async def after_post(self, post, view):
        pass

    async def answer_rolls(self, locale, who, rolls):
        self.answered.append((who, rolls))
        return next(MESSAGE_IDS), "https://discord.com/y"


def _typed(actor: Actor, text: str, *, files: bool = False) -> TypedMessage:
    return TypedMessage(SCENE, actor, 1, text, files, "La posada")


async def _say(services, actor: Actor, text: str, **kw) -> tuple[str, Recorder]:
    sender = Recorder(**kw)
    sender.written = text
    return await services.typing.handle(_typed(actor, text), sender), sender


async def test_tags_speak_and_the_character_sticks_in_the_scene(table):
    outcome, sender = await _say(table, ANA, "Ardelia: hola")
    assert outcome == TypedOutcome.POSTED and sender.sent == [("Ardelia", "hola")]
    assert sender.deleted
    _, sender = await _say(table, ANA, "Cora: ahora yo")
    _, sender = await _say(table, ANA, "y sigo")
    assert sender.sent == [("Cora", "y sigo")]  # Cora stuck after her tag
    # the record is a post of the scene, written by Ana as Cora
    async with table.sessions() as session:
        posts = (await session.exec(select(Post).where(Post.guild_id == GUILD))).all()
    assert [(p.speaker_name, p.author_user_id, p.scene_id is not None) for p in posts] == [
        ("Ardelia", ANA.user_id, True),
        ("Cora", ANA.user_id, True),
        ("Cora", ANA.user_id, True),
    ]


async def test_out_of_character_and_members_without_a_character_are_left_alone(table):
    for text in ("((ooc))", "// ooc", "   "):
        outcome, sender = await _say(table, ANA, text)
        assert outcome == TypedOutcome.IGNORED and sender.sent == [] and not sender.deleted
    outcome, _ = await _say(table, Actor(9, "Visita"), "hola")
    assert outcome == TypedOutcome.IGNORED
    outcome, _ = await _say(table, GM, "sin etiqueta")  # the GM has no character of his own
    assert outcome == TypedOutcome.IGNORED


async def test_the_gm_as_npcs_and_narrator_players_not(table):
    _, sender = await _say(table, GM, "Trasgo: ¡alto!")
    _, sender2 = await _say(table, GM, "Narrador: cae la noche")
    _, sender3 = await _say(table, GM, "Espía: (susurra)")
    assert sender.sent + sender2.sent + sender3.sent == [
        ("Trasgo", "¡alto!"),
        ("Narrador", "cae la noche"),
        ("Espía", "(susurra)"),
    ]
    _, sender = await _say(table, BRUNO, "Trasgo: ¿yo?")  # not his: his own character says it
    assert sender.sent == [("Bram", "Trasgo: ¿yo?")]
    _, sender = await _say(table, BRUNO, "Narrador: ¿yo?")
    assert sender.sent == [("Bram", "Narrador: ¿yo?")]


async def test_a_missing_permission_posts_nothing_and_tells_the_author(table):
    outcome, sender = await _say(
        table, ANA, "Ardelia: hola", missing=("typing.error.no_manage_webhooks",)
    )
    assert outcome == TypedOutcome.REFUSED and sender.sent == [] and not sender.deleted
    assert sender.told == ["typing.error.no_manage_webhooks"]


async def test_typing_off_or_outside_a_scene_is_ignored(table):
    outcome = await table.typing.handle(
        TypedMessage(HERE, ANA, 1, "Ardelia: hola", False, "mesa"), Recorder()
    )
    assert outcome == TypedOutcome.IGNORED  # the bound channel itself is no scene
    await table.campaigns.update_settings(HERE, GM, _setting("escribir_como_personaje", "no"))
    outcome, _ = await _say(table, ANA, "Ardelia: hola")
    assert outcome == TypedOutcome.IGNORED


async def test_tags_are_unique_in_the_campaign_even_when_raced(table):
    results = await asyncio.gather(
        table.proxy_tags.add(HERE, ANA, "Ardelia", "A:"),
        table.proxy_tags.add(HERE, BRUNO, "Bram", "a:"),
        return_exceptions=True,
    )
    won = [r for r in results if not isinstance(r, Exception)]
    lost = [r for r in results if isinstance(r, Exception)]
    assert len(won) == 1 and len(lost) == 1
    assert isinstance(lost[0], DomainError) and lost[0].key == "typing.error.tag_taken"
    async with table.sessions() as session:
        rows = (await session.exec(select(ProxyTag).where(ProxyTag.guild_id == GUILD))).all()
    assert len(rows) == 1


async def test_who_may_add_a_tag_and_the_limits(table):
    with pytest.raises(NotAllowed):
        await table.proxy_tags.add(HERE, BRUNO, "Ardelia", "X:")
    with pytest.raises(NotAllowed) as taken:  # a player learns nothing about whose it is
        await table.proxy_tags.add(HERE, BRUNO, None, "Espía:")
    assert taken.value.key == "typing.error.tag_taken"
    added = await table.proxy_tags.add(HERE, GM, "Trasgo", "T>")
    assert [t.prefix for t in added.tags] == ["T>"]
    for n in range(5):
        await table.proxy_tags.add(HERE, ANA, "Cora", f"C{n}:")
    with pytest.raises(DomainError) as full:
        await table.proxy_tags.add(HERE, ANA, "Cora", "C9:")
    assert full.value.key == "typing.error.too_many_tags"
    with pytest.raises(DomainError) as own:
        await table.proxy_tags.remove(HERE, ANA, "Cora", "Cora:")
    assert own.value.key == "typing.error.name_tag_stays"
    _, sender = await _say(table, ANA, "C3: por la etiqueta")
    assert sender.sent == [("Cora", "por la etiqueta")]


async def test_racing_sticky_writes_keep_one_row(table):
    from bot.db.models import SceneSpeaker

    await _say(table, ANA, "Ardelia: primera")
    await asyncio.gather(*(_say(table, ANA, f"{who}: carrera") for who in ("Cora", "Ardelia") * 3))
    async with table.sessions() as session:
        rows = (
            await session.exec(select(SceneSpeaker).where(SceneSpeaker.guild_id == GUILD))
        ).all()
    assert len(rows) == 1 and rows[0].version >= 2


async def test_rolls_and_notes_in_the_text(table):
    from bot.db.models import RollLog

    outcome, sender = await _say(
        table, ANA, "Ardelia: Despego [[1d20+5]] y piloto [[Pilotar +2]].\n-# Con el motor tocado."
    )
    assert outcome == TypedOutcome.POSTED
    assert sender.sent == [("Ardelia", "Despego `1d20+5`¹ y piloto `Pilotar +2`².")]
    (post,) = sender.posts
    assert post.notes == "Con el motor tocado."
    assert [r.sheet for r in post.rolls] == [False, True]
    async with table.sessions() as session:
        stored = (await session.exec(select(Post).where(Post.guild_id == GUILD))).one()
        logged = [await session.get(RollLog, i) for i in stored.roll_log_ids]
    assert stored.roll_log_id == stored.roll_log_ids[0] and stored.notes == "Con el motor tocado."
    assert [(r.kind, r.character_name, r.private) for r in logged] == [
        ("roll", "Ardelia", False),
        ("check", "Ardelia", False),
    ]
    assert logged[1].detail["option"].endswith("Pilotar")


async def test_a_private_mark_or_an_unknown_name_posts_nothing(table):
    from bot.db.models import RollLog

    for text, key in (
        ("Ardelia: [[privada: 1d20]]", "typing.error.private"),
        ("Ardelia: hola\n-# gm: sé quién es el traidor", "typing.error.private"),
        ("Ardelia: [[Bailar claqué]]", "inline.error.unknown"),
        ("Ardelia: [[1d20", "typing.error.bad_brackets"),
        # refused before its first roll: nothing is rolled, so no result to try again
        ("Ardelia: Disparo [[1d20+3]] y bailo [[Bailar claqué]]", "inline.error.unknown"),
        ("Ardelia: Disparo [[1d20+3]] y [[1d20+]]", "dice.error.unexpected_end"),
    ):
        outcome, sender = await _say(table, ANA, text)
        assert (outcome, sender.sent, sender.deleted, sender.told) == (
            TypedOutcome.REFUSED,
            [],
            False,
            [key],
        ), text
    async with table.sessions() as session:
        assert (await session.exec(select(RollLog).where(RollLog.guild_id == GUILD))).all() == []


async def test_a_hidden_npcs_rolls_are_sealed_by_the_audience_rule(table):
    """Issue 24 through issue 22 §1: a typed post's rolls carry who may see them, decided
    when rolled (a hidden NPC's numbers are the GM's until it is revealed); the scene's
    readers and the GM channel's copy are both rendered from that, and nothing else."""
    from bot.db.models import RollLog
    from bot.services.shared.audience import Reader, Reveals, Secrecy, sight
    from bot.services.table.posting import rolls_seen

    _, sender = await _say(table, GM, "Espía: Te sigo [[Sigilo]] y [[1d20]].")
    (post,) = sender.posts
    seen = post.seen()
    assert [shown.value for shown in seen.shown] == [None, None]  # «tirada secreta»
    assert [shown.value for shown in seen.for_gm] == list(post.rolls)
    async with table.sessions() as session:
        rows = [await session.get(RollLog, roll.log_id) for roll in post.rolls]
    for row in rows:
        secrecy = Secrecy.of_row(row)
        assert secrecy.npc_id == post.speaker.character_id and row.character_name == "Espía"
        everyone = sight(secrecy, Reader.everyone(), written_at=row.created_at)
        assert everyone is not None and not everyone.shows(Part.TOTAL)
        # a reveal after the roll lifts what the NPC sealed, and nothing more
        revealed = Reveals({post.speaker.character_id: datetime.now(UTC) + timedelta(1)})
        after = sight(secrecy, Reader.everyone(), written_at=row.created_at, reveals=revealed)
        assert after is not None and after.shows(Part.TOTAL)
    # a player's typed roll in the scene: its numbers are everyone's, no GM copy
    _, sender = await _say(table, ANA, "Ardelia: Despego [[1d20]].")
    (public,) = sender.posts
    assert [s.value for s in public.seen().shown] == list(public.rolls)
    assert rolls_seen(public.rolls, Reader.everyone()).for_gm == ()


async def test_rolls_outside_a_scene_answer_as_roll_when_the_campaign_wants(table):
    message = TypedMessage(HERE, ANA, 1, "Tiro [[1d20+3]]", False, "mesa", in_thread=False)
    sender = Recorder()
    assert await table.typing.handle(message, sender) == TypedOutcome.IGNORED
    await table.campaigns.update_settings(HERE, GM, _setting("tiradas_en_mensajes", "sí"))
    assert await table.typing.handle(message, sender) == TypedOutcome.ROLLED
    (who, rolls) = sender.answered[0]
    assert who == "Cora" and rolls[0].expression.startswith("1d20")  # her active character
    private = TypedMessage(HERE, ANA, 2, "[[privada: 1d20]]", False, "mesa", in_thread=False)
    assert await table.typing.handle(private, sender) == TypedOutcome.REFUSED
    assert sender.told == ["typing.error.private_roll"]


async def test_no_roll_in_a_closed_scene(table):
    """Issue 22 §5: a closed scene's thread is locked, but the GM may still write in it; a
    «[[1d20]]» there is not rolled (nothing logged), and the GM is told why."""
    from bot.db.models import RollLog

    await table.campaigns.update_settings(HERE, GM, _setting("tiradas_en_mensajes", "sí"))
    await table.campaigns.update_settings(HERE, GM, _setting("escribir_como_personaje", "no"))
    await table.scenes.scene_for(SCENE, title="La posada")
    await table.scenes.close(SCENE, GM)
    sender = Recorder()
    message = TypedMessage(SCENE, GM, 1, "((tirad)) [[1d20]]", False, "La posada")
    assert await table.typing.handle(message, sender) == TypedOutcome.REFUSED
    assert sender.told == ["scene.error.closed"] and sender.answered == []
    async with table.sessions() as session:
        assert (await session.exec(select(RollLog).where(RollLog.guild_id == GUILD))).all() == []


async def test_a_message_deleted_or_edited_before_its_turn(table):
    from bot.db.models import RollLog

    # deleted while it waited: nothing is posted, nothing recorded
    outcome, sender = await _say(table, ANA, "Ardelia: me lo pienso", now=None)
    assert (outcome, sender.sent, sender.told) == (TypedOutcome.WITHDRAWN, [], [])
    # edited: posted as it reads now, decided again (another speaker, rolled now)
    outcome, sender = await _say(table, ANA, "Ardelia: hola", now="Cora: hola [[1d6]]")
    assert outcome == TypedOutcome.POSTED and sender.sent == [("Cora", "hola `1d6`")]
    assert len(sender.posts[0].rolls) == 1
    # edited out of character: it stays the member's own
    outcome, sender = await _say(table, ANA, "Ardelia: hola", now="((me voy a cenar))")
    assert (outcome, sender.sent, sender.deleted) == (TypedOutcome.WITHDRAWN, [], False)
    # a typo fixed after its rolls were made: posted with those rolls
    outcome, sender = await _say(
        table,
        ANA,
        "Ardelia: disparo [[1d20]] al trasgo",
        now="Ardelia: disparo [[1d20]] al trasgo.",
    )
    assert outcome == TypedOutcome.POSTED
    assert sender.sent == [("Ardelia", "disparo `1d20` al trasgo.")]
    async with table.sessions() as session:
        stored = (
            await session.exec(select(Post).where(Post.guild_id == GUILD).order_by(Post.id.desc()))
        ).first()
    assert stored.roll_log_ids == [sender.posts[0].rolls[0].log_id]
    # its rolls changed (or who speaks) after they were made: refused, nothing posted
    for edit in ("Ardelia: disparo [[1d20+5]]", "Cora: disparo [[1d20]]"):
        outcome, sender = await _say(table, ANA, "Ardelia: disparo [[1d20]]", now=edit)
        assert (outcome, sender.sent, sender.deleted) == (TypedOutcome.FAILED, [], False)
        assert sender.told == ["typing.error.edited_rolls"]
    async with table.sessions() as session:
        rolled = (await session.exec(select(RollLog).where(RollLog.guild_id == GUILD))).all()
    assert len(rolled) == 4  # the refused ones' rolls stay in the log, as every roll does
    # refused after rolling (FAILED): an edit must not try it again (no second try at them);
    # refused before anything rolled (REFUSED): its author may fix it by editing it
    outcome, _sender = await _say(table, ANA, "Ardelia: disparo [[Pilotr]]")
    assert outcome == TypedOutcome.REFUSED

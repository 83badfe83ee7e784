"""Posting by typing, as on Umbría (issue 24), end to end through the stand-in: the real bot
with ``ARBITRO_MESSAGE_CONTENT=1`` and Message Content enabled in the portal, members
writing messages as the Discord client sends them."""

from __future__ import annotations

import copy
import gzip
import io
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.i18n import t
from standin.client import GuildHandle, Sandbox
from standin.guilds import ChannelRef
from standin.intents import MESSAGE_CONTENT
from standin.replies import Msg
from tests.databases import BACKENDS, bot_database
from tests.e2e.conftest import _start_migrated
from tests.e2e.helpers import new_campaign, says, sheet_file, start_arbitro
from tests.e2e.test_post import _inputs
from tests.examples import ARDELIA

pytestmark = pytest.mark.e2e

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)
MANAGE_WEBHOOKS, MANAGE_MESSAGES = 1 << 29, 1 << 13


@pytest.fixture(scope="module", params=BACKENDS)
def typing_env(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: Path
) -> Iterator[Sandbox]:
    """Árbitro reading messages (``ARBITRO_MESSAGE_CONTENT=1``, the intent enabled in the
    portal), on each backend; tests isolate with a guild of their own."""
    tmp = tmp_path_factory.mktemp(f"typing-{request.param}")
    with bot_database(request.param, tmp) as url:
        _start_migrated(url, migrated_sqlite)
        sb = start_arbitro(
            url, tmp, {"ARBITRO_MESSAGE_CONTENT": "1"}, portal_intents=MESSAGE_CONTENT
        )
        try:
            yield sb
        finally:
            sb.close()


def _sheet(name: str) -> bytes:
    sheet = copy.deepcopy(ARDELIA)
    sheet["name"] = name
    return sheet_file(sheet)


def _table(sb: Sandbox, name: str) -> tuple[GuildHandle, ChannelRef]:
    """A forum campaign with typing on: Ana plays Ardelia, Bruno plays Brisa, the GM has the
    NPC Trasgo; the scene is a forum post."""
    g = sb.new_guild(name=name)
    scene = g.forum_post("foro", "Escena 1: la posada", user="gm")
    sb.command(
        "campaign create", {"name": name, "system": "nucleo"}, guild=g, channel=scene, user="gm"
    ).expect_ok()
    sb.command(
        "campaign settings",
        {"setting": "escribir_como_personaje", "value": "sí"},
        guild=g,
        channel=scene,
        user="gm",
    ).expect_ok()
    for user, who in (("ana", "Ardelia"), ("bruno", "Brisa")):
        sb.command(
            "sheet import", {"file": _sheet(who)}, guild=g, channel=scene, user=user
        ).expect_ok()
    trasgo = copy.deepcopy(ARDELIA)
    trasgo["name"] = "Trasgo"
    sb.command(
        "sheet import", {"file": sheet_file(trasgo, npc=True)}, guild=g, channel=scene, user="gm"
    ).expect_ok()
    return g, scene


def _posts(sb: Sandbox, g: GuildHandle, channel: ChannelRef) -> list[Msg]:
    return [m for m in sb.channel_messages(g, channel) if m.data.get("webhook_id")]


def _dm(sb: Sandbox, g: GuildHandle, user: str) -> str:
    return "\n".join(m.content for m in sb.direct_messages(g, user))


def test_a_tagged_post_a_sticky_post_and_out_of_character(typing_env):
    sb = typing_env
    g, scene = _table(sb, "Posada")
    written = g.write(scene, "Ardelia: **—¡Despegamos!** —grita.\n\n*No me fío.*", user="ana")
    assert written is not None
    (post,) = _posts(sb, g, scene)
    assert post.author == "Ardelia"
    assert post.content == "**—¡Despegamos!** —grita.\n\n*No me fío.*"  # the tag is gone
    assert sb.message(written.id).deleted  # the original went once the post existed
    # recorded like a /post: its author may edit it from the message menu
    editing = sb.context_menu("Editar publicación", post, guild=g, user="ana")
    assert editing.modal is not None
    refused = sb.context_menu("Editar publicación", post, guild=g, user="bruno")
    assert says(refused, "post.error.not_yours")
    # without a tag, her character in this scene speaks (her active one)
    g.write(scene, "Sigo hablando.", user="ana")
    assert [p.author for p in _posts(sb, g, scene)] == ["Ardelia", "Ardelia"]
    # out of character stays hers, untouched
    for ooc in ("((vuelvo en cinco minutos))", "// ¿alguien tiene el PDF?"):
        kept = g.write(scene, ooc, user="ana")
        assert kept is not None and not sb.message(kept.id).deleted
    assert len(_posts(sb, g, scene)) == 2
    # the round of posts knows Ardelia posted
    status = sb.command("scene status", {}, guild=g, channel=scene, user="gm")
    assert "Ardelia" in status.all_text


def test_the_gm_speaks_as_an_npc_and_as_the_narrator_and_nobody_is_pinged(typing_env):
    sb = typing_env
    g, scene = _table(sb, "Camino")
    g.write(scene, "Trasgo: ¡Alto ahí, <@" + str(g.member("ana").id) + ">! @everyone", user="gm")
    g.write(scene, "Narrador: Cae la noche.", user="gm")
    g.write(scene, "Recordad tirar iniciativa.", user="gm")  # no tag, no character: the GM's own
    posts = _posts(sb, g, scene)
    assert [p.author for p in posts] == ["Trasgo", "Narrador"]
    assert posts[1].content == "Cae la noche."
    assert posts[0].data["mentions"] == [] and not posts[0].data["mention_everyone"]
    # a player cannot speak as the NPC: the words are hers, as her character
    g.write(scene, "Trasgo: soy yo, de verdad", user="ana")
    assert _posts(sb, g, scene)[-1].author == "Ardelia"


def test_a_second_character_sticks_after_its_tag(typing_env):
    sb = typing_env
    g, scene = _table(sb, "Dos personajes")
    sb.command("sheet import", {"file": _sheet("Cora")}, guild=g, channel=scene, user="ana")
    sb.command("sheet use", {"character": "Ardelia"}, guild=g, channel=scene, user="ana")
    g.write(scene, "Cora: Yo me quedo de guardia.", user="ana")
    g.write(scene, "Y no me muevo.", user="ana")
    assert [p.author for p in _posts(sb, g, scene)] == ["Cora", "Cora"]
    listed = sb.command("proxy list", {}, guild=g, channel=scene, user="ana")
    assert says(listed, "typing.sticky", name="Cora"), listed.text
    # in another scene her active character still speaks
    other = g.forum_post("foro", "Escena 2", user="gm")
    g.write(other, "Hola desde otra escena.", user="ana")
    assert [p.author for p in _posts(sb, g, other)] == ["Ardelia"]


def test_added_tags_and_their_limits(typing_env):
    sb = typing_env
    g, scene = _table(sb, "Etiquetas")
    added = sb.command("proxy add", {"tag": "A:"}, guild=g, channel=scene, user="ana")
    assert added.ok and "`A: texto`" in added.text, added.text
    taken = sb.command("proxy add", {"tag": "a:"}, guild=g, channel=scene, user="bruno")
    assert says(taken, "typing.error.tag_taken", tag="a: texto"), taken.text
    named = sb.command("proxy add", {"tag": "Brisa:"}, guild=g, channel=scene, user="ana")
    assert says(named, "typing.error.tag_taken", tag="Brisa: texto"), named.text
    reserved = sb.command("proxy add", {"tag": "[[x"}, guild=g, channel=scene, user="ana")
    assert says(reserved, "typing.error.tag_reserved", tag="[[x"), reserved.text
    sb.command("proxy add", {"tag": "-texto-"}, guild=g, channel=scene, user="ana").expect_ok()
    g.write(scene, "A: corto", user="ana")
    g.write(scene, "-entre guiones-", user="ana")
    posts = _posts(sb, g, scene)
    assert [(p.author, p.content) for p in posts] == [
        ("Ardelia", "corto"),
        ("Ardelia", "entre guiones"),
    ]
    sb.command("proxy remove", {"tag": "A:"}, guild=g, channel=scene, user="ana").expect_ok()
    listed = sb.command("proxy list", {}, guild=g, channel=scene, user="ana")
    assert "`A: texto`" not in listed.text and "`-texto-`" in listed.text


def test_an_image_is_carried_over_and_a_long_post_split(typing_env):
    sb = typing_env
    g, scene = _table(sb, "Mapa")
    written = g.write(scene, "Ardelia: Mirad el mapa.", user="ana", files=[("mapa.png", PNG)])
    assert written is not None
    (post,) = _posts(sb, g, scene)
    assert post.attachments == {"mapa.png": PNG}
    assert sb.message(written.id).deleted
    paragraphs = [f"Párrafo {i}: " + "palabra " * 150 for i in range(4)]
    g.write(scene, "Ardelia: " + "\n\n".join(paragraphs), user="ana")
    parts = _posts(sb, g, scene)[1:]
    assert len(parts) >= 2 and all(len(p.content) <= 2000 for p in parts)
    assert "\n\n".join(p.content for p in parts) == "\n\n".join(paragraphs).strip()


def test_a_file_too_big_to_carry_keeps_the_original(typing_env):
    sb = typing_env
    g, scene = _table(sb, "Grande")
    big = b"\0" * (11 * 1024 * 1024)  # over the 10 MiB a server without boosts lets the bot upload
    written = g.write(scene, "Ardelia: El vídeo.", user="ana", files=[("video.mp4", big)])
    assert written is not None
    (post,) = _posts(sb, g, scene)
    assert post.content == "El vídeo." and post.attachments == {}
    assert not sb.message(written.id).deleted  # deleting it would delete the file
    assert t("typing.files_kept", "es") in _dm(sb, g, "ana")
    # the kept original's later edits follow: the post reads as its author left it...
    g.edit(written, "Ardelia: El vídeo de la boda.\n-# dura 3 minutos", user="ana")
    (post,) = _posts(sb, g, scene)
    assert post.content.startswith("El vídeo de la boda.") and "dura 3 minutos" in post.content
    # ...but not a change of who speaks or of its rolls (none were made: it would roll now)
    g.edit(written, "Ardelia: El vídeo [[1d6]].", user="ana")
    (post,) = _posts(sb, g, scene)
    assert post.content.startswith("El vídeo de la boda.")
    assert t("typing.error.edited_original", "es").split(":")[0] in _dm(sb, g, "ana")
    # another message's edit is no post's: nothing changes
    other = g.write(scene, "((ahora vuelvo))", user="ana")
    assert other is not None
    g.edit(other, "((ya estoy))", user="ana")
    assert len(_posts(sb, g, scene)) == 1


def test_a_failed_post_leaves_the_original_and_says_why(typing_env):
    sb = typing_env
    g, scene = _table(sb, "Sin permiso")
    g.deny_bot("foro", MANAGE_WEBHOOKS)
    written = g.write(scene, "Ardelia: ¿Hay alguien?", user="ana")
    assert written is not None and not sb.message(written.id).deleted
    assert _posts(sb, g, scene) == []
    assert "Gestionar webhooks" in _dm(sb, g, "ana")
    shown = sb.command("campaign show", {}, guild=g, channel=scene, user="gm")
    assert says(shown, "post.missing_permission")
    g.allow_bot("foro")
    g.deny_bot("foro", MANAGE_MESSAGES)
    kept = g.write(scene, "Ardelia: ¿Y ahora?", user="ana")
    assert kept is not None and not sb.message(kept.id).deleted and _posts(sb, g, scene) == []
    assert says(
        sb.command("campaign show", {}, guild=g, channel=scene, user="gm"),
        "typing.status.no_manage_messages",
    )


def test_two_players_typing_at_once_keep_their_order(typing_env):
    sb = typing_env
    g, scene = _table(sb, "A la vez")
    burst = [
        (scene, f"{who}: mensaje {i}", user)
        for i in range(4)
        for who, user in (("Ardelia", "ana"), ("Brisa", "bruno"))
    ]
    written = g.write_together(burst)
    posts = _posts(sb, g, scene)
    assert [p.content for p in posts] == [text.split(": ", 1)[1] for _, text, _ in burst]
    assert [p.author for p in posts] == [text.split(":")[0] for _, text, _ in burst]
    assert all(sb.message(m.id).deleted for m in written)


def test_a_message_deleted_or_edited_while_it_waits_for_its_turn(typing_env):
    """Posts wait in their channel's queue (here behind a rate limit): one deleted meanwhile
    is not posted, one with a typo fixed is posted as fixed, one whose roll was changed after
    it was made is refused and stays as edited."""
    sb = typing_env
    g, scene = _table(sb, "En cola")
    before = sb.set_webhook_limit((1, 1.5))
    try:
        written = g.write_together(
            [
                (scene, "Ardelia: Primero.", "ana"),
                (scene, "Brisa: Segundo.", "bruno"),  # waits for the webhook's next window
                (scene, "Ardelia: Con una herrata.", "ana"),
                (scene, "Brisa: Me lo pienso.", "bruno"),
                (scene, "Ardelia: Disparo [[1d20]].", "ana"),
            ],
            wait=False,
        )
        # the first is posted: the second waits for the window, and the rest behind it
        sb.wait_until(lambda: len(_posts(sb, g, scene)) == 1, "the first post")
        g.edit(written[2], "Ardelia: Sin errata.", user="ana", wait=False)
        g.delete(written[3], user="bruno", wait=False)
        g.edit(written[4], "Ardelia: Disparo [[1d20+10]].", user="ana", wait=False)
        sb.wait_for_messages([("MESSAGE_CREATE", m.id, 1) for m in written])
    finally:
        sb.set_webhook_limit(before)
    assert [p.content for p in _posts(sb, g, scene)] == ["Primero.", "Segundo.", "Sin errata."]
    assert [sb.message(m.id).deleted for m in written] == [True, True, True, True, False]
    assert sb.message(written[4].id).content == "Ardelia: Disparo [[1d20+10]]."
    assert "lo editaste mientras esperaba su turno" in _dm(sb, g, "ana")
    assert _dm(sb, g, "bruno") == ""


def test_a_forum_posts_opening_message_stays_and_its_thread_is_a_scene(typing_env):
    """A member opens a forum post by hand: its opening message (the thread's id) is never
    reposted nor deleted, even tagged; what follows in it posts as in any scene."""
    sb = typing_env
    g, _ = _table(sb, "Hilo a mano")
    opened = g.forum_post("foro", "La taberna", user="ana", content="Ardelia: Entro.")
    sb.wait_for_messages([("MESSAGE_CREATE", opened.id, 1)])
    assert not sb.message(opened.id).deleted and _posts(sb, g, opened) == []
    written = g.write(opened, "Ardelia: Pido una cerveza.", user="ana")
    assert written is not None and sb.message(written.id).deleted
    assert [p.content for p in _posts(sb, g, opened)] == ["Pido una cerveza."]


def test_a_reply_is_quoted_and_bots_and_webhooks_are_never_proxied(typing_env):
    sb = typing_env
    g, scene = _table(sb, "Respuesta")
    g.write(scene, "Brisa: ¿Quién anda ahí?", user="bruno")
    (first,) = _posts(sb, g, scene)
    g.write(scene, "Ardelia: Yo.", user="ana", reply_to=first)
    reply = _posts(sb, g, scene)[-1]
    assert reply.content.startswith("> ↪ [Brisa](") and str(first.id) in reply.content
    assert reply.content.endswith("Yo.")
    # the bot's own posts reached it as messages too, and it left them alone
    assert len(_posts(sb, g, scene)) == 2
    # so are other proxy bots' webhook posts and other bots' messages
    for webhook in (True, False):
        other = g.another_bot_says(scene, "Ardelia: soy Tupperbox", webhook=webhook)
        assert not sb.message(other.id).deleted
    assert len(_posts(sb, g, scene)) == 3  # Tupperbox's, untouched


def test_reproxy_posts_the_last_post_again_as_another_character(typing_env):
    sb = typing_env
    g, scene = _table(sb, "Reproxy")
    sb.command("sheet import", {"file": _sheet("Cora")}, guild=g, channel=scene, user="ana")
    sb.command("sheet use", {"character": "Ardelia"}, guild=g, channel=scene, user="ana")
    g.write(scene, "Esto lo dice Cora.", user="ana")  # her active character spoke: wrong one
    (wrong,) = _posts(sb, g, scene)
    assert wrong.author == "Ardelia"
    done = sb.command("reproxy", {"as": "Cora"}, guild=g, channel=scene, user="ana")
    assert done.ephemeral and says(done, "post.reproxied", name="Cora"), done.text
    (right,) = _posts(sb, g, scene)
    assert (right.author, right.content) == ("Cora", "Esto lo dice Cora.")
    assert sb.message(wrong.id).deleted
    # the same record: its author edits it from the new message
    assert sb.context_menu("Editar publicación", right, guild=g, user="ana").modal is not None
    refused = sb.command("reproxy", {"as": "Cora"}, guild=g, channel=scene, user="bruno")
    assert says(refused, "post.error.reproxy_none", minutes=5), refused.text


def test_rolls_a_sheet_option_and_notes_inside_the_text(typing_env):
    sb = typing_env
    g, scene = _table(sb, "Tiradas")
    text = "Ardelia: Despego [[1d20+5]] y piloto [[Pilotar]].\n-# Con el motor tocado."
    written = g.write(scene, text, user="ana")
    assert written is not None and sb.message(written.id).deleted
    (post,) = _posts(sb, g, scene)
    lines = post.content.splitlines()
    assert lines[0] == "Despego `1d20+5`¹ y piloto `Pilotar`²."
    assert "-# Con el motor tocado." in lines
    rolls = [line for line in lines if "🎲" in line]
    assert len(rolls) == 2 and rolls[0].startswith("-# ¹ 🎲") and "Pilotar" in rolls[1]
    # both in the roll log as Ardelia's, linked to the post
    history = sb.command("history", {}, guild=g, channel=scene, user="gm")
    assert history.all_text.count(str(post.id)) >= 2, history.all_text
    # the record keeps the notes: the edit form shows them
    editing = sb.context_menu("Editar publicación", post, guild=g, user="ana")
    fields = {c["custom_id"]: c.get("value") for c in _inputs(editing.modal)}
    assert fields["notes"] == "Con el motor tocado."


def test_private_rolls_and_private_notes_are_refused_in_typed_text(typing_env):
    sb = typing_env
    g, scene = _table(sb, "Privado")
    for text in ("Ardelia: [[privada: 1d20]]", "Ardelia: Asiento.\n-# privada: soy la espía"):
        kept = g.write(scene, text, user="ana")
        assert kept is not None and not sb.message(kept.id).deleted
    assert _posts(sb, g, scene) == []
    assert _dm(sb, g, "ana").count("/publicar") == 2


def test_a_refused_message_edited_by_its_author_is_tried_again(typing_env):
    """Refused before anything was rolled (a mistyped sheet option, a private mark), the
    message stays; its author fixes it by editing it, and it is posted then — once: a later
    edit of a message that was posted or left out of character is no new post."""
    sb = typing_env
    g, scene = _table(sb, "Corregido")
    written = g.write(scene, "Ardelia: Despego [[Pilotr]].", user="ana")
    assert written is not None and not sb.message(written.id).deleted
    assert _posts(sb, g, scene) == []
    g.edit(written, "Ardelia: Despego [[Pilotar]].", user="ana")
    assert sb.message(written.id).deleted
    (post,) = _posts(sb, g, scene)
    assert post.author == "Ardelia" and "Pilotar" in post.content
    marked = g.write(scene, "Ardelia: Me acerco.\n-# privada: soy la espía", user="ana")
    assert marked is not None and len(_posts(sb, g, scene)) == 1
    g.edit(marked, "Ardelia: Me acerco.\n-# me acerco sin prisa", user="ana")
    assert sb.message(marked.id).deleted and len(_posts(sb, g, scene)) == 2
    # a message that stayed as written for another reason (out of character) stays so
    aside = g.write(scene, "((vuelvo en un rato))", user="ana")
    assert aside is not None
    g.edit(aside, "Ardelia: Ya estoy.", user="ana")
    assert not sb.message(aside.id).deleted and len(_posts(sb, g, scene)) == 2


def test_a_bad_roll_in_the_text_posts_nothing_and_rolls_nothing(typing_env):
    """Every [[…]] is checked before the first is rolled: one the dice engine refuses keeps
    the message as written, tells its author what /roll would, and rolls none of the others."""
    sb = typing_env
    g, scene = _table(sb, "Mal tirado")
    kept = g.write(scene, "Ardelia: Disparo [[1d20+3]] y [[1d20+]]", user="ana")
    assert kept is not None and not sb.message(kept.id).deleted and _posts(sb, g, scene) == []
    assert "se acaba antes de tiempo" in _dm(sb, g, "ana")
    shown = sb.command("history", {}, guild=g, channel=scene, user="ana")
    assert "1d20+3" not in shown.text


def test_a_hidden_npcs_roll_shows_no_numbers_and_goes_to_the_gm_channel(typing_env):
    sb = typing_env
    g, scene = _table(sb, "Oculto")
    sb.command("campaign settings", {"gm_channel": "gm"}, guild=g, channel=scene, user="gm")
    espia = dict(ARDELIA, name="Espía")
    sb.command(
        "sheet import", {"file": sheet_file(espia, npc=True)}, guild=g, channel=scene, user="gm"
    ).expect_ok()
    sb.command("npc set", {"name": "Espía", "hidden": True}, guild=g, channel=scene, user="gm")
    mark = sb.mark()
    g.write(scene, "Espía: Te vigilo [[Sigilo]].", user="gm")
    (post,) = _posts(sb, g, scene)
    assert t("post.roll_secret", "es") in post.content
    copies = [m for channel, m in sb.posted_since(mark) if channel == "gm"]
    assert copies and "Sigilo" in copies[0].content


def _exported(sb: Sandbox, g: GuildHandle, channel: ChannelRef) -> tuple[str, str]:
    """The players' half and the GM's half of ``/campaign export``, as text."""
    exported = sb.command("campaign export", {}, guild=g, channel=channel, user="gm").expect_ok()
    files: dict[str, str] = {}
    for payload in exported.attachments.values():
        with zipfile.ZipFile(io.BytesIO(payload)) as archive:
            files |= {n: archive.read(n).decode("utf-8", "replace") for n in archive.namelist()}
    players = "\n".join(text for name, text in files.items() if not name.startswith("gm/"))
    return players, "\n".join(text for name, text in files.items() if name.startswith("gm/"))


def _read_by(sb: Sandbox, g: GuildHandle, scene: ChannelRef, user: str) -> str:
    """What one member reads of the campaign: /history, /catch-up, /scene status, and his
    /privacy export."""
    seen = [
        sb.command(command, options, guild=g, channel=scene, user=user).expect_ok().all_text
        for command, options in (
            ("history", {}),
            ("catch-up", {"since": "01/01/2026"}),
            ("scene status", {}),
        )
    ]
    (payload,) = (
        sb.command("privacy export", {}, guild=g, user=user).expect_ok().attachments.values()
    )
    seen.append((gzip.decompress(payload) if payload[:2] == b"\x1f\x8b" else payload).decode())
    return "\n".join(seen)


def test_a_hidden_npcs_typed_rolls_leak_through_no_output(typing_env):
    """The audience test's sentinels (tests/e2e/test_audience.py) for typed posts: a hidden
    NPC's numbers rolled in typed text are in its rolls' records, sealed (issue 22 §1), so no
    output shows them to players — the scene, /history, /catch-up, /scene status, /privacy
    export, the players' chronicle — while the GM reads them; a GM's note marked private is
    refused and repeated nowhere; revealing the NPC later lifts exactly what it sealed."""
    sb = typing_env
    g, scene = _table(sb, "Sellado")
    sb.command("campaign settings", {"gm_channel": "gm"}, guild=g, channel=scene, user="gm")
    espia = dict(ARDELIA, name="Espía")
    sb.command(
        "sheet import", {"file": sheet_file(espia, npc=True)}, guild=g, channel=scene, user="gm"
    ).expect_ok()
    sb.command("npc set", {"name": "Espía", "hidden": True}, guild=g, channel=scene, user="gm")
    g.write(scene, "Ardelia: Entro en la posada.", user="ana")
    mark = sb.mark()
    g.write(scene, "Espía: Me escondo [[1d20+7000]] tras la barra.", user="gm")
    (copy,) = [m for channel, m in sb.posted_since(mark) if channel == "gm"]
    total = re.search(r"\*\*(70\d\d)\*\*", copy.content)
    assert total, copy.content  # the GM reads the numbers in his channel
    secret = re.compile(rf"(?<!\d){total[1]}(?!\d)")
    kept = g.write(scene, "Espía: Os observo.\n-# gm: NOTA-GM-5150", user="gm")
    assert kept is not None and not sb.message(kept.id).deleted  # refused: told to use /post

    ours = "\n".join(  # the bot's messages and posts in the scene (not what members typed)
        m.text
        for m in sb.channel_messages(g, scene, everything=True)
        if m.data.get("webhook_id") or m.author in ("Árbitro", "Arbitro")
    )
    assert t("post.roll_secret", "es") in ours
    players_half, gm_half = _exported(sb, g, scene)
    readers = {
        "scene": ours,
        "ana": _read_by(sb, g, scene, "ana"),
        "bruno": _read_by(sb, g, scene, "bruno"),
        "players' chronicle": players_half,
    }
    leaks = [who for who, text in readers.items() if secret.search(_no_ids(text))]
    leaks += [who for who, text in readers.items() if "NOTA-GM-5150" in text]
    assert leaks == [], leaks
    gm_history = sb.command("history", {}, guild=g, channel=scene, user="gm").expect_ok()
    assert secret.search(gm_history.all_text) and secret.search(gm_half)  # the GM's: all
    # the NPC revealed: the numbers it sealed are the players' now
    sb.command("npc reveal", {"name": "Espía"}, guild=g, channel=scene, user="gm").expect_ok()
    history = sb.command("history", {}, guild=g, channel=scene, user="bruno").expect_ok()
    assert secret.search(history.all_text), history.all_text


def _no_ids(text: str) -> str:
    """Without Discord ids and mentions (a snowflake may hold any four digits)."""
    return re.sub(r"<[@#]\d+>|\d{15,}", "", text)


def test_a_roll_outside_a_scene_answers_as_roll_when_the_campaign_wants(typing_env):
    sb = typing_env
    g, scene = _table(sb, "Fuera")
    sb.command(
        "campaign settings",
        {"setting": "tiradas_en_mensajes", "value": "sí"},
        guild=g,
        channel=scene,
        user="gm",
    ).expect_ok()
    ooc = g.write(scene, "((a ver qué sale [[1d20]]))", user="ana")
    assert ooc is not None and not sb.message(ooc.id).deleted
    answer = sb.channel_messages(g, scene)[-1]
    assert answer.data.get("message_reference", {}).get("message_id") == str(ooc.id)
    assert "1d20" in answer.content and "Ardelia" in answer.content


def test_a_macro_in_roll_in_post_and_in_typed_text(typing_env):
    sb = typing_env
    g, scene = _table(sb, "Macros")
    added = sb.command(
        "macro add",
        {"name": "ataque", "roll": "[[1d20+5]] daño [[1d8+2]]"},
        guild=g,
        channel=scene,
        user="ana",
    )
    assert added.ok and says(added, "macro.added", name="ataque", owner="Ardelia"), added.text
    taken = sb.command(
        "macro add", {"name": "Pilotar", "roll": "1d20"}, guild=g, channel=scene, user="ana"
    )
    assert says(taken, "macro.error.option_name", name="Pilotar"), taken.text
    # /roll of the macro: both rolls, logged
    rolled = sb.command("roll", {"expression": "ataque"}, guild=g, channel=scene, user="ana")
    assert rolled.ok and "1d20" in rolled.text and "1d8" in rolled.text, rolled.text
    # /post's roll field
    opened = sb.command("post", {}, guild=g, channel=scene, user="ana")
    sb.submit_modal(opened, {"text": "¡Al ataque!", "roll": "ataque"}, user="ana").expect_ok()
    (modal_post,) = _posts(sb, g, scene)
    assert modal_post.content.count("🎲") == 2
    # typed text
    g.write(scene, "Ardelia: Otra vez [[ataque]].", user="ana")
    typed = _posts(sb, g, scene)[-1]
    assert typed.content.startswith("Otra vez `ataque`.")
    assert typed.content.count("🎲") == 2 and "ataque" in typed.content
    listed = sb.command("macro list", {}, guild=g, channel=scene, user="ana")
    assert "ataque" in listed.text and "[[1d20+5]]" in listed.text
    removed = sb.command("macro remove", {"name": "ataque"}, guild=g, channel=scene, user="ana")
    assert says(removed, "macro.removed", name="ataque")


def test_typing_is_off_until_the_campaign_turns_it_on(typing_env):
    sb = typing_env
    g = new_campaign(sb, "Apagado", "nucleo")
    thread = g.thread("mesa", "Escena")
    sb.command("sheet import", {"file": _sheet("Ardelia")}, guild=g, channel="mesa", user="ana")
    written = g.write(thread, "Ardelia: hola", user="ana")
    assert written is not None and not sb.message(written.id).deleted
    assert _posts(sb, g, thread) == []
    listed = sb.command("proxy list", {}, guild=g, channel=thread, user="ana")
    assert says(listed, "typing.off_here")


def test_the_portal_refusing_message_content_leaves_the_bot_running_and_the_gm_told(
    bot_database_url, tmp_path
):
    sb = start_arbitro(bot_database_url, tmp_path, {"ARBITRO_MESSAGE_CONTENT": "1"})
    try:
        # Discord closed the first connection (4014) and the bot came back without the intent
        assert sb.refused_identifies == [MESSAGE_CONTENT]
        assert not sb.world.identified["intents"] & MESSAGE_CONTENT
        assert sb.bot_log().count(t("cli.message_content_refused", "es")) == 1
        g = new_campaign(sb, "Sin intent", "nucleo")
        sb.command(
            "campaign settings",
            {"setting": "escribir_como_personaje", "value": "sí"},
            guild=g,
            channel="mesa",
            user="gm",
        ).expect_ok()
        shown = sb.command("campaign show", {}, guild=g, channel="mesa", user="gm")
        assert shown.ok and says(shown, "typing.status.refused"), shown.text
        # slash commands work as ever
        rolled = sb.command("roll", {"expression": "1d20"}, guild=g, channel="mesa", user="ana")
        assert rolled.ok and "1d20" in rolled.text
        # and a typed message is left alone (the bot does not even receive it)
        written = g.write("mesa", "Ardelia: hola", user="ana")
        assert written is not None and not sb.message(written.id).deleted
        assert sb.posted_since(written.id) == []
    finally:
        sb.close()

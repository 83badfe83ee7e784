"""/scene open|close|reopen|list end to end: forum tags, pinned header, summary, lock and
archive, a private scene in a text channel, and a thread opened by hand becoming a scene."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from tests.e2e.helpers import says, sheet_file
from tests.examples import ARDELIA

pytestmark = pytest.mark.e2e


def forum_campaign(sb, name):
    g = sb.new_guild(name=name)
    sb.command(
        "campaign create",
        {"name": "Umbría", "system": "nucleo"},
        guild=g,
        channel="foro",
        user="gm",
    ).expect_ok()
    return g


def open_scene(sb, g, where, options, text="Llegáis a la posada.", user="gm"):
    form = sb.command("scene open", options, guild=g, channel=where, user=user)
    assert form.modal is not None, form.text
    return sb.submit_modal(form, {"text": text}, user=user)


def scene_thread(sb, g, parent, title):
    (thread,) = [t for t in sb.threads(g, parent) if t.name == title]
    return thread


def test_a_forum_scene_opens_tagged_with_a_pinned_header_and_closes(discord_env):
    sb = discord_env
    g = forum_campaign(sb, "Foro de escenas")
    g.add_forum_tag("foro", "Abierta")
    g.add_forum_tag("foro", "Cerrada")
    g.add_forum_tag("foro", "Ciudad")
    lobby = g.forum_post("foro", "Presentaciones", user="gm")
    ana = g.member("ana")
    sb.command(
        "sheet import",
        {"file": sheet_file(json.loads(json.dumps(ARDELIA)))},
        guild=g,
        channel=lobby,
        user="ana",
    ).expect_ok()
    # players are not GMs
    refused = sb.command("scene open", {"title": "x"}, guild=g, channel=lobby, user="ana")
    assert refused.ephemeral and says(refused, "campaign.error.not_referee")
    # an unknown extra tag is refused before the form opens, naming the forum's tags
    unknown = sb.command(
        "scene open", {"title": "x", "tags": "Mazmorra"}, guild=g, channel=lobby, user="gm"
    )
    assert unknown.modal is None and "Mazmorra" in unknown.text and "Ciudad" in unknown.text
    done = open_scene(
        sb, g, lobby, {"title": "La posada", "players": f"<@{ana.id}>", "tags": "Ciudad"}
    )
    assert done.ok and not done.rejections, done.rejections
    thread = scene_thread(sb, g, "foro", "La posada")
    assert f"<#{thread.id}>" in done.all_text
    state = g.thread_state(thread.id)
    assert state["tags"] == ["Abierta", "Ciudad"] and not state["locked"]
    assert {"ana", "gm"} <= state["members"]
    messages = sb.channel_messages(g, thread, everything=True)
    assert messages[0].content == "Llegáis a la posada." and messages[0].id == thread.id
    header = next(m for m in messages if m.data.get("pinned"))
    assert "La posada" in header.text and "Ardelia" in header.text
    assert f"<@{ana.id}>" in header.text
    assert "Faltan: Ardelia" in header.text
    # a post as Ardelia moves the round of posts: the pinned header follows it
    form = sb.command("post", {}, guild=g, channel=thread, user="ana")
    assert form.modal is not None, form.text
    sb.submit_modal(form, {"text": "Entro y pido vino."}, user="ana")
    header = sb.message(header.id)
    assert "Han publicado: Ardelia" in header.text and "Faltan: —" in header.text, header.text
    # a roll and an XP grant in the scene are in the closing summary
    sb.command("roll", {"expression": "1d20"}, guild=g, channel=thread, user="ana").expect_ok()
    sb.command(
        "xp grant", {"amount": 4, "character": "Ardelia"}, guild=g, channel=thread, user="gm"
    ).expect_ok()
    not_gm = sb.command("scene close", {}, guild=g, channel=thread, user="ana")
    assert says(not_gm, "campaign.error.not_referee")
    closed = sb.command("scene close", {}, guild=g, channel=thread, user="gm")
    assert closed.ok and not closed.rejections, closed.rejections
    assert says(closed, "scene.closed", title="La posada")
    state = g.thread_state(thread.id)
    assert state["locked"] and state["archived"]
    assert state["tags"] == ["Cerrada", "Ciudad"]
    header = sb.message(header.id)
    assert "⚫ cerrada" in header.text and header.data["pinned"]
    summary = sb.channel_messages(g, thread)[-1]
    assert "Escena cerrada: La posada" in summary.text
    assert "**Ardelia** — publicaciones: 1 · tiradas: 1 · PX: +4" in summary.text
    # the GM's opening text is the scene's opening in the chronicle, as an Umbría scene's
    chronicle = sb.command("campaign export", {}, guild=g, channel=lobby, user="gm")
    ((_, payload),) = chronicle.attachments.items()
    pages = zipfile.ZipFile(io.BytesIO(payload))
    (html,) = [n for n in pages.namelist() if n.startswith("scenes/") and "posada.html" in n]
    page = pages.read(html).decode()
    body = page[page.find("<body") :][:1500]
    assert '<div class="opening">Llegáis a la posada.</div>' in page, body
    assert "Llegáis a la posada." in pages.read(html[:-5] + ".md").decode()
    assert "Totales" in summary.text and "PX concedidos aquí: +4" in summary.text
    # a locked thread refuses a player's message (no Manage Threads)
    assert not g.say(thread, "¿Hola?", user="ana")
    again = sb.command("scene close", {}, guild=g, channel=thread, user="gm")
    assert says(again, "scene.error.already_closed", title="La posada")
    # reopen: unlocked, unarchived, tagged open again, and said so in the scene
    reopened = sb.command("scene reopen", {}, guild=g, channel=thread, user="gm")
    assert reopened.ok and not reopened.rejections, reopened.rejections
    state = g.thread_state(thread.id)
    assert not state["locked"] and not state["archived"]
    assert state["tags"] == ["Abierta", "Ciudad"]
    assert g.say(thread, "¡Volvemos!", user="ana")
    assert "🟢 abierta" in sb.message(header.id).text
    assert says(reopened, "common.done")
    listed = sb.command("scene list", {}, guild=g, channel=lobby, user="ana")
    assert listed.ephemeral and f"<#{thread.id}>" in listed.text and "La posada" in listed.text
    # the forum post where the command ran was adopted as a scene on its first bot use
    assert f"<#{lobby.id}>" in listed.text and "Presentaciones" in listed.text


def test_a_forum_without_the_tag_and_without_manage_channels_tells_the_gm(discord_env):
    sb = discord_env
    g = forum_campaign(sb, "Foro sin etiquetas")
    lobby = g.forum_post("foro", "Vestíbulo", user="gm")
    done = open_scene(sb, g, lobby, {"title": "Camino"})
    assert done.ok and says(done, "scene.note.cannot_create_tag", name="Abierta")
    thread = scene_thread(sb, g, "foro", "Camino")
    assert g.thread_state(thread.id)["tags"] == [] and g.forum_tags("foro") == {}
    # no private posts in forums: said, with the alternative
    private = sb.command(
        "scene open", {"title": "Secreto", "private": True}, guild=g, channel=lobby, user="gm"
    )
    assert private.modal is None and says(private, "scene.error.private_in_forum")
    # with Manage Channels the bot creates the tag itself (in the GM's language)
    g.grant_bot(1 << 4)
    done = open_scene(sb, g, lobby, {"title": "Open road"}, user="gm")
    assert done.ok and not done.rejections, done.rejections
    assert list(g.forum_tags("foro").values()) == ["Abierta"]
    road = scene_thread(sb, g, "foro", "Open road")
    assert g.thread_state(road.id)["tags"] == ["Abierta"]
    closed = sb.command("scene close", {}, guild=g, channel=road, user="gm")
    assert closed.ok and not closed.rejections, closed.rejections
    assert sorted(g.forum_tags("foro").values()) == ["Abierta", "Cerrada"]
    assert g.thread_state(road.id)["tags"] == ["Cerrada"]


def test_a_form_used_twice_hands_the_text_back(discord_env):
    sb = discord_env
    g = forum_campaign(sb, "Formulario")
    lobby = g.forum_post("foro", "Vestíbulo", user="gm")
    form = sb.command("scene open", {"title": "Una vez"}, guild=g, channel=lobby, user="gm")
    first = sb.submit_modal(form, {"text": "Texto largo del máster."}, user="gm")
    assert first.ok and len([t for t in sb.threads(g, "foro") if t.name == "Una vez"]) == 1
    second = sb.submit_modal(form, {"text": "Texto largo del máster."}, user="gm")
    assert says(second, "scene.error.form_expired")
    assert second.attachments == {"escena.txt": "Texto largo del máster.".encode()}
    assert len([t for t in sb.threads(g, "foro") if t.name == "Una vez"]) == 1


def test_a_private_scene_in_a_text_channel_is_seen_by_its_players_only(discord_env):
    sb = discord_env
    g = sb.new_guild(name="Escena privada")
    sb.command(
        "campaign create", {"name": "Mesa", "system": "swc"}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    ana = g.member("ana")
    needs_players = sb.command(
        "scene open", {"title": "Aparte", "private": True}, guild=g, channel="mesa", user="gm"
    )
    assert says(needs_players, "scene.error.private_needs_players")
    tags = sb.command(
        "scene open", {"title": "Aparte", "tags": "Ciudad"}, guild=g, channel="mesa", user="gm"
    )
    assert says(tags, "scene.error.tags_need_forum")
    done = open_scene(
        sb, g, "mesa", {"title": "Aparte", "players": f"<@{ana.id}>", "private": True}
    )
    assert done.ok and not done.rejections, done.rejections
    thread = scene_thread(sb, g, "mesa", "Aparte")
    state = g.thread_state(thread.id)
    assert state["type"] == 12 and state["invitable"] is False
    assert state["members"] >= {"ana", "gm"} and "bruno" not in state["members"]
    assert g.say(thread, "Solo nosotros", user="ana")
    assert not g.say(thread, "¿Y yo?", user="bruno")  # bruno does not see it
    hidden = sb.command("scene list", {}, guild=g, channel="mesa", user="bruno")
    assert "Aparte" not in hidden.text
    shown = sb.command("scene list", {}, guild=g, channel="mesa", user="ana")
    assert "Aparte" in shown.text and "🔒" in shown.text
    closed = sb.command("scene close", {}, guild=g, channel=thread, user="gm")
    assert closed.ok and not closed.rejections, closed.rejections
    assert g.thread_state(thread.id)["locked"]


def test_a_thread_opened_by_hand_becomes_a_scene_and_the_off_topic_channel(discord_env):
    sb = discord_env
    g = sb.new_guild(name="Hilo a mano")
    sb.command(
        "campaign create", {"name": "Mesa", "system": "swc"}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    thread = g.thread("mesa", "Emboscada", user="gm")
    sb.command("roll", {"expression": "1d6"}, guild=g, channel=thread, user="ana").expect_ok()
    listed = sb.command("scene list", {}, guild=g, channel="mesa", user="ana")
    assert "Emboscada" in listed.text and f"<#{thread.id}>" in listed.text
    closed = sb.command("scene close", {}, guild=g, channel=thread, user="gm")
    assert closed.ok and g.thread_state(thread.id)["archived"]
    assert "tiradas: 1" in sb.channel_messages(g, thread)[-1].text
    # the off-topic place: a thread of the table; no scene opens there
    chatter = g.thread("mesa", "Charla", user="gm")
    settings = sb.command(
        "campaign settings", {"off_topic": chatter}, guild=g, channel="mesa", user="gm"
    )
    assert settings.ok and f"<#{chatter.id}>" in settings.text
    refused = sb.command("scene open", {"title": "x"}, guild=g, channel=chatter, user="gm")
    assert says(refused, "scene.error.off_topic_here")
    table = sb.command(
        "campaign settings", {"off_topic": "mesa"}, guild=g, channel="mesa", user="gm"
    )
    assert says(table, "scene.error.off_topic_is_table")
    sb.command("roll", {"expression": "1d6"}, guild=g, channel=chatter, user="ana").expect_ok()
    listed = sb.command("scene list", {}, guild=g, channel="mesa", user="gm")
    assert "Charla" not in listed.text


def test_missing_permissions_lose_nothing(discord_env):
    sb = discord_env
    g = sb.new_guild(name="Sin permisos")
    sb.command(
        "campaign create", {"name": "Mesa", "system": "swc"}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    ana = g.member("ana")
    g.grant_bot(1 << 36, revoke=True)  # Create Private Threads
    failed = open_scene(
        sb,
        g,
        "mesa",
        {"title": "Aparte", "players": f"<@{ana.id}>", "private": True},
        text="Lo que solo Ana lee.",
    )
    assert says(failed, "scene.error.missing_permissions")
    assert failed.attachments == {"escena.txt": b"Lo que solo Ana lee."}
    assert sb.threads(g, "mesa") == []
    done = open_scene(sb, g, "mesa", {"title": "Pública"})
    assert done.ok and not done.rejections, done.rejections
    thread = scene_thread(sb, g, "mesa", "Pública")
    g.deny_bot_in("mesa", 1 << 38)  # Send Messages in Threads
    closed = sb.command("scene close", {}, guild=g, channel=thread, user="gm")
    assert says(closed, "scene.note.cannot_post") and says(closed, "scene.closed", title="Pública")
    assert g.thread_state(thread.id)["locked"]

"""/post end to end: posting as a character through the channel webhook (forum posts with the
thread parameter), editing and deleting, GM-only posts, GM ↔ player private threads,
a deleted webhook recreated and a missing permission that hands the text back."""

from __future__ import annotations

import gzip
import hashlib
import io
import re
import zipfile

import pytest

from bot.i18n import t
from standin.client import GuildHandle, Sandbox
from standin.replies import Msg, Reply
from tests.e2e.helpers import new_campaign, says, sheet_file
from tests.examples import ARDELIA, image

pytestmark = pytest.mark.e2e

#: A real 1×1 PNG, as Pillow writes it (the bot reads its header).
PNG = image("png", 1, 1)
MANAGE_WEBHOOKS = 1 << 29


def _post(
    sb: Sandbox,
    g: GuildHandle,
    channel: object,
    values: dict[str, str],
    *,
    user: str = "ana",
    options: dict[str, object] | None = None,
    locale: str = "es-ES",
) -> Reply:
    opened = sb.command("post", options or {}, guild=g, channel=channel, user=user, locale=locale)
    assert opened.modal is not None, opened.text
    return sb.submit_modal(opened, values, user=user, locale=locale)


def _webhook_posts(sb: Sandbox, g: GuildHandle, channel: object) -> list[Msg]:
    return [m for m in sb.channel_messages(g, channel) if m.data.get("webhook_id")]


def _forum_table(sb: Sandbox) -> tuple[GuildHandle, object]:
    """A campaign bound to #foro (created from its first forum post) with Ana's Ardelia."""
    g = sb.new_guild(name="Foro de rol")
    scene = g.forum_post("foro", "Escena 1: la posada", user="gm")
    sb.command(
        "campaign create", {"name": "Umbría", "system": "nucleo"}, guild=g, channel=scene, user="gm"
    ).expect_ok()
    sb.command(
        "sheet import", {"file": sheet_file(ARDELIA)}, guild=g, channel=scene, user="ana"
    ).expect_ok()
    return g, scene


def test_posting_as_a_character_in_a_forum_post(discord_env):
    sb = discord_env
    g, scene = _forum_table(sb)
    sb.command(
        "sheet profile",
        {"avatar": ("ardelia.png", PNG), "concept": "Piloto mercenaria"},
        guild=g,
        channel=scene,
        user="ana",
    ).expect_ok()
    text = "**—¡Despegamos!** —grita Ardelia.\n\n*No me fío del trato.*"
    done = _post(sb, g, scene, {"text": text, "notes": "Tiro Pilotar.", "roll": "Pilotar"})
    assert done.ephemeral and "Ardelia" in done.text, done.text
    (post,) = _webhook_posts(sb, g, scene)
    # through the forum's webhook, inside the forum post (thread_id), as Ardelia, her avatar
    (hook,) = g.webhooks("foro")
    assert post.data["webhook_id"] == hook["id"] and post.channel_id == scene.id
    assert post.data["author"]["username"] == "Ardelia"
    avatar = post.data["author"]["avatar"]
    assert avatar and g.avatar(avatar) == PNG
    assert avatar == hashlib.sha256(PNG).hexdigest()[:32]
    assert post.content.startswith(text)  # Markdown kept as written
    assert "\n-# Tiro Pilotar." in post.content and "🎲" in post.content
    assert "Pilotar" in post.content
    # the roll is in the audit log, linked to the post
    history = sb.command("history", {}, guild=g, channel=scene, user="gm")
    assert "Ardelia" in history.text and str(post.id) in history.all_text, history.all_text
    # the public profile is what another player sees of her
    seen = sb.command("sheet show", {"character": "Ardelia"}, guild=g, channel=scene, user="bruno")
    assert "Piloto mercenaria" in seen.text and "Pilotar" not in seen.text
    own = sb.command("sheet show", {}, guild=g, channel=scene, user="ana")
    assert "Ardelia" in own.text and "Pilotar" in own.text


def test_editing_and_deleting_ones_own_post_and_not_someone_elses(discord_env):
    sb = discord_env
    g, scene = _forum_table(sb)
    _post(sb, g, scene, {"text": "Primer intento.", "roll": "2d6+1"})
    (post,) = _webhook_posts(sb, g, scene)
    roll_line = post.content.splitlines()[-1]
    refused = sb.context_menu("Editar publicación", post, guild=g, user="bruno")
    assert refused.ephemeral and says(refused, "post.error.not_yours"), refused.text
    refused = sb.context_menu("Delete post", post, guild=g, user="bruno", locale="en-US")
    assert says(refused, "post.error.not_yours", "en"), refused.text
    editing = sb.context_menu("Editar publicación", post, guild=g, user="ana")
    assert editing.modal is not None
    fields = {c["custom_id"]: c.get("value") for c in _inputs(editing.modal)}
    assert fields == {"text": "Primer intento.", "notes": None}  # no new roll on an edit
    sb.submit_modal(editing, {"text": "Segundo intento, mejor."}, user="ana").expect_ok()
    edited = sb.message(post.id)
    assert edited.content.startswith("Segundo intento, mejor.")
    assert roll_line in edited.content  # the roll stays as rolled
    assert "(editado)" in edited.content
    deleting = sb.context_menu("Borrar publicación", post, guild=g, user="ana")
    assert "Segundo intento, mejor." in deleting.all_text  # the text handed back
    # as a deletion's, not as a failed post's («No se ha podido publicar: …»)
    deleted = t("post.deleted", "es", name="Ardelia")
    assert says(deleting, "post.deleted_copy", reason=deleted), deleting.all_text
    assert not says(deleting, "post.returned", reason=deleted), deleting.all_text
    assert sb.message(post.id).deleted and _webhook_posts(sb, g, scene) == []


def test_the_gm_as_an_npc_and_a_post_for_the_gm_only(discord_env):
    sb = discord_env
    g, scene = _forum_table(sb)
    sb.command("campaign settings", {"gm_channel": "gm"}, guild=g, channel=scene, user="gm")
    sb.command(
        "sheet import",
        {"file": sheet_file(dict(ARDELIA, name="Trasgo"), npc=True)},
        guild=g,
        channel=scene,
        user="gm",
    ).expect_ok()
    offered = sb.autocomplete("post", "as", "tra", guild=g, channel=scene, user="gm")
    assert [o["value"] for o in offered] == ["Trasgo"]
    assert sb.autocomplete("post", "as", "", guild=g, channel=scene, user="ana") == [
        {"name": "Ardelia", "value": "Ardelia"}
    ]
    _post(sb, g, scene, {"text": "—Grrr."}, user="gm", options={"as": "Trasgo"})
    _post(sb, g, scene, {"text": "Cae la noche."}, user="gm", options={"as": "Narrador"})
    sb.command(
        "sheet import",
        {"file": sheet_file(dict(ARDELIA, name="Clyde el Discordante"), npc=True)},
        guild=g,
        channel=scene,
        user="gm",
    ).expect_ok()
    _post(sb, g, scene, {"text": "—Yo no fui."}, user="gm", options={"as": "Clyde el Discordante"})
    names = [m.data["author"]["username"] for m in _webhook_posts(sb, g, scene)]
    assert names[:2] == ["Trasgo", "Narrador"]
    # Discord refuses "clyde" and "discord" in a webhook name: a look-alike letter, visibly
    assert names[2] != "Clyde el Discordante" and len(names[2]) == len("Clyde el Discordante")
    assert "clyde" not in names[2].casefold() and "discord" not in names[2].casefold()
    refused = sb.command("post", {"as": "Narrador"}, guild=g, channel=scene, user="ana")
    assert says(refused, "post.error.narrator_gm_only"), refused.text
    # a forum holds no private thread: the GM is asked for a text channel before typing
    refused = sb.command("post", {"to": "bruno"}, guild=g, channel=scene, user="gm")
    assert refused.modal is None and says(refused, "post.error.thread_channel_needed")
    mark = sb.mark()
    _post(sb, g, scene, {"text": "Le robo la cartera."}, options={"private": True})
    posted = sb.posted_since(mark)
    assert [channel for channel, _ in posted] == ["gm"]  # not in the scene
    ((_, secret),) = posted
    assert "Le robo la cartera." in secret.text and str(scene.id) in secret.text
    assert secret.data["author"]["username"] == "Ardelia"
    # the GM edits it where it is (the GM channel is not bound to the campaign)
    editing = sb.context_menu("Editar publicación", secret, guild=g, user="gm")
    sb.submit_modal(editing, {"text": "Le robo la bolsa."}, user="gm").expect_ok()
    edited = sb.message(secret.id)
    assert edited.content.startswith(secret.content.split("\n")[0])  # the link to the scene
    assert "Le robo la bolsa." in edited.content and "(editado)" in edited.content
    # private notes: the text in the scene, the notes in the GM channel
    mark = sb.mark()
    _post(sb, g, scene, {"text": "Sonrío.", "notes": "Miento."}, options={"private_notes": True})
    where = {channel: m for channel, m in sb.posted_since(mark)}
    assert "Miento." not in where[scene.name].text and "Miento." in where["gm"].text


def test_a_private_exchange_between_the_gm_and_one_player(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Hilos privados", "nucleo")
    sb.command("sheet import", {"file": sheet_file(ARDELIA)}, guild=g, user="ana").expect_ok()
    sb.command("campaign settings", {"gm_channel": "gm"}, guild=g, user="gm").expect_ok()
    _post(sb, g, "mesa", {"text": "Sabes algo que los demás no."}, user="gm", options={"to": "ana"})
    (thread,) = [t for t in sb.threads(g, "mesa")]
    (first,) = _webhook_posts(sb, g, thread)
    assert first.data["author"]["username"] == "Narrador"
    mark = sb.mark()
    _post(sb, g, thread, {"text": "¿Y qué hago?", "roll": "1d20"})
    posted = sb.posted_since(mark)
    where = [channel for channel, _ in posted]
    assert where.count(thread.name) == 1 and where.count("gm") == 1, where
    copy = next(m for channel, m in posted if channel == "gm")
    assert "1d20" in copy.text  # private roll: the GM-channel copy
    # the second private post reuses the same thread
    _post(sb, g, "mesa", {"text": "Nada, de momento."}, user="gm", options={"to": "ana"})
    assert len(sb.threads(g, "mesa")) == 1 and len(_webhook_posts(sb, g, thread)) == 3
    refused = sb.command("post", {"to": "ana"}, guild=g, user="ana")
    assert says(refused, "post.error.bad_player", limit=4), refused.text
    # a first private thread needs a text channel of this campaign: refused before typing
    refused = sb.command("post", {"to": "bruno", "thread_channel": "escena"}, guild=g, user="gm")
    assert says(
        refused, "post.error.thread_channel_outside", channel=f"<#{g.channel('escena').id}>"
    )


def test_a_player_whispers_to_other_players_with_the_gm_in_the_thread(discord_env):
    """Issue 24: a player's /post to: addresses chosen players through a private thread
    that holds them, the player and the GM; the other player answers there; rolls there are
    private (the GM channel gets the copy); the same members reuse the thread."""
    sb = discord_env
    g = new_campaign(sb, "Susurros", "nucleo")
    g.add_member("carla")
    for user, name in (("ana", "Ardelia"), ("bruno", "Brisa")):
        sheet = dict(ARDELIA, name=name)
        sb.command("sheet import", {"file": sheet_file(sheet)}, guild=g, user=user).expect_ok()
    sb.command("campaign settings", {"gm_channel": "gm"}, guild=g, user="gm").expect_ok()
    _post(sb, g, "mesa", {"text": "Psst, por aquí."}, options={"to": "bruno"})
    (thread,) = sb.threads(g, "mesa")
    assert g.thread_state(thread.id)["members"] >= {"ana", "bruno", "gm"}
    assert "carla" not in g.thread_state(thread.id)["members"]
    assert g.thread_state(thread.id)["type"] == 12  # private
    (first,) = _webhook_posts(sb, g, thread)
    assert first.data["author"]["username"] == "Ardelia"
    mark = sb.mark()
    _post(sb, g, thread, {"text": "Te sigo.", "roll": "1d20"}, user="bruno")
    where = [channel for channel, _ in sb.posted_since(mark)]
    assert where.count(thread.name) == 1 and where.count("gm") == 1, where
    # Bruno writing to Ana finds the same thread (the same members)
    _post(sb, g, "mesa", {"text": "¿Seguro?"}, user="bruno", options={"to": "ana"})
    assert len(sb.threads(g, "mesa")) == 1 and len(_webhook_posts(sb, g, thread)) == 3
    # with Carla too, another thread
    carla = g.member("carla").id
    _post(sb, g, "mesa", {"text": "Y tú."}, options={"to": "bruno", "others": f"<@{carla}>"})
    assert len(sb.threads(g, "mesa")) == 2


def test_a_whisper_is_found_by_every_member_it_was_addressed_to(discord_env):
    """Issue 24: a whisper's record names every member it was addressed to, so each finds it
    — its roll in /history, the post in /catch-up and /privacy export — through the audience
    rule, and nobody else does: not a player left out, not the players' chronicle."""
    sb = discord_env
    g = new_campaign(sb, "Confidencias", "nucleo")
    g.add_member("carla")
    for user, name in (("ana", "Ardelia"), ("bruno", "Brisa"), ("carla", "Cora")):
        sheet = dict(ARDELIA, name=name)
        sb.command("sheet import", {"file": sheet_file(sheet)}, guild=g, user=user).expect_ok()
    sb.command("campaign settings", {"gm_channel": "gm"}, guild=g, user="gm").expect_ok()
    dani = g.add_member("dani").id
    sb.command(
        "sheet import", {"file": sheet_file(dict(ARDELIA, name="Dalia"))}, guild=g, user="dani"
    )
    _post(
        sb,
        g,
        "mesa",
        {"text": "SUSURRO-4471 a medianoche.", "roll": "1d20+5000"},
        options={"to": "bruno", "others": f"<@{dani}>"},
    )
    (thread,) = sb.threads(g, "mesa")
    (post,) = _webhook_posts(sb, g, thread)
    total = re.search(r"\*\*(50\d\d)\*\*", post.content)
    assert total, post.content
    for user, finds in (("bruno", True), ("dani", True), ("carla", False), ("ana", True)):
        history = sb.command("history", {}, guild=g, channel="mesa", user=user).expect_ok()
        assert (total[1] in history.all_text) is finds, (user, history.all_text)
        export = sb.command("privacy export", {}, guild=g, user=user).expect_ok()
        (payload,) = export.attachments.values()
        text = (gzip.decompress(payload) if payload[:2] == b"\x1f\x8b" else payload).decode()
        assert ("SUSURRO-4471" in text) is finds, (user, "privacy export")
        if user == "ana":
            continue  # her own: /catch-up lists what others wrote
        caught = sb.command("catch-up", {"since": "01/01/2026"}, guild=g, channel="mesa", user=user)
        assert ("SUSURRO-4471" in caught.expect_ok().all_text) is finds, (user, caught.all_text)
    exported = sb.command("campaign export", {}, guild=g, channel="mesa", user="gm").expect_ok()
    players, gm = "", ""
    for payload in exported.attachments.values():
        with zipfile.ZipFile(io.BytesIO(payload)) as archive:
            for name in archive.namelist():
                text = archive.read(name).decode("utf-8", "replace")
                if name.startswith("gm/"):
                    gm += text
                else:
                    players += text
    assert "SUSURRO-4471" in gm and "SUSURRO-4471" not in players


def test_a_deleted_webhook_is_recreated_and_a_missing_permission_returns_the_text(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Webhooks", "nucleo")
    sb.command("sheet import", {"file": sheet_file(ARDELIA)}, guild=g, user="ana").expect_ok()
    _post(sb, g, "mesa", {"text": "Uno."})
    (old,) = g.webhooks("mesa")
    g.delete_webhooks("mesa")
    _post(sb, g, "mesa", {"text": "Dos."}).expect_ok()
    (new,) = g.webhooks("mesa")
    assert new["id"] != old["id"]
    first, _second = _webhook_posts(sb, g, "mesa")
    assert [m.content for m in _webhook_posts(sb, g, "mesa")] == ["Uno.", "Dos."]
    # the old webhook's message can no longer be edited (Discord ties it to its webhook)...
    editing = sb.context_menu("Editar publicación", first, guild=g, user="ana")
    refused = sb.submit_modal(editing, {"text": "Uno, corregido."}, user="ana")
    assert says(refused, "post.error.edit_gone") and "Uno, corregido." in refused.all_text
    # ...but it can still be deleted
    sb.context_menu("Borrar publicación", first, guild=g, user="ana").expect_ok()
    assert [m.content for m in _webhook_posts(sb, g, "mesa")] == ["Dos."]
    # a channel where the bot may not manage webhooks: the post fails, the text comes back
    g.deny_bot("escena", MANAGE_WEBHOOKS)
    sb.command(
        "campaign create",
        {"name": "Otra", "system": "nucleo"},
        guild=g,
        channel="escena",
        user="gm",
    ).expect_ok()
    lost = "Un texto largo que no debe perderse.\n\n**Nunca.**"
    failed = _post(
        sb, g, "escena", {"text": lost, "notes": "nota"}, user="gm", options={"as": "Narrador"}
    )
    assert failed.ephemeral and lost in failed.all_text and "nota" in failed.all_text
    assert says(failed, "post.error.no_manage_webhooks", channel=f"<#{g.channel('escena').id}>")
    assert g.webhooks("escena") == []
    shown = sb.command("campaign show", {}, guild=g, channel="escena", user="gm")
    assert says(shown, "post.missing_permission"), shown.all_text
    fine = sb.command("campaign show", {}, guild=g, channel="mesa", user="gm")
    assert not says(fine, "post.missing_permission")


def test_a_long_post_is_split_at_paragraphs_and_kept_whole_through_edits(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Largo", "nucleo")
    sb.command("sheet import", {"file": sheet_file(ARDELIA)}, guild=g, user="ana").expect_ok()
    first = "El viento " + "sopla fuerte sobre la cubierta, " * 58
    second = "*Pienso en casa.* " + "La noche es larga y fría, " * 70
    text = f"{first.strip()}\n\n{second.strip()}"
    assert 2000 < len(text) <= 4000
    _post(sb, g, "mesa", {"text": text, "notes": "Largo, lo sé."})
    parts = _webhook_posts(sb, g, "mesa")
    assert [p.content.split("\n\n")[0] for p in parts] == [first.strip(), second.strip()]
    assert all(len(p.content) <= 2000 for p in parts)
    assert parts[1].content.endswith("-# Largo, lo sé.")
    # an edit that fits in one message removes the second part; the record follows
    editing = sb.context_menu("Edit post", parts[1], guild=g, user="ana", locale="en-US")
    sb.submit_modal(editing, {"text": "Corto."}, user="ana", locale="en-US").expect_ok()
    assert [p.id for p in _webhook_posts(sb, g, "mesa")] == [parts[0].id]
    assert sb.message(parts[1].id).deleted
    sb.context_menu("Borrar publicación", parts[0], guild=g, user="ana").expect_ok()
    assert _webhook_posts(sb, g, "mesa") == []


def _inputs(modal: dict) -> list[dict]:
    found = []
    for top in modal.get("components") or []:
        found += list(top.get("components") or [])
        if isinstance(top.get("component"), dict):
            found.append(top["component"])
    return found

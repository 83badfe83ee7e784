"""The stand-in itself, driven through tests/e2e/tiny_bot.py (a plain discord.py 2.7 bot)."""

from __future__ import annotations

import pytest

from bot.sandbox.client import Sandbox

pytestmark = pytest.mark.e2e


@pytest.fixture
def g(tiny_env: Sandbox):
    return tiny_env.new_guild("Pruebas")


def test_slash_command_round_trip_carries_locale_and_guild(tiny_env: Sandbox, g) -> None:
    r = tiny_env.command("ping", guild=g, locale="en-US")
    assert r.ok and r.content == "pong en-US Pruebas"
    assert not r.ephemeral and not r.deferred
    assert r.message.data["type"] == 20


def test_synced_commands_carry_ids_and_localizations(tiny_env: Sandbox) -> None:
    by_name = {c["name"]: c for c in tiny_env.commands}
    assert by_name["ping"]["name_localizations"] == {"es-ES": "sonda"}
    assert all(c["id"].isdigit() and c["application_id"] for c in by_name.values())


def test_localized_name_reaches_the_canonical_command(tiny_env: Sandbox, g) -> None:
    assert tiny_env.command("sonda", guild=g).content.startswith("pong")


def test_subcommand_group_with_integer_and_number(tiny_env: Sandbox, g) -> None:
    r = tiny_env.command("tools dice sum", {"a": 4, "b": 6, "scale": 1.5}, guild=g)
    assert r.content == "suma=15"


@pytest.mark.parametrize(
    ("path", "options", "fragment"),
    [
        ("tools dice sum", {"a": 1, "c": 2}, "unknown option 'c'"),
        ("tools dice sum", {"b": 2}, "missing required option(s): a"),
        ("tools dice sum", {"a": 101}, "outside [0, 100]"),
        ("tools dice sum", {"a": "3"}, "must be an integer"),
        ("tools echo", {"text": "hola", "style": "bold"}, "not one of the choices"),
        ("tools echo", {"text": "", "style": "plain"}, "outside [1, 100]"),
        ("tools", {}, "needs a subcommand"),
        ("nada", {}, "unknown command /nada"),
    ],
)
def test_refuses_what_the_client_would_refuse(
    tiny_env: Sandbox, g, path, options, fragment
) -> None:
    r = tiny_env.command(path, options, guild=g)
    assert not r.ok
    assert fragment in r.error


def test_choices_and_embeds(tiny_env: Sandbox, g) -> None:
    r = tiny_env.command(
        "tools echo", {"text": "hola", "style": "embed", "loud": True}, guild=g, user="bruno"
    )
    assert r.embeds[0]["title"] == "Eco"
    assert "HOLA" in r.text and "by: bruno" in r.text


def test_resolved_member_role_channel_and_mentionable(tiny_env: Sandbox, g) -> None:
    post = g.forum_post("foro", "Escena 1", user="gm")
    r = tiny_env.command(
        "who",
        {"user": "dm2", "role": "Máster", "where": post, "thing": g.role("Máster")},
        guild=g,
        user="gm",
    )
    assert r.ephemeral
    assert r.content == "user=dm2 admin=True role=Máster where=Escena 1 thing=Máster"
    assert "admin=False" in tiny_env.command("who", {"user": "ana"}, guild=g, user="bruno").content


def test_channel_type_constraint_is_enforced(tiny_env: Sandbox, g) -> None:
    r = tiny_env.command("who", {"user": "ana", "where": "foro"}, guild=g)
    assert not r.ok and "has type 15" in r.error


def test_default_member_permissions_hide_commands(tiny_env: Sandbox, g) -> None:
    assert not tiny_env.command("admin", guild=g, user="ana").ok
    assert tiny_env.command("admin", guild=g, user="gm").content == "ok admin"


def test_players_cannot_use_the_hidden_gm_channel(tiny_env: Sandbox, g) -> None:
    r = tiny_env.command("ping", guild=g, channel="gm", user="ana")
    assert not r.ok and "cannot see" in r.error
    assert tiny_env.command("ping", guild=g, channel="gm", user="dm2").ok


def test_deferred_reply_then_followups_with_a_file(tiny_env: Sandbox, g) -> None:
    r = tiny_env.command("slow", {"private": True}, guild=g)
    assert r.deferred and r.ephemeral
    assert r.content == "primero"
    assert [m.content for m in r.followups] == ["primero", "segundo"]
    assert r.followups[1].ephemeral is False
    assert r.attachments["tiny.py"].startswith(b'"""A minimal discord.py bot')


def test_edit_of_the_original_response(tiny_env: Sandbox, g) -> None:
    r = tiny_env.command("edit", guild=g)
    assert r.content == "final"
    assert [e.content for e in r.edits] == ["final"]
    assert "borrador" not in r.all_text


def test_button_updates_the_message(tiny_env: Sandbox, g) -> None:
    r = tiny_env.command("counter", guild=g)
    assert [b["label"] for b in r.message.buttons] == ["Sumar", "Privado"]
    assert tiny_env.click(r, "Sumar").content == "cuenta: 1"
    clicked = tiny_env.click(r, "tiny:add", user="bruno")
    assert clicked.callback_type == 7 and clicked.content == "cuenta: 2"
    private = tiny_env.click(r, "privado", user="bruno")
    assert private.ephemeral and private.content == "solo para bruno"


def test_select_validates_options(tiny_env: Sandbox, g) -> None:
    r = tiny_env.command("counter", guild=g)
    assert tiny_env.select(r, 0, ["verde"]).content == "elegiste verde"
    refused = tiny_env.select(r, "tiny:pick", ["negro"])
    assert not refused.ok and "not among the options" in refused.error


def test_modal_submit(tiny_env: Sandbox, g) -> None:
    r = tiny_env.command("note", guild=g)
    assert r.modal["title"] == "Nota" and r.message is None
    assert tiny_env.submit_modal(r, {"text": "hola"}).content == "nota: hola (-)"
    assert not tiny_env.submit_modal(r, {"mood": "bien"}).ok
    assert "length 51" in tiny_env.submit_modal(r, {"text": "x" * 51}).error


def test_autocomplete(tiny_env: Sandbox, g) -> None:
    choices = tiny_env.autocomplete("spell", "name", "bola", guild=g)
    assert [c["value"] for c in choices] == ["Bola de fuego", "Bola de nieve"]


def test_channel_message_and_thread(tiny_env: Sandbox, g) -> None:
    r = tiny_env.command("announce", {"channel": "escena", "text": "sesión"}, guild=g)
    assert r.content == "hecho: hilo sesión"
    posted = tiny_env.channel_messages(g, "escena")
    assert [m.content for m in posted] == ["anuncio: sesión"]
    (thread,) = tiny_env.threads(g, "escena")
    assert thread.id == posted[0].id and thread.type == 11
    assert [m.content for m in tiny_env.channel_messages(g, thread)] == ["dentro del hilo"]


def test_forum_post_starter_message(tiny_env: Sandbox, g) -> None:
    r = tiny_env.command("post", {"forum": "foro", "title": "Sesión 2"}, guild=g)
    thread = next(t for t in tiny_env.threads(g, "foro") if t.name == "Sesión 2")
    assert r.content == f"post Sesión 2 {thread.id}"
    assert [m.content for m in tiny_env.channel_messages(g, thread)] == ["primer mensaje"]


def test_webhook_posts_as_a_character(tiny_env: Sandbox, g) -> None:
    tiny_env.command("npc", {"name": "Tabernero", "text": "¿Qué os pongo?"}, guild=g)
    (said,) = tiny_env.channel_messages(g, "mesa")
    assert said.author == "Tabernero" and said.content == "¿Qué os pongo?"


def test_attachment_option_is_served_from_loopback(tiny_env: Sandbox, g) -> None:
    r = tiny_env.command("upload", {"file": ("ficha.txt", b"hola mundo")}, guild=g)
    assert r.content == "ficha.txt: 10 bytes, hola "


def test_message_limit_is_enforced_like_discord(tiny_env: Sandbox, g) -> None:
    r = tiny_env.command("long", {"size": 2001}, guild=g)
    assert r.content == "rechazado: 50035"
    assert r.rejections and "2000 or fewer" in r.rejections[0]["error"]
    assert tiny_env.command("long", {"size": 2000}, guild=g).content == "x" * 2000


def test_resume_after_reconnect(tiny_env: Sandbox, g) -> None:
    before = tiny_env.server.gateway.resumes
    tiny_env.reconnect()
    r = tiny_env.command("ping", guild=g)
    assert r.content.startswith("pong")
    assert tiny_env.server.gateway.resumes == before + 1


def test_no_unknown_requests(tiny_env: Sandbox, g) -> None:
    tiny_env.command("ping", guild=g)
    assert tiny_env.unknown_requests == []

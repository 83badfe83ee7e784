"""The stand-in itself: driven through tests/e2e/tiny_bot.py (a plain discord.py 2.7 bot), and
on the wire without a bot (raw HTTP, raw gateway, the limits table, the launcher's guard)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import aiohttp
import pytest

from standin import launch
from standin.client import Sandbox
from standin.limits import check_message
from standin.server import StandIn

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


def test_expect_ok_for_setup_steps(tiny_env: Sandbox, g) -> None:
    assert tiny_env.command("ping", guild=g).expect_ok().content.startswith("pong")
    with pytest.raises(AssertionError, match="unknown command /nada"):
        tiny_env.command("nada", guild=g).expect_ok()
    with pytest.raises(AssertionError, match="2000 or fewer"):
        tiny_env.command("long", {"size": 2001}, guild=g).expect_ok()


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


def test_roles_and_channels_added_by_a_test_reach_the_bot(tiny_env: Sandbox, g) -> None:
    g.add_role("Jugadores", permissions=1 << 3)  # Administrator
    g.set_roles("bruno", ["Jugadores"])
    secret = g.add_channel("secreto", category="partida", visible_to=("Jugadores",))
    assert secret.parent_id == g.category("partida").id
    assert not tiny_env.command("ping", guild=g, channel="secreto", user="ana").ok
    r = tiny_env.command(
        "who", {"user": "bruno", "where": secret}, guild=g, channel="secreto", user="bruno"
    )
    assert r.content == "user=bruno admin=True where=secreto"


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


def test_the_wait_lasts_as_long_as_the_bot_works(tiny_env: Sandbox, g) -> None:
    """The launched bot reports when its interaction work is over, so a follow-up sent a
    second after the answer (far past the quiet period) is part of the reply."""
    r = tiny_env.command("linger", guild=g)
    assert r.content == "en ello"
    assert [m.content for m in r.followups] == ["hecho"]


def test_a_command_waiting_for_a_click_is_not_busy(tiny_env: Sandbox, g) -> None:
    """A command blocked in ``View.wait()`` waits for a person: the question comes back at
    once (not after the timeout), and the click's reply includes the work it unblocked."""
    import time

    began = time.monotonic()
    question = tiny_env.command("erase", guild=g)
    assert question.content == "¿Seguro?"
    assert time.monotonic() - began < tiny_env.timeout / 2
    done = tiny_env.click(question, "Sí")
    assert [m.content for m in done.followups] == ["borrado"]


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


def test_concurrent_clicks_from_threads_are_all_answered(tiny_env: Sandbox, g) -> None:
    r = tiny_env.command("counter", guild=g)
    users = ["ana", "bruno", "gm", "dm2"] * 3
    with ThreadPoolExecutor(max_workers=len(users)) as pool:
        replies = list(pool.map(lambda u: tiny_env.click(r, "Sumar", user=u), users))
    assert all(reply.callback_type == 7 for reply in replies)
    # each click was answered with its own count (the order the edits land in is the bot's race)
    seen = {reply.edits[0].content for reply in replies}
    assert seen == {f"cuenta: {n}" for n in range(1, len(users) + 1)}


def test_components_v2_layout_text_and_nested_buttons(tiny_env: Sandbox, g) -> None:
    r = tiny_env.command("panel", guild=g)
    assert r.content == "" and "Estado: activo" in r.text
    assert [b["label"] for b in r.message.buttons] == ["Cambiar", "Cerrar"]
    assert "Estado: pausado" in tiny_env.click(r, "Cambiar").text
    closed = tiny_env.click(r, "Cerrar")
    assert closed.callback_type == 6 and tiny_env.message(r.message.id).deleted


def test_select_validates_options(tiny_env: Sandbox, g) -> None:
    r = tiny_env.command("counter", guild=g)
    assert tiny_env.select(r, 0, ["verde"]).content == "elegiste verde"
    refused = tiny_env.select(r, "tiny:pick", ["negro"])
    assert not refused.ok and "not among the options" in refused.error


def test_user_and_channel_selects_resolve_their_values(tiny_env: Sandbox, g) -> None:
    r = tiny_env.command("assign", guild=g)
    assert tiny_env.select(r, "tiny:who", ["ana", g.member("dm2")]).content == "asignado a ana, dm2"
    assert tiny_env.select(r, 1, ["escena"]).content == "en escena"
    assert "has type 15" in tiny_env.select(r, 1, ["foro"]).error
    assert "takes 1..2 values" in tiny_env.select(r, 0, ["ana", "bruno", "gm"]).error


def test_modal_submit(tiny_env: Sandbox, g) -> None:
    r = tiny_env.command("note", guild=g)
    assert r.modal["title"] == "Nota" and r.message is None
    assert tiny_env.submit_modal(r, {"text": "hola"}).content == "nota: hola (-)"
    assert not tiny_env.submit_modal(r, {"mood": "bien"}).ok
    assert "length 51" in tiny_env.submit_modal(r, {"text": "x" * 51}).error


def test_autocomplete(tiny_env: Sandbox, g) -> None:
    choices = tiny_env.autocomplete("spell", "name", "bola", guild=g)
    assert [c["value"] for c in choices] == ["Bola de fuego", "Bola de nieve"]
    with pytest.raises(AssertionError, match="has no autocomplete"):
        tiny_env.autocomplete("tools echo", "text", "ho", guild=g)


def test_channel_message_and_thread(tiny_env: Sandbox, g) -> None:
    r = tiny_env.command("announce", {"channel": "escena", "text": "sesión"}, guild=g)
    assert r.content == "hecho: hilo sesión"
    posted = tiny_env.channel_messages(g, "escena")
    assert [m.content for m in posted] == ["anuncio: sesión"]
    (thread,) = tiny_env.threads(g, "escena")
    assert thread.id == posted[0].id and thread.type == 11
    assert [m.content for m in tiny_env.channel_messages(g, thread)] == ["dentro del hilo"]


def test_mentions_follow_allowed_mentions_like_discord(tiny_env: Sandbox, g) -> None:
    """``mentions`` come from the content filtered by ``allowed_mentions`` on every path a
    message takes (response, follow-up, channel message, webhook), as Discord computes them."""
    ana, bruno, role = g.member("ana"), g.member("bruno"), g.role("Máster")
    text = f"<@{ana.id}> <@!{bruno.id}> <@&{role.id}> @everyone"

    def seen(options: dict) -> list[dict]:
        before = {m.id for m in tiny_env.channel_messages(g, "mesa", everything=True)}
        r = tiny_env.command("mention", {"text": text, **options}, guild=g, user="gm")
        assert r.ok and len(r.followups) == 1, r
        posted = [
            m for m in tiny_env.channel_messages(g, "mesa", everything=True) if m.id not in before
        ]
        assert len(posted) == 4, posted  # response, follow-up, channel message, webhook
        return [m.data for m in posted]

    for data in seen({}):  # AllowedMentions.none(): nobody
        assert (data["mentions"], data["mention_roles"], data["mention_everyone"]) == (
            [],
            [],
            False,
        )
    for data in seen({"only": "bruno"}):  # exactly the listed user
        assert [int(u["id"]) for u in data["mentions"]] == [bruno.id]
        assert data["mention_roles"] == [] and not data["mention_everyone"]
    for data in seen({"parse_all": True}):
        assert [int(u["id"]) for u in data["mentions"]] == [ana.id, bruno.id]
        assert data["mention_roles"] == [str(role.id)] and data["mention_everyone"]


def test_allowed_mentions_parse_and_list_of_one_kind_are_exclusive() -> None:
    both = {"content": "x", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}
    error = check_message(both)
    assert error is not None and error["errors"]["allowed_mentions"]["users"]["_errors"]
    assert (
        check_message({"content": "x", "allowed_mentions": {"parse": [], "users": ["1"]}}) is None
    )


def test_forum_post_starter_message(tiny_env: Sandbox, g) -> None:
    r = tiny_env.command("post", {"forum": "foro", "title": "Sesión 2"}, guild=g)
    thread = next(t for t in tiny_env.threads(g, "foro") if t.name == "Sesión 2")
    assert r.content == f"post Sesión 2 {thread.id}"
    assert [m.content for m in tiny_env.channel_messages(g, thread)] == ["primer mensaje"]


def test_webhook_posts_as_a_character(tiny_env: Sandbox, g) -> None:
    tiny_env.command("npc", {"name": "Tabernero", "text": "¿Qué os pongo?"}, guild=g)
    (said,) = tiny_env.channel_messages(g, "mesa")
    assert said.author == "Tabernero" and said.content == "¿Qué os pongo?"


def test_context_menus_on_a_member_and_on_a_message(tiny_env: Sandbox, g) -> None:
    assert tiny_env.context_menu("Saludar", "bruno", guild=g).content == "hola bruno"
    said = tiny_env.command("tools echo", {"text": "tres palabras aquí", "style": "plain"}, guild=g)
    assert tiny_env.context_menu("Contar", said.message, guild=g).content == "3 palabras"
    assert not tiny_env.context_menu("Contar", "bruno", guild=g).ok


def test_direct_messages(tiny_env: Sandbox, g) -> None:
    tiny_env.command("whisper", {"text": "cuidado"}, guild=g, user="bruno")
    assert [m.content for m in tiny_env.direct_messages(g, "bruno")] == ["susurro: cuidado"]
    assert tiny_env.direct_messages(g, "ana") == []


def test_webhook_opens_a_forum_post(tiny_env: Sandbox, g) -> None:
    r = tiny_env.command("herald", {"forum": "foro", "title": "Bando real"}, guild=g)
    (post,) = [t for t in tiny_env.threads(g, "foro") if t.name == "Bando real"]
    assert r.content == f"abierto {post.id}"
    (said,) = tiny_env.channel_messages(g, post)
    assert said.author == "Heraldo" and said.id == post.id and said.data["webhook_id"]


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


def test_an_answer_after_the_deadline_is_unknown_interaction(tiny_env: Sandbox, g) -> None:
    callbacks = tiny_env.server.callbacks
    saved, callbacks.deadline = callbacks.deadline, 0.2
    try:
        with pytest.raises(AssertionError, match="deadline"):
            tiny_env.command("late", {"seconds": 0.5}, guild=g)
        assert tiny_env.command("late", {"seconds": 0.0}, guild=g).content == "tarde"
    finally:
        callbacks.deadline = saved


def test_dev_guild_sync_makes_commands_guild_only(tmp_path) -> None:
    with Sandbox() as sb:
        dev = sb.new_guild("Desarrollo")
        sb.start_bot(
            "tests.standin.tiny_bot",
            env={"DEV_GUILD_ID": str(dev.id)},
            log_path=tmp_path / "bot.log",
        )
        assert sb.command("ping", guild=dev).content == "pong es-ES Desarrollo"
        assert {c.get("guild_id") for c in sb.commands} == {str(dev.id)}
        other = sb.new_guild("Otra")
        refused = sb.command("ping", guild=other)
        assert not refused.ok and "unknown command /ping" in refused.error
        # a restarted bot gets both guilds in READY and keeps its command ids
        ids = {c["name"]: c["id"] for c in sb.commands}
        sb.stop_bot()
        sb.start_bot(
            "tests.standin.tiny_bot",
            env={"DEV_GUILD_ID": str(dev.id)},
            log_path=tmp_path / "bot.log",
        )
        assert sb.command("ping", guild=dev).content == "pong es-ES Desarrollo"
        assert {c["name"]: c["id"] for c in sb.commands} == ids


# -- without a bot ------------------------------------------------------------------------
EMBED = {"title": "t"}


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"content": "x" * 2001}, "content"),
        ({"embeds": [EMBED] * 11}, "embeds"),
        ({"embeds": [{"description": "x" * 4000}, {"description": "x" * 2001}]}, "embeds"),
        ({"embeds": [{"title": "x" * 257}]}, "embeds.0.title"),
        ({"embeds": [{"description": "x" * 4097}]}, "embeds.0.description"),
        ({"embeds": [{"fields": [{"name": "a", "value": "b"}] * 26}]}, "embeds.0.fields"),
        ({"embeds": [{"fields": [{"name": "a", "value": "x" * 1025}]}]}, "embeds.0.fields.0.value"),
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [{"type": 2, "style": 1, "label": "b", "custom_id": "c"}],
                    }
                ]
                * 6
            },
            "components",
        ),
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {
                                "type": 3,
                                "custom_id": "s",
                                "options": [{"label": "o", "value": str(i)} for i in range(26)],
                            }
                        ],
                    }
                ]
            },
            "components.0.components.0.options",
        ),
    ],
)
def test_discord_limits_answer_50035_at_the_right_path(body: dict, path: str) -> None:
    error = check_message(body)
    assert error is not None and error["code"] == 50035
    node = error["errors"]
    for part in path.split("."):
        node = node[part]
    assert node["_errors"]


def test_components_v2_limits() -> None:
    text = {"type": 10, "content": "x" * 100}
    v2 = 1 << 15
    assert check_message({"flags": v2, "components": [text] * 40}) is None
    assert check_message({"flags": v2, "components": [text] * 41}) is not None
    assert (
        check_message({"flags": v2, "components": [{"type": 10, "content": "x" * 4001}]})
        is not None
    )
    assert check_message({"flags": v2, "content": "hola", "components": [text]}) is not None


def test_file_count_and_upload_size() -> None:
    assert check_message({}, files=[("a.txt", b"x")] * 10) is None
    assert check_message({}, files=[("a.txt", b"x")] * 11)["errors"]["attachments"]
    assert check_message({}, files=[("big.bin", b"x" * (10 * 1024 * 1024 + 1))])["code"] == 40005


def test_limits_allow_the_maximum_and_refuse_empty_messages() -> None:
    full = {
        "content": "x" * 2000,
        "embeds": [
            {"title": "x" * 256, "description": "x" * 4000},
            {"fields": [{"name": "n", "value": "x" * 1024}] * 1},
        ],
    }
    assert check_message(full) is None
    assert check_message({})["code"] == 50006
    assert check_message({}, partial=True) is None


@pytest.mark.parametrize(
    "url", ["http://example.com", "http://10.0.0.1:80", "http://[::2]:80", "http://discord.com"]
)
def test_launcher_refuses_non_loopback(url: str) -> None:
    with pytest.raises(ValueError, match="non-loopback"):
        launch.check_loopback(url)
    with pytest.raises(SystemExit):
        launch.main(["--api", url, "--module", "tests.standin.tiny_bot"])


def test_launcher_accepts_loopback() -> None:
    for url in ("http://127.0.0.1:1", "http://127.3.4.5:9", "http://[::1]:8", "http://localhost:7"):
        assert launch.check_loopback(url) == url


@pytest.fixture
async def standin():
    server = StandIn()
    await server.start()
    yield server
    await server.stop()


async def test_json_content_type_is_exact_and_unknown_routes_are_recorded(standin: StandIn) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.get(
            f"{standin.url}/api/v10/users/@me", headers={"Authorization": "Bot x"}
        ) as resp:
            assert resp.headers["Content-Type"] == "application/json"
            assert (await resp.json())["id"] == str(standin.world.bot.id)
        async with http.get(f"{standin.url}/api/v10/users/@me") as resp:
            assert resp.status == 401
        async with http.get(f"{standin.url}/cdn/embed/avatars/0.png") as resp:
            assert (await resp.read()).startswith(b"\x89PNG")
        async with http.post(f"{standin.url}/api/v10/guilds/1/bans/2", json={}) as resp:
            assert resp.status == 404
    assert standin.world.unknown_requests == [
        {"method": "POST", "path": "/api/v10/guilds/1/bans/2", "body": "{}"}
    ]


async def test_gateway_hello_heartbeat_identify_chunks_and_resume(standin: StandIn) -> None:
    from standin.guilds import build_sample_guild

    guild = build_sample_guild(standin.world, "Mesa")
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(standin.gateway_url + "?v=10&encoding=json") as ws:
            hello = await ws.receive_json()
            assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] < 60_000
            await ws.send_json({"op": 1, "d": None})
            assert (await ws.receive_json())["op"] == 11
            await ws.send_json({"op": 2, "d": {"token": "x", "intents": 1, "properties": {}}})
            ready = await ws.receive_json()
            assert ready["t"] == "READY" and ready["d"]["guilds"] == [
                {"id": str(guild.id), "unavailable": True}
            ]
            create = await ws.receive_json()
            assert (
                create["t"] == "GUILD_CREATE"
                and create["d"]["member_count"] == len(create["d"]["members"]) == 5
            )
            await ws.send_json(
                {"op": 8, "d": {"guild_id": str(guild.id), "query": "", "limit": 0, "nonce": "n1"}}
            )
            chunk = await ws.receive_json()
            assert (
                chunk["t"] == "GUILD_MEMBERS_CHUNK"
                and chunk["d"]["nonce"] == "n1"
                and len(chunk["d"]["members"]) == 5
            )
            session_id, seq = ready["d"]["session_id"], chunk["s"]
        standin.world.dispatch("CHANNEL_UPDATE", {"id": "1"})  # missed while disconnected
        async with http.ws_connect(standin.gateway_url) as ws:
            assert (await ws.receive_json())["op"] == 10
            await ws.send_json({"op": 6, "d": {"token": "x", "session_id": session_id, "seq": seq}})
            replayed = await ws.receive_json()
            assert replayed["t"] == "CHANNEL_UPDATE" and replayed["s"] == seq + 1
            assert (await ws.receive_json())["t"] == "RESUMED"
        async with http.ws_connect(standin.gateway_url) as ws:
            await ws.receive_json()
            await ws.send_json({"op": 6, "d": {"token": "x", "session_id": "nope", "seq": 1}})
            assert (await ws.receive_json()) == {"op": 9, "d": False, "s": None, "t": None}


def test_removing_and_re_adding_the_bot(tiny_env: Sandbox) -> None:
    """GUILD_DELETE takes the guild out of the bot's cache and stops its interactions;
    GUILD_CREATE brings it back (a new READY leaving it out: tests/e2e/test_privacy.py)."""
    gone = tiny_env.new_guild("Se va")
    stays = tiny_env.new_guild("Se queda")
    assert "Se va" in tiny_env.command("guilds", guild=stays).content
    gone.remove_bot()
    reply = tiny_env.command("guilds", guild=stays)
    assert "Se va" not in reply.content and "Se queda" in reply.content
    refused = tiny_env.command("ping", guild=gone)
    assert not refused.ok and "not in" in refused.error
    gone.add_bot()
    assert "Se va" in tiny_env.command("guilds", guild=stays).content
    assert tiny_env.command("ping", guild=gone).content == "pong es-ES Se va"


def test_autocomplete_limits_answer_50035() -> None:
    from standin.limits import check_choices

    ok = [{"name": "x" * 100, "value": "y" * 100}] * 25
    assert check_choices(ok) is None
    assert "data" in check_choices(ok + ok[:1])["errors"]
    long_name = check_choices([{"name": "x" * 101, "value": "v"}])
    assert long_name["errors"]["data"]["choices"]["0"]["name"]["_errors"][0]["code"] == (
        "BASE_TYPE_MAX_LENGTH"
    )
    assert check_choices([{"name": "n", "value": "v" * 101}]) is not None
    assert check_choices([{"name": "", "value": "v"}]) is not None


async def test_character_webhooks_like_discord(standin: StandIn) -> None:
    """Names (1-80, no "clyde"/"discord"), the webhook's own avatar, thread_id on execute and
    on message edit/delete, Manage Webhooks for the bot-authenticated routes."""
    import base64

    from standin.guilds import build_sample_guild

    world = standin.world
    guild = build_sample_guild(world, "Webhooks")
    forum = guild.find_channel("foro")
    auth = {"Authorization": "Bot x"}
    api = f"{standin.url}/api/v10"
    async with aiohttp.ClientSession() as http:
        async with http.post(
            f"{api}/channels/{forum.id}/webhooks", json={"name": "Discord"}, headers=auth
        ) as resp:
            assert resp.status == 400 and (await resp.json())["code"] == 50035
        async with http.post(
            f"{api}/channels/{forum.id}/webhooks", json={"name": "Árbitro"}, headers=auth
        ) as resp:
            hook = await resp.json()
        url = f"{api}/webhooks/{hook['id']}/{hook['token']}"
        thread = world.add_channel(guild, "Escena", 11, parent_id=forum.id)
        for bad in ("Clyde", "el DISCORDante", "x" * 81, ""):
            async with http.post(
                f"{url}?wait=true&thread_id={thread.id}", json={"content": "hola", "username": bad}
            ) as resp:
                assert resp.status == 400 and (await resp.json())["code"] == 50035, bad
        png = b"\x89PNG\r\n\x1a\n" + b"\0" * 16
        image = "data:image/png;base64," + base64.b64encode(png).decode()
        async with http.patch(
            f"{api}/webhooks/{hook['id']}", json={"avatar": image}, headers=auth
        ) as resp:
            avatar = (await resp.json())["avatar"]
        assert world.avatars[avatar] == png
        async with http.patch(
            f"{api}/webhooks/{hook['id']}",
            json={"avatar": "data:text/plain;base64,aGk="},
            headers=auth,
        ) as resp:
            assert resp.status == 400
        async with http.post(
            f"{url}?wait=true&thread_id={thread.id}",
            json={"content": "hola", "username": "Ardelia"},
        ) as resp:
            sent = await resp.json()
        assert sent["channel_id"] == str(thread.id)
        assert sent["author"]["username"] == "Ardelia" and sent["author"]["avatar"] == avatar
        message = f"{url}/messages/{sent['id']}"
        async with http.patch(message, json={"content": "editado"}) as resp:
            assert resp.status == 404  # a thread's message needs thread_id
        async with http.patch(
            f"{message}?thread_id={thread.id}", json={"content": "editado"}
        ) as resp:
            assert (await resp.json())["content"] == "editado"
        async with http.delete(f"{message}?thread_id={thread.id}") as resp:
            assert resp.status == 204
        assert world.messages[int(sent["id"])].deleted
        # without Manage Webhooks the bot can neither create nor change a webhook
        forum.overwrites = [
            {"id": str(world.bot.id), "type": 1, "allow": "0", "deny": str(1 << 29)}
        ]
        async with http.patch(
            f"{api}/webhooks/{hook['id']}", json={"avatar": None}, headers=auth
        ) as resp:
            assert resp.status == 403
        async with http.post(
            f"{api}/channels/{forum.id}/webhooks", json={"name": "Otro"}, headers=auth
        ) as resp:
            assert resp.status == 403

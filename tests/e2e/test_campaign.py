"""/campaign create|show|settings|end end to end, with permissions and unbound channels."""

from __future__ import annotations

import json

import pytest

from tests.e2e.helpers import CANCEL, CONFIRM, press, says

pytestmark = pytest.mark.e2e


def create(sb, g, *, channel="mesa", user="gm", locale="es-ES", **options):
    options = {"name": "La Marca", "system": "swc", **options}
    return sb.command(
        "campaign create", options, guild=g, channel=channel, user=user, locale=locale
    )


def test_create_show_and_threads_inherit(discord_env):
    g = discord_env.new_guild(name="Crear")
    r = create(discord_env, g)
    assert not r.ephemeral
    assert r.embeds[0]["title"] == "Campaña creada: La Marca"
    assert "Swords & Wizardry Completo" in r.text
    thread = g.thread("mesa", "Escena 1")
    shown = discord_env.command(
        "campaign show", {}, guild=g, channel=thread, user="ana", locale="en-US"
    )
    assert shown.embeds[0]["title"] == "La Marca"
    assert "GM" in shown.text and "active" in shown.text


def test_one_rule_is_explained_when_the_list_is_too_long(discord_env):
    """The rule list of /campaign create and show no longer fits one message with every
    explanation (issue 23 §3 added rules): each rule is a line there, and
    «/campaña ver regla:…» explains one — its value, default, what it does, its values."""
    g = discord_env.new_guild(name="Regla")
    r = create(discord_env, g, system="nucleo")
    assert "`/campaña ver regla:…` explica una" in r.text
    shown = discord_env.command(
        "campaign show", {"setting": "modo_combate"}, guild=g, user="ana", locale="es-ES"
    )
    assert shown.ephemeral and shown.embeds[0]["title"] == "Modo de combate"
    assert "↳ " in shown.text and "Valores:" in shown.text
    assert "`/campaña ajustes regla:modo_combate valor:…`" in shown.text
    by_name = discord_env.command(
        "campaign show", {"setting": "Modo de combate"}, guild=g, user="ana", locale="en-US"
    )
    assert "Change it with" in by_name.text
    unknown = discord_env.command(
        "campaign show", {"setting": "vuelo"}, guild=g, user="ana", locale="es-ES"
    )
    assert unknown.ephemeral and "no tiene la regla «vuelo»" in unknown.text


def test_forum_posts_belong_to_the_forum_campaign(discord_env):
    g = discord_env.new_guild(name="Foro")
    create(discord_env, g, channel="foro", name="Foro de rol", system="rolweb").expect_ok()
    post = g.forum_post("foro", "Escena 1: la posada", user="gm")
    shown = discord_env.command(
        "campaign show", {}, guild=g, channel=post, user="bruno", locale="es-ES"
    )
    assert shown.embeds[0]["title"] == "Foro de rol"
    assert "foro y sus publicaciones" in shown.text


def test_category_binding_covers_its_channels(discord_env):
    g = discord_env.new_guild(name="Categoria")
    create(
        discord_env, g, channel="escena", name="Toda la categoría", system="nucleo", category=True
    ).expect_ok()
    shown = discord_env.command(
        "campaign show", {}, guild=g, channel="escena", user="ana", locale="es-ES"
    )
    assert "toda la categoría" in shown.text


def test_unbound_channel_explains_how_to_create_one(discord_env):
    g = discord_env.new_guild(name="Sin campaña")
    for locale, needle in (("es-ES", "/campaña crear"), ("en-US", "/campaign create")):
        r = discord_env.command(
            "campaign show", {}, guild=g, channel="mesa", user="ana", locale=locale
        )
        assert r.ephemeral and needle in r.text


def test_players_cannot_create_or_configure_or_end(discord_env):
    g = discord_env.new_guild(name="Permisos")
    refused = create(discord_env, g, user="ana")
    assert refused.ephemeral and says(refused, "campaign.error.create_needs_permission")
    create(discord_env, g).expect_ok()
    for path, options in (("campaign settings", {"language": "en"}), ("campaign end", {})):
        r = discord_env.command(path, options, guild=g, channel="mesa", user="ana", locale="es-ES")
        assert r.ephemeral and says(r, "campaign.error.not_referee")
    twice = create(discord_env, g, name="Otra")
    assert twice.ephemeral and "ya pertenece a la campaña «La Marca»" in twice.text


def test_settings_change_system_rules_and_roles(discord_env):
    g = discord_env.new_guild(name="Ajustes")
    create(discord_env, g).expect_ok()
    shown = discord_env.command(
        "campaign show", {}, guild=g, channel="mesa", user="gm", locale="es-ES"
    )
    # each rule by its display name, its value, and what it does; never its id (issue 13)
    assert "**CA ascendente**: no (por defecto)" in shown.text, shown.text
    assert "Usar la Clase de Armadura ascendente" in shown.text
    assert "ca_ascendente" not in shown.text
    suggestions = discord_env.autocomplete(
        "campaign settings", "setting", "ca_", guild=g, channel="mesa", user="gm"
    )
    assert any(s["value"] == "ca_ascendente" for s in suggestions)
    r = discord_env.command(
        "campaign settings",
        {"setting": "ca_ascendente", "value": "sí", "gm_role": g.role("Máster"), "language": "es"},
        guild=g,
        channel="mesa",
        user="gm",
        locale="es-ES",
    )
    assert "**CA ascendente**: sí — cambiado; por defecto: no" in r.text, r.text
    suggestions = discord_env.autocomplete(
        "campaign settings", "setting", "ascend", guild=g, channel="mesa", user="gm"
    )
    # the value the campaign has now, not the default
    assert suggestions[0] == {"name": "CA ascendente: sí", "value": "ca_ascendente"}
    assert f"<@&{g.role('Máster').id}>" in r.text
    # the member with the GM role may now change settings
    r = discord_env.command(
        "campaign settings",
        {"setting": "ca_ascendente", "value": "no"},
        guild=g,
        channel="mesa",
        user="dm2",
        locale="es-ES",
    )
    assert "**CA ascendente**: no (por defecto)" in r.text
    bad = discord_env.command(
        "campaign settings",
        {"setting": "ca_ascendente", "value": "quizás"},
        guild=g,
        channel="mesa",
        user="gm",
        locale="es-ES",
    )
    assert bad.ephemeral and "espera sí o no" in bad.text
    unknown = discord_env.command(
        "campaign settings",
        {"setting": "no_existe", "value": "1"},
        guild=g,
        channel="mesa",
        user="gm",
        locale="en-US",
    )
    assert unknown.ephemeral and "has no rule" in unknown.text
    # «clear» is a choice by name («Rol de máster»), its value the id: the role loses its power
    cleared = discord_env.command(
        "campaign settings", {"clear": "gm_role"}, guild=g, channel="mesa", user="gm"
    )
    assert f"<@&{g.role('Máster').id}>" not in cleared.text, cleared.text
    refused = discord_env.command(
        "campaign settings",
        {"setting": "ca_ascendente", "value": "sí"},
        guild=g,
        channel="mesa",
        user="dm2",
        locale="es-ES",
    )
    assert refused.ephemeral and "CA ascendente" not in refused.text, refused.text


def test_end_asks_for_confirmation_then_archives(discord_env):
    g = discord_env.new_guild(name="Final")
    create(discord_env, g, name="Efímera").expect_ok()
    ask = discord_env.command(
        "campaign end", {}, guild=g, channel="mesa", user="gm", locale="es-ES"
    )
    assert ask.ephemeral and "¿Archivar la campaña «Efímera»?" in ask.text
    cancelled = press(discord_env, ask, CANCEL, user="gm")
    assert says(cancelled, "common.cancelled")
    still = discord_env.command(
        "campaign show", {}, guild=g, channel="mesa", user="gm", locale="es-ES"
    )
    assert still.embeds[0]["title"] == "Efímera"
    ask = discord_env.command(
        "campaign end", {}, guild=g, channel="mesa", user="gm", locale="es-ES"
    )
    done = press(discord_env, ask, CONFIRM, user="gm")
    assert "Campaña archivada: Efímera" in done.all_text
    gone = discord_env.command(
        "campaign show", {}, guild=g, channel="mesa", user="gm", locale="es-ES"
    )
    assert gone.ephemeral


def test_the_stand_in_refuses_what_discord_would(discord_env):
    g = discord_env.new_guild(name="Rechazos")
    missing = discord_env.command(
        "campaign create", {"name": "X"}, guild=g, channel="mesa", user="gm"
    )
    assert not missing.ok
    wrong_choice = discord_env.command(
        "campaign create", {"name": "X", "system": "gurps"}, guild=g, channel="mesa", user="gm"
    )
    assert not wrong_choice.ok
    assert discord_env.unknown_requests == []


def test_a_long_setting_can_be_uploaded_and_a_breaking_one_is_refused(discord_env):
    g = discord_env.new_guild(name="Ajustes en archivo")
    create(discord_env, g, system="rolweb").expect_ok()
    weapons = {"armas": [{"nombre": "Sable de luz", "dano": "1d10", "cualidades": []}]}
    r = discord_env.command(
        "campaign settings",
        {"setting": "armas", "file": json.dumps(weapons).encode()},
        guild=g,
        channel="mesa",
        user="gm",
        locale="es-ES",
    )
    # downloading the file comes after a private deferral; the result is public
    assert r.ok and r.deferred, r.text
    (public,) = [m for m in r.messages if not m.ephemeral]
    assert "**Armas propias**: {" in public.text and "— cambiado" in public.text, r.all_text
    suggestions = discord_env.autocomplete(
        "sheet item", "item", "sable", guild=g, channel="mesa", user="ana"
    )
    assert [s["value"] for s in suggestions] == ["Sable de luz"]
    broken = discord_env.command(
        "campaign settings",
        {"setting": "atributos", "value": "Ágil, Atento"},
        guild=g,
        channel="mesa",
        user="gm",
        locale="es-ES",
    )
    assert broken.ephemeral and "Diestro" in broken.text  # the system names what is missing
    bad_json = discord_env.command(
        "campaign settings",
        {"setting": "armas", "file": b"{nope"},
        guild=g,
        channel="mesa",
        user="gm",
    )
    assert bad_json.ephemeral and "JSON" in bad_json.text
    both = discord_env.command(
        "campaign settings",
        {"setting": "armas", "value": "x", "file": b"[]"},
        guild=g,
        channel="mesa",
        user="gm",
    )
    assert both.ephemeral and says(both, "campaign.error.value_or_file"), both.text
    # the refused changes left the uploaded list in place
    assert discord_env.autocomplete(
        "sheet item", "item", "sable", guild=g, channel="mesa", user="ana"
    )


def test_the_gm_hands_the_campaign_to_a_member_who_accepts(discord_env):
    """Issue 23 §5: the campaign's GM could not be handed over."""
    from tests.e2e.helpers import new_campaign, press, says

    take = "arb:1:gm-take-yes:"
    sb = discord_env
    g = new_campaign(sb, "Traspaso de campaña", "nucleo")
    ana, gm = g.member("ana").id, g.member("gm").id
    refused = sb.command(
        "campaign transfer", {"member": "ana"}, guild=g, channel="mesa", user="bruno"
    )
    assert refused.ephemeral and says(refused, "campaign.error.transfer_gm_only", gm=gm)
    offer = sb.command("campaign transfer", {"member": "ana"}, guild=g, channel="mesa", user="gm")
    assert offer.ok and not offer.ephemeral and f"<@{ana}>" in offer.text, offer.text
    pinged = [m["id"] for m in offer.message.data["mentions"]]
    assert pinged == [str(ana)], pinged  # she is pinged, the GM (also named) is not
    stranger = press(sb, offer, take, user="bruno")
    assert stranger.ephemeral and says(stranger, "campaign.error.transfer_not_you", member=ana)
    taken = press(sb, offer, take, user="ana")
    assert says(taken, "campaign.transfer_done", name="Mesa", member=ana, gm=gm), taken.all_text
    assert not sb.message(offer.message.id).buttons
    shown = sb.command("campaign show", {}, guild=g, channel="mesa", user="bruno")
    assert f"<@{ana}>" in shown.text, shown.text
    # the new GM may hand it on (the old one is the server's owner: an administrator)
    sb.command(
        "campaign transfer", {"member": "bruno"}, guild=g, channel="mesa", user="ana"
    ).expect_ok()

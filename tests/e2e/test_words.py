"""Issue 13 end to end: names instead of ids, settings as a GM reads them, the campaign's
time zone (through the stand-in, with the real bot)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e


def _settings(sb, g, options, *, locale="es-ES"):
    return sb.command(
        "campaign settings", options, guild=g, channel="mesa", user="gm", locale=locale
    )


def test_a_changed_choice_shows_its_current_value_everywhere(discord_env):
    """Was: the suggestion read «naturales (ninguna)» after setting «criticos»."""
    g = discord_env.new_guild(name="Naturales")
    discord_env.command(
        "campaign create",
        {"name": "Roll-under", "system": "rolweb"},
        guild=g,
        channel="mesa",
        user="gm",
        locale="es-ES",
    ).expect_ok()
    values = discord_env.autocomplete(
        "campaign settings",
        "value",
        "",
        guild=g,
        channel="mesa",
        user="gm",
        options={"setting": "naturales"},
    )
    assert {"name": "críticos (además crítico y pifia)", "value": "criticos"} in values
    r = _settings(discord_env, g, {"setting": "naturales", "value": "criticos"})
    assert "**1 y 20 naturales**: críticos (además crítico y pifia) — cambiado" in r.text, r.text
    assert "movimiento_a_combate" not in r.text and "(False)" not in r.text
    assert "**Moverse cuenta como acción de combate**: no (por defecto)" in r.text
    suggestions = discord_env.autocomplete(
        "campaign settings", "setting", "natur", guild=g, channel="mesa", user="gm"
    )
    assert suggestions == [
        {"name": "1 y 20 naturales: críticos (además crítico y pifia)", "value": "naturales"}
    ]
    english = discord_env.autocomplete(
        "campaign settings",
        "setting",
        "natur",
        guild=g,
        channel="mesa",
        user="gm",
        locale="en-US",
    )
    assert english[0]["name"] == "Natural 1 and 20: critical (also critical and fumble)"


def test_the_time_zone_is_a_checked_setting(discord_env):
    g = discord_env.new_guild(name="Zona")
    discord_env.command(
        "campaign create",
        {"name": "Ultramar", "system": "nucleo"},
        guild=g,
        channel="mesa",
        user="gm",
        locale="es-ES",
    ).expect_ok()
    bad = _settings(discord_env, g, {"setting": "zona_horaria", "value": "Marte/Olimpo"})
    assert bad.ephemeral and "no es una zona horaria" in bad.text, bad.text
    # typed by its display name, in lower case: stored as the canonical IANA name
    ok = _settings(discord_env, g, {"setting": "Zona horaria", "value": "america/mexico_city"})
    assert "**Zona horaria**: America/Mexico_City — cambiado; por defecto: Europe/Madrid" in ok.text


def test_a_bad_choice_names_the_setting_and_its_choices(discord_env):
    g = discord_env.new_guild(name="Opciones")
    discord_env.command(
        "campaign create",
        {"name": "Marca", "system": "swc"},
        guild=g,
        channel="mesa",
        user="gm",
        locale="es-ES",
    ).expect_ok()
    bad = _settings(discord_env, g, {"setting": "naturales_ataque", "value": "siempre"})
    assert (
        "«20 y 1 naturales al atacar» no admite «siempre»: elige una de estas opciones:" in bad.text
    ), bad.text
    assert "crítico (además el 20 dobla el daño)" in bad.text
    assert "impacta_falla" not in bad.text
    # a choice typed by its display name is understood
    ok = _settings(
        discord_env, g, {"setting": "naturales_ataque", "value": "El 20 impacta y el 1 falla"}
    )
    assert "**20 y 1 naturales al atacar**: el 20 impacta y el 1 falla — cambiado" in ok.text


def test_a_grammatical_gender_chosen_in_the_wizard_makes_messages_agree(discord_env):
    """Was: «Kára está listo», «¡Kára guardado!»; unset: neutral wording."""
    from tests.e2e.helpers import WIZARD_FINISH, WIZARD_FORM, press

    sb = discord_env
    g = sb.new_guild(name="Género")
    sb.command(
        "campaign create", {"name": "Marca", "system": "rolweb"}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    r = sb.command(
        "sheet create", {"name": "Kára"}, guild=g, channel="mesa", user="ana", locale="es-ES"
    )
    for values in (
        {"Ágil": "13", "Astuto": "8", "Atento": "10", "Diestro": "11"},
        {"Discreto": "10", "Fuerte": "12", "Persuasivo": "9", "Tenaz": "7"},
    ):
        modal = press(sb, r, WIZARD_FORM, user="ana")
        r = sb.submit_modal(modal, values, user="ana")
    r = sb.select(r, 0, ["Medicus"], user="ana")
    r = sb.select(r, 0, ["adepto"], user="ana")
    r = sb.select(r, 0, ["Espada"], user="ana")
    r = sb.select(r, 0, ["Ligera"], user="ana")
    r = sb.select(r, 0, ["rodela"], user="ana")
    assert "La ficha de Kára está lista" in r.text, r.text  # neutral while unset
    labels = [o["label"] for o in r.message.selects[0]["options"]]
    assert labels == ["Femenino", "Masculino", "Neutro"]
    r = sb.select(r, 0, ["femenino"], user="ana")
    assert "Kára está lista" in r.text and "listo" not in r.text, r.text
    saved = press(sb, r, WIZARD_FINISH, user="ana")
    assert "¡**Kára** guardada!" in saved.all_text, saved.all_text
    shown = sb.command("sheet show", {}, guild=g, channel="mesa", user="ana", locale="en-US")
    assert "feminine" in shown.text, shown.text
    # /sheet set changes it (and an English reader reads it in English)
    r = sb.command(
        "sheet set",
        {"field": "genero", "value": "masculino"},
        guild=g,
        channel="mesa",
        user="ana",
        locale="es-ES",
    )
    assert r.ok, r.text
    shown = sb.command("sheet show", {}, guild=g, channel="mesa", user="ana", locale="es-ES")
    assert "**Género gramatical**: masculino" in shown.text, shown.text


def test_sheet_values_are_suggested_by_name(discord_env):
    g = discord_env.new_guild(name="Valores")
    discord_env.command(
        "campaign create", {"name": "Marca", "system": "swc"}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    values = discord_env.autocomplete(
        "sheet set",
        "value",
        "clér",
        guild=g,
        channel="mesa",
        user="gm",
        options={"field": "clases"},
    )
    assert {"name": "Clérigo", "value": "clerigo"} in values, values
    english = discord_env.autocomplete(
        "sheet set",
        "value",
        "cler",
        guild=g,
        channel="mesa",
        user="gm",
        locale="en-US",
        options={"field": "clases"},
    )
    assert {"name": "Cleric", "value": "clerigo"} in english, english

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
    assert "«20 y 1 naturales al atacar» debe ser una de estas opciones:" in bad.text, bad.text
    assert "crítico (además el 20 dobla el daño)" in bad.text
    assert "impacta_falla" not in bad.text
    # a choice typed by its display name is understood
    ok = _settings(
        discord_env, g, {"setting": "naturales_ataque", "value": "El 20 impacta y el 1 falla"}
    )
    assert "**20 y 1 naturales al atacar**: el 20 impacta y el 1 falla — cambiado" in ok.text

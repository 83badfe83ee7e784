"""/roll, /history and /odds end to end: the real bot process through the stand-in."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.e2e


@pytest.fixture
def guild(discord_env):
    return discord_env.new_guild(name="Mesa de dados")


def test_roll_in_spanish_shows_breakdown_total_and_reason(discord_env, guild):
    r = discord_env.command(
        "roll",
        {"expression": "1o3d10+5", "reason": "ataque"},
        guild=guild,
        channel="mesa",
        user="ana",
        locale="es-ES",
    )
    assert r.ok and not r.ephemeral
    (embed,) = r.embeds
    assert embed["title"].startswith("ana tira 1o3d10 + 5")
    total = int(re.search(r"Total: (\d+)", embed["description"]).group(1))
    assert total >= 6 and (total - 5) % 10 != 0  # a 1o3d10 result is never a multiple of 10
    assert {"name": "Motivo", "value": "ataque", "inline": False} in embed["fields"]
    assert "Registro n.º" in embed["footer"]["text"]


def test_roll_in_english(discord_env, guild):
    r = discord_env.command(
        "roll", {"expression": "4d6kh3"}, guild=guild, channel="mesa", user="bruno", locale="en-US"
    )
    (embed,) = r.embeds
    assert embed["title"] == "bruno rolls 4d6kh3"
    assert "~~" in embed["description"]  # the dropped die is struck through
    assert "Total:" in embed["description"]


def test_difficulty_gives_a_verdict(discord_env, guild):
    r = discord_env.command(
        "roll",
        {"expression": "1d1+20", "difficulty": 10},
        guild=guild,
        channel="mesa",
        user="ana",
        locale="es-ES",
    )
    fields = {f["name"]: f["value"] for f in r.embeds[0]["fields"]}
    assert fields["Resultado"] == "¡Crítico! (dificultad 10)"


def test_bad_expression_gets_a_translated_ephemeral_error(discord_env, guild):
    es = discord_env.command(
        "roll", {"expression": "1d6r<7"}, guild=guild, channel="mesa", user="ana", locale="es-ES"
    )
    en = discord_env.command(
        "roll", {"expression": "2d"}, guild=guild, channel="mesa", user="ana", locale="en-US"
    )
    assert es.ephemeral and en.ephemeral
    assert "dice.error" not in es.text and "dice.error" not in en.text
    assert es.embeds[0]["description"] != en.embeds[0]["description"]
    history = discord_env.command(
        "history", {}, guild=guild, channel="mesa", user="ana", locale="es-ES"
    )
    assert "1d6r<7" not in history.text  # nothing stored for a refused roll


def test_private_roll_is_ephemeral_and_copied_to_the_gm_channel(discord_env):
    g = discord_env.new_guild(name="Privadas")
    discord_env.command(
        "campaign create",
        {"name": "Sombras", "system": "nucleo"},
        guild=g,
        channel="mesa",
        user="gm",
        locale="es-ES",
    ).expect_ok()
    discord_env.command(
        "campaign settings",
        {"gm_channel": g.channel("gm")},
        guild=g,
        channel="mesa",
        user="gm",
        locale="es-ES",
    ).expect_ok()
    r = discord_env.command(
        "roll",
        {"expression": "1d20", "private": True, "reason": "sigilo"},
        guild=g,
        channel="mesa",
        user="ana",
        locale="es-ES",
    )
    assert r.ephemeral
    copies = discord_env.channel_messages(g, "gm")
    assert len(copies) == 1
    assert "ana" in copies[0].content and "sigilo" in str(copies[0].embeds)
    # history: the GM sees the private roll, another player does not
    gm_view = discord_env.command("history", {}, guild=g, channel="mesa", user="gm", locale="es-ES")
    bruno_view = discord_env.command(
        "history", {}, guild=g, channel="mesa", user="bruno", locale="es-ES"
    )
    assert "sigilo" in gm_view.text and "🔒" in gm_view.text
    assert "sigilo" not in bruno_view.text


def test_history_lists_recent_rolls_with_links(discord_env):
    g = discord_env.new_guild(name="Historial")
    for expression in ("1d4", "1d6", "1d8"):
        discord_env.command(
            "roll", {"expression": expression}, guild=g, channel="mesa", user="ana", locale="es-ES"
        ).expect_ok()
    r = discord_env.command(
        "history", {"limit": 2}, guild=g, channel="mesa", user="bruno", locale="es-ES"
    )
    assert r.ephemeral
    assert "1d8" in r.text and "1d6" in r.text and "1d4" not in r.text
    assert "https://discord.com/channels/" in r.text


def test_odds_are_exact(discord_env, guild):
    r = discord_env.command(
        "odds",
        {"expression": "1d6", "target": 5},
        guild=guild,
        channel="mesa",
        user="ana",
        locale="es-ES",
    )
    assert "33,33 %" in r.text and "1/3" in r.text
    r = discord_env.command(
        "odds",
        {"expression": "1o3d10+5", "target": 15},
        guild=guild,
        channel="mesa",
        user="ana",
        locale="en-US",
    )
    assert "Critical (25 or more)" in r.text


def test_spanish_command_names_are_synced(discord_env):
    names = {c["name"]: c.get("name_localizations", {}).get("es-ES") for c in discord_env.commands}
    assert names["roll"] == "tirar" and names["campaign"] == "campaña"
    assert discord_env.unknown_requests == []

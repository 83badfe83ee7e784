"""Dice notation that surprises nobody coming from Avrae or Roll20 (issue 23 §7), end to end.

What a player sees in Discord: the breakdown's reading of ``<``/``>``, the order of
modifiers refused with the order that works, ``1d1ro1`` rolled, ``/odds`` counting the rolls
the 500-dice limit cuts, invisible characters escaped in an error, and the ``/help`` guide.
"""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.e2e


@pytest.fixture
def guild(discord_env):
    return discord_env.new_guild(name="Notación")  # a server of its own: fresh cooldowns


def _roll(sb, guild, expression, locale="es-ES", user="ana"):
    return sb.command(
        "roll", {"expression": expression}, guild=guild, channel="mesa", user=user, locale=locale
    )


def test_the_breakdown_shows_how_a_sign_was_read(discord_env, guild):
    # "<3" is below 3 and ">4" above 4, as in arithmetic and avrae/d20; the roll shows the
    # inclusive form, so a player who learnt Roll20's ">4" = "4 or more" sees the difference.
    for user, written, shown in [
        ("ana", "2d6ro<3", "2d6ro<=2"),
        ("ana", "3d6!>4", "3d6!>=5"),
        ("ana", "3d6e6", "3d6!"),
        ("bruno", "1d20>15", "1d20>=16"),
        ("bruno", "4d6rr1kh3", "4d6r1kh3"),
    ]:
        r = _roll(discord_env, guild, written, user=user)
        assert r.ok and not r.ephemeral, (written, r.text)
        title = r.embeds[0]["title"]
        assert title.startswith(f"{user} tira {shown}"), (written, title)
        assert f"{shown} (" in r.embeds[0]["description"], (written, r.text)


def test_a_reroll_once_of_every_face_is_rolled(discord_env, guild):
    r = _roll(discord_env, guild, "1d1ro1")
    assert r.ok and not r.ephemeral, r.text
    assert re.search(r"Total: 1\b", r.embeds[0]["description"]), r.text


def test_modifiers_out_of_order_are_refused_with_the_order_that_works(discord_env, guild):
    es = _roll(discord_env, guild, "4d6kh3e6")
    assert es.ephemeral and "`4d6!kh3`" in es.text and "«e6» (columna 7)" in es.text, es.text
    en = _roll(discord_env, guild, "8d6!ro1", locale="en-US")
    assert en.ephemeral and "`8d6ro1!`" in en.text and "“ro1” (column 5)" in en.text, en.text


def test_invisible_characters_in_an_error_are_shown_escaped(discord_env, guild):
    for user, char, shown in [
        ("ana", "\u200b", "U+200B"),
        ("bruno", "\u202e", "U+202E"),
        ("gm", "\x00", "U+0000"),
    ]:
        r = _roll(discord_env, guild, f"1d6{char}+1", user=user)
        assert r.ephemeral and f"«{shown}» en la columna 4" in r.text, (shown, r.text)
        assert char not in r.text, shown


def test_odds_count_the_rolls_the_dice_limit_cuts(discord_env, guild):
    # 1d1000r<1000 stands only on a 1000: 60.64 % of rolls throw 500 dice without one and the
    # roller stops them with an error. The odds were {1000: 100 %}.
    r = discord_env.command(
        "odds",
        {"expression": "1d1000r<1000", "target": 1000},
        guild=guild,
        channel="mesa",
        user="ana",
        locale="es-ES",
    )
    assert r.ok, r.text
    assert "Sacar **1000** o más con `1d1000r<=999`: **39,36 %**" in r.text, r.text
    assert "el **60,64 %** de estas tiradas no acaba" in r.text, r.text
    plain = discord_env.command(
        "odds",
        {"expression": "2d6", "target": 7},
        guild=guild,
        channel="mesa",
        user="ana",
        locale="es-ES",
    )
    assert "no acaba" not in plain.text


def test_the_help_has_a_dice_guide(discord_env, guild):
    start = discord_env.command("help", {}, guild=guild, channel="mesa", user="ana")
    assert "dice" in {o["value"] for o in start.message.selects[0]["options"]}
    guide = discord_env.command(
        "help", {"topic": "Notación de dados"}, guild=guild, channel="mesa", user="ana"
    )
    assert "`<3` es **menos de 3**" in guide.text and "`3d6!>=4`" in guide.text, guide.text
    en = discord_env.command(
        "help", {"topic": "dice"}, guild=guild, channel="mesa", user="bruno", locale="en-US"
    )
    assert "`<3` is **below 3**" in en.text, en.text


def test_a_roll_under_campaign_reads_a_difficulty_as_a_target(discord_env):
    """Issue 23 §5: in rolweb `/roll 1d20 difficulty:12` read as roll-over («Éxito (dificultad
    12)» on a 16) while `/check … difficulty:8` meant «objetivo 8».  Extremes make it certain."""
    from tests.e2e.helpers import new_campaign

    sb = discord_env
    g = new_campaign(sb, "Bajo el d20", "rolweb")
    sure = _roll_with(sb, g, "1d20", 25)
    assert "Éxito (objetivo 25: hay que sacar eso o menos)" in sure.text, sure.text
    never = _roll_with(sb, g, "1d20", 0, user="bruno")
    assert "Fallo (objetivo 0: hay que sacar eso o menos)" in never.text, never.text
    other = new_campaign(sb, "Sobre el d20", "nucleo")
    over = _roll_with(sb, other, "1d20", 0)  # roll-over: success (a critical from 10 up)
    assert "(dificultad 0)" in over.text and "Fallo" not in over.text, over.text


def _roll_with(sb, g, expression, difficulty, user="ana"):
    return sb.command(
        "roll",
        {"expression": expression, "difficulty": difficulty},
        guild=g,
        channel="mesa",
        user=user,
        locale="es-ES",
    )


def test_avraes_minimum_per_die(discord_env, guild):
    r = _roll(discord_env, guild, "1d20mi10")
    assert r.ok and not r.ephemeral, r.text
    total = int(re.search(r"Total: (\d+)", r.embeds[0]["description"])[1])
    assert 10 <= total <= 20, r.text
    bad = _roll(discord_env, guild, "1d6mi7", user="bruno")
    assert bad.ephemeral and "«mi7» (columna 4)" in bad.text, bad.text

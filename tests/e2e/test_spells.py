"""/spell end to end: Núcleo mana and criticals, S&W slots, rolweb's refusal, in Spanish and English."""

from __future__ import annotations

import json

import pytest

from bot.services.campaigns.settings import resolved_settings
from rules import systems
from rules.swc.advancement import xp_for_level
from tests.examples import ardelia_the_mage

pytestmark = pytest.mark.e2e


def _import(sb, g, system, sheet, user="ana"):
    document = {"format": "arbitro.sheet", "version": 1, "system": system, "sheet": sheet}
    sb.command(
        "sheet import", {"file": json.dumps(document).encode()}, guild=g, channel="mesa", user=user
    ).expect_ok()


def _campaign(sb, name, system):
    g = sb.new_guild(name=name)
    sb.command(
        "campaign create", {"name": name, "system": system}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    return g


maga = ardelia_the_mage


def test_nucleo_list_show_cast_with_burnt_mana_and_critical_refusal_and_rest(discord_env):
    sb = discord_env
    g = _campaign(sb, "Magia", "nucleo")
    _import(sb, g, "nucleo", maga())

    def spell(sub, options, locale="es-ES"):
        return sb.command(f"spell {sub}", options, guild=g, channel="mesa", locale=locale)

    listed = spell("list", {})
    assert listed.ephemeral and "Proyectil mágico" in listed.text
    assert "Página 1 de 4 · 55 conjuros" in listed.text and "**Maná**: 27 / 27" in listed.text
    assert "Conocidos: Proyectil mágico 1" in listed.text
    band = spell("list", {"level": 7})
    assert "Tormenta de fuego" in band.text and "Luz" not in band.text
    shown = spell("show", {"name": "proyectil magico"})
    assert shown.text.startswith("Proyectil mágico\n2d6 daño")
    assert "Dificultad: 16" in shown.text and "Coste de maná: 2" in shown.text
    assert "Alcance: distancia" in shown.text and "Tu nivel: 1" in shown.text
    suggested = sb.autocomplete("spell cast", "name", "", guild=g, channel="mesa")
    assert suggested[0]["value"] == "Proyectil mágico" and suggested[0]["name"].startswith("★")

    # +50 from the GM makes any roll but a fumble a critical (16 + 10); 2 extra mana burnt: +1.
    left = 27
    for _attempt in range(3):
        cast = spell(
            "cast",
            {"name": "Proyectil mágico", "extra_mana": 2, "modifier": 50, "target": "el orco"},
        )
        assert not cast.ephemeral, cast.text
        left -= 4
        assert f"4 de Maná · quedan {left} / 27" in cast.text
        if "¡Crítico!" in cast.text:
            break
    assert "¡Crítico!" in cast.text
    assert "+1d6 al daño o la curación" in cast.text and "2d6!+1d6!" in cast.text
    assert "Maná quemado: +1 por cada 2 puntos extra." in cast.text
    assert "el orco" in cast.text and "lanza Proyectil mágico" in cast.text

    spent = {"field": "mana_gastado", "value": "26", "character": "Ardelia"}  # the GM's hand
    sb.command("sheet set", spent, guild=g, channel="mesa", user="gm").expect_ok()
    out = spell("cast", {"name": "Proyectil mágico"})
    assert out.ephemeral and "cuesta 2 de maná y te quedan 1" in out.text
    wrong = spell("cast", {"name": "Bola de nieve"})
    assert wrong.ephemeral and "«Bola de nieve» no es un conjuro de esta campaña." in wrong.text
    unknown = spell("show", {"name": "Bola de nieve"}, locale="en-US")
    assert unknown.ephemeral and "There is no spell called “Bola de nieve”." in unknown.text

    rested = spell("rest", {})
    assert "**Maná**: 1 → 27 / 27" in rested.text
    history = sb.command("history", {}, guild=g, channel="mesa", user="gm")
    assert "Proyectil mágico → el orco" in history.text


def mago():
    swc = systems.get("swc")
    sheet = swc.new_sheet("Zoltan", resolved_settings(swc.settings(), {}))
    sheet.update(
        raza="humano",
        clases=["mago"],
        alineamiento="neutral",
        atributos={
            "Fuerza": 9,
            "Destreza": 12,
            "Constitución": 10,
            "Inteligencia": 15,
            "Sabiduría": 10,
            "Carisma": 9,
        },
        pg={"max": 4, "actual": 4},
        xp=xp_for_level("mago", 2),
    )
    return sheet


def test_swc_spends_prepared_slots_by_level_and_a_new_day_restores_them(discord_env):
    sb = discord_env
    g = _campaign(sb, "Torre", "swc")
    _import(sb, g, "swc", mago(), user="gm")  # rolled attributes: only the GM imports them

    def spell(sub, options, locale="es-ES"):
        return sb.command(
            f"spell {sub}", options, guild=g, channel="mesa", locale=locale, user="gm"
        )

    listed = spell("list", {})
    assert "termina antes de las listas de conjuros" in listed.text
    assert "**Mago, nivel 1**: 2 / 2" in listed.text
    for left in (1, 0):
        cast = spell("cast", {"name": "Dormir", "level": 1})
        assert "sin tirada" in cast.text and f"quedan {left} / 2" in cast.text, cast.text
    out = spell("cast", {"level": 1}, locale="en-US")
    assert out.ephemeral and "no prepared spells of Mago, nivel 1 left" in out.text
    no_level = spell("cast", {"name": "Dormir"})
    assert no_level.ephemeral and "indica `nivel`" in no_level.text
    rested = spell("rest", {})
    assert "**Mago, nivel 1**: 0 → 2 / 2" in rested.text


def test_rolweb_has_no_spells_and_says_where_powers_are(discord_env):
    sb = discord_env
    g = _campaign(sb, "Bosque", "rolweb")
    listed = sb.command("spell list", {}, guild=g, channel="mesa")
    assert "poderes místicos (como la Imposición de manos) son habilidades" in listed.text
    rolweb = systems.get("rolweb")
    _import(sb, g, "rolweb", rolweb.new_sheet("Eira", resolved_settings(rolweb.settings(), {})))
    refused = sb.command(
        "spell cast", {"name": "Imposición de manos"}, guild=g, channel="mesa", locale="en-US"
    )
    assert refused.ephemeral and "This system has no spells" in refused.text
    assert "/ability use" in refused.text  # abilities have their own command now

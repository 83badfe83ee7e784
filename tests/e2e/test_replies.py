"""What the replies say (issue 23 §6), end to end through the stand-in: an NPC's natural
armour by its name, a heal cast on oneself said once, a touch spell's attack without a word
about the caster's bow, «se une al combate» naming the character.  (The defence header is in
tests/e2e/test_attack.py; Discord timestamps and typed mentions in their own tests.)"""

from __future__ import annotations

import re

import pytest

from tests.e2e.helpers import import_sheet, new_campaign, says
from tests.examples import ardelia
from tests.rules.rolweb.test_fight import orc as rolweb_orc

pytestmark = pytest.mark.e2e

ES = {"locale": "es-ES"}


def run(sb, g, path, options=None, user="gm"):
    return sb.command(path, options or {}, guild=g, channel="mesa", user=user, **ES)


def test_an_npcs_natural_armour_is_shown_by_its_name(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Pelaje", "rolweb")
    wolf = rolweb_orc() | {"name": "Lobo"}
    wolf["atributos"] |= {"Astuto": 5}
    wolf["armadura"] = {"nombre": "Pelaje", "proteccion": "1d4", "defensa": 0}
    import_sheet(sb, g, wolf, user="gm", npc=True)
    shown = run(sb, g, "sheet show", {"character": "Lobo"})
    assert "**Armadura**: Pelaje" in shown.all_text, shown.all_text
    assert "{" not in shown.all_text and "'nombre'" not in shown.all_text, shown.all_text


def test_a_heal_cast_on_oneself_is_said_once(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Cura propia", "nucleo")
    healer = ardelia(heridas=10)
    del healer["habilidades"]["Sigilo"]
    healer["hechizos"] = {"Curación": 1}
    import_sheet(sb, g, healer)
    for _attempt in range(3):  # +50 makes anything but a fumble succeed
        cast = run(
            sb, g, "spell cast", {"name": "Curación", "mana": 1, "modifier": 50, "target": "Ardelia"},
            user="ana",
        )  # fmt: skip
        if "recupera" in cast.all_text:
            break
    assert cast.all_text.count("Ardelia recupera") == 1, cast.all_text


def test_a_touch_spell_says_nothing_of_the_casters_bow(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Toque con arco", "nucleo")
    caster = ardelia()
    del caster["habilidades"]["Sigilo"]
    caster["hechizos"] = {"Toque eléctrico": 1}
    caster["equipo"]["arma_principal"] = "Arco corto"
    import_sheet(sb, g, caster)
    import_sheet(sb, g, ardelia(name="Bram"), user="bruno")
    touch = run(
        sb, g, "spell cast", {"name": "Toque eléctrico", "target": "Bram", "modifier": 50},
        user="ana",
    )  # fmt: skip
    assert touch.ok and "Toque" in touch.all_text, touch.all_text
    assert not says(touch, "nucleo.note.arma_improvisada"), touch.all_text


def test_joining_a_fight_names_the_character(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Se une", "nucleo")
    import_sheet(sb, g, ardelia())
    run(sb, g, "init start").expect_ok()
    joined = run(sb, g, "init join", user="ana")
    assert says(joined, "combat.joined", name="Ardelia"), joined.all_text
    assert "ana se une" not in joined.all_text, joined.all_text


def test_moments_are_discord_timestamps_read_in_each_readers_zone(discord_env):
    """/history showed «07/12/2026 17:17 CET» (the campaign's zone) and the sandbox printed
    /scene status' «<t:…>» as UTC ISO: a table shared between Spain and Latin America needs
    each reader's own zone.  Inside Discord, moments go as <t:…> timestamps."""
    sb = discord_env
    g = new_campaign(sb, "Husos", "nucleo")
    import_sheet(sb, g, ardelia())
    run(sb, g, "roll", {"expression": "1d20"}, user="ana").expect_ok()
    run(sb, g, "xp grant", {"amount": 1, "character": "Ardelia"}).expect_ok()
    history = run(sb, g, "history", {}, user="ana")
    assert re.search(r"<t:\d+:f>", history.text), history.text
    assert "CET" not in history.text and not re.search(r"\d{2}/\d{2}/\d{4}", history.text)
    log = run(sb, g, "xp log", {}, user="ana")
    assert re.search(r"<t:\d+:d> \*\*Ardelia\*\*", log.text), log.text

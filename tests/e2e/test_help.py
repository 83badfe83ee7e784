"""/help end to end: the guides, the topic menu, a command's generated help in es and en."""

from __future__ import annotations

import re

import pytest

from tests.e2e.helpers import HELP_PAGE

pytestmark = pytest.mark.e2e


def _next_page(msg):
    """The custom id of the ▶ button (``arb:1:help:page:<page>:<topic>``, the page button
    leading furthest), or None once it is disabled on the last page."""
    pages = [b for b in msg.buttons if (b.get("custom_id") or "").startswith(HELP_PAGE)]
    further = max(pages, key=lambda b: int(b["custom_id"].split(":")[4]), default=None)
    return None if further is None or further.get("disabled") else further["custom_id"]


def test_help_menu_and_command_help_in_both_languages(discord_env):
    sb = discord_env
    g = sb.new_guild(name="Ayuda")
    created = sb.command(
        "campaign create", {"name": "Ayuda", "system": "nucleo"}, guild=g, channel="mesa", user="gm"
    )
    assert "`/ayuda`" in created.text, created.text  # the first reply points to the help

    start = sb.command("help", {}, guild=g, channel="mesa", user="ana", locale="es-ES")
    assert start.ephemeral and "Qué es Árbitro" in start.text, start.text
    assert "Primeros pasos (máster)" in start.text
    # more than 25 topics (the guides, dice notation and typing included, and every command)
    # take two menus, as Discord allows 25 options in one
    entries = {o["value"]: o for menu in start.message.selects for o in menu["options"]}
    assert {"about", "gm", "player", "dice", "typing", "attack", "sheet", "help"} <= set(entries)
    assert entries["sheet"]["label"] == "/ficha (/sheet)"
    assert entries["gm"]["description"]  # the grey line under each entry, as in Discord
    # a group lists its subcommands in whole words; what does not fit is counted, never cut
    assert entries["init"]["description"].startswith("empezar, unirse")
    assert re.search(r", \w+ y \d+ más$", entries["init"]["description"])

    gm = sb.select(start, 0, ["gm"], user="ana")
    assert "/campaña crear" in gm.all_text and "Primeros pasos (máster)" in gm.all_text
    attack = sb.select(start, 0, ["attack"], user="ana")
    text = attack.all_text
    assert "/atacar" in text and "`objetivo` (`target:`) — obligatoria" in text, text
    assert "Ejemplo: `/atacar objetivo:Orco" in text

    en = sb.command(
        "help", {"topic": "attack"}, guild=g, channel="mesa", user="bruno", locale="en-US"
    )
    assert "**/attack**" in en.text and "`target` — required" in en.text, en.text
    assert "Example: `/attack target:Orc" in en.text
    assert "Valores" not in en.text and "obligatoria" not in en.text

    # the sheet group is long: it turns pages, and the pages together hold every subcommand
    sheet = sb.command("help", {"topic": "ficha"}, guild=g, channel="mesa", user="ana")
    msg, pages = sheet.message, 1
    seen = msg.text
    while (further := _next_page(msg)) is not None:
        sb.click(msg, further, user="ana").expect_ok()
        msg, pages = sb.message(msg.id), pages + 1
        seen += "\n" + msg.text
    assert pages > 1 and "Página" in seen
    for sub in ("crear", "ver", "exportar", "importar", "dinero"):
        assert f"/ficha {sub}" in seen, sub

    suggestions = sb.autocomplete("help", "topic", "atac", guild=g, channel="mesa", user="ana")
    assert any(c["value"] == "attack" for c in suggestions), suggestions
    unknown = sb.command("help", {"topic": "nada"}, guild=g, channel="mesa", user="ana")
    assert "No hay ayuda sobre «nada»" in unknown.text

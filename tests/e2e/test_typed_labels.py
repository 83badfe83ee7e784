"""Issue 13, «a newcomer finds the way», end to end: autocompleted options typed without
picking a suggestion (the label read, in either language), the unknown-field list by label,
effect modifiers by name, and «PNJtizado» agreeing with the character."""

from __future__ import annotations

import json

import pytest

from tests.e2e.helpers import import_sheet, new_campaign
from tests.examples import ARDELIA, swc_cleric

pytestmark = pytest.mark.e2e


def _run(sb, g, path, options, user="ana", locale="es-ES"):
    return sb.command(path, options, guild=g, channel="mesa", user=user, locale=locale)


def test_nucleo_checks_requests_effects_and_npcized_by_what_the_user_reads(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Etiquetas Núcleo", "nucleo")
    import_sheet(sb, g, json.loads(json.dumps(ARDELIA)))

    # /prueba que:Percepción (was «No sé qué tirar con «Percepción»»)
    rolled = _run(sb, g, "check", {"option": "Percepción"})
    assert rolled.ok and not rolled.ephemeral, rolled.text
    assert "Percepción" in rolled.text and "No sé qué tirar" not in rolled.text, rolled.text
    several = _run(sb, g, "check", {"option": "salvación"})
    assert several.ephemeral and "«salvación» puede ser varias cosas" in several.text
    assert "Salvación (Físico)" in several.text and "salvacion:" not in several.text
    english = _run(sb, g, "check", {"option": "salvación"}, locale="en-US")
    assert "could be several things" in english.text, english.text

    # /peticion tirada opcion:Sigilo — the GM types the label too
    asked = _run(sb, g, "request check", {"who": "Ardelia", "option": "sigilo"}, user="gm")
    assert asked.ok and "Sigilo" in asked.all_text, asked.all_text

    # /ficha cambiar: an unknown field lists what can be typed, by label
    wrong = _run(sb, g, "sheet set", {"field": "fuerza", "value": "3"}, user="gm")
    assert wrong.ephemeral and "No existe el campo «fuerza»" in wrong.text, wrong.text
    assert "Físico" in wrong.text and "atributos." not in wrong.text, wrong.text
    noted = _run(sb, g, "sheet set", {"field": "NOTAS", "value": "Piloto"}, user="ana")
    assert noted.ok and "Piloto" in noted.all_text, noted.all_text

    # effect modifiers by name, per language (was «to_hit +1, damage +1d6»)
    added = _run(
        sb,
        g,
        "effect add",
        {"target": "Ardelia", "name": "Bendición", "modifier": "ataque+1, daño+1d6"},
    )
    assert "Modificadores: ataque +1, daño +1d6" in added.text, added.text
    run_en = _run(
        sb,
        g,
        "effect add",
        {"target": "Ardelia", "name": "Bless", "modifier": "attack+1, damage+1d6"},
        locale="en-US",
    )
    assert "attack +1, damage +1d6" in run_en.text and "to_hit" not in run_en.text, run_en.text
    sb.command("init start", {}, guild=g, user="gm").expect_ok()
    sb.command("init join", {}, guild=g, user="ana").expect_ok()
    tracked = _run(
        sb,
        g,
        "init effect add",
        {"combatant": "Ardelia", "name": "Furia", "modifier": "daño+2"},
        user="gm",
    )
    assert "Modificadores: daño +2" in tracked.text, tracked.text

    # «queda PNJtizado» agrees with the sheet's gender, neutral when unset
    neutral = _run(sb, g, "sheet npcize", {"character": "Ardelia"}, user="gm")
    assert "pasa a manos del máster (PNJtización)" in neutral.text, neutral.text
    _run(sb, g, "sheet unnpcize", {"character": "Ardelia"}, user="gm").expect_ok()
    _run(sb, g, "sheet set", {"field": "Género gramatical", "value": "femenino"}).expect_ok()
    female = _run(sb, g, "sheet npcize", {"character": "Ardelia"}, user="gm")
    assert "**Ardelia** queda PNJtizada" in female.text, female.text


def test_swc_sheet_fields_values_and_settings_by_their_names(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Etiquetas S&W", "swc")
    sheet = swc_cleric()
    document = {"format": "arbitro.sheet", "version": 1, "system": "swc", "sheet": sheet}
    # the GM imports it (a player may not set class and attributes by file)
    imported = _run(sb, g, "sheet import", {"file": json.dumps(document).encode()}, user="gm")
    assert imported.ok and "Aldara" in imported.all_text, imported.all_text

    # /ficha cambiar campo:fuerza (was an error: the field is atributos.Fuerza)
    strong = _run(
        sb, g, "sheet set", {"field": "fuerza", "value": "12", "character": "Aldara"}, user="gm"
    )
    assert strong.ok and "actualizada" in strong.text, strong.text
    assert "Fuerza" in strong.all_text and "12" in strong.all_text, strong.all_text
    chaotic = _run(
        sb,
        g,
        "sheet set",
        {"field": "Alineamiento", "value": "Chaotic", "character": "Aldara"},
        user="gm",
    )
    assert chaotic.ok and "caótico" in chaotic.all_text, chaotic.all_text
    listed = _run(sb, g, "sheet set", {"field": "fuerzo", "value": "1"}, user="gm", locale="en-US")
    assert "There is no field “fuerzo”. Fields: Fuerza" in listed.text, listed.text
    assert "pg.max" not in listed.text and "monedas." not in listed.text, listed.text

    # the value suggestions follow a field typed by its label, named in the reader's language
    suggested = sb.autocomplete(
        "sheet set",
        "value",
        "",
        guild=g,
        user="gm",
        locale="en-US",
        options={"field": "alineamiento"},
    )
    assert {"name": "chaotic", "value": "caotico"} in suggested, suggested

    # /campaña ajustes regla: a beginning of the display name
    offered = sb.autocomplete(
        "campaign settings",
        "value",
        "",
        guild=g,
        user="gm",
        options={"setting": "Monjes permitidos"},
    )
    assert [o["value"] for o in offered] == ["sí", "no"], offered
    monks = _run(sb, g, "campaign settings", {"setting": "monjes", "value": "no"}, user="gm")
    assert "**Monjes permitidos**: no" in monks.text, monks.text

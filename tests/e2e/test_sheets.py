"""/sheet show, set, use, list, delete/restore, export/import and ownership, end to end.

Characters enter through ``/sheet import`` here (the wizard of each system has its own
scenario in ``test_sheet_<system>.py``), which also exercises the documented file format.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e.helpers import CONFIRM, import_sheet, new_campaign, press, says, sheet_file
from tests.examples import ARDELIA

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def table(discord_env):
    g = new_campaign(discord_env, "Fichas", "nucleo", name="Estrellas")
    r = discord_env.command(
        "sheet import", {"file": sheet_file(ARDELIA)}, guild=g, channel="mesa", user="ana"
    )
    assert r.ok and "Ficha de **Ardelia** importada." in r.content, r.text
    return g


def fields(reply):
    return {f["name"]: f["value"] for embed in reply.embeds for f in embed.get("fields", [])}


def test_the_example_character_shows_its_derived_values(discord_env, table):
    r = discord_env.command(
        "sheet show", {}, guild=table, channel="mesa", user="ana", locale="es-ES"
    )
    assert r.embeds[0]["title"] == "Ardelia"
    derived = fields(r)["Valores derivados"]
    for expected in (
        "**Puntos de Vida**: 24",
        "**Defensa**: 17",
        "**Iniciativa**: 12",
        "**Voluntad**: 21",
    ):
        assert expected in derived
    assert (
        sum(len(json.dumps(e)) for e in r.embeds) < 6000 + 2000
    )  # JSON overhead; limits are enforced by the stand-in
    english = discord_env.command(
        "sheet show",
        {"character": "ardelia"},
        guild=table,
        channel="mesa",
        user="gm",
        locale="en-US",
    )
    assert "Derived values" in fields(english)
    # another player sees the public profile (/sheet profile), never the full sheet
    public = discord_env.command(
        "sheet show",
        {"character": "ardelia"},
        guild=table,
        channel="mesa",
        user="bruno",
        locale="en-US",
    )
    assert "Profile of Ardelia" in public.text and "Derived values" not in public.all_text


def test_owner_sets_a_field_and_another_player_is_refused(discord_env, table):
    allow = {"setting": "salud_por_comandos", "value": "no"}  # owners edit health (issue 23 §3)
    discord_env.command("campaign settings", allow, guild=table, user="gm").expect_ok()
    ok = discord_env.command(
        "sheet set",
        {"field": "heridas", "value": "3"},
        guild=table,
        channel="mesa",
        user="ana",
        locale="es-ES",
    )
    assert ok.ephemeral and "actualizada" in ok.content
    refused = discord_env.command(
        "sheet set",
        {"field": "heridas", "value": "0", "character": "Ardelia"},
        guild=table,
        channel="mesa",
        user="bruno",
        locale="es-ES",
    )
    assert refused.ephemeral and says(refused, "sheet.error.not_owner", name="Ardelia")
    bad = discord_env.command(
        "sheet set",
        {"field": "atributos.Físico", "value": "once"},
        guild=table,
        channel="mesa",
        user="ana",
        locale="es-ES",
    )
    assert bad.ephemeral
    assert says(bad, "sheet.problem.expected_integer", field="Físico", value="once"), bad.text
    illegal = discord_env.command(
        "sheet set",
        {"field": "atributos.Físico", "value": "10"},
        guild=table,
        channel="mesa",
        user="ana",
        locale="es-ES",
    )
    assert illegal.ephemeral and "37" in illegal.text  # the system names the broken point total
    gm = discord_env.command(
        "sheet set",
        {"field": "heridas", "value": "0", "character": "Ardelia"},
        guild=table,
        channel="mesa",
        user="gm",
        locale="es-ES",
    )
    assert gm.ok and "actualizada" in gm.content


def test_field_and_character_autocomplete(discord_env, table):
    names = discord_env.autocomplete(
        "sheet show", "character", "ard", guild=table, channel="mesa", user="bruno"
    )
    assert [c["value"] for c in names] == ["Ardelia"]
    suggestions = discord_env.autocomplete(
        "sheet set", "field", "físico", guild=table, channel="mesa", user="ana"
    )
    assert any(c["value"] == "atributos.Físico" for c in suggestions)
    races = discord_env.autocomplete(
        "sheet set",
        "value",
        "elf",
        guild=table,
        channel="mesa",
        user="ana",
        options={"field": "raza"},
    )
    assert {c["value"] for c in races} == {"Alto Elfo", "Elfo del bosque"}


def test_check_from_the_sheet_lands_in_the_log(discord_env, table):
    options = discord_env.autocomplete(
        "check", "option", "pilot", guild=table, channel="mesa", user="ana"
    )
    assert options and options[0]["value"] == "habilidad:Pilotar"
    r = discord_env.command(
        "check",
        {"option": "habilidad:Pilotar", "difficulty": 15},
        guild=table,
        channel="mesa",
        user="ana",
        locale="es-ES",
    )
    assert r.ok and not r.ephemeral, r.text
    assert "Ardelia" in r.embeds[0]["title"]
    assert "Probabilidad de éxito" in fields(r)
    history = discord_env.command(
        "history", {}, guild=table, channel="mesa", user="gm", locale="es-ES"
    )
    assert "Ardelia (ana)" in history.text


def test_use_list_and_export_import_round_trip(discord_env, table):
    listed = discord_env.command(
        "sheet list", {}, guild=table, channel="mesa", user="ana", locale="es-ES"
    )
    assert "**Ardelia**" in listed.text and "⭐ activo" in listed.text
    exported = discord_env.command(
        "sheet export", {}, guild=table, channel="mesa", user="ana", locale="es-ES"
    )
    assert exported.ephemeral
    (payload,) = exported.attachments.values()
    data = json.loads(payload)
    assert (
        data["format"] == "arbitro.sheet"
        and data["version"] == 1
        and data["sheet"]["name"] == "Ardelia"
    )
    data["sheet"]["name"] = "Ardelia II"
    again = discord_env.command(
        "sheet import",
        {"file": json.dumps(data).encode()},
        guild=table,
        channel="mesa",
        user="bruno",
    )
    assert "Ardelia II" in again.content
    use = discord_env.command(
        "sheet use", {"character": "Ardelia II"}, guild=table, channel="mesa", user="bruno"
    )
    assert "Ardelia II" in use.content
    stolen = discord_env.command(
        "sheet use", {"character": "Ardelia"}, guild=table, channel="mesa", user="bruno"
    )
    assert stolen.ephemeral and says(stolen, "sheet.error.not_owner", name="Ardelia")


def test_import_lists_every_problem_and_saves_nothing(discord_env, table):
    broken = json.loads(json.dumps(ARDELIA))
    broken["name"] = "Rota"
    broken["atributos"]["Físico"] = 11
    del broken["habilidades"]["Pilotar"]
    r = discord_env.command(
        "sheet import", {"file": sheet_file(broken)}, guild=table, channel="mesa", user="ana"
    )
    assert r.ephemeral
    assert "Físico vale 11" in r.text and "nivel 6" in r.text, r.text
    not_json = discord_env.command(
        "sheet import", {"file": b"{nope"}, guild=table, channel="mesa", user="ana"
    )
    assert not_json.ephemeral and "JSON" in not_json.text
    wrong = discord_env.command(
        "sheet import",
        {"file": json.dumps({"format": "otro"}).encode()},
        guild=table,
        channel="mesa",
        user="ana",
        locale="en-US",
    )
    assert wrong.ephemeral and "not an Árbitro sheet" in wrong.text
    listed = discord_env.command("sheet list", {}, guild=table, channel="mesa", user="ana")
    assert "Rota" not in listed.text


def test_delete_needs_confirmation_and_the_gm_restores(discord_env):
    g = new_campaign(discord_env, "Borrar", "nucleo")
    import_sheet(discord_env, g, ARDELIA)
    ask = discord_env.command(
        "sheet delete", {"character": "Ardelia"}, guild=g, channel="mesa", user="ana"
    )
    assert ask.ephemeral and "¿Borrar la ficha de **Ardelia**?" in ask.text
    done = press(discord_env, ask, CONFIRM, user="ana")
    assert "borrada" in done.all_text
    gone = discord_env.command(
        "sheet show", {"character": "Ardelia"}, guild=g, channel="mesa", user="ana"
    )
    assert gone.ephemeral
    refused = discord_env.command(
        "sheet restore", {"character": "Ardelia"}, guild=g, channel="mesa", user="ana"
    )
    assert refused.ephemeral and says(refused, "sheet.error.restore_gm_only")
    deleted = discord_env.command(
        "sheet list", {"deleted": True}, guild=g, channel="mesa", user="gm"
    )
    assert "Ardelia" in deleted.text
    back = discord_env.command(
        "sheet restore", {"character": "ardelia"}, guild=g, channel="mesa", user="gm"
    )
    assert "restaurada" in back.content
    assert discord_env.command(
        "sheet show", {"character": "Ardelia"}, guild=g, channel="mesa", user="ana"
    ).ok


def test_other_guilds_never_see_the_character(discord_env, table):
    other = new_campaign(discord_env, "Otro servidor", "nucleo")
    r = discord_env.command(
        "sheet show", {"character": "Ardelia"}, guild=other, channel="mesa", user="gm"
    )
    assert r.ephemeral and says(r, "sheet.error.not_found", name="Ardelia")
    assert (
        discord_env.autocomplete(
            "sheet show", "character", "", guild=other, channel="mesa", user="gm"
        )
        == []
    )


def test_hidden_npcs_are_for_the_gm_only(discord_env, table):
    goblin = dict(ARDELIA, name="Trasgo")
    r = discord_env.command(
        "sheet import",
        {"file": sheet_file(goblin, npc=True)},
        guild=table,
        channel="mesa",
        user="gm",
    )
    assert r.ok, r.text
    hidden = discord_env.command(
        "npc show", {"name": "Trasgo"}, guild=table, channel="mesa", user="ana"
    )
    assert hidden.ephemeral and says(hidden, "sheet.error.not_found", name="Trasgo")
    copies = discord_env.command(
        "npc copy", {"name": "Trasgo", "count": 3}, guild=table, channel="mesa", user="gm"
    )
    assert "Trasgo 1, Trasgo 2, Trasgo 3" in copies.content
    listed = discord_env.command("npc list", {}, guild=table, channel="mesa", user="ana")
    assert "Trasgo" not in listed.text
    discord_env.command(
        "npc reveal", {"name": "Trasgo 2"}, guild=table, channel="mesa", user="gm"
    ).expect_ok()
    assert discord_env.command(
        "npc show", {"name": "Trasgo 2"}, guild=table, channel="mesa", user="ana"
    ).ok
    refused = discord_env.command(
        "npc copy", {"name": "Trasgo", "count": 2}, guild=table, channel="mesa", user="ana"
    )
    assert refused.ephemeral and says(refused, "sheet.error.npc_gm_only")

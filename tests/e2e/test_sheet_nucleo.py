"""Núcleo (seed 002) sheets end to end: the creation wizard builds the seed's example character
(Ardelia), /sheet show derives PV 24, Defensa 17, Iniciativa 12, Voluntad 21; /check applies
Malherido from the wounds and the token from the sheet with the exact odds; NPC stat blocks,
copies hidden from the players; the backpack and the purse; ownership; delete/restore and the
export/import round trip.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e.helpers import (
    CONFIRM,
    WIZARD_FINISH,
    WIZARD_SKIP,
    fill_wizard_form,
    new_campaign,
    press,
)
from tests.examples import ARDELIA_ATTRIBUTES, ARDELIA_HIGH_SKILLS, ARDELIA_LOW_SKILLS

pytestmark = pytest.mark.e2e

ES = {"locale": "es-ES"}
ATTRIBUTES, HIGH = ARDELIA_ATTRIBUTES, ARDELIA_HIGH_SKILLS
# seed 002, «Ejemplo» (tests/examples.py), with semicolons as some players separate lists
LOW = {**ARDELIA_LOW_SKILLS, "nivel_1": ARDELIA_LOW_SKILLS["nivel_1"].replace(", ", "; ")}


def campaign(sb, name):
    return new_campaign(sb, name, "nucleo", name="Estrellas")


def fill(sb, r, values, user="ana", locale="es-ES"):
    return fill_wizard_form(sb, r, values, user, locale)


def create_ardelia(sb, g, name="Ardelia", user="ana"):
    r = sb.command("sheet create", {"name": name}, guild=g, channel="mesa", user=user, **ES)
    r = fill(sb, r, ATTRIBUTES, user)
    r = sb.select(r, 0, ["Humano"], user=user)
    r = sb.select(r, 0, ["versatil"], user=user)
    r = fill(sb, r, HIGH, user)
    r = fill(sb, r, LOW, user)
    r = sb.select(r, 0, ["Suerte"], user=user)
    r = sb.select(r, 0, ["Espada larga"], user=user)
    r = press(sb, r, WIZARD_SKIP, user=user)  # no armour: its Estorbo would lower Iniciativa
    r = press(sb, r, WIZARD_SKIP, user=user)  # no shield: it would add 1 to Defensa
    assert f"La ficha de {name} está lista" in r.text, r.text
    assert f"Resumen: {name}" in r.text and "**Defensa**: " in r.text, r.text  # issue 13 §3
    saved = press(sb, r, WIZARD_FINISH, user=user)
    assert f"¡Ficha de **{name}** guardada!" in saved.all_text, saved.all_text
    return saved


def fields(reply):
    return {f["name"]: f["value"] for embed in reply.embeds for f in embed.get("fields", [])}


def test_the_wizard_builds_the_example_character_and_names_wrong_answers(discord_env):
    sb = discord_env
    g = campaign(sb, "Núcleo asistente")
    r = sb.command("sheet create", {"name": "Ardelia"}, guild=g, channel="mesa", user="ana", **ES)
    assert r.ok and r.ephemeral, r.text
    assert "Reparte **37 puntos** entre los cinco atributos" in r.text, r.text
    wrong = fill(sb, r, {**ATTRIBUTES, "Físico": "11", "Carisma": "x"})
    assert wrong.ephemeral
    assert "Físico vale 11: cada atributo va de 4 a 10." in wrong.text, wrong.text
    assert "«x» no es un número entero (Carisma)." in wrong.text
    wrong = fill(sb, r, {**ATTRIBUTES, "Físico": "7"})
    assert "Los atributos suman 38; hay que repartir exactamente 37 puntos." in wrong.text
    r = fill(sb, r, ATTRIBUTES)
    assert "Elige la raza." in r.text and "PV 24 · Defensa 12" in r.text, r.text
    r = sb.select(r, 0, ["Humano"])
    labels = [o["label"] for o in r.message.selects[0]["options"]]
    assert labels == ["Versátil", "Especialista"], labels
    r = sb.select(r, 0, ["versatil"])
    assert "pirámide Versátil (parte 1 de 2)" in r.text, r.text
    wrong = fill(sb, r, {**HIGH, "nivel_5": "Esquivar, Pilotar, Volar"})
    assert "«Volar» no está en la lista de habilidades." in wrong.text, wrong.text
    assert "«Pilotar» aparece dos veces (nivel 5 y nivel 6)" in wrong.text
    assert "hay 3 habilidades o hechizos a nivel 5 y deben ser 2" in wrong.text
    r = fill(sb, r, HIGH)
    wrong = fill(sb, r, {**LOW, "nivel_1": "Regatear, Labia, Leyes, Atletismo, Etiqueta"})
    assert "hay 5 habilidades o hechizos a nivel 1 y deben ser 6" in wrong.text, wrong.text
    r = fill(sb, r, LOW)
    assert "PV 24 · Defensa 17 · Iniciativa 12 · Voluntad 21" in r.text, r.text
    advantages = [o["value"] for o in r.message.selects[0]["options"]]
    assert "Suerte" in advantages and "Muro" not in advantages  # Muro needs Físico 8
    r = sb.select(r, 0, ["Suerte"])
    weapons = [o["value"] for o in r.message.selects[0]["options"]]
    assert "Espada larga|dos_manos" in weapons and "Mandoble" not in weapons  # Físico 9
    r = sb.select(r, 0, ["Espada larga"])
    armour = [o["value"] for o in r.message.selects[0]["options"]]
    assert "Armadura ligera" in armour and "Cota de mallas" not in armour  # Físico 7
    # special armour costs «un ojo de la cara» or a quest: not at creation (issue 23 §5)
    assert "Túnica de archimago" not in armour and "Escamas de dragón" not in armour, armour
    r = press(sb, r, WIZARD_SKIP)
    r = press(sb, r, WIZARD_SKIP)
    saved = press(sb, r, WIZARD_FINISH)
    assert "¡Ficha de **Ardelia** guardada!" in saved.all_text, saved.all_text
    shown = sb.command("sheet show", {}, guild=g, channel="mesa", user="ana", **ES)
    derived = fields(shown)["Valores derivados"]
    for expected in (
        "**Puntos de Vida**: 24 (Físico 6 × 4)",
        "**Defensa**: 17 (Esquivar 12 + 5)",
        "**Iniciativa**: 12 (Reflejos 12)",
        "**Voluntad**: 21 (Carisma 7 + Inteligencia 9 + 5)",
        "**Maná**: 27",
    ):
        assert expected in derived, (expected, derived)
    text = shown.text
    assert "**Pilotar**: 6" in text and "**Arma principal**: Espada larga" in text, text
    assert "**Estado**: normal" in text


def test_checks_apply_wounds_and_the_token_with_exact_odds(discord_env):
    sb = discord_env
    g = campaign(sb, "Núcleo tiradas")
    create_ardelia(sb, g)
    # Físico 6: Malherido from 18 wounds (PV left ≤ Físico); the owner sets them by hand
    # only where the campaign allows it (issue 23 §3)
    allow = {"setting": "salud_por_comandos", "value": "no"}
    sb.command("campaign settings", allow, guild=g, channel="mesa", user="gm").expect_ok()
    hurt = sb.command(
        "sheet set", {"field": "heridas", "value": "18"}, guild=g, channel="mesa", user="ana", **ES
    )
    assert hurt.ok, hurt.text
    # Pilotar: Destreza 7 + 6 = 13 against 15 keeping the lowest die: it must be 2 or more,
    # (9/10)³ = 72.9 %.
    r = sb.command(
        "check",
        {"option": "habilidad:Pilotar", "difficulty": 15},
        guild=g,
        channel="mesa",
        user="ana",
        **ES,
    )
    assert r.ok and "Malherido: guarda el dado menor." in r.text, r.text
    assert "72,90 %" in r.text, r.text
    # With the token as well the two cancel out (token_contra_menor «anula»): the middle die
    # must be 2 or more, 1 − (3·0.1²·0.9 + 0.1³) = 97.2 %.
    r = sb.command(
        "check",
        {"option": "habilidad:Pilotar", "difficulty": 15, "circumstances": "token"},
        guild=g,
        channel="mesa",
        user="ana",
        **ES,
    )
    assert "Token entregado al máster" in r.text and "97,20 %" in r.text, r.text
    shown = sb.command("sheet show", {}, guild=g, channel="mesa", user="ana", **ES)
    assert "**Token**: no" in shown.text, shown.text
    again = sb.command(
        "check",
        {"option": "habilidad:Pilotar", "circumstances": "token"},
        guild=g,
        channel="mesa",
        user="ana",
        **ES,
    )
    assert again.ephemeral and "No tienes el token: lo tiene el máster." in again.text
    # Only the GM hands it back by hand.
    grab = sb.command(
        "sheet set", {"field": "token", "value": "sí"}, guild=g, channel="mesa", user="ana", **ES
    )
    assert grab.ephemeral and "«Token» solo lo cambia el máster" in grab.text, grab.text
    # An unknown skill (level 0) keeps the lowest die too.
    sb.command("sheet set", {"field": "heridas", "value": "0"}, guild=g, channel="mesa", user="ana")
    r = sb.command(
        "check",
        {"option": "habilidad:Rastrear", "difficulty": 10},
        guild=g,
        channel="mesa",
        user="ana",
        **ES,
    )
    assert "Habilidad desconocida: guarda el dado menor." in r.text, r.text
    # Percepción 8 + 0 against 10 keeping the lowest: 2 or more, 72.9 % again.
    assert "72,90 %" in r.text
    # The GM hands the token back: the roll keeps the lowest die and the sheet has it again.
    back = sb.command(
        "check",
        {"option": "atributo:Carisma", "circumstances": "token_devuelto"},
        guild=g,
        channel="mesa",
        user="ana",
        **ES,
    )
    assert "El máster devuelve el token" in back.text, back.text
    shown = sb.command("sheet show", {}, guild=g, channel="mesa", user="ana", **ES)
    assert "**Token**: sí" in shown.text, shown.text


def test_npc_stat_blocks_copies_and_hidden_from_players(discord_env):
    sb = discord_env
    g = campaign(sb, "Núcleo PNJ")
    refused = sb.command("npc create", {"name": "Trasgo"}, guild=g, channel="mesa", user="ana")
    assert refused.ephemeral and "cosa del máster" in refused.text, refused.text
    r = sb.command("npc create", {"name": "Trasgo"}, guild=g, channel="mesa", user="gm", **ES)
    assert "Atributos del PNJ: cada uno entre 1 y 20" in r.text, r.text
    r = fill(
        sb,
        r,
        {"Físico": "12", "Destreza": "6", "Inteligencia": "3", "Percepción": "5", "Carisma": "2"},
        user="gm",
    )
    wrong = fill(
        sb,
        r,
        {"habilidades": "Garras 3, Esquivar", "pv": "mil", "arma": "Garrote"},
        user="gm",
    )
    assert "«Garras» no está en la lista de habilidades." in wrong.text, wrong.text
    assert "«Esquivar» no es «Habilidad nivel»" in wrong.text
    assert "«mil» no es un número entero (PV)." in wrong.text
    assert "«Garrote» no está en el equipo de Núcleo." in wrong.text
    r = fill(
        sb,
        r,
        {
            "habilidades": "cuerpo a cuerpo 4, Esquivar 2, advertir/notar 3",
            "pv": "30",
            "arma": "maza",
            "armadura": "armadura ligera",
            "escudo": "sí",
        },
        user="gm",
    )
    assert "La ficha de Trasgo está lista" in r.text, r.text
    assert "**Defensa**: 14 (Esquivar 8 + 5 + 1)" in r.text, r.text  # the summary (§3)
    saved = press(sb, r, WIZARD_FINISH, user="gm")
    assert "Trasgo" in saved.all_text
    shown = sb.command("npc show", {"name": "Trasgo"}, guild=g, channel="mesa", user="gm", **ES)
    text = shown.text
    for expected in (
        "**Puntos de Vida**: 30 (PV fijos (PNJ))",
        "**Defensa**: 14 (Esquivar 8 + 5 + 1)",  # Destreza 6 + Esquivar 2, + 5, + Escudo 1
        "**Armas cuerpo a cuerpo**: 4",
        "**Absorción**: 2",
    ):
        assert expected in text, (expected, text)
    copies = sb.command(
        "npc copy", {"name": "Trasgo", "count": 3}, guild=g, channel="mesa", user="gm", **ES
    )
    assert "Trasgo 1, Trasgo 2, Trasgo 3" in copies.text, copies.text
    hidden = sb.command("npc show", {"name": "Trasgo 2"}, guild=g, channel="mesa", user="ana")
    assert hidden.ephemeral and "No hay ningún personaje" in hidden.text
    assert "Trasgo" not in sb.command("npc list", {}, guild=g, channel="mesa", user="ana").text
    # The GM rolls for a copy: its melee attack is Físico 12 + 4.
    hit = sb.command(
        "check",
        {"option": "ataque:cuerpo_a_cuerpo", "character": "Trasgo 1", "difficulty": 17},
        guild=g,
        channel="mesa",
        user="gm",
        **ES,
    )
    assert hit.ok and "Trasgo 1" in hit.text, hit.text
    wounded = sb.command(
        "npc set",
        {"name": "Trasgo 3", "field": "heridas", "value": "23"},
        guild=g,
        channel="mesa",
        user="gm",
        **ES,
    )
    assert wounded.ok, wounded.text
    state = sb.command("npc show", {"name": "Trasgo 3"}, guild=g, channel="mesa", user="gm", **ES)
    assert "**Estado**: malherido" in state.text, state.text  # ¾ of the fixed 30 PV


def test_inventory_money_ownership_delete_and_round_trip(discord_env):
    sb = discord_env
    g = campaign(sb, "Núcleo mochila")
    create_ardelia(sb, g)
    added = sb.command(
        "sheet item", {"item": "cuerda", "quantity": 2}, guild=g, channel="mesa", user="ana", **ES
    )
    assert added.ok, added.text
    sb.command("sheet item", {"item": "daga"}, guild=g, channel="mesa", user="ana")
    too_many = sb.command(
        "sheet item", {"item": "Cuerda", "quantity": -3}, guild=g, channel="mesa", user="ana", **ES
    )
    assert "Quieres quitar 3 de «cuerda» y solo lleva 2." in too_many.text, too_many.text
    paid = sb.command("sheet money", {"amount": 150}, guild=g, channel="mesa", user="ana", **ES)
    assert paid.ok, paid.text
    broke = sb.command("sheet money", {"amount": -200}, guild=g, channel="mesa", user="ana", **ES)
    assert "quieres gastar 200 créditos y la ficha solo tiene 150" in broke.text, broke.text
    wrong_coin = sb.command(
        "sheet money",
        {"amount": 5, "currency": "oro"},
        guild=g,
        channel="mesa",
        user="ana",
        **ES,
    )
    assert "su moneda es «créditos»" in wrong_coin.text
    sb.command(
        "sheet set",
        {"field": "notas", "value": "Corredora de carreras espaciales"},
        guild=g,
        channel="mesa",
        user="ana",
    )
    shown = sb.command("sheet show", {}, guild=g, channel="mesa", user="ana", **ES).text
    for expected in (
        "**Arma secundaria**: Daga",  # the free hand takes the dagger
        "**Otros objetos**: cuerda ×2",
        "**Dinero**: 150",
        "**Notas**: Corredora de carreras espaciales",
    ):
        assert expected in shown, (expected, shown)
    # Another player can neither change nor delete Ardelia.
    for command, options in (
        ("sheet item", {"item": "Cuerda", "character": "Ardelia"}),
        ("sheet set", {"field": "heridas", "value": "5", "character": "Ardelia"}),
    ):
        refused = sb.command(command, options, guild=g, channel="mesa", user="bruno", **ES)
        assert refused.ephemeral and "no es tu personaje" in refused.text, refused.text
    exported = sb.command("sheet export", {}, guild=g, channel="mesa", user="ana")
    (payload,) = exported.attachments.values()
    document = json.loads(payload)
    assert document["sheet"]["equipo"]["otros"] == {"cuerda": 2}
    document["sheet"]["name"] = "Ardelia bis"
    imported = sb.command(
        "sheet import",
        {"file": json.dumps(document).encode()},
        guild=g,
        channel="mesa",
        user="bruno",
        **ES,
    )
    assert "Ficha de **Ardelia bis** importada." in imported.text, imported.text
    assert "**Iniciativa**: 12" in imported.all_text and "**Dinero**: 150" in imported.all_text
    used = sb.command(
        "sheet use", {"character": "Ardelia bis"}, guild=g, channel="mesa", user="bruno"
    )
    assert "Ardelia bis" in used.text
    ask = sb.command("sheet delete", {"character": "Ardelia"}, guild=g, channel="mesa", user="ana")
    done = press(sb, ask, CONFIRM, user="ana")
    assert "borrada" in done.all_text
    back = sb.command("sheet restore", {"character": "Ardelia"}, guild=g, channel="mesa", user="gm")
    assert "restaurada" in back.text, back.text
    again = sb.command(
        "sheet show", {"character": "Ardelia"}, guild=g, channel="mesa", user="ana", **ES
    )
    assert "**Otros objetos**: cuerda ×2" in again.text


def test_catalogue_autocomplete(discord_env):
    sb = discord_env
    g = campaign(sb, "Núcleo autocompletar")
    items = sb.autocomplete("sheet item", "item", "esp", guild=g, channel="mesa", user="ana")
    assert [c["value"] for c in items][:2] == ["Espada corta", "Espada larga"], items


def test_the_wizard_speaks_english_with_spanish_game_terms(discord_env):
    sb = discord_env
    g = campaign(sb, "Núcleo inglés")
    r = sb.command(
        "sheet create", {"name": "Vega"}, guild=g, channel="mesa", user="bruno", locale="en-US"
    )
    assert "Share **37 points** among the five attributes" in r.text, r.text
    wrong = fill(sb, r, {**ATTRIBUTES, "Destreza": "3"}, user="bruno", locale="en-US")
    assert "Destreza is 3: each attribute goes from 4 to 10." in wrong.text, wrong.text
    r = fill(sb, r, ATTRIBUTES, user="bruno", locale="en-US")
    assert "Choose the race." in r.text, r.text

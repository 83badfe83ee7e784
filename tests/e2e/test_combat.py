"""/init end to end in each system: start, join, NPCs, roll, turns over a round, health,
a player refused on another's turn, a stale button, the end."""

from __future__ import annotations

import json

import pytest

from tests.e2e.helpers import COMBAT_NEXT, CONFIRM, WIZARD_FINISH, WIZARD_FORM, press, says
from tests.e2e.test_sheet_rolweb import create_eira
from tests.e2e.test_sheet_swc import create_fighter
from tests.examples import ARDELIA

pytestmark = pytest.mark.e2e

ES = {"locale": "es-ES"}


def game(sb, name, system):
    g = sb.new_guild(name=name)
    sb.command(
        "campaign create", {"name": name, "system": system}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    return g


def run(sb, g, path, options=None, user="gm"):
    return sb.command(path, options or {}, guild=g, channel="mesa", user=user, **ES)


def ardelia_meets_a_trasgo(sb, name):
    """A Núcleo fight in a new guild: Ana's Ardelia (imported) and the GM's Trasgo (/npc
    create) joined in an active /init."""
    g = game(sb, name, "nucleo")
    document = {"format": "arbitro.sheet", "version": 1, "system": "nucleo", "sheet": ARDELIA}
    run(sb, g, "sheet import", {"file": json.dumps(document).encode()}, user="ana").expect_ok()
    npc_trasgo(sb, g)
    run(sb, g, "init start").expect_ok()
    run(sb, g, "init join", user="ana").expect_ok()
    run(sb, g, "init add", {"name": "Trasgo", "initiative": 5}).expect_ok()
    return g


def npc_trasgo(sb, g):
    """A Núcleo NPC through /npc create (the same answers as the NPC wizard test)."""
    r = run(sb, g, "npc create", {"name": "Trasgo"})
    for values in (
        {"Físico": "12", "Destreza": "6", "Inteligencia": "3", "Percepción": "5", "Carisma": "2"},
        {
            "habilidades": "cuerpo a cuerpo 4, Esquivar 2",
            "pv": "30",
            "arma": "maza",
            "armadura": "armadura ligera",
            "escudo": "sí",
        },
    ):
        modal = press(sb, r, WIZARD_FORM, user="gm")
        r = sb.submit_modal(modal, values, user="gm")
    press(sb, r, WIZARD_FINISH, user="gm").expect_ok()


def test_nucleo_a_whole_fight(discord_env):
    sb = discord_env
    g = game(sb, "Combate Núcleo", "nucleo")
    document = {"format": "arbitro.sheet", "version": 1, "system": "nucleo", "sheet": ARDELIA}
    run(sb, g, "sheet import", {"file": json.dumps(document).encode()}, user="ana").expect_ok()
    npc_trasgo(sb, g)

    refused = run(sb, g, "init start", user="ana")
    assert refused.ephemeral and "Solo el máster" in refused.text, refused.text
    started = run(sb, g, "init start")
    assert "Empieza el combate" in started.text, started.text
    again = run(sb, g, "init start")
    assert again.ephemeral and "Ya hay un combate" in again.text
    assert "Ardelia" in run(sb, g, "init join", user="ana").text
    run(sb, g, "init add", {"name": "Trasgo"}).expect_ok()
    group = run(sb, g, "init add", {"name": "3 trasgos", "initiative": 12, "count": 3})
    assert "3 trasgos ×3 (12)" in group.text, group.text
    missing = run(sb, g, "init next")
    assert missing.ephemeral and "Falta la iniciativa de: " in missing.text, missing.text
    rolled = run(sb, g, "init roll", user="ana")
    assert "🎲 Ardelia:" in rolled.text and "🎲 Trasgo" not in rolled.text, rolled.text
    assert "🎲 Trasgo:" in run(sb, g, "init roll").text
    run(sb, g, "init move", {"combatant": "Ardelia", "initiative": 18}).expect_ok()
    run(sb, g, "init move", {"combatant": "Trasgo", "initiative": 5}).expect_ok()

    first = run(sb, g, "init next")
    assert "**Asalto 1**" in first.text and "Turno de **Ardelia**" in first.text, first.text
    assert "▶ **Ardelia** (18)" in first.text
    passed = run(sb, g, "init next", user="ana")
    assert "Turno de **3 trasgos**" in passed.text, passed.text
    not_hers = run(sb, g, "init next", user="ana")
    assert not_hers.ephemeral and says(not_hers, "combat.error.not_your_turn"), not_hers.text
    stale = press(sb, first, COMBAT_NEXT, user="gm")
    assert says(stale, "combat.error.stale"), stale.all_text
    assert stale.edits and not stale.edits[-1].buttons, "the stale panel loses its buttons"
    clicked = press(sb, passed, COMBAT_NEXT, user="gm")
    assert "Turno de **Trasgo**" in clicked.all_text, clicked.all_text
    new_round = press(sb, clicked.followups[-1], COMBAT_NEXT, user="gm")
    assert "**Asalto 2**" in new_round.all_text and "Turno de **Ardelia**" in new_round.all_text

    hurt = run(sb, g, "init damage", {"combatant": "Ardelia", "amount": 20})
    assert "Estado: malherido (4/24)" in hurt.text, hurt.text
    shown = run(sb, g, "sheet show", user="ana")
    assert "Ardelia" in shown.text
    adhoc = run(sb, g, "init damage", {"combatant": "3 trasgos", "amount": 2})
    assert adhoc.ephemeral and says(adhoc, "combat.error.no_sheet", name="3 trasgos"), adhoc.text

    ask = run(sb, g, "init end")
    done = press(sb, ask, CONFIRM, user="gm")
    assert says(done, "combat.ended"), done.all_text
    gone = run(sb, g, "init show")
    assert gone.ephemeral and says(gone, "combat.error.none")
    late = press(sb, new_round.followups[-1], COMBAT_NEXT, user="gm")
    assert says(late, "combat.error.gone"), late.all_text  # the fight ended: not "stale"


def test_rolweb_waiting_for_a_later_place(discord_env):
    sb = discord_env
    g = game(sb, "Combate Rolweb", "rolweb")
    create_eira(sb, g, skip=True).expect_ok()
    run(sb, g, "init start").expect_ok()
    deadline = run(sb, g, "init deadline", {"hours": 12})
    assert "más de 12 h" in deadline.text, deadline.text
    assert run(sb, g, "init deadline", {"hours": 12}, user="ana").ephemeral
    run(sb, g, "init join", user="ana").expect_ok()
    run(sb, g, "init add", {"name": "Bandido", "initiative": 5}).expect_ok()
    run(sb, g, "init add", {"name": "Lobo", "initiative": 1}).expect_ok()
    run(sb, g, "init move", {"combatant": "Eira", "initiative": 15}).expect_ok()
    first = run(sb, g, "init next")
    assert "Turno de **Eira**" in first.text, first.text
    waited = run(sb, g, "init wait", {"after": "Lobo"}, user="ana")
    assert "Turno de **Bandido**" in waited.text and "espera tras Lobo" in waited.text, waited.text
    again = run(sb, g, "init wait", {"after": "Lobo"}, user="ana")
    assert again.ephemeral and "ya eligió" in again.text, again.text
    run(sb, g, "init next").expect_ok()
    eira = run(sb, g, "init next")
    assert "Turno de **Eira**" in eira.text and "Asalto" not in eira.content, eira.text
    hurt = run(sb, g, "init damage", {"combatant": "Eira", "amount": 40})
    assert "moribundo" in hurt.text, hurt.text
    ask = run(sb, g, "init end")
    assert "El combate ha terminado" in press(sb, ask, CONFIRM, user="gm").all_text


def test_swc_sides_roll_a_d6_each_round(discord_env):
    sb = discord_env
    g = game(sb, "Combate SWC", "swc")
    create_fighter(sb, g)
    run(sb, g, "init start").expect_ok()
    run(sb, g, "init join", user="ana").expect_ok()
    run(sb, g, "init add", {"name": "Orcos", "initiative": 10, "count": 4}).expect_ok()
    wrong = run(sb, g, "init wait", {"after": "Orcos"}, user="ana")
    assert wrong.ephemeral and "no permite esperar" in wrong.text, wrong.text
    run(sb, g, "init roll", user="ana").expect_ok()
    first = run(sb, g, "init next")
    assert "Iniciativa por bando (d6): jugadores" in first.text, first.text
    assert "(jugadores)" in first.text and "(enemigos)" in first.text
    second = run(sb, g, "init next")
    third = run(sb, g, "init next")
    assert "**Asalto 2**" in third.text and "Iniciativa por bando" in third.text, (
        second.text,
        third.text,
    )
    hurt = run(sb, g, "init damage", {"combatant": "Brann", "amount": 50})
    assert "incapacitado" in hurt.text, hurt.text
    bruno = run(sb, g, "init end", user="bruno")
    assert bruno.ephemeral and "Solo el máster" in bruno.text


def test_many_clicks_on_one_panel_pass_exactly_one_turn(discord_env):
    from concurrent.futures import ThreadPoolExecutor

    sb = discord_env
    g = game(sb, "Combate clics", "nucleo")
    run(sb, g, "init start").expect_ok()
    for name, initiative in (("A", 30), ("B", 20), ("C", 10)):
        run(sb, g, "init add", {"name": name, "initiative": initiative}).expect_ok()
    panel = run(sb, g, "init next")
    # The button is found once, before the clicks: the first click that lands makes the panel
    # stale and strips its buttons, and the other five must still press the copy they saw.
    ids = [b["custom_id"] for b in panel.message.buttons]
    (button,) = [i for i in ids if i.startswith(COMBAT_NEXT)]
    with ThreadPoolExecutor(max_workers=6) as pool:
        clicks = list(pool.map(lambda _: sb.click(panel, button, user="gm"), range(6)))
    advanced = [c for c in clicks if c.ok and "Turno de **B**" in c.all_text]
    assert len(advanced) == 1, [c.all_text for c in clicks]
    shown = run(sb, g, "init show")
    assert "▶ **B**" in shown.text and "asalto 1" in shown.text, shown.text
    assert "v6 ·" in shown.text, "start, three adds, one next and exactly one click"


def test_option_suggestions_of_characters_npcs_and_combatants(discord_env):
    """Each option type suggests what it did as an @autocomplete (characters, NPCs, fighters)."""
    sb = discord_env
    g = game(sb, "Sugerencias", "nucleo")
    document = {"format": "arbitro.sheet", "version": 1, "system": "nucleo", "sheet": ARDELIA}
    run(sb, g, "sheet import", {"file": json.dumps(document).encode()}, user="ana").expect_ok()
    npc_trasgo(sb, g)

    def suggested(path, option, typed, user="gm", **options):
        found = sb.autocomplete(
            path, option, typed, guild=g, channel="mesa", user=user, options=options
        )
        return [choice["value"] for choice in found]

    assert suggested("sheet use", "character", "", user="ana") == ["Ardelia"]  # no NPCs
    assert suggested("npc show", "name", "") == ["Trasgo"]
    assert set(suggested("init add", "name", "")) == {"Ardelia", "Trasgo"}
    assert suggested("init add", "name", "tras") == ["Trasgo"]
    assert suggested("init move", "combatant", "") == []  # no fight yet

    run(sb, g, "init start").expect_ok()
    run(sb, g, "init join", user="ana").expect_ok()
    run(sb, g, "init add", {"name": "Trasgo"}).expect_ok()
    run(sb, g, "init add", {"name": "Lobo", "initiative": 3}).expect_ok()
    assert set(suggested("init move", "combatant", "")) == {"Ardelia", "Trasgo", "Lobo"}
    assert suggested("init wait", "after", "lo") == ["Lobo"]
    assert suggested("init damage", "combatant", "ARD") == ["Ardelia"]

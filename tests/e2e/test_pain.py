"""Rolweb's pain threshold and «en el suelo», end to end through the stand-in (issue 23 §1;
seed 001 UMBRAL DE DOLOR line 131, LEVANTARSE line 181): a blow over Eira's threshold asks
her player with two buttons (only she or the GM may press; one choice), «en el suelo» shows
on the panel and the sheet, her turn's panel offers «Levantarse» paid from her actions, and a
choice nobody made gets the campaign's default as her turn begins.  The bot's dice are not
seeded: the wolf's +50 and its fixed damage make the blow certain (10 − Ligera 1d4 = 6..9,
Eira's Umbral de dolor is 6, her Resistencia 12)."""

from __future__ import annotations

import pytest

from tests.e2e.helpers import button_kinds, press, says, sheet_file
from tests.e2e.test_combat import game, run
from tests.e2e.test_sheet_rolweb import create_eira
from tests.rules.rolweb.test_fight import orc as rolweb_orc

pytestmark = pytest.mark.e2e

PAIN_DOWN = "arb:1:pain-0:"
STAND = "arb:1:init-stand:"
BLOW = {
    "target": "Eira",
    "character": "Lobo",
    "bonus": 10,
    "damage": "10",
    "modifier": 50,
    "defence_now": True,
}


def _wolf_first(sb, name):
    g = game(sb, name, "rolweb")
    create_eira(sb, g).expect_ok()
    run(sb, g, "init start").expect_ok()
    run(sb, g, "init join", user="ana").expect_ok()
    run(sb, g, "init add", {"name": "Lobo", "initiative": 20, "defence": 10}).expect_ok()
    run(sb, g, "init move", {"combatant": "Eira", "initiative": 10}).expect_ok()
    turn = run(sb, g, "init next")
    assert "Turno de **Lobo**" in turn.all_text, turn.all_text
    return g


def test_her_player_chooses_to_fall_and_gets_up_on_her_turn(discord_env):
    sb = discord_env
    g = _wolf_first(sb, "Umbral rolweb")
    blow = run(sb, g, "attack", BLOW)
    assert "Umbral de dolor superado" in blow.all_text, blow.all_text
    # a sheetless wolf bites with no weapon: its name is not repeated as one
    assert "Lobo ataca a Eira" in blow.all_text and "(Lobo)" not in blow.all_text, blow.all_text
    assert "**Eira** ha superado su umbral de dolor con el golpe de Lobo" in blow.all_text
    prompt = blow.messages[-1]
    assert button_kinds(prompt) == ["pain-0", "pain-1"], prompt
    labels = [b.get("label") for b in sb.message(prompt.id).buttons]
    assert labels == ["Caer al suelo", "Ataque gratuito para Lobo"], labels

    stranger = press(sb, blow, PAIN_DOWN, user="bruno")
    assert stranger.ephemeral and says(stranger, "pain.error.not_yours", name="Eira")
    chosen = press(sb, blow, PAIN_DOWN, user="ana")
    assert says(chosen, "pain.chosen.derribado", name="Eira", attacker="Lobo"), chosen.all_text
    assert button_kinds(sb.message(prompt.id)) == []  # the question is answered: no buttons

    shown = run(sb, g, "init show")
    assert "Eira" in shown.all_text and "en el suelo" in shown.all_text, shown.all_text
    sheet = run(sb, g, "sheet show", user="ana")
    assert "Postura" in sheet.all_text and "En el suelo" in sheet.all_text, sheet.all_text

    turn = run(sb, g, "init next")  # her turn: the panel offers getting up
    assert "Turno de **Eira**" in turn.all_text, turn.all_text
    up = press(sb, turn, STAND, user="ana")
    assert "Eira se levanta" in up.all_text or "Eira falla la tirada de Ágil" in up.all_text
    shown = run(sb, g, "init show")
    assert "en el suelo" not in shown.all_text, shown.all_text


def test_nobody_chooses_and_her_turn_applies_the_default(discord_env):
    sb = discord_env
    g = _wolf_first(sb, "Umbral por defecto")
    blow = run(sb, g, "attack", BLOW)
    assert button_kinds(blow.messages[-1]) == ["pain-0", "pain-1"], blow.all_text
    turn = run(sb, g, "init next")  # her turn begins: nobody chose
    assert says(
        turn,
        "pain.by_default",
        text="Eira cae al suelo: levantarse le costará acciones (`/iniciativa levantarse`), "
        "y los ataques cuerpo a cuerpo contra Eira tienen ventaja.",
    ), turn.all_text
    late = press(sb, blow, PAIN_DOWN, user="ana")  # the old question: already decided
    assert says(late, "pain.problem.not_owed"), late.all_text
    assert button_kinds(sb.message(blow.messages[-1].id)) == []  # stale: buttons removed
    stand = run(sb, g, "init stand", user="ana")
    assert "Eira" in stand.all_text and "Ágil" in stand.all_text, stand.all_text


def test_a_round_of_declarations_waits_for_her_choice(discord_env):
    """Issue 25 §1: the round's resolution reaches the wolf's bite over Eira's threshold and
    pauses — its summary says it waits, with her buttons — and goes on when she chooses."""
    sb = discord_env
    g = game(sb, "Umbral por declaraciones", "rolweb")
    create_eira(sb, g).expect_ok()
    run(sb, g, "init start", {"mode": "declarations"}).expect_ok()
    run(sb, g, "init join", user="ana").expect_ok()
    run(sb, g, "init add", {"name": "Lobo", "initiative": 1, "defence": 10}).expect_ok()
    run(sb, g, "init move", {"combatant": "Eira", "initiative": 15}).expect_ok()
    run(sb, g, "init next").expect_ok()  # round 1 opens

    run(sb, g, "attack", {"target": "Lobo", "modifier": -50}, user="ana").expect_ok()
    bite = {key: value for key, value in BLOW.items() if key != "defence_now"}
    last = run(sb, g, "attack", bite)  # the last declaration resolves the round
    summary = next(m for m in last.followups if "Asalto 1: resolución" in m.text)
    assert "espera a que el jugador de **Eira** elija" in summary.text, summary.text
    prompt = next(m for m in last.followups if m.buttons and "umbral de dolor" in m.text)
    assert button_kinds(prompt) == ["pain-0", "pain-1"], prompt.text
    assert "Asalto 2" not in last.all_text  # the next round waits too

    chosen = press(sb, prompt, PAIN_DOWN, user="ana")
    assert says(chosen, "pain.chosen.derribado", name="Eira", attacker="Lobo"), chosen.all_text
    assert "Asalto 1: resolución (continúa)" in chosen.all_text, chosen.all_text
    assert "**Asalto 2**" in chosen.all_text, chosen.all_text
    assert button_kinds(sb.message(prompt.id)) == []  # chosen once: the buttons go

    # round 2: on the ground, she declares getting up; its Ágil test is rolled at resolution
    declared = run(sb, g, "init stand", user="ana")
    assert declared.ephemeral and says(declared, "pain.stand_declared", name="Eira", round=2)
    resolved = run(sb, g, "init next")  # the GM resolves it (the wolf holds)
    text = resolved.all_text
    assert "Asalto 2: resolución" in text, text
    assert "Eira se levanta" in text or "Eira falla la tirada de Ágil" in text, text


def test_the_gms_damage_asks_her_too(discord_env):
    sb = discord_env
    g = _wolf_first(sb, "Umbral con daño")
    hurt = run(sb, g, "init damage", {"combatant": "Eira", "amount": 6})
    prompt = hurt.messages[-1]
    assert button_kinds(prompt) == ["pain-0", "pain-1"], hurt.all_text
    assert "**Eira** ha superado su umbral de dolor." in prompt.text, prompt.text
    chosen = press(sb, hurt, "arb:1:pain-1:", user="ana")
    assert says(chosen, "pain.chosen.ataque_gratuito", name="Eira", attacker="el atacante")


def test_a_hidden_npcs_choice_is_the_gms_alone(discord_env):
    """The audience rule (issue 22 §1): the hidden orc's choice never reaches the channel —
    the GM who typed the damage reads it privately (no GM channel here) and chooses."""
    sb = discord_env
    g = _wolf_first(sb, "Umbral oculto")
    orc = rolweb_orc()
    orc["atributos"] |= {"Astuto": 5}
    run(sb, g, "sheet import", {"file": sheet_file(dict(orc, system="rolweb"), npc=True)})
    run(sb, g, "init add", {"name": "Orco", "initiative": 5}).expect_ok()
    hurt = run(sb, g, "init damage", {"combatant": "Orco", "amount": 7})  # its Umbral is 6
    prompt = hurt.messages[-1]
    assert button_kinds(prompt) == ["pain-0", "pain-1"] and prompt.ephemeral, hurt.all_text
    public = "\n".join(m.text for m in sb.channel_messages(g, "mesa"))
    assert "ha superado su umbral de dolor" not in public, public
    refused = press(sb, hurt, PAIN_DOWN, user="ana")
    assert refused.ephemeral and says(refused, "pain.error.not_yours", name="Orco")
    chosen = press(sb, hurt, PAIN_DOWN, user="gm")
    assert says(chosen, "pain.chosen.derribado", name="Orco", attacker="el atacante")

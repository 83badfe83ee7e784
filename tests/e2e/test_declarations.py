"""Rounds of declarations end to end through the stand-in (issue 25 §1): ``/init start
mode:declarations``, the round's header in the scene, sealed ``/attack`` declarations (the
other player sees nothing until the round resolves), a change that keeps the dice, the GM
declaring an NPC's attack, resolution in initiative order with a target that falls before
its attacker acts, the summary and the next round's header.  The bot's dice are not seeded:
±50 modifiers and one hit point make the outcomes certain where it matters."""

from __future__ import annotations

import json
import re

import pytest

from bot.i18n import t
from tests.bot.test_spells import mago
from tests.e2e.helpers import press, says, sheet_file
from tests.e2e.test_combat import game, run
from tests.e2e.test_sheet_rolweb import create_eira
from tests.e2e.test_sheet_swc import create_fighter
from tests.examples import ardelia
from tests.rules.swc.test_attack_swc import orc as swc_orc

pytestmark = pytest.mark.e2e

DECLARED_DEFENCE = "arb:1:decl-defend:"
REDIRECT = "arb:1:redirect:"


def _document(sheet):
    return json.dumps({"format": "arbitro.sheet", "version": 1, "system": "nucleo", "sheet": sheet})


def _table(sb, name):
    g = game(sb, name, "nucleo")
    for user, sheet in (("ana", ardelia()), ("bruno", ardelia(name="Brisa"))):
        imported = run(sb, g, "sheet import", {"file": _document(sheet).encode()}, user=user)
        imported.expect_ok()
    started = run(sb, g, "init start", {"mode": "declarations"})
    assert says(started, "declare.started"), started.all_text
    run(sb, g, "init join", user="ana").expect_ok()
    run(sb, g, "init join", user="bruno").expect_ok()
    wolf = {"name": "Lobo", "initiative": 15, "defence": 1, "hit_points": 1}
    run(sb, g, "init add", wolf).expect_ok()
    troll = {"name": "Trol", "initiative": 2, "defence": 1, "hit_points": 300}
    run(sb, g, "init add", troll).expect_ok()
    run(sb, g, "init move", {"combatant": "Ardelia", "initiative": 20}).expect_ok()
    run(sb, g, "init move", {"combatant": "Brisa", "initiative": 10}).expect_ok()
    return g


def _posted(reply, words):
    """The follow-up of ``reply`` that says ``words`` (the GM's secret notes may follow)."""
    return next(m for m in reply.followups if words in m.text)


def _public(sb, g):
    return "\n".join(m.text for m in sb.channel_messages(g, "mesa", everything=True))


def test_a_round_of_declarations_in_initiative_order(discord_env):
    sb = discord_env
    g = _table(sb, "Declaraciones Núcleo")

    opened = run(sb, g, "init next")
    header = opened.followups[-1]
    assert "**Asalto 1**" in header.text and "Deben declarar" in header.text, header.text
    assert "**Ardelia** (<@" in header.text and "**Lobo** (máster" in header.text
    assert "Asalto 1 por declaraciones" in opened.all_text, opened.all_text
    refused = run(sb, g, "init next", user="ana")
    assert refused.ephemeral, refused.all_text  # only the GM opens and closes rounds

    # both players attack the wolf: Ardelia (20) first, Brisa (10) after the wolf fell
    ana = run(sb, g, "attack", {"target": "Lobo", "modifier": 50}, user="ana")
    assert ana.ephemeral and says(ana, "declare.declared", round=1), ana.all_text
    bruno = run(sb, g, "attack", {"target": "Trol", "modifier": 50}, user="bruno")
    assert bruno.ephemeral and says(bruno, "declare.declared", round=1), bruno.all_text
    changed = run(sb, g, "attack", {"target": "Lobo", "modifier": 50}, user="bruno")
    assert changed.ephemeral and says(changed, "declare.declared_changed", round=1)
    # sealed: nothing of either declaration is public before the round resolves
    public = _public(sb, g)
    assert "Impacta" not in public and "Brisa →" not in public, public
    shown = run(sb, g, "init show")
    assert "Han declarado: Ardelia, Brisa. Faltan: Lobo, Trol." in shown.all_text, shown.all_text

    # the GM declares the wolf's bite (it falls before it acts) and the troll's
    bite = {"target": "Brisa", "character": "Lobo", "bonus": 50, "damage": "1d4"}
    assert run(sb, g, "attack", bite).ephemeral
    club = {"target": "Ardelia", "character": "Trol", "bonus": -50, "damage": "1d4"}
    last = run(sb, g, "attack", club)
    assert last.ephemeral, last.all_text
    summary = _posted(last, "resolución")
    text = summary.text
    assert "Asalto 1: resolución" in text, text
    # in initiative order: Ardelia (20), the wolf (15), Brisa (10), the troll (2)
    ardelia_line, brisa_line = text.index("**Ardelia** → Lobo"), text.index("**Brisa** → Lobo")
    assert ardelia_line < brisa_line < text.index("**Trol** → Ardelia"), text
    if "**Ardelia** → Lobo (Sin armas): **Impacta**" in text:  # unless 1o3d10 fumbled
        assert "**Brisa** → Lobo: Lobo ya había caído" in text, text
        assert "**Lobo** →" not in text, "the wolf fell before its turn: it does not bite"
        # the GM redirects Brisa's blow to the troll, with her dice
        assert press(sb, summary, REDIRECT, user="ana").ephemeral  # the GM's only
        menu = press(sb, summary, REDIRECT, user="gm")
        assert "¿Contra quién dirige **Brisa**" in menu.text, menu.all_text
        done = sb.select(menu, 0, ["Trol"], user="gm")
        assert "Brisa" in done.all_text and "Trol" in done.all_text, done.all_text
    assert "**Asalto 2**" in _posted(last, "Deben declarar").text, "the next round opens"

    # the GM closes round 2 at once: who declared nothing holds
    closed = run(sb, g, "init next")
    text = _posted(closed, "resolución").text
    assert "Asalto 2: resolución" in text and "**Ardelia** no declaró nada" in text, text
    assert "**Asalto 3**" in _posted(closed, "Deben declarar").text


def test_the_campaign_setting_picks_the_mode(discord_env):
    sb = discord_env
    g = game(sb, "Modo por ajuste", "nucleo")
    setting = {"setting": "modo_combate", "value": "declaraciones"}
    run(sb, g, "campaign settings", setting).expect_ok()
    started = run(sb, g, "init start")
    assert says(started, "declare.started"), started.all_text
    attack = run(sb, g, "attack", {"target": "Lobo", "character": "Lobo", "bonus": 1})
    assert attack.ephemeral, attack.all_text


def test_rolweb_the_defence_is_asked_when_the_gm_declares_the_attack(discord_env):
    sb = discord_env
    g = game(sb, "Declaraciones rolweb", "rolweb")
    create_eira(sb, g).expect_ok()
    create_eira(sb, g, name="Bram", user="bruno").expect_ok()
    run(sb, g, "init start", {"mode": "declarations"}).expect_ok()
    run(sb, g, "init join", user="ana").expect_ok()
    run(sb, g, "init join", user="bruno").expect_ok()
    run(sb, g, "init add", {"name": "Lobo", "initiative": 1, "defence": 10}).expect_ok()
    run(sb, g, "init move", {"combatant": "Eira", "initiative": 15}).expect_ok()
    run(sb, g, "init move", {"combatant": "Bram", "initiative": 12}).expect_ok()
    run(sb, g, "init next").expect_ok()

    bite = {"target": "Eira", "character": "Lobo", "bonus": 10, "damage": "1d4"}
    declared = run(sb, g, "attack", bite)
    assert declared.ephemeral, declared.all_text
    asked = _posted(declared, "Tira tu defensa")
    assert "<@" in asked.text and "**Lobo** ataca a **Eira** en el asalto 1" in asked.text
    assert not asked.ephemeral and asked.buttons, asked.text
    refused = press(sb, asked, DECLARED_DEFENCE, user="bruno")
    assert refused.ephemeral, refused.all_text  # Bram's player does not defend Eira
    rolled = press(sb, asked, DECLARED_DEFENCE, user="ana")
    assert t("declare.defended", "es") in rolled.followups[-1].text, rolled.all_text
    assert rolled.followups[-1].ephemeral, "her defence is sealed"
    assert rolled.edits and not rolled.edits[-1].buttons, "rolled once: the button goes"

    run(sb, g, "attack", {"target": "Lobo"}, user="ana").expect_ok()
    last = run(sb, g, "attack", {"target": "Lobo"}, user="bruno")
    text = _posted(last, "resolución").text
    eira, bram, wolf = (text.index(f"**{n}** →") for n in ("Eira", "Bram", "Lobo"))
    assert eira < bram < wolf, text  # initiative 15, 12, 1
    assert "defensa tirada por el bot" not in text, text


def test_swc_side_initiative_is_rolled_when_the_round_resolves(discord_env):
    """S&W (seed 000): the sides' d6 are rolled at the start of each round — by
    declarations, when it resolves, after everyone declared; a new roll every round."""
    sb = discord_env
    g = game(sb, "Declaraciones SyW", "swc")
    create_fighter(sb, g)
    create_fighter(sb, g, name="Bram", user="bruno")
    orc = sheet_file(dict(swc_orc(pg={"max": 300, "actual": 300}), system="swc"), npc=True)
    run(sb, g, "sheet import", {"file": orc}).expect_ok()
    run(sb, g, "init start", {"mode": "declarations"}).expect_ok()
    run(sb, g, "init join", user="ana").expect_ok()
    run(sb, g, "init join", user="bruno").expect_ok()
    run(sb, g, "init add", {"name": "Orco"}).expect_ok()
    opened = run(sb, g, "init next")
    assert "**Asalto 1**" in _posted(opened, "Deben declarar").text
    assert "Tiradas de bando" not in opened.text  # not rolled before the declarations
    run(sb, g, "attack", {"target": "Orco", "modifier": 50}, user="ana").expect_ok()
    run(sb, g, "attack", {"target": "Orco", "modifier": 50}, user="bruno").expect_ok()
    last = run(sb, g, "attack", {"target": "Brann", "character": "Orco", "modifier": -50})
    text = _posted(last, "resolución").text
    players = max(text.index("**Brann** →"), text.index("**Bram** →"))
    orc_line = text.index("**Orco** →")
    shown = run(sb, g, "init show")
    assert "▶" not in shown.all_text and "Le quedan" not in shown.all_text  # no one's turn
    rolls = re.search(r"jugadores (\d+), enemigos (\d+)", shown.all_text)
    assert rolls is not None, shown.all_text
    players_first = int(rolls.group(1)) > int(rolls.group(2))
    assert (players < orc_line) == players_first, (text, shown.all_text)


def test_swc_a_spell_declared_before_initiative_is_cast_at_resolution(discord_env):
    sb = discord_env
    g = game(sb, "Conjuros SyW", "swc")
    run(sb, g, "sheet import", {"file": sheet_file(dict(mago(), system="swc"))}, user="ana")
    run(sb, g, "sheet approve", {"character": "Zoltan"}).expect_ok()  # referee fields (XP)
    orc = sheet_file(dict(swc_orc(pg={"max": 300, "actual": 300}), system="swc"), npc=True)
    run(sb, g, "sheet import", {"file": orc}).expect_ok()
    run(sb, g, "init start", {"mode": "declarations"}).expect_ok()
    run(sb, g, "init join", user="ana").expect_ok()
    run(sb, g, "init add", {"name": "Orco"}).expect_ok()
    run(sb, g, "init next").expect_ok()
    declared = run(sb, g, "spell cast", {"name": "Dormir", "level": 1}, user="ana")
    assert declared.ephemeral and "Zoltan lanzará «Dormir»" in declared.text, declared.all_text
    assert "Dormir" not in _public(sb, g)  # sealed until the round resolves
    last = run(sb, g, "attack", {"target": "Zoltan", "character": "Orco", "modifier": -50})
    text = _posted(last, "resolución").text
    assert "**Zoltan** lanza «Dormir»." in text, text

"""Seed 001's combat rules end to end through the stand-in (rolweb): ``/init surprise`` and
the surprise's free attack of ``/attack``, the four-flanker limit, the campaign setting
``pnj_mueren_a_0`` on ``/init damage``, the wizard carrying a dead character's experience,
and ``/check``'s difficulty replacing attribute + modifier.  The bot's dice are not seeded
here: a ±20/50 modifier makes outcomes certain (exact numbers: tests/bot/test_rolweb_fight.py)."""

from __future__ import annotations

import re

import pytest

from tests.e2e.helpers import import_sheet, new_campaign, says
from tests.e2e.test_sheet_rolweb import create_eira
from tests.rules.rolweb.test_fight import orc as rolweb_orc

pytestmark = pytest.mark.e2e

ES = {"locale": "es-ES"}


def run(sb, g, path, options=None, user="gm"):
    return sb.command(path, options or {}, guild=g, channel="mesa", user=user, **ES)


def _fight_with_hidden_orc(sb, name, toughness=None):
    g = new_campaign(sb, name, "rolweb")
    create_eira(sb, g)  # Ana's Eira: Discreto 10, Diestro 11, Espada
    orc = rolweb_orc()
    orc["atributos"] |= {"Astuto": 5}  # Atento 10
    if toughness is not None:  # a fixed Resistencia, as an NPC's stat block may give
        orc["resistencia"] = {"actual": toughness, "maxima": toughness}
    import_sheet(sb, g, orc, user="gm", npc=True)  # hidden
    started = run(sb, g, "init start").expect_ok()
    assert says(started, "rolweb_fight.surprise.offer"), started.all_text  # offered, not recalled
    run(sb, g, "init join", user="ana").expect_ok()
    run(sb, g, "init add", {"name": "Orco", "initiative": 3}).expect_ok()
    return g


def test_surprise_is_rolled_stored_and_gives_one_free_attack(discord_env):
    sb = discord_env
    # Resistencia 40: the free hit cannot kill it (a critical Espada did, with unseeded dice),
    # so the second free attack is refused for being the second, not for a dead target
    g = _fight_with_hidden_orc(sb, "Sorpresa rolweb", toughness=40)
    player = run(sb, g, "init surprise", {"ambushers": "jugadores"}, user="ana")
    assert player.ephemeral and says(player, "campaign.error.not_referee"), player.all_text
    # Discreto 10 against Atento 10, +20: any d20 succeeds
    r = run(sb, g, "init surprise", {"ambushers": "jugadores", "modifier": 20})
    assert r.ok and not r.ephemeral, r.text
    assert says(r, "rolweb_fight.surprise.title", side="los jugadores"), r.all_text
    assert says(r, "rolweb_fight.surprise.success", attackers="Eira", victims="Orco")
    assert says(r, "rolweb_fight.surprise.draw_movimiento", name="Orco", weapon="Hacha")
    public = r.message.text
    assert "Atento más alto" not in public and "≤" not in public  # the hidden orc's Atento
    assert any("Atento más alto (10)" in m.text for m in r.followups if m.ephemeral), r.all_text
    again = run(sb, g, "init surprise", {"ambushers": "jugadores"})
    assert again.ephemeral and says(again, "rolweb_fight.error.surprise_done"), again.all_text

    free = {"target": "Orco", "circumstances": "ataque_libre_sorpresa", "modifier": 50}
    hit = run(sb, g, "attack", free, user="ana")
    assert says(hit, "attack.outcome.hit") and says(hit, "rolweb_fight.note.free_sorpresa")
    twice = run(sb, g, "attack", free, user="ana")
    assert twice.ephemeral
    assert says(twice, "rolweb_fight.error.free_attack_used", name="Eira", round=0), twice.all_text
    options = sb.autocomplete(
        "attack", "circumstances", "flanqueo,ataque", guild=g, user="ana",
        options={"target": "Orco"},
    )  # fmt: skip
    values = [choice["value"] for choice in options]
    assert "flanqueo,ataque_libre_larga" in values and "flanqueo,flanqueo" not in values


def test_npcs_dying_at_zero_follow_the_campaign_setting(discord_env):
    sb = discord_env
    g = _fight_with_hidden_orc(sb, "PNJ moribundo")
    suggested = sb.autocomplete("campaign settings", "setting", "pnj", guild=g, user="gm")
    assert any(
        s["value"] == "pnj_mueren_a_0" and "Resistencia 0" in s["name"] for s in suggested
    ), suggested  # the setting says what it means
    run(sb, g, "campaign settings", {"setting": "pnj_mueren_a_0", "value": "no"}).expect_ok()
    r = run(sb, g, "init damage", {"combatant": "Orco", "amount": 12})
    assert says(r, "rolweb.note.dying") and not says(r, "rolweb.note.dead"), r.all_text
    bad = run(sb, g, "campaign settings", {"setting": "pnj_mueren_a_0", "value": "quizás"})
    assert bad.ephemeral


def test_the_wizard_carries_a_dead_characters_experience(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Herencia rolweb", "rolweb")
    create_eira(sb, g)  # 50 XP to start
    run(sb, g, "xp grant", {"amount": 80, "character": "Eira"}).expect_ok()
    run(sb, g, "init start").expect_ok()
    run(sb, g, "init join", user="ana").expect_ok()
    dying = run(sb, g, "init damage", {"combatant": "Eira", "amount": 30})
    assert says(dying, "rolweb.note.dying"), dying.all_text
    dead = run(sb, g, "sheet set", {"character": "Eira", "field": "estado", "value": "muerto"})
    assert "**Estado**: muerto" in dead.all_text, dead.all_text
    first = run(sb, g, "sheet create", {"name": "Brenna"}, user="ana")
    assert says(first, "heritage.carried", name="Eira", xp=130, total=130), first.all_text
    create_eira(sb, g, "Brenna", skip=True).expect_ok()
    shown = run(sb, g, "sheet show", {"character": "Brenna"})
    assert re.search(r"Experiencia\D{0,12}130", shown.all_text), shown.all_text
    again = run(sb, g, "sheet create", {"name": "Cora", "restart": True}, user="ana")
    assert not says(again, "heritage.field"), again.all_text


def test_check_difficulty_replaces_attribute_and_modifier(discord_env):
    """Difficulty 25 with modifier −20: the target is 25 (seed 001 line 15), a sure success."""
    sb = discord_env
    g = new_campaign(sb, "Dificultad rolweb", "rolweb")
    create_eira(sb, g)
    r = run(
        sb, g, "check", {"option": "atributo:Ágil", "modifier": -20, "difficulty": 25}, user="ana"
    )
    assert r.ok and "≤ 25" in r.all_text, r.all_text

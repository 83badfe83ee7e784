"""Healing between fights end to end through the stand-in (issue 23 §3), one campaign per
system: days of rest the GM advances, rolweb's herbs spent from the backpack (and refused
without them), Núcleo's breath once after a fight, S&W's Imposición de manos once a day and a
healing spell that heals, the GM's /heal out of a fight, and a player kept from setting their
own health by hand.  The fight panel comes back when a combatant heals."""

from __future__ import annotations

import pytest

from rules.swc.advancement import xp_for_level
from tests.e2e.helpers import CONFIRM, press, says, sheet_file
from tests.e2e.test_combat import game, run
from tests.e2e.test_sheet_rolweb import create_eira
from tests.examples import ardelia, ardelia_the_mage, swc_character, swc_cleric

pytestmark = pytest.mark.e2e


def rolweb_sheet(name: str, **changes) -> dict:
    from bot.services.campaigns.settings import resolved_settings
    from rules import systems

    system = systems.get("rolweb")
    sheet = system.new_sheet(name, resolved_settings(system.settings(), {}))
    return {**sheet, **changes}


CLERIC = {
    "Fuerza": 10,
    "Destreza": 10,
    "Constitución": 12,
    "Inteligencia": 10,
    "Sabiduría": 15,
    "Carisma": 8,
}


def test_rolweb_first_aid_with_herbs_rest_and_hands_off(discord_env):
    sb = discord_env
    g = game(sb, "Curación rolweb", "rolweb")
    create_eira(sb, g).expect_ok()  # Medicus adepto
    create_eira(sb, g, name="Bram", user="bruno", skip=True).expect_ok()
    run(sb, g, "init start").expect_ok()
    run(sb, g, "init join", user="bruno").expect_ok()
    fallen = run(sb, g, "init damage", {"combatant": "Bram", "amount": 30})
    assert "moribundo" in fallen.all_text, fallen.all_text
    rested = run(sb, g, "rest days", {"days": 2, "character": "Bram"})
    assert says(rested, "rolweb.note.rest_needs_first_aid"), rested.all_text
    bare = run(sb, g, "ability use", {"name": "Hierbas curativas", "target": "Bram"}, user="ana")
    assert bare.ephemeral and says(
        bare, "rolweb.problem.no_herbs", name="Eira", item="Hierbas curativas"
    ), bare.all_text
    run(sb, g, "sheet item", {"item": "Hierbas curativas", "quantity": 1}, user="ana").expect_ok()
    # the healed one's state agrees with its gender, as everywhere else («activa»)
    feminine = {"field": "genero", "value": "femenino"}
    run(sb, g, "sheet set", feminine, user="bruno").expect_ok()
    aid = run(sb, g, "ability use", {"name": "Hierbas curativas", "target": "Bram"}, user="ana")
    assert "**Bram** recupera 1 de Resistencia." in aid.all_text, aid.all_text
    assert "Estado: activa" in aid.all_text, aid.all_text
    assert "Combate — asalto" in aid.all_text or "Combate — en preparación" in aid.all_text
    again = run(
        sb, g, "ability use", {"name": "Medicus", "target": "Bram", "herbs": True}, user="ana"
    )
    assert again.ephemeral and says(
        again, "rolweb.problem.no_herbs", name="Eira", item="Hierbas curativas"
    ), again.all_text
    press(sb, run(sb, g, "init end"), CONFIRM, user="gm").expect_ok()
    party = run(sb, g, "rest days", {"days": 3, "party": True})
    assert "**Bram** recupera 3 de Resistencia." in party.all_text, party.all_text
    refused = run(sb, g, "rest days", {"days": 1, "party": True}, user="bruno")
    assert refused.ephemeral and says(refused, "rest.error.gm_only"), refused.all_text
    by_hand = run(sb, g, "sheet set", {"field": "resistencia.actual", "value": "12"}, user="bruno")
    assert by_hand.ephemeral and "no se cambia a mano" in by_hand.all_text, by_hand.all_text
    healed = run(sb, g, "heal", {"target": "Bram", "amount": 2})
    assert "**Bram** recupera 2 de Resistencia." in healed.all_text, healed.all_text
    assert "Combate" not in healed.all_text  # out of a fight: no panel
    player = run(sb, g, "heal", {"target": "Bram", "amount": 2}, user="bruno")
    assert player.ephemeral and says(player, "rest.error.heal_gm_only"), player.all_text
    # a hidden NPC's healing and rest are the GM's alone (the one audience rule)
    vigia = rolweb_sheet("Vigía", pnj=True, resistencia={"actual": 4})
    run(sb, g, "sheet import", {"file": sheet_file(vigia, npc=True)}).expect_ok()
    secret = run(sb, g, "heal", {"target": "Vigía", "amount": 3})
    assert secret.ephemeral and "Vigía" in secret.all_text, secret.all_text
    rest = run(sb, g, "rest days", {"days": 1, "character": "Vigía"})
    assert rest.ephemeral, rest.all_text


def test_nucleo_breath_after_a_fight_and_days_of_rest(discord_env):
    sb = discord_env
    g = game(sb, "Curación Núcleo", "nucleo")
    sheet = ardelia(heridas=12)
    run(sb, g, "sheet import", {"file": sheet_file(sheet)}, user="ana").expect_ok()
    early = run(sb, g, "rest breath", user="ana")
    assert early.ephemeral and says(early, "nucleo.problem.breath_no_fight"), early.all_text
    run(sb, g, "init start").expect_ok()
    run(sb, g, "init join", user="ana").expect_ok()
    fighting = run(sb, g, "rest breath", user="ana")
    assert fighting.ephemeral and says(fighting, "rest.error.still_fighting", name="Ardelia")
    press(sb, run(sb, g, "init end"), CONFIRM, user="gm").expect_ok()
    breath = run(sb, g, "rest breath", user="ana")
    assert "Recuperar el aliento" in breath.all_text and "`1d6 (" in breath.all_text, (
        breath.all_text
    )
    assert "PV." in breath.all_text, breath.all_text
    twice = run(sb, g, "rest breath", user="ana")
    assert twice.ephemeral and says(twice, "nucleo.problem.breath_taken"), twice.all_text
    rested = run(sb, g, "rest days", {"days": 1, "party": True})
    assert "**Ardelia** recupera 1 PV." in rested.all_text, rested.all_text
    healer = ardelia_the_mage({"Curación": 1}) | {"name": "Sanadora"}
    run(sb, g, "sheet import", {"file": sheet_file(healer)}, user="bruno").expect_ok()
    cure = {"name": "Curación", "mana": 2, "modifier": 50, "target": "Ardelia"}
    cast = run(sb, g, "spell cast", cure, user="bruno")  # out of a fight: line 330's mana
    assert not cast.ephemeral and "2 de Maná" in cast.all_text, cast.all_text
    assert "Ardelia" in cast.all_text and "recupera" in cast.all_text, cast.all_text


def paladin() -> dict:
    attributes = {
        "Fuerza": 13, "Destreza": 10, "Constitución": 12, "Inteligencia": 10, "Sabiduría": 12,
        "Carisma": 17,
    }  # fmt: skip
    return swc_character(
        "Aldric", "paladin", attributes, 20,
        xp=xp_for_level("paladin", 3), pg={"max": 20, "actual": 20},
    )  # fmt: skip


def test_swc_lay_on_hands_once_a_day_and_a_healing_spell(discord_env):
    sb = discord_env
    g = game(sb, "Curación S&W", "swc")
    for sheet in (
        paladin(),
        swc_character("Borin", "clerigo", CLERIC, 6, pg={"max": 6, "actual": 1}),
        swc_cleric(xp=xp_for_level("clerigo", 2)),
    ):
        run(sb, g, "sheet import", {"file": sheet_file(dict(sheet, system="swc"))}).expect_ok()
    hands = {"name": "Imposición de manos", "target": "Borin", "character": "Aldric", "amount": 3}
    laid = run(sb, g, "ability use", hands)
    assert "**Borin** recupera 3 puntos de golpe." in laid.all_text, laid.all_text
    again = run(sb, g, "ability use", hands)
    assert again.ephemeral and says(
        again, "swc.problem.power_used_today", name="Imposición de manos"
    ), again.all_text
    cast = {"name": "Curar heridas leves", "target": "Borin", "character": "Aldara"}
    healed = run(sb, g, "spell cast", cast)
    assert "Borin" in healed.all_text and "Curar heridas leves" in healed.all_text, healed.all_text
    # in S&W's own words: puntos de golpe, not Núcleo's «PV»
    assert "puntos de golpe" in healed.all_text and " PV" not in healed.all_text, healed.all_text
    shown = run(sb, g, "sheet show", {"character": "Borin"})
    assert "6/6" in shown.all_text or "6 / 6" in shown.all_text, shown.all_text
    rest = run(sb, g, "rest days", {"days": 1, "character": "Aldric"})
    assert says(rest, "rest.restored.powers"), rest.all_text
    run(sb, g, "ability use", hands).expect_ok()

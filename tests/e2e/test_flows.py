"""Flows that say what they do (issue 13 §3): a new name never silently resumes another
draft; /odds of a test; /check's reason and the opponent's dice."""

from __future__ import annotations

import pytest

from tests.e2e.helpers import (
    CANCEL,
    CONFIRM,
    fill_wizard_form,
    new_campaign,
    press,
    says,
)

pytestmark = pytest.mark.e2e

FIRST = {"Ágil": "13", "Astuto": "8", "Atento": "10", "Diestro": "11"}


def campaign(sb, name):
    return new_campaign(sb, name, "rolweb", name="Marca")


fill = fill_wizard_form


def test_a_new_name_asks_before_resuming_or_replacing_a_draft(discord_env):
    sb = discord_env
    g = campaign(sb, "Borradores")
    r = sb.command("sheet create", {"name": "nuno"}, guild=g, channel="mesa", user="ana")
    fill(sb, r, FIRST)
    same = sb.command("sheet create", {"name": "nuno"}, guild=g, channel="mesa", user="ana")
    assert "Creando a nuno" in same.text and "parte 2 de 2" in same.text, same.text  # no question
    asked = sb.command("sheet create", {"name": "ÑUÑO"}, guild=g, channel="mesa", user="ana")
    assert asked.ephemeral and says(asked, "flows.draft_question", old="nuno", new="ÑUÑO")
    assert "Creando" not in asked.text  # nothing resumed or started yet
    stranger = press(sb, asked, CONFIRM, user="bruno")
    assert says(stranger, "common.not_your_button"), stranger.text
    resumed = press(sb, asked, CANCEL, user="ana")
    assert "Creando a nuno" in resumed.text and "parte 2 de 2" in resumed.text, resumed.text
    asked = sb.command("sheet create", {"name": "ÑUÑO"}, guild=g, channel="mesa", user="ana")
    fresh = press(sb, asked, CONFIRM, user="ana")
    assert "Creando a ÑUÑO" in fresh.text and "parte 1 de 2" in fresh.text, fresh.text
    # the old draft is gone: /sheet create without a name shows the new one
    again = sb.command("sheet create", {}, guild=g, channel="mesa", user="ana")
    assert "Creando a ÑUÑO" in again.text, again.text


def test_a_checks_reason_and_the_opponents_dice_are_shown(discord_env):
    from tests.e2e.helpers import import_sheet, sheet_file
    from tests.examples import ARDELIA, ardelia

    sb = discord_env
    g = sb.new_guild(name="Motivos")
    sb.command(
        "campaign create", {"name": "Mesa", "system": "nucleo"}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    import_sheet(sb, g, ARDELIA)
    import_sheet(sb, g, ardelia(name="Bram"), user="bruno")
    sb.command(
        "sheet import",
        {"file": sheet_file(ardelia(name="Trasgo"), npc=True)},
        guild=g,
        channel="mesa",
        user="gm",
    ).expect_ok()
    opposed = sb.command(
        "check",
        {"option": "atributo:Físico", "against": "Bram", "reason": "Forzar la puerta @everyone"},
        guild=g,
        channel="mesa",
        user="ana",
    )
    assert opposed.ok and "Forzar la puerta" in opposed.text, opposed.text
    assert opposed.text.count("1o3d10") >= 2, opposed.text  # both sides' dice
    assert "Bram: Físico →" in opposed.text
    hidden = sb.command(
        "check",
        {"option": "atributo:Físico", "against": "Trasgo", "reason": "Empujón"},
        guild=g,
        channel="mesa",
        user="ana",
    )
    assert "Empujón" in hidden.text and "1o3d10" not in hidden.text, hidden.text
    history = sb.command("history", {}, guild=g, channel="mesa", user="gm")
    assert "Forzar la puerta" in history.text, history.text


def test_odds_of_a_test_and_at_most(discord_env):
    sb = discord_env
    g = campaign(sb, "Probabilidades")
    test = sb.command("odds", {"expression": "1d20<=13", "target": 1}, guild=g, channel="mesa")
    assert says(test, "flows.odds_ignored_target", target=1), test.text
    assert "Superar la prueba `1d20<=13`" in test.text and "13/20" in test.text, test.text
    assert "100" not in test.text
    low = sb.command(
        "odds", {"expression": "2d6", "target": 4, "at_most": True}, guild=g, channel="mesa"
    )
    assert "Sacar **4** o menos con `2d6`" in low.text and "1/6" in low.text, low.text
    missing = sb.command("odds", {"expression": "2d6"}, guild=g, channel="mesa")
    assert missing.ephemeral and says(missing, "flows.odds_target_needed"), missing.text


def test_strict_creation_names_itself_when_it_refuses_a_raise(discord_env):
    from tests.e2e.helpers import import_sheet
    from tests.examples import ARDELIA

    sb = discord_env
    g = sb.new_guild(name="Estricta")
    sb.command(
        "campaign create", {"name": "Mesa", "system": "nucleo"}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    import_sheet(sb, g, ARDELIA)
    refused = sb.command(
        "sheet set", {"field": "atributos.Físico", "value": "7"}, guild=g, channel="mesa"
    )
    assert refused.ephemeral and says(refused, "nucleo.problem.strict_creation"), refused.text
    sb.command(
        "campaign settings",
        {"setting": "creacion_estricta", "value": "no"},
        guild=g,
        channel="mesa",
        user="gm",
    ).expect_ok()
    raised = sb.command(
        "sheet set", {"field": "atributos.Físico", "value": "7"}, guild=g, channel="mesa"
    )
    assert raised.ok and "strict" not in raised.text, raised.text
    assert not says(raised, "nucleo.problem.strict_creation"), raised.text


def test_archived_campaigns_are_listed_and_reopened(discord_env):
    sb = discord_env
    g = campaign(sb, "Archivo")
    press(
        sb, sb.command("campaign end", {}, guild=g, channel="mesa", user="gm"), CONFIRM, user="gm"
    ).expect_ok()
    listed = sb.command("campaign list", {}, guild=g, channel="mesa", user="ana")
    assert "**Marca**" in listed.text and "archivada" in listed.text, listed.text
    assert "<t:" in listed.text  # dates as Discord timestamps: each reader's locale and zone
    refused = sb.command("campaign reopen", {"name": "marca"}, guild=g, channel="mesa", user="ana")
    assert refused.ephemeral and says(refused, "flows.reopen_gm_only", name="Marca"), refused.text
    reopened = sb.command("campaign reopen", {"name": "marca"}, guild=g, channel="mesa", user="gm")
    assert says(reopened, "flows.reopened"), reopened.text
    shown = sb.command("campaign show", {}, guild=g, channel="mesa", user="ana")
    assert shown.ok and "Marca" in shown.text, shown.text


def test_the_gm_can_keep_rest_and_money_for_himself(discord_env):
    from tests.e2e.helpers import import_sheet
    from tests.examples import ardelia_the_mage

    sb = discord_env
    g = sb.new_guild(name="Descanso")
    sb.command(
        "campaign create", {"name": "Mesa", "system": "nucleo"}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    import_sheet(sb, g, ardelia_the_mage())
    for key in ("descanso_libre", "dinero_libre"):
        sb.command(
            "campaign settings",
            {"setting": key, "value": "no"},
            guild=g,
            channel="mesa",
            user="gm",
        ).expect_ok()
    rest = sb.command("spell rest", {}, guild=g, channel="mesa", user="ana")
    assert rest.ephemeral and says(rest, "flows.rest_gm_only"), rest.text
    money = sb.command("sheet money", {"amount": 5}, guild=g, channel="mesa", user="ana")
    assert money.ephemeral and says(money, "flows.money_gm_only"), money.text
    granted = sb.command("spell rest", {"character": "Ardelia"}, guild=g, channel="mesa", user="gm")
    assert granted.ok and not says(granted, "flows.rest_gm_only"), granted.text

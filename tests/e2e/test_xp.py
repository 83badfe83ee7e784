"""/xp grant and /xp log end to end."""

from __future__ import annotations

import pytest

from bot.services.campaigns.settings import resolved_settings
from rules import systems
from tests.e2e.helpers import import_sheet, new_campaign, says
from tests.examples import ARDELIA

pytestmark = pytest.mark.e2e


def test_the_gm_grants_experience_and_the_campaign_keeps_the_record(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Experiencia", "nucleo")
    import_sheet(sb, g, ARDELIA)
    refused = sb.command(
        "xp grant", {"amount": 5, "character": "Ardelia"}, guild=g, channel="mesa", user="ana"
    )
    assert refused.ephemeral and says(refused, "campaign.error.not_referee")
    granted = sb.command(
        "xp grant",
        {"amount": 3, "party": True, "reason": "Fin de la escena 1"},
        guild=g,
        channel="mesa",
        user="gm",
        locale="es-ES",
    )
    # a party grant writes one row per character: acknowledged privately first (deferred),
    # then the result goes to the channel
    assert granted.deferred and granted.ephemeral, granted.text
    (public,) = [m for m in granted.messages if not m.ephemeral]
    assert "+3 PX" in public.text and "**Ardelia**: 0 → 3 PX" in public.text
    both = sb.command(
        "xp grant",
        {"amount": 3, "party": True, "character": "Ardelia"},
        guild=g,
        channel="mesa",
        user="gm",
    )
    assert both.ephemeral and says(both, "xp.error.who"), both.text
    log = sb.command("xp log", {}, guild=g, channel="mesa", user="ana", locale="en-US")
    assert "**Ardelia** +3 XP (total 3) — Fin de la escena 1" in log.text
    shown = sb.command("sheet show", {}, guild=g, channel="mesa", user="ana")
    assert "**PX**: 3" in shown.text


def test_a_rolweb_player_spends_experience_on_an_ability(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Gastar PX", "rolweb")
    system = systems.get("rolweb")
    sheet = system.new_sheet("Eira", resolved_settings(system.settings(), {}))
    import_sheet(sb, g, sheet)
    sb.command(
        "xp grant", {"amount": 30, "character": "Eira"}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    offered = sb.autocomplete("xp spend", "what", "med", guild=g, channel="mesa", user="ana")
    assert offered == [{"name": "Medicus → principiante (10 PX)", "value": "Medicus"}]
    bought = sb.command(
        "xp spend", {"what": "Medicus"}, guild=g, channel="mesa", user="ana", locale="es-ES"
    )
    assert "Compra: Medicus" in bought.text and "30 → 20 PX" in bought.text, bought.text
    stranger = sb.command(
        "xp spend", {"what": "Medicus", "character": "Eira"}, guild=g, channel="mesa", user="bruno"
    )
    assert stranger.ephemeral and says(stranger, "sheet.error.not_owner", name="Eira")
    shown = sb.command("sheet show", {}, guild=g, channel="mesa", user="ana")
    assert "**Medicus**: principiante" in shown.text


def test_spending_where_the_system_buys_nothing_says_why(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Sin compras", "nucleo")
    import_sheet(sb, g, ARDELIA)
    r = sb.command(
        "xp spend", {"what": "Pilotar"}, guild=g, channel="mesa", user="ana", locale="en-US"
    )
    assert r.ephemeral and "not spent by choice" in r.text

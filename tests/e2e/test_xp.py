"""/xp grant and /xp log end to end."""

from __future__ import annotations

import pytest

from bot.services.campaigns.settings import resolved_settings
from rules import systems
from tests.e2e.helpers import import_sheet, new_campaign, press, says
from tests.examples import ARDELIA, nucleo_android, swc_cleric

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
    # a party grant is a session's award (issue 23 §4): Ardelia, Humano, gets «1px más»
    assert "+3 PX · premio de la sesión" in public.text, public.text
    assert "**Ardelia**: 0 → 4 PX\n↳ Humano: +1 PX por partida" in public.text, public.text
    both = sb.command(
        "xp grant",
        {"amount": 3, "party": True, "character": "Ardelia"},
        guild=g,
        channel="mesa",
        user="gm",
    )
    assert both.ephemeral and says(both, "xp.error.who"), both.text
    log = sb.command("xp log", {}, guild=g, channel="mesa", user="ana", locale="en-US")
    assert "**Ardelia** +4 XP (total 4) — Fin de la escena 1" in log.text
    shown = sb.command("sheet show", {}, guild=g, channel="mesa", user="ana")
    assert "**PX**: 4" in shown.text
    # one character's reward is not a session's award; an Artificial loses one per session
    one = sb.command(
        "xp grant", {"amount": 2, "character": "Ardelia"}, guild=g, channel="mesa", user="gm"
    )
    assert "**Ardelia**: 4 → 6 PX" in one.text and "sesión" not in one.text, one.text
    import_sheet(sb, g, nucleo_android(), user="bruno")
    marked = sb.command(
        "xp grant",
        {"amount": 3, "party": True, "session": True},
        guild=g,
        channel="mesa",
        user="gm",
        locale="en-US",
    )
    (public,) = [m for m in marked.messages if not m.ephemeral]
    assert "**Unidad 7**: 0 → 2 XP\n↳ Artificial: -1 XP per session" in public.text, public.text


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
    # imported with the campaign's starting 50 (issue 23 §4), then 30 granted
    assert "Compra: Medicus" in bought.text and "80 → 70 PX" in bought.text, bought.text
    stranger = sb.command(
        "xp spend", {"what": "Medicus", "character": "Eira"}, guild=g, channel="mesa", user="bruno"
    )
    assert stranger.ephemeral and says(stranger, "sheet.error.not_owner", name="Eira")
    shown = sb.command("sheet show", {}, guild=g, channel="mesa", user="ana")
    assert "**Medicus**: principiante" in shown.text


def test_spending_where_the_system_buys_nothing_says_why(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Sin compras", "swc")
    import_sheet(sb, g, swc_cleric(), user="gm")
    r = sb.command(
        "xp spend",
        {"what": "Sigilo", "character": "Aldara"},
        guild=g,
        channel="mesa",
        user="gm",
        locale="en-US",
    )
    assert r.ephemeral and "not spent by choice" in r.text


def test_a_nucleo_player_buys_a_skill_the_gm_approves(discord_env):
    """Issue 23 §4: «/px gastar» answered that XP is not spent in Núcleo, and PX piled up."""
    approve, reject = "arb:1:px-yes:", "arb:1:px-no:"
    sb = discord_env
    g = new_campaign(sb, "Mejoras", "nucleo")
    import_sheet(sb, g, ARDELIA)
    sb.command(
        "xp grant",
        {"amount": 10, "character": "Ardelia"},
        guild=g,
        channel="mesa",
        user="gm",
    ).expect_ok()
    offered = sb.autocomplete("xp spend", "what", "nad", guild=g, user="ana")
    assert {"name": "Nadar 0 → 1 (2 PX)", "value": "habilidad:Nadar"} in offered, offered
    asked = sb.command("xp spend", {"what": "habilidad:Nadar"}, guild=g, channel="mesa", user="ana")
    assert says(asked, "xp.purchase_waiting", name="Ardelia", what="Nadar 0 → 1 (2 PX)"), asked.text
    own = press(sb, asked, approve, user="ana")
    assert own.ephemeral and says(own, "campaign.error.not_referee"), own.all_text
    done = press(sb, asked, approve, user="gm")
    assert "Compra: Nadar" in done.all_text and "10 → 8 PX" in done.all_text, done.all_text
    assert not sb.message(asked.message.id).buttons
    shown = sb.command("sheet show", {}, guild=g, channel="mesa", user="ana")
    assert "**Nadar**: 1" in shown.text and "**PX**: 8" in shown.text, shown.text
    second = sb.command("xp spend", {"what": "Rastrear"}, guild=g, channel="mesa", user="ana")
    dropped = press(sb, second, reject, user="gm")
    assert says(dropped, "xp.purchase_rejected", name="Ardelia", what="habilidad:Rastrear")

"""/xp grant and /xp log end to end."""

from __future__ import annotations

import json

import pytest

from tests.examples import ARDELIA

pytestmark = pytest.mark.e2e


def test_the_gm_grants_experience_and_the_campaign_keeps_the_record(discord_env):
    sb = discord_env
    g = sb.new_guild(name="Experiencia")
    sb.command(
        "campaign create", {"name": "E", "system": "nucleo"}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    document = {"format": "arbitro.sheet", "version": 1, "system": "nucleo", "sheet": ARDELIA}
    sb.command(
        "sheet import", {"file": json.dumps(document).encode()}, guild=g, channel="mesa", user="ana"
    ).expect_ok()
    refused = sb.command(
        "xp grant", {"amount": 5, "character": "Ardelia"}, guild=g, channel="mesa", user="ana"
    )
    assert refused.ephemeral and "Solo el máster" in refused.text
    granted = sb.command(
        "xp grant",
        {"amount": 3, "party": True, "reason": "Fin de la escena 1"},
        guild=g,
        channel="mesa",
        user="gm",
        locale="es-ES",
    )
    assert (
        not granted.ephemeral
        and "+3 PX" in granted.text
        and "**Ardelia**: 0 → 3 PX" in granted.text
    )
    both = sb.command(
        "xp grant",
        {"amount": 3, "party": True, "character": "Ardelia"},
        guild=g,
        channel="mesa",
        user="gm",
    )
    assert both.ephemeral and "no las dos cosas" in both.text
    log = sb.command("xp log", {}, guild=g, channel="mesa", user="ana", locale="en-US")
    assert "**Ardelia** +3 XP (total 3) — Fin de la escena 1" in log.text
    shown = sb.command("sheet show", {}, guild=g, channel="mesa", user="ana")
    assert "**PX**: 3" in shown.text

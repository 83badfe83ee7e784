"""Nothing a user sends freezes or stalls the bot, and no reply breaks Discord's limits.

Issue 9 §1/§2, end to end through the stand-in (which refuses what Discord would refuse).
"""

from __future__ import annotations

import re

import pytest

from tests.e2e.helpers import new_campaign, sheet_file
from tests.examples import ARDELIA

pytestmark = pytest.mark.e2e


def _npc(sb, g, name: str) -> None:
    sb.command(
        "sheet import",
        {"file": sheet_file(dict(ARDELIA, name=name), npc=True)},
        guild=g,
        channel="mesa",
        user="gm",
    ).expect_ok()


def _listed_npcs(sb, g) -> list[str]:
    listed = sb.command("npc list", {}, guild=g, channel="mesa", user="gm")
    return re.findall(r"^• \*\*(.+?)\*\*", listed.text, flags=re.MULTILINE)


@pytest.mark.parametrize("length", [98, 99, 100])
def test_copies_of_an_npc_with_a_name_at_the_limit_are_distinct(discord_env, length):
    """Cutting «name N» back to 100 characters gave the same name for every N: a frozen bot."""
    g = new_campaign(discord_env, f"Nombres {length}", "nucleo")
    name = ("Trasgo del Bosque Oscuro " * 5)[:length].strip()
    _npc(discord_env, g, name)
    first = discord_env.command(
        "npc copy", {"name": name, "count": 12}, guild=g, channel="mesa", user="gm"
    )
    assert first.ok and first.content.startswith("12 copias"), first.text
    second = discord_env.command(
        "npc copy", {"name": name, "count": 2}, guild=g, channel="mesa", user="gm"
    )
    assert second.ok and second.content.startswith("2 copias"), second.text
    copies = [listed for listed in _listed_npcs(discord_env, g) if listed != name]
    assert len(copies) == 14 and all(len(copy) <= 100 for copy in copies), copies
    for number in range(1, 15):  # two-digit numbers are where «name 10» used to become «name 1»
        assert sum(copy.endswith(f" {number}") for copy in copies) == 1, copies
    # …and the bot still answers everyone else.
    g2 = discord_env.new_guild(name=f"Otro {length}")
    assert discord_env.command("roll", {"expression": "1d6"}, guild=g2, user="ana").ok


def test_twenty_copies_of_a_long_name_are_reported_within_discords_limits(discord_env):
    """The 20 copies were stored and then the reply (over 2,000 characters) failed."""
    g = new_campaign(discord_env, "Veinte", "nucleo")
    name = ("Guerrero esqueleto de la cripta olvidada " * 3)[:95].strip()
    _npc(discord_env, g, name)
    rejected_before = len(discord_env.rejections)
    reply = discord_env.command(
        "npc copy", {"name": name, "count": 20}, guild=g, channel="mesa", user="gm"
    )
    assert reply.ok and reply.content.startswith("20 copias"), reply.text
    assert len(reply.content) <= 2000 and "más" in reply.content
    assert len(discord_env.rejections) == rejected_before
    assert len(_listed_npcs(discord_env, g)) == 21


HEAVY_ODDS = "+".join(["1o3d10"] * 4)


def test_heavy_odds_are_deferred_and_answered_from_the_worker(discord_env):
    g = discord_env.new_guild(name="Probabilidades")
    r = discord_env.command("odds", {"expression": HEAVY_ODDS, "target": 25}, guild=g)
    assert r.ok and r.deferred, r.text
    assert "Probabilidades exactas" in r.text and "Crítico (35 o más)" in r.text, r.text


def test_odds_over_the_budget_are_refused_before_any_work(discord_env):
    """Seven 1o3d10 terms took 1.2 s inside the event loop; now a private, translated no."""
    g = discord_env.new_guild(name="Demasiado")
    expression = "+".join(["1o3d10"] * 7)
    r = discord_env.command("odds", {"expression": expression, "target": 40}, guild=g)
    assert r.ok and r.ephemeral and not r.deferred, r.text
    assert "demasiado grande para calcular sus probabilidades" in r.text
    en = discord_env.command(
        "odds", {"expression": expression, "target": 40}, guild=g, locale="en-US", user="bruno"
    )
    assert "too big to compute its exact odds" in en.text


def test_commands_that_may_take_time_acknowledge_first(discord_env):
    """A download or a many-row write is deferred before it starts (Discord's 3 s deadline)."""
    g = new_campaign(discord_env, "Diferir", "nucleo")
    imported = discord_env.command(
        "sheet import", {"file": sheet_file(ARDELIA)}, guild=g, channel="mesa", user="ana"
    )
    assert imported.deferred and imported.ephemeral, imported.text
    assert "Ficha de **Ardelia** importada." in imported.content
    (public,) = [m for m in imported.messages if not m.ephemeral]
    assert public.embeds[0]["title"] == "Ardelia"
    # a refusal after the deferral stays private
    refused = discord_env.command(
        "sheet import", {"file": b"{nope"}, guild=g, channel="mesa", user="ana"
    )
    assert refused.deferred and refused.ephemeral and "JSON" in refused.text
    assert all(m.ephemeral for m in refused.messages)
    # a hidden NPC's stat block is never posted in the channel
    mark = discord_env.mark()
    hidden = discord_env.command(
        "sheet import",
        {"file": sheet_file(dict(ARDELIA, name="Espía"), npc=True)},
        guild=g,
        channel="mesa",
        user="gm",
    )
    assert hidden.deferred and all(m.ephemeral for m in hidden.messages), hidden.all_text
    assert discord_env.posted_since(mark) == []
    copies = discord_env.command(
        "npc copy", {"name": "Espía", "count": 2}, guild=g, channel="mesa", user="gm"
    )
    assert copies.deferred and copies.ephemeral and copies.content.startswith("2 copias")


def test_per_member_cooldowns_answer_when_to_retry_and_do_nothing(discord_env):
    from cogs.ui.cooldowns import FIGHT, HEAVY

    g = discord_env.new_guild(name="Enfriamiento")
    for _ in range(FIGHT):
        discord_env.command("roll", {"expression": "1d20"}, guild=g, user="ana").expect_ok()
    refused = discord_env.command("roll", {"expression": "1d20"}, guild=g, user="ana")
    assert refused.ephemeral and "Vas demasiado rápido" in refused.text, refused.text
    assert "vuelve a intentarlo dentro de" in refused.text
    # nothing was rolled for the refused command; another member is not affected
    history = discord_env.command("history", {"limit": 25}, guild=g, user="gm")
    assert history.text.count("1d20") == FIGHT, history.text
    assert discord_env.command("roll", {"expression": "1d20"}, guild=g, user="bruno").ok
    for _ in range(HEAVY):
        discord_env.command("odds", {"expression": "2d6", "target": 7}, guild=g, user="bruno")
    busy = discord_env.command(
        "odds", {"expression": "2d6", "target": 7}, guild=g, user="bruno", locale="en-US"
    )
    assert busy.ephemeral and "too fast: try again in" in busy.text, busy.text

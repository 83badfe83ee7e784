"""Secrets stay secret, end to end (issue 9 §3): what each member sees through the real bot.

Campaign-scoped history, channels that belong to another campaign, the GM-channel copy of
every kind of private roll, hidden NPCs, acting only with one's own characters, and text
typed by users that never pings anyone.
"""

from __future__ import annotations

import re

import pytest

from tests.e2e.helpers import (
    COMBAT_NEXT,
    CONFIRM,
    WIZARD_FINISH,
    WIZARD_ROLL,
    import_sheet,
    new_campaign,
    press,
    sheet_file,
)
from tests.e2e.test_sheet_swc import ORC, fill
from tests.examples import ARDELIA, ardelia, ardelia_the_mage

pytestmark = pytest.mark.e2e

MANAGE_CHANNELS = 1 << 4


def _channel_manager(g, name="carla"):
    """A member who may manage channels but referees nothing."""
    g.add_role("Canales", permissions=MANAGE_CHANNELS)
    return g.add_member(name, roles=("Canales",))


def _with_gm_channel(sb, guild_name, system="nucleo"):
    g = new_campaign(sb, guild_name, system)
    sb.command(
        "campaign settings", {"gm_channel": g.channel("gm")}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    return g


def test_a_new_campaigns_gm_does_not_read_an_older_campaigns_private_rolls(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Historias", "nucleo", name="Vieja")
    sb.command(
        "roll",
        {"expression": "1d20", "private": True, "reason": "secreto viejo"},
        guild=g,
        channel="mesa",
        user="ana",
    ).expect_ok()
    ask = sb.command("campaign end", {}, guild=g, channel="mesa", user="gm")
    press(sb, ask, CONFIRM, user="gm")
    _channel_manager(g)
    sb.command(
        "campaign create",
        {"name": "Nueva", "system": "nucleo"},
        guild=g,
        channel="mesa",
        user="carla",
    ).expect_ok()
    seen = sb.command("history", {}, guild=g, channel="mesa", user="carla")
    assert seen.ok and "secreto viejo" not in seen.text
    sb.command(
        "roll", {"expression": "1d6", "reason": "nueva"}, guild=g, channel="mesa", user="ana"
    ).expect_ok()
    assert "nueva" in sb.command("history", {}, guild=g, channel="mesa", user="carla").text


def test_a_channel_of_another_campaigns_category_cannot_be_taken_over(discord_env):
    sb = discord_env
    g = sb.new_guild(name="Toma")
    sb.command(
        "campaign create",
        {"name": "Toda", "system": "nucleo", "category": True},
        guild=g,
        channel="escena",
        user="gm",
    ).expect_ok()
    sb.command(
        "roll",
        {"expression": "1d20", "private": True, "reason": "secreto de la categoría"},
        guild=g,
        channel="escena",
        user="ana",
    ).expect_ok()
    _channel_manager(g)
    refused = sb.command(
        "campaign create",
        {"name": "Mía", "system": "nucleo"},
        guild=g,
        channel="escena",
        user="carla",
    )
    assert refused.ephemeral and "solo su máster" in refused.text
    shown = sb.command("campaign show", {}, guild=g, channel="escena", user="carla")
    assert shown.embeds[0]["title"] == "Toda"
    # Its GM may split the channel off; the new campaign starts with an empty history.
    sb.command(
        "campaign create",
        {"name": "Escena", "system": "nucleo"},
        guild=g,
        channel="escena",
        user="gm",
    ).expect_ok()
    history = sb.command("history", {}, guild=g, channel="escena", user="gm")
    assert "secreto de la categoría" not in history.text


def test_private_checks_saves_and_spells_are_copied_to_the_gm_channel(discord_env):
    sb = discord_env
    g = _with_gm_channel(sb, "Copias")
    import_sheet(sb, g, ardelia_the_mage())
    check = sb.command(
        "check",
        {"option": "habilidad:Pilotar", "private": True},
        guild=g,
        channel="mesa",
        user="ana",
    )
    assert check.ok and check.ephemeral, check.text
    cast = sb.command(
        "spell cast",
        {"name": "Proyectil mágico", "private": True, "modifier": 50},
        guild=g,
        channel="mesa",
        user="ana",
    )
    assert cast.ok and cast.ephemeral, cast.text
    copies = sb.channel_messages(g, "gm")
    assert len(copies) == 2, [c.content for c in copies]
    assert all(c.content.startswith("Copia de una tirada privada de ana") for c in copies)
    assert "Pilotar" in str(copies[0].embeds) and "Proyectil mágico" in str(copies[1].embeds)
    # The log links the private roll to its copy, which only the GM channel can open.
    history = sb.command("history", {}, guild=g, channel="mesa", user="gm")
    assert f"/{copies[0].id})" in history.text or str(copies[0].id) in history.text

    swc = _with_gm_channel(sb, "Salvaciones", "swc")
    wizard = sb.command("npc create", {"name": "Orco"}, guild=swc, channel="mesa", user="gm")
    wizard = fill(sb, wizard, ORC)
    wizard = press(sb, wizard, WIZARD_ROLL, user="gm")
    assert "Orco" in press(sb, wizard, WIZARD_FINISH, user="gm").all_text
    save = sb.command(
        "save", {"character": "Orco", "private": True}, guild=swc, channel="mesa", user="gm"
    )
    assert save.ok and save.ephemeral, save.text
    (copy_,) = sb.channel_messages(swc, "gm")
    assert copy_.content.startswith("Copia de una tirada privada de gm")
    assert "Salvación" in str(copy_.embeds)


def test_hidden_npcs_do_not_leak_through_import_names_or_opposed_checks(discord_env):
    sb = discord_env
    g = _with_gm_channel(sb, "Ocultos")
    import_sheet(sb, g, ARDELIA)
    trasgo = ardelia(name="Trasgo")
    # (a) the GM's import of a hidden NPC shows its stat block to the GM only
    imported = sb.command(
        "sheet import", {"file": sheet_file(trasgo, npc=True)}, guild=g, channel="mesa", user="gm"
    )
    assert imported.ok and imported.ephemeral and "Trasgo" in imported.text
    # (b) a player importing (or renaming to) the hidden name is refused without confirming it
    taken = sb.command(
        "sheet import", {"file": sheet_file(trasgo)}, guild=g, channel="mesa", user="bruno"
    )
    assert taken.ephemeral and "No puedes usar el nombre" in taken.text
    assert "Ya hay un personaje" not in taken.text
    renamed = sb.command(
        "sheet set", {"field": "name", "value": "Trasgo"}, guild=g, channel="mesa", user="ana"
    )
    assert renamed.ephemeral and "No puedes usar el nombre" in renamed.text
    # (c) an opposed check against it: the player sees the outcome, the GM channel the numbers
    opposed = sb.command(
        "check",
        {"option": "atributo:Físico", "against": "Trasgo"},
        guild=g,
        channel="mesa",
        user="ana",
    )
    assert opposed.ok and not opposed.ephemeral, opposed.text
    assert "Gana:" in opposed.text and "solo el máster" in opposed.text
    for secret in ("→", "Total", "objetivo", "Probabilidad", "1o3d10"):
        assert secret not in opposed.text, (secret, opposed.text)
    (numbers,) = sb.channel_messages(g, "gm")
    assert "PNJ oculto" in numbers.content
    # ... and her /history keeps the outcome, not the die that would bound the NPC's stat.
    total = re.search(r"Total: (\d+)", str(numbers.embeds))[1]
    own_history = sb.command("history", {}, guild=g, channel="mesa", user="ana")
    assert "**?**" in own_history.text and f"**{total}**" not in own_history.text
    assert f"**{total}**" in sb.command("history", {}, guild=g, channel="mesa", user="gm").text
    assert "Trasgo: Físico →" in str(numbers.embeds) and "Total" in str(numbers.embeds)
    # the GM rolling against his own hidden NPC sees everything where he rolls
    gm_roll = sb.command(
        "check",
        {"option": "atributo:Físico", "character": "Ardelia", "against": "Trasgo"},
        guild=g,
        channel="mesa",
        user="gm",
    )
    # the GM's own roll against his hidden NPC: decided once, for every reader — the
    # channel reads the outcome, the GM channel the numbers (issue 22 §1)
    assert gm_roll.ok and "Trasgo: Físico →" not in gm_roll.text, gm_roll.text
    assert "Trasgo: Físico →" in str(sb.channel_messages(g, "gm")[-1].embeds)


def test_players_roll_only_with_their_own_characters(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Propias", "nucleo")
    import_sheet(sb, g, ARDELIA)
    for command, options in (
        ("check", {"option": "habilidad:Pilotar", "character": "Ardelia"}),
        ("save", {"character": "Ardelia"}),
        ("spell cast", {"name": "Luz", "character": "Ardelia"}),
        ("sheet money", {"amount": 5, "character": "Ardelia"}),
    ):
        refused = sb.command(command, options, guild=g, channel="mesa", user="bruno")
        assert refused.ephemeral and "no es tu personaje" in refused.text, (command, refused.text)
    history = sb.command("history", {}, guild=g, channel="mesa", user="gm")
    assert "Pilotar" not in history.text  # nothing rolled, nothing logged
    gm = sb.command(
        "check",
        {"option": "habilidad:Pilotar", "character": "Ardelia"},
        guild=g,
        channel="mesa",
        user="gm",
    )
    assert gm.ok and not gm.ephemeral
    # being the target of an opposed check needs no ownership
    import_sheet(sb, g, ardelia(name="Bram"), user="bruno")
    opposed = sb.command(
        "check",
        {"option": "atributo:Físico", "against": "Ardelia"},
        guild=g,
        channel="mesa",
        user="bruno",
    )
    assert opposed.ok and "Enfrentada contra Ardelia" in opposed.text, opposed.text


def test_text_users_type_never_pings_and_a_turn_pings_only_its_player(discord_env):
    sb = discord_env
    g = _with_gm_channel(sb, "Menciones")
    ana, bruno, role = g.member("ana"), g.member("bruno"), g.role("Máster")
    ping = f"<@{bruno.id}> <@&{role.id}> @everyone"
    name = f"Ardelia {ping}"
    imported = sb.command(
        "sheet import",
        {"file": sheet_file(ardelia(name=name))},
        guild=g,
        channel="mesa",
        user="ana",
    )
    assert imported.ok and ping in imported.content, imported.text
    for options in (
        {"expression": "1d20", "reason": ping},
        {"expression": "1d20", "reason": ping, "private": True},  # and its GM-channel copy
    ):
        sb.command("roll", options, guild=g, channel="mesa", user="ana").expect_ok()
    sb.command("init start", {}, guild=g, channel="mesa", user="gm").expect_ok()
    sb.command("init join", {}, guild=g, channel="mesa", user="ana").expect_ok()
    sb.command(
        "init add", {"name": ping, "initiative": 1}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    sb.command(
        "init move", {"combatant": name, "initiative": 50}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    turn = sb.command("init next", {}, guild=g, channel="mesa", user="gm")
    assert turn.ok and f"<@{ana.id}>" in turn.content and ping in turn.content, turn.text
    # The turn pings its player, and only her: not the name's or the group's mentions.
    assert [int(u["id"]) for u in turn.message.data["mentions"]] == [ana.id]
    assert turn.message.data["mention_roles"] == [] and not turn.message.data["mention_everyone"]
    # A follow-up (the panel's button) for the group's turn pings nobody at all.
    passed = press(sb, turn, COMBAT_NEXT, user="gm")
    follow = passed.followups[-1]
    assert ping in follow.content and follow.data["mentions"] == [], follow.content
    # An edited response (a confirmation) naming the character pings nobody either.
    ask = sb.command("sheet delete", {"character": name}, guild=g, channel="mesa", user="ana")
    press(sb, ask, CONFIRM, user="ana")
    confirmed = sb.message(ask.message.id)
    assert ping in confirmed.content and "borrada" in confirmed.content, confirmed.content
    assert (confirmed.data["mentions"], confirmed.data["mention_everyone"]) == ([], False)
    everything = sb.channel_messages(g, "mesa", everything=True) + sb.channel_messages(g, "gm")
    assert any(ping in m.content for m in everything if m.id != turn.message.id)
    for message in everything:
        if message.id == turn.message.id:
            continue
        data = message.data
        assert (data["mentions"], data["mention_roles"], data["mention_everyone"]) == (
            [],
            [],
            False,
        ), (message.content, data["mentions"])

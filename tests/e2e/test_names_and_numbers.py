"""Numbers, names and files that the database and Discord accept (issue 22 §4), through
the real bot on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from tests.e2e.helpers import import_sheet, new_campaign, says, sheet_file
from tests.examples import ARDELIA, declared_png

pytestmark = pytest.mark.e2e

MAX_STORED = 2_147_483_647


def test_a_number_past_what_is_stored_is_refused_the_same_on_both_databases(discord_env):
    """``/xp grant 1`` after ``/sheet set px 2147483647`` answered «Algo ha fallado» on
    PostgreSQL (int32 overflow in the ledger) and stored 2,147,483,648 on SQLite."""
    sb = discord_env
    g = new_campaign(sb, "Números", "nucleo")
    import_sheet(sb, g, ARDELIA)
    sb.command(
        "sheet set",
        {"field": "px", "value": str(MAX_STORED), "character": "Ardelia"},
        guild=g,
        channel="mesa",
        user="gm",
    ).expect_ok()
    grant = sb.command(
        "xp grant", {"amount": 1, "character": "Ardelia"}, guild=g, channel="mesa", user="gm"
    )
    assert grant.ephemeral and says(
        grant, "sheet.error.number_out_of_store", field="PX", value=MAX_STORED + 1, limit=MAX_STORED
    ), grant.text
    assert "referencia" not in grant.text
    sb.command(
        "sheet set", {"field": "dinero", "value": str(MAX_STORED - 5)}, guild=g, channel="mesa",
        user="ana",
    ).expect_ok()  # fmt: skip
    money = sb.command("sheet money", {"amount": 10}, guild=g, channel="mesa", user="ana")
    assert money.ephemeral and "2147483652" in money.text, money.text
    past = sb.command(
        "sheet set", {"field": "dinero", "value": str(MAX_STORED + 1)}, guild=g, channel="mesa",
        user="ana",
    )  # fmt: skip
    assert past.ephemeral and str(MAX_STORED) in past.text, past.text
    shown = sb.command("sheet show", {}, guild=g, channel="mesa", user="ana")
    assert str(MAX_STORED - 5) in shown.all_text and str(MAX_STORED) in shown.all_text


def test_names_discord_and_people_can_read(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Nombres", "nucleo")
    # a name whose letters fold to two before «clyde»: /post crashed adapting it for the webhook
    odd = "ßßßßßßßßßßclydezzzzzzzzzz"
    sb.command(
        "sheet import", {"file": sheet_file(dict(ARDELIA, name=odd), npc=True)}, guild=g,
        channel="mesa", user="gm",
    ).expect_ok()  # fmt: skip
    opened = sb.command("post", {"as": odd}, guild=g, channel="mesa", user="gm")
    assert opened.modal is not None, opened.text
    sb.submit_modal(opened, {"text": "—Aquí estoy."}, user="gm").expect_ok()
    (posted,) = [m for m in sb.channel_messages(g, "mesa") if m.data.get("webhook_id")]
    shown = posted.data["author"]["username"]
    assert "clyde" not in shown.casefold() and shown.startswith("ßßßßßßßßßß")
    # a name of nothing visible, or hiding a zero-width space, is refused
    for name, key in (("\u3164\u3164", "sheet.error.name_not_visible"),
                      ("Ar\u200bdelia", "sheet.error.name_invisible")):  # fmt: skip
        refused = sb.command("sheet create", {"name": name}, guild=g, channel="mesa", user="ana")
        assert refused.ephemeral and says(refused, key), refused.text
        refused = sb.command("npc create", {"name": name}, guild=g, channel="mesa", user="gm")
        assert refused.ephemeral and says(refused, key), refused.text
    # a blank name said «1 a 500»
    import_sheet(sb, g, ARDELIA)
    blank = sb.command("sheet set", {"field": "name", "value": " "}, guild=g, channel="mesa",
                       user="ana")  # fmt: skip
    assert says(blank, "sheet.error.bad_name", limit=100), blank.text


def test_an_avatar_declaring_too_many_pixels_is_refused_with_its_size(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Avatar", "nucleo")
    import_sheet(sb, g, ARDELIA)
    refused = sb.command(
        "sheet profile",
        {"avatar": ("bomba.png", declared_png(30_000, 30_000))},
        guild=g,
        channel="mesa",
        user="ana",
    )
    assert refused.ephemeral and says(
        refused, "post.error.avatar_pixels", width=30000, height=30000, frames=1,
        limit=4096 * 4096,
    ), refused.text  # fmt: skip
    shown = sb.command(
        "sheet show", {"character": "Ardelia"}, guild=g, channel="mesa", user="bruno"
    )
    assert not shown.message.embeds or not (shown.message.embeds[0].get("thumbnail"))

"""Posting by typing, as on Umbría (issue 24), end to end through the stand-in: the real bot
with ``ARBITRO_MESSAGE_CONTENT=1``, members writing messages as the Discord client sends them.
"""

from __future__ import annotations

import pytest

from bot.i18n import t
from standin.intents import MESSAGE_CONTENT
from tests.e2e.helpers import new_campaign, says, start_arbitro

pytestmark = pytest.mark.e2e


def test_the_portal_refusing_message_content_leaves_the_bot_running_and_the_gm_told(
    bot_database_url, tmp_path
):
    sb = start_arbitro(bot_database_url, tmp_path, {"ARBITRO_MESSAGE_CONTENT": "1"})
    try:
        # Discord closed the first connection (4014) and the bot came back without the intent
        assert sb.refused_identifies == [MESSAGE_CONTENT]
        assert not sb.world.identified["intents"] & MESSAGE_CONTENT
        assert sb.bot_log().count(t("cli.message_content_refused", "es")) == 1
        g = new_campaign(sb, "Sin intent", "nucleo")
        sb.command(
            "campaign settings",
            {"setting": "escribir_como_personaje", "value": "sí"},
            guild=g,
            channel="mesa",
            user="gm",
        ).expect_ok()
        shown = sb.command("campaign show", {}, guild=g, channel="mesa", user="gm")
        assert shown.ok and says(shown, "typing.status.refused"), shown.text
        # slash commands work as ever
        rolled = sb.command("roll", {"expression": "1d20"}, guild=g, channel="mesa", user="ana")
        assert rolled.ok and "1d20" in rolled.text
        # and a typed message is left alone (the bot does not even receive it)
        written = g.write("mesa", "Ardelia: hola", user="ana")
        assert written is not None and not sb.message(written.id).deleted
        assert sb.posted_since(written.id) == []
    finally:
        sb.close()

"""``/campaign stats`` through the stand-in (issue 25 §3): the GM's stats with the chart
attached (a PNG that decodes, of the expected size) and a text summary with names, never
ids; the players' version only where the campaign allows it, without what the GM keeps."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.services.table.stats_chart import CHART_HEIGHT, CHART_WIDTH
from tests.e2e.helpers import says, sheet_file
from tests.e2e.test_post import _forum_table, _post
from tests.examples import ARDELIA

pytestmark = pytest.mark.e2e

SECRET = "Zafiro-7731"  # what only the GM may read, wherever it would leak


def _chart(reply) -> Image.Image:
    (name,) = [n for n in reply.attachments if n.endswith(".png")]
    image = Image.open(io.BytesIO(reply.attachments[name]))
    image.load()  # decodes every pixel: a truncated or corrupt file fails here
    return image


def test_stats_with_the_chart_for_the_gm_and_a_players_version(discord_env):
    sb = discord_env
    g, scene = _forum_table(sb)
    sb.command("campaign settings", {"gm_channel": "gm"}, guild=g, channel=scene, user="gm")
    sb.command(
        "sheet import",
        {"file": sheet_file(dict(ARDELIA, name=SECRET), npc=True)},
        guild=g,
        channel=scene,
        user="gm",
    ).expect_ok()
    sb.command("npc set", {"npc": SECRET, "hidden": True}, guild=g, channel=scene, user="gm")
    _post(sb, g, scene, {"text": "Cae la noche."}, user="gm", options={"as": "Narrador"})
    _post(sb, g, scene, {"text": "Enciendo una antorcha."}, user="ana")
    _post(
        sb,
        g,
        scene,
        {"text": "Nadie lo ve."},
        user="gm",
        options={"as": "Narrador", "private": True},
    )
    sb.command("roll", {"expression": "1o3d10+5"}, guild=g, channel=scene, user="ana").expect_ok()
    sb.command(
        "roll", {"expression": "1d20", "private": True}, guild=g, channel=scene, user="ana"
    ).expect_ok()

    stats = sb.command("campaign stats", {}, guild=g, channel=scene, user="gm")
    assert stats.ok and stats.ephemeral is not False, stats.text
    assert _chart(stats).size == (CHART_WIDTH, CHART_HEIGHT)
    text = stats.all_text
    assert "Ardelia" in text and "1 publicaciones" in text, text
    assert str(g.member("ana").id) not in text  # names, never ids

    refused = sb.command("campaign stats", {}, guild=g, channel=scene, user="ana")
    assert says(refused, "campaign.error.not_referee"), refused.text
    sb.command(
        "campaign settings",
        {"setting": "estadisticas_jugadores", "value": "sí"},
        guild=g,
        channel=scene,
        user="gm",
    ).expect_ok()
    players = sb.command("campaign stats", {}, guild=g, channel=scene, user="ana")
    assert players.ok and "versión para los jugadores" in players.all_text, players.text
    assert _chart(players).size == (CHART_WIDTH, CHART_HEIGHT)
    assert SECRET not in players.all_text and "Nadie lo ve" not in players.all_text

    public = sb.command("campaign stats", {"public": True}, guild=g, channel=scene, user="gm")
    assert public.ok, public.text
    shown = [
        m for m in sb.channel_messages(g, scene, everything=True) if m.attachments and m.embeds
    ]
    assert shown and "versión para los jugadores" in shown[-1].text

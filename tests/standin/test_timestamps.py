"""Discord timestamps as the client shows them to each reader (issue 23 §6): the sandbox
printed «2026-12-07 16:23» (UTC, ISO) where Discord shows «7 de diciembre de 2026 17:23» to a
reader in Madrid and «7 de diciembre de 2026 10:23» to one in Mexico City."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from standin.render import reader_clock, render_reply
from standin.replies import Msg, Reply
from standin.timestamps import discord_time

MADRID, MEXICO = ZoneInfo("Europe/Madrid"), ZoneInfo("America/Mexico_City")
#: Monday 7 December 2026, 16:23:05 UTC
MOMENT = 1796660585


def test_every_style_in_spanish_and_english():
    expected = {
        ("es-ES", "t"): "17:23",
        ("es-ES", "T"): "17:23:05",
        ("es-ES", "d"): "07/12/2026",
        ("es-ES", "D"): "7 de diciembre de 2026",
        ("es-ES", "f"): "7 de diciembre de 2026 17:23",
        ("es-ES", None): "7 de diciembre de 2026 17:23",
        ("es-ES", "F"): "lunes, 7 de diciembre de 2026 17:23",
        ("en-US", "t"): "5:23 PM",
        ("en-US", "T"): "5:23:05 PM",
        ("en-US", "d"): "12/07/2026",
        ("en-US", "D"): "December 7, 2026",
        ("en-US", "f"): "December 7, 2026 5:23 PM",
        ("en-US", "F"): "Monday, December 7, 2026 5:23 PM",
    }
    got = {key: discord_time(MOMENT, key[1], key[0], MADRID) for key in expected}
    assert got == expected


def test_the_same_moment_in_two_readers_zones():
    assert discord_time(MOMENT, "f", "es-ES", MEXICO) == "7 de diciembre de 2026 10:23"
    assert discord_time(MOMENT, "d", "es-ES", ZoneInfo("Pacific/Auckland")) == "08/12/2026"


def test_relative_times_as_moment_js_words_them():
    cases = {
        -10: ("hace unos segundos", "a few seconds ago"),
        -60: ("hace un minuto", "a minute ago"),
        -300: ("hace 5 minutos", "5 minutes ago"),
        3 * 3600: ("en 3 horas", "in 3 hours"),
        -86400: ("hace un día", "a day ago"),
        -4 * 86400: ("hace 4 días", "4 days ago"),
        -60 * 86400: ("hace 2 meses", "2 months ago"),
        -400 * 86400: ("hace un año", "a year ago"),
    }
    for offset, (es, en) in cases.items():
        now = MOMENT - offset
        assert discord_time(MOMENT, "R", "es-ES", MADRID, now) == es, offset
        assert discord_time(MOMENT, "R", "en-US", MADRID, now) == en, offset


def test_a_reply_renders_them_where_discord_does_and_not_elsewhere():
    stamp = f"<t:{MOMENT}:f>"
    msg = Msg(
        id=1,
        channel_id=2,
        content=f"Desde {stamp}",
        embeds=[
            {
                "title": f"Título {stamp}",
                "description": f"Descripción {stamp}",
                "fields": [{"name": f"Campo {stamp}", "value": f"Valor {stamp}"}],
                "footer": {"text": f"Pie {stamp}"},
            }
        ],
        components=[],
        ephemeral=False,
        attachments={},
        author="Árbitro",
        data={},
    )
    text = render_reply(
        Reply(ok=True, message=msg), clickables=[], clock=reader_clock("es-ES", MEXICO)
    )
    for where in ("Desde", "Descripción", "Valor"):
        assert f"{where} 7 de diciembre de 2026 10:23" in text, (where, text)
    for where in ("Título", "Campo", "Pie"):  # Discord leaves them as typed there
        assert f"{where} {stamp}" in text, (where, text)

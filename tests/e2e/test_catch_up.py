"""Catching up through the stand-in (issue 25 §2): ``/catch-up`` in private, and the catch-up a
player chose to get by direct message when their absence ends — the scene's posts they have
not answered, what they owe, and nothing the GM keeps (a GM-only post carries a sentinel).

The absence's end is brought forward the way tests/e2e/test_pace.py moves time: its timer is
made due in the database (the bot polls its timers every second here).
"""

from __future__ import annotations

import pytest

from tests.e2e.helpers import start_arbitro
from tests.e2e.test_pace import ENV, count, table, time_passes, today_plus, wait_for
from tests.e2e.test_post import _post

pytestmark = pytest.mark.e2e

SECRET = "Zafiro-7731"


def test_catch_up_after_an_absence_and_nothing_gm_only_in_it(bot_database_url, tmp_path):
    url = bot_database_url
    sb = start_arbitro(url, tmp_path, ENV)
    try:
        g, thread = table(sb, url, "Vuelta")
        _post(sb, g, thread, {"text": "Entro en la posada."}, user="ana")
        away = sb.command(
            "absence add", {"from": today_plus(0), "to": today_plus(1)}, guild=g, user="ana"
        )
        assert "mensaje privado" in away.text, away.text  # the catch-up is on by default
        _post(sb, g, thread, {"text": "Llega un extraño."}, user="gm", options={"as": "Narrador"})
        _post(
            sb,
            g,
            thread,
            {"text": f"El extraño es {SECRET}."},
            user="gm",
            options={"as": "Narrador", "private": True},
        )
        _post(sb, g, thread, {"text": "Bertrán saluda al extraño."}, user="bruno")

        asked = sb.command("catch-up", {}, guild=g, channel="mesa", user="ana")
        assert asked.ok and asked.ephemeral, asked.text
        shown = asked.all_text
        assert "Llega un extraño" in shown and "Bertrán saluda" in shown, shown
        assert "Entro en la posada" not in shown  # her own post is what she answered with
        assert "Te toca" in shown and "Ardelia" in shown  # the scene waits for her
        assert SECRET not in shown
        assert str(g.member("ana").id) not in shown.replace(f"<@{g.member('ana').id}>", "")

        # the absence ends: her catch-up comes by direct message, once
        time_passes(url, g, kind="pace.back")
        dms = wait_for(
            lambda: [m for m in sb.direct_messages(g, "ana") if m.embeds], "the catch-up DM", sb
        )
        text = dms[0].text
        assert "De vuelta" in text and "Llega un extraño" in text and "Bertrán saluda" in text
        assert SECRET not in text
        assert len([m for m in sb.direct_messages(g, "ana") if m.embeds]) == 1

        back = "SELECT count(*) FROM timer WHERE kind = 'pace.back'"
        wait_for(lambda: count(url, back) == 0, "the fired timer gone", sb)
        # Bruno chose no catch-up: his absence sets no return timer at all
        sb.command(
            "absence add",
            {"from": today_plus(0), "to": today_plus(0), "catch_up": False},
            guild=g,
            user="bruno",
        ).expect_ok()
        assert count(url, back) == 0
    finally:
        sb.close()

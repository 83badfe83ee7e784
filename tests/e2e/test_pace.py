"""Pace through the stand-in: posting reminders on durable timers (once, across a restart and
a crash between posting and recording), an absence skipping a reminder, DM reminders, the
GM's digest, and an NPCized character given back by its timer.

Time is moved the way tests/e2e/test_shards.py moves it: the scene's round and the timers'
due dates are set in the past in the database (the bot polls its timers every second here).
Scenes are written directly: only their rows matter to the pace.
"""

from __future__ import annotations

import asyncio
import copy
import os
import time
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import delete, text, update
from sqlmodel import select

from bot.db.engine import create_engine, session_factory
from bot.db.models import Campaign, Npcization, PaceReminder, Scene, Timer
from bot.formatting import DEFAULT_TIME_ZONE
from standin.client import Sandbox
from tests.e2e.helpers import import_sheet, new_campaign, says, start_arbitro
from tests.examples import ARDELIA

pytestmark = pytest.mark.e2e

ENV = {"ARBITRO_TIMER_POLL_SECONDS": "1", "ARBITRO_TIMER_LEASE_SECONDS": "5"}
WAIT = float(os.environ.get("ARBITRO_E2E_TIMEOUT", "10")) * 3


def db(url: str, work) -> Any:
    """Run ``work(session)`` in one transaction on the bot's database (a short-lived engine)."""

    async def run():
        engine = create_engine(url)
        try:
            async with session_factory(engine)() as session, session.begin():
                return await work(session)
        finally:
            await engine.dispose()

    return asyncio.run(run())


def open_scene(url: str, g, thread, *, started: datetime) -> int:
    async def work(session):
        campaign = (await session.exec(select(Campaign).where(Campaign.guild_id == g.id))).one()
        scene = Scene(
            guild_id=g.id,
            campaign_id=campaign.id,
            channel_id=thread.id,
            parent_id=g.channel("mesa").id,
            title="La posada",
            opened_by=g.member("gm").id,
            round_started_at=started,
        )
        session.add(scene)
        await session.flush()
        return scene.id

    return db(url, work)


def time_passes(url: str, g, *, round_started: datetime | None = None, kind: str) -> None:
    """The scene's round began long ago and the ``kind`` timer is due now."""

    async def work(session):
        if round_started is not None:
            await session.exec(
                update(Scene).where(Scene.guild_id == g.id).values(round_started_at=round_started)
            )
        await session.exec(
            update(Timer)
            .where(Timer.guild_id == g.id, Timer.kind == kind)
            .values(due_at=datetime.now(UTC) - timedelta(seconds=1), lease_until=None)
        )

    db(url, work)


def count(url: str, statement: str, **params) -> int:
    async def work(session):
        return (await session.exec(text(statement).bindparams(**params))).one()[0]

    return db(url, work)


def watch(url: str, g) -> tuple[int, datetime]:
    """The campaign's ``pace.watch`` timer: its generation (bumped each time a firing moves
    it on) and when it is due."""

    async def work(session):
        row = (
            await session.exec(
                select(Timer).where(Timer.guild_id == g.id, Timer.kind == "pace.watch")
            )
        ).one()
        due = row.due_at if row.due_at.tzinfo else row.due_at.replace(tzinfo=UTC)
        return row.generation, due

    return db(url, work)


def wait_for(check, what: str, sb: Sandbox):
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if value := check():
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}\n{sb.bot_log(40)}")


def reminders(sb: Sandbox, g, thread) -> list:
    return [m for m in sb.channel_messages(g, thread) if "⏰" in m.content]


def table(sb: Sandbox, url: str, name: str):
    """A campaign with two players' characters, a GM channel, a deadline of one hour."""
    g = new_campaign(sb, name, "nucleo")
    import_sheet(sb, g, ARDELIA, user="ana")
    bertran = copy.deepcopy(ARDELIA)
    bertran["name"] = "Bertrán"
    import_sheet(sb, g, bertran, user="bruno")
    sb.command(
        "campaign settings", {"gm_channel": g.channel("gm")}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    thread = g.thread("mesa", "La posada")
    open_scene(url, g, thread, started=datetime.now(UTC) - timedelta(minutes=10))
    sb.command(
        "campaign settings",
        {"setting": "plazo_publicacion", "value": "1"},
        guild=g,
        channel="mesa",
        user="gm",
    ).expect_ok()
    return g, thread


def today_plus(days: int) -> str:
    """A date as a player types it, counted in the campaign's time zone (the bot's reading):
    in UTC, "tomorrow" is already today in Madrid between 23:00 and midnight."""
    return (datetime.now(ZoneInfo(DEFAULT_TIME_ZONE)) + timedelta(days=days)).strftime("%d/%m/%Y")


def test_a_reminder_fires_once_after_a_restart_and_skips_the_absent(bot_database_url, tmp_path):
    url = bot_database_url
    sb = start_arbitro(url, tmp_path, ENV)
    try:
        g, thread = table(sb, url, "Ritmo")
        away = sb.command(
            "absence add",
            {"from": today_plus(0), "to": today_plus(2), "note": "De viaje"},
            guild=g,
            channel="mesa",
            user="ana",
        )
        assert away.ephemeral and "Ausencia anotada" in away.text, away.text
        bad = sb.command("absence add", {"from": "mañana", "to": "31/02/2027"}, guild=g, user="ana")
        assert bad.ephemeral and says(bad, "formats.date.date", text="31/02/2027"), bad.text
        status = sb.command("scene status", {}, guild=g, channel=thread, user="bruno")
        assert "Pendientes (2)" in status.all_text and "ausente hasta" in status.all_text
        assert reminders(sb, g, thread) == [], "ten minutes are not an hour"

        # the bot is down while the deadline passes; it finds the reminder when it is back
        sb.stop_bot()
        time_passes(url, g, round_started=datetime.now(UTC) - timedelta(hours=3), kind="pace.watch")
        sb.start_bot("bot.__main__", env={"DATABASE_URL": url, **ENV}, log_path=tmp_path / "2.log")
        posted = wait_for(lambda: reminders(sb, g, thread), "the reminder", sb)
        bruno, ana = g.member("bruno").id, g.member("ana").id
        assert f"<@{bruno}>" in posted[0].content and "Bertrán" in posted[0].content
        recorded = "SELECT count(*) FROM pace_reminder WHERE guild_id = :g"
        wait_for(lambda: count(url, recorded, g=g.id) == 1, "the record", sb)
        # the watch looks again in an hour (bruno reminded, ana away), not at the next poll
        soon = datetime.now(UTC) + timedelta(minutes=30)
        moved = wait_for(lambda: (w := watch(url, g))[1] > soon and w, "the watch moved on", sb)
        # and a look at once (the watch made due again) sends nothing twice
        time_passes(url, g, kind="pace.watch")
        wait_for(lambda: watch(url, g)[0] > moved[0], "the watch looking again", sb)
        assert len(reminders(sb, g, thread)) == 1, "once"
        assert all(f"<@{ana}>" not in m.content for m in reminders(sb, g, thread)), "ana is away"

        # a crash between posting and recording: the firing comes back unrecorded; the nonce
        # makes the repeated post return the first message
        db(url, lambda s: s.exec(delete(PaceReminder).where(PaceReminder.guild_id == g.id)))
        time_passes(url, g, kind="pace.watch")
        wait_for(lambda: count(url, recorded, g=g.id) == 1, "the repeated record", sb)
        assert len(reminders(sb, g, thread)) == 1, "the nonce absorbed the repeat"
    finally:
        sb.close()


def test_dm_reminders_the_gm_digest_and_an_npcized_character(bot_database_url, tmp_path):
    url = bot_database_url
    sb = start_arbitro(url, tmp_path, ENV)
    try:
        g, thread = table(sb, url, "Resumen")
        choice = sb.command("pace reminders", {"where": "dm"}, guild=g, user="bruno")
        assert says(choice, "pace.remind_by_dm"), choice.text
        refused = sb.command("sheet npcize", {"character": "Ardelia"}, guild=g, user="ana")
        assert refused.ephemeral
        until = today_plus(3)
        npc = sb.command(
            "sheet npcize", {"character": "Ardelia", "until": until}, guild=g, user="gm"
        )
        assert "PNJtización" in npc.text, npc.text
        away = sb.command(
            "absence add", {"from": today_plus(1), "to": today_plus(2)}, guild=g, user="bruno"
        )
        assert away.ok

        time_passes(url, g, round_started=datetime.now(UTC) - timedelta(hours=2), kind="pace.watch")
        gm = g.member("gm").id
        posted = wait_for(lambda: reminders(sb, g, thread), "the GM's reminder", sb)
        assert f"<@{gm}>" in posted[0].content and "Ardelia" in posted[0].content
        dms = wait_for(lambda: sb.direct_messages(g, "bruno"), "bruno's DM", sb)
        assert "Bertrán" in dms[0].content and str(thread.id) in dms[0].content
        assert len(reminders(sb, g, thread)) == 1, "bruno's went by DM"

        time_passes(url, g, kind="pace.digest")
        digest = wait_for(
            lambda: [m for m in sb.channel_messages(g, "gm") if m.embeds], "the digest", sb
        )
        shown = digest[0].text
        assert "La posada" in shown and "Ardelia" in shown and "Bertrán" in shown
        assert "Ausencias" in shown and f"<@{g.member('bruno').id}>" in shown
        assert "Quién debe qué" in shown  # issue 25 §2: per player, what and since when
        wait_for(
            lambda: count(url, "SELECT count(*) FROM timer WHERE kind = 'pace.digest'") == 1,
            "the next digest",
            sb,
        )

        # the NPCization's date arrives: Ardelia goes back to ana, noted in the GM channel
        db(
            url,
            lambda s: s.exec(
                update(Npcization).values(until=datetime.now(UTC) - timedelta(seconds=1))
            ),
        )
        time_passes(url, g, kind="pace.npc")
        wait_for(lambda: count(url, "SELECT count(*) FROM npcization") == 0, "the return", sb)
        notes = [m.content for m in sb.channel_messages(g, "gm") if "vuelve a manos" in m.content]
        assert len(notes) == 1 and "Ardelia" in notes[0]
        status = sb.command("scene status", {}, guild=g, channel=thread, user="ana")
        assert "PNJtización" not in status.all_text
    finally:
        sb.close()

"""/campaign export and /campaign import end to end: the zip's contents, and the campaign
moved into another server.

The scene and its posts are written straight into the bot's database (the /scene and /post
commands write the same rows); characters, XP and rolls go through the commands.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlmodel import select

from bot.db.engine import create_engine
from bot.db.models import Campaign, Post, Scene
from bot.services.shared.audience import PUBLIC, Secrecy
from tests.bot.test_chronicle import assert_self_contained
from tests.e2e.helpers import import_sheet, new_campaign, says, start_arbitro
from tests.examples import ARDELIA

pytestmark = pytest.mark.e2e

SCRIPT = "<script>alert('x')</script>"
T0 = datetime(2026, 11, 1, 18, 0, tzinfo=UTC)


async def _write_scene(url: str, guild_id: int, thread_id: int, gm_id: int, ana_id: int) -> None:
    engine = create_engine(url)
    try:
        async with engine.begin() as connection:
            from sqlmodel.ext.asyncio.session import AsyncSession

            async with AsyncSession(bind=connection) as session:
                campaign = (
                    await session.exec(select(Campaign).where(Campaign.guild_id == guild_id))
                ).one()
                scene = Scene(
                    guild_id=guild_id,
                    campaign_id=campaign.id,
                    channel_id=thread_id,
                    title="El puente",
                    status="closed",
                    opened_by=gm_id,
                    created_at=T0,
                    closed_at=T0 + timedelta(days=1),
                )
                session.add(scene)
                await session.flush()
                for minutes, author, speaker, text, gm_only in (
                    (0, gm_id, "Narrador", "El puente cruje bajo la niebla.", False),
                    (5, ana_id, "Ardelia", f"Cruzo despacio. {SCRIPT}", False),
                    (9, gm_id, "Narrador", "SOLO MÁSTER: el puente cederá al tercer paso.", True),
                ):
                    session.add(
                        Post(
                            guild_id=guild_id,
                            campaign_id=campaign.id,
                            channel_id=thread_id,
                            scene_id=scene.id,
                            author_user_id=author,
                            speaker_name=speaker,
                            gm_post=author == gm_id,
                            gm_only=gm_only,
                            text=text,
                            created_at=T0 + timedelta(minutes=minutes),
                            # as /post records it (bot.services.shared.audience)
                            **(Secrecy.private(author) if gm_only else PUBLIC).columns(),
                        )
                    )
                await session.commit()
    finally:
        await engine.dispose()


def test_export_zip_and_import_into_another_server(bot_database_url: str, tmp_path: Path):
    sb = start_arbitro(bot_database_url, tmp_path)
    try:
        g = new_campaign(sb, "Origen", "nucleo", name="La Niebla")
        import_sheet(sb, g, ARDELIA)
        sb.command(
            "xp grant", {"amount": 3, "character": "Ardelia"}, guild=g, channel="mesa", user="gm"
        ).expect_ok()
        sb.command(
            "roll",
            {"expression": "1d20+2", "reason": "equilibrio"},
            guild=g,
            channel="mesa",
            user="ana",
        ).expect_ok()
        thread = g.thread("mesa", "El puente")
        asyncio.run(
            _write_scene(bot_database_url, g.id, thread.id, g.member("gm").id, g.member("ana").id)
        )

        refused = sb.command("campaign export", {}, guild=g, channel="mesa", user="ana")
        assert refused.ephemeral and says(refused, "campaign.error.not_referee")

        reply = sb.command("campaign export", {}, guild=g, channel="mesa", user="gm")
        assert reply.ok and reply.deferred
        ((name, payload),) = reply.attachments.items()
        assert name == "arbitro-la-niebla.zip"
        files = {
            n: zipfile.ZipFile(io.BytesIO(payload)).read(n)
            for n in zipfile.ZipFile(io.BytesIO(payload)).namelist()
        }
        manifest = json.loads(files["manifest.json"])
        assert manifest["campaign"]["name"] == "La Niebla"
        assert manifest["counts"]["scenes"] == 1 and manifest["counts"]["posts"] == 3
        assert manifest["counts"]["characters"] == 1
        page = files["scenes/001-el-puente.html"]
        found = assert_self_contained(page)
        assert SCRIPT in "".join(found.text) and b"<script>" not in page
        assert (
            b"SOLO M" not in page
            and "SOLO MÁSTER".encode() in files["gm/scenes/001-el-puente.html"]
        )
        assert json.loads(files["gm/characters/001-ardelia.json"])["sheet"]["name"] == "Ardelia"
        (award,) = csv.DictReader(io.StringIO(files["xp.csv"].decode()))
        assert (award["character_name"], award["amount"]) == ("Ardelia", "3")
        rolls = list(csv.DictReader(io.StringIO(files["rolls.csv"].decode())))
        assert any(r["reason"] == "equilibrio" for r in rolls), rolls

        # moving the campaign: another server, its own GM, one command with the zip
        h = sb.new_guild(name="Destino")
        bad = sb.command(
            "campaign import",
            {"file": ("roto.zip", b"nope")},
            guild=h,
            channel="mesa",
            user="gm",
        )
        assert says(bad, "chronicle.problem.not_zip")
        moved = sb.command(
            "campaign import", {"file": (name, payload)}, guild=h, channel="mesa", user="gm"
        )
        assert moved.ok and "La Niebla" in moved.all_text
        shown = sb.command("campaign show", {}, guild=h, channel="mesa", user="gm").expect_ok()
        assert "La Niebla" in shown.text
        log = sb.command(
            "xp log", {"character": "Ardelia"}, guild=h, channel="mesa", user="gm"
        ).expect_ok()
        assert "Ardelia" in log.all_text
        again = sb.command("campaign export", {}, guild=h, channel="mesa", user="gm")
        ((_, second),) = again.attachments.items()
        with zipfile.ZipFile(io.BytesIO(second)) as archive:
            assert archive.read("gm/posts.jsonl") == files["gm/posts.jsonl"]
            assert archive.read("scenes/001-el-puente.html") == page
    finally:
        sb.close()

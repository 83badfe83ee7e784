"""A chronicle bigger than the server's upload limit, end to end (issue 22 §3).

A campaign of about 14 MB of zip (twelve characters with 250 KiB avatars, sixty long posts)
is exported through the real bot in an unboosted server, whose messages the stand-in refuses
past 10 MiB as Discord does: it arrives as independent parts, each one message within the
limit, the first importable on its own.  In a server at boost level 2 (50 MiB) the same
campaign arrives as one zip.  The scenes and posts are written straight into the bot's
database (the /scene and /post commands write the same rows).
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import random
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.engine import create_engine
from bot.db.models import Campaign, Character, CharacterProfile, Post, Scene
from tests.bot.test_chronicle import png
from tests.e2e.helpers import start_arbitro
from tests.examples import ardelia

pytestmark = pytest.mark.e2e

MIB = 2**20
CHARACTERS = 12
POSTS = 60
T0 = datetime(2026, 11, 1, 18, 0, tzinfo=UTC)


async def _fill(url: str, guild_id: int, scene_ids: list[int], gm_id: int) -> None:
    """Avatars of 250 KiB for every character, four closed scenes, sixty long posts."""
    noise = random.Random(guild_id)
    engine = create_engine(url)
    try:
        async with engine.begin() as connection, AsyncSession(bind=connection) as session:
            campaign = (
                await session.exec(select(Campaign).where(Campaign.guild_id == guild_id))
            ).one()
            characters = (
                await session.exec(select(Character).where(Character.campaign_id == campaign.id))
            ).all()
            for number, character in enumerate(characters):
                avatar = png(290, 290, seed=guild_id % 1000 + number)
                assert len(avatar) <= 256 * 1024
                session.add(
                    CharacterProfile(
                        character_id=character.id,
                        guild_id=guild_id,
                        campaign_id=campaign.id,
                        avatar=avatar,
                        avatar_type="png",
                        avatar_hash=f"{number:064d}",
                    )
                )
            scenes = []
            for number, channel_id in enumerate(scene_ids):
                scene = Scene(
                    guild_id=guild_id,
                    campaign_id=campaign.id,
                    channel_id=channel_id,
                    title=f"Escena {number + 1}",
                    status="closed",
                    opened_by=gm_id,
                    created_at=T0,
                    closed_at=T0 + timedelta(days=1),
                    opening_text=f"Apertura {number + 1}",
                )
                session.add(scene)
                await session.flush()
                scenes.append(scene)
            for number in range(POSTS):
                character = characters[number % len(characters)]
                scene = scenes[number % len(scenes)]
                session.add(
                    Post(
                        guild_id=guild_id,
                        campaign_id=campaign.id,
                        channel_id=scene.channel_id,
                        scene_id=scene.id,
                        author_user_id=character.owner_user_id,
                        character_id=character.id,
                        speaker_name=character.name,
                        text=base64.b64encode(noise.randbytes(37_500)).decode(),
                        created_at=T0 + timedelta(minutes=number),
                    )
                )
            await session.commit()
    finally:
        await engine.dispose()


def test_a_chronicle_over_the_upload_limit_arrives_in_parts(bot_database_url: str, tmp_path: Path):
    sb = start_arbitro(bot_database_url, tmp_path)
    # exporting and importing 14 MB takes seconds on a loaded machine; a deferred reply may
    # take up to 15 minutes in Discord (the default wait suits quick commands)
    sb.timeout = max(sb.timeout, 120.0)
    try:
        g = sb.new_guild(name="Sin mejoras")
        sb.command(
            "campaign create",
            {"name": "Larga", "system": "nucleo"},
            guild=g,
            channel="mesa",
            user="gm",
        ).expect_ok()
        for number in range(CHARACTERS):
            sb.command(
                "sheet import",
                {"file": _sheet(f"Personaje {number}")},
                guild=g,
                channel="mesa",
                user="ana",
            ).expect_ok()
        threads = [g.thread("mesa", f"Escena {n + 1}") for n in range(4)]
        asyncio.run(_fill(bot_database_url, g.id, [t.id for t in threads], g.member("gm").id))
        reply = sb.command("campaign export", {}, guild=g, channel="mesa", user="gm")
        assert reply.ok and reply.rejections == [], reply.all_text
        parts = reply.attachments
        assert len(parts) >= 2, list(parts)
        assert all(len(payload) <= 10 * MIB for payload in parts.values())  # the stand-in agrees
        assert sum(len(payload) for payload in parts.values()) > 10 * MIB
        assert "parte 1" in reply.all_text.lower() or "partes" in reply.all_text
        first = next(name for name in parts if "parte-1-de" in name)
        with zipfile.ZipFile(io.BytesIO(parts[first])) as archive:
            manifest = json.loads(archive.read("manifest.json"))
        assert manifest["counts"]["posts"] == POSTS and manifest["part"]["number"] == 1
        # the first part alone moves the campaign
        h = sb.new_guild(name="Destino")
        moved = sb.command(
            "campaign import", {"file": (first, parts[first])}, guild=h, channel="mesa", user="gm"
        )
        assert moved.ok and "Campaña importada" in moved.all_text, moved.all_text

        # a server at boost level 2 takes 50 MiB: the same campaign in one zip
        b = sb.new_guild(name="Mejorado", boost=2)
        sb.command(
            "campaign create",
            {"name": "Larga", "system": "nucleo"},
            guild=b,
            channel="mesa",
            user="gm",
        ).expect_ok()
        for number in range(CHARACTERS):
            sb.command(
                "sheet import",
                {"file": _sheet(f"Personaje {number}")},
                guild=b,
                channel="mesa",
                user="ana",
            ).expect_ok()
        threads = [b.thread("mesa", f"Escena {n + 1}") for n in range(4)]
        asyncio.run(_fill(bot_database_url, b.id, [t.id for t in threads], b.member("gm").id))
        whole = sb.command("campaign export", {}, guild=b, channel="mesa", user="gm")
        assert whole.ok and len(whole.attachments) == 1, list(whole.attachments)
        (payload,) = whole.attachments.values()
        assert 10 * MIB < len(payload) <= 50 * MIB
    finally:
        sb.close()


def _sheet(name: str) -> bytes:
    from tests.e2e.helpers import sheet_file

    return sheet_file(ardelia(name=name))

"""The pinned header of a scene, refreshed by whatever changes its round (scenes, posts).

A helper module rather than part of the scenes extension so that the posting extension can
call it without one extension importing another (tests/bot/test_cog_layout.py).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.services.shared.context import Place
from bot.services.table.scenes import SceneView
from cogs.ui import render_scenes

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = ["refresh_header"]

log = logging.getLogger(__name__)


async def _scene_locale(bot: Arbitro, scene: SceneView) -> str:
    campaign = await bot.services.campaigns.find(
        Place(scene.guild_id, scene.channel_id, (scene.channel_id, scene.parent_id or 0))
    )
    return (campaign.locale if campaign else None) or bot.config.default_locale


async def refresh_header(bot: Arbitro, scene: SceneView | Place, locale: str | None = None) -> bool:
    """Edits the scene's pinned header to what :meth:`SceneService.header` reads now.

    For posting and pace: call it after a post or a change of round, with the scene or the
    place of the post (a thread's first post makes it a scene).  Returns ``False`` (and logs)
    when there is no scene or header, or Discord refuses; the scene itself is unaffected.
    """
    if isinstance(scene, Place):
        found = await bot.services.scenes.scene_for(scene)
        if found is None:
            return False
        scene = found
    if scene.header_message_id is None:
        return False
    locale = locale or await _scene_locale(bot, scene)
    view = await bot.services.scenes.header(scene)
    channel = bot.get_partial_messageable(scene.channel_id, guild_id=scene.guild_id)
    try:
        await channel.get_partial_message(scene.header_message_id).edit(
            **render_scenes.header(view, locale)
        )
    except discord.HTTPException:
        log.warning("could not refresh the header of scene %s", scene.id, exc_info=True)
        return False
    return True

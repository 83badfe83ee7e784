"""A recorded post drawn again in Discord after its text changed: the **Edit post** menu, and
a typed post following an edit of its kept original (issue 24).

Its messages are edited through the webhook that sent them, its rolls shown as the audience
rule lets the post's readers see them (:func:`bot.services.table.posting.rolls_seen`), and the
GM channel's copy of private notes follows.  When the new text needs another number of
messages, the record learns the new ones (compare-and-set on its version).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.services import Place
from bot.services.shared.errors import DomainError
from bot.services.table.posting import PostView, post_reader
from cogs.ui.render_post import post_parts
from cogs.ui.webhooks import Destination, destination_of, webhook_pool

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = ["destination", "redraw_post"]


async def destination(bot: Arbitro, guild_id: int, channel_id: int) -> Destination:
    """Where a post's messages are (a channel or a thread), from the cache or Discord."""
    guild = bot.get_guild(guild_id)
    channel: Any = guild.get_channel_or_thread(channel_id) if guild is not None else None
    if channel is None:
        channel = await bot.fetch_channel(channel_id)
    return destination_of(channel)


async def redraw_post(bot: Arbitro, guild_id: int, view: PostView) -> PostView:
    """Draw ``view`` (just edited) again in its messages; the record as it now stands."""
    posting = bot.services.posting
    hooks = webhook_pool(bot)
    campaign = await posting.campaign_of(view)
    locale = campaign.locale or bot.config.default_locale
    seen = await posting.rolls_seen(view, post_reader(view.secrecy, gm_only=view.gm_only))
    header = None
    if view.gm_only and view.origin_channel_id:
        link = f"https://discord.com/channels/{guild_id}/{view.origin_channel_id}"
        author = f"<@{view.author_user_id}>"
        header = t("post.gm_only_header", locale, author=author, link=link)
    parts = post_parts(
        view.text,
        locale,
        notes=view.notes if not view.notes_private else None,
        rolls=seen.shown,
        edited=True,
        header=header,
    )
    where = await destination(bot, guild_id, view.channel_id)
    try:
        kept = await hooks.edit(where, list(view.message_ids), parts, username=view.webhook_name)
    except discord.NotFound:
        # Discord ties a message to the webhook that sent it: once someone deleted that
        # webhook, its messages cannot be edited any more (deleting them still works)
        raise DomainError("post.error.edit_gone") from None
    if tuple(kept) != view.message_ids:
        place = Place.simple(guild_id, view.channel_id)
        view = await posting.set_messages(place, view.id, view.version, tuple(kept))
    if view.notes_private and view.gm_message_ids and campaign.gm_channel_id:
        gm = await destination(bot, guild_id, campaign.gm_channel_id)
        link = f"https://discord.com/channels/{guild_id}/{view.channel_id}/{kept[0]}"
        notes_header = t("post.private_notes_header", locale, name=view.speaker_name, link=link)
        await hooks.edit(
            gm,
            [view.gm_message_ids[0]],
            post_parts(view.notes or "—", locale, header=notes_header, edited=True)[:1],
            username=view.webhook_name,
        )
    return view

"""The GM-channel copy of a private roll of any kind (``/roll``, ``/check``, ``/save``,
``/spell cast``), and of the numbers a player may not see (an opposed check against a hidden
NPC).

One helper so every command keeps the promise its ``private`` option makes: the roll is
already in the log; the copy goes to the campaign's GM channel, in the campaign's language,
and its link is attached to the log entry.  If the copy cannot be posted the roller is told
in his own language (the roll itself is safe in the log).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from cogs.ui.context import ctx_of

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = ["send_gm_copy"]

log = logging.getLogger(__name__)


async def send_gm_copy(
    itx: discord.Interaction[Arbitro],
    *,
    log_id: int,
    user_name: str,
    render: Callable[[str], dict[str, Any]],
    headline_key: str = "roll.gm_copy",
) -> bool:
    """Post ``render(gm_locale)`` in the GM channel of the campaign played here, if it has one.

    Returns whether a copy was posted.  ``headline_key`` says what the copy is (a private
    roll, or the hidden side of an opposed check).  Call it after the roller's answer: a
    failure is reported as a follow-up.
    """
    ctx = await ctx_of(itx)
    bot = ctx.bot
    campaign = await ctx.services.campaigns.find(ctx.place)
    if campaign is None or not campaign.gm_channel_id:
        return False
    locale = campaign.locale or bot.config.default_locale
    message = render(locale)
    message["content"] = t(headline_key, locale, user=user_name, channel=f"<#{itx.channel_id}>")
    channel: discord.abc.GuildChannel | discord.abc.PrivateChannel | discord.Thread | None
    channel = itx.guild.get_channel(campaign.gm_channel_id) if itx.guild else None
    try:
        if channel is None:
            channel = await bot.fetch_channel(campaign.gm_channel_id)
        if not isinstance(channel, discord.abc.Messageable):  # a category or a forum
            raise AttributeError(f"channel {campaign.gm_channel_id} takes no messages")
        posted = await channel.send(**message)
    except (discord.HTTPException, AttributeError):
        log.warning("could not post the GM copy of log entry %s", log_id, exc_info=True)
        await itx.followup.send(ctx.t("roll.gm_copy_failed"), ephemeral=True)
        return False
    await ctx.services.rolls.attach_message(log_id, itx.guild_id or 0, posted.id, posted.jump_url)
    return True

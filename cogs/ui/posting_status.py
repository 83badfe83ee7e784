"""What ``/campaign show`` tells the GM about posting as characters here: the permissions the
bot lacks in this channel and, for typing mode (issue 24), whether the deployment reads
messages at all (``ARBITRO_MESSAGE_CONTENT``) and whether Discord refused that intent."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.i18n import t
from bot.services.campaigns.service import TYPED_POSTS, CampaignView

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = ["posting_notices", "typing_on"]


def typing_on(view: CampaignView) -> bool:
    """The campaign's setting «escribir_como_personaje»."""
    return any(s.key == TYPED_POSTS and s.value is True for s in view.settings)


def posting_notices(
    bot: Arbitro, view: CampaignView, permissions: discord.Permissions, locale: str
) -> list[str]:
    """One line per thing to fix, in the reader's language; none when all is well."""
    notices = []
    if not permissions.manage_webhooks:  # /post and typed posts speak through a webhook
        notices.append(t("post.missing_permission", locale))
    if bot.message_content_refused:  # the deployment asked and the portal said no
        notices.append(t("typing.status.refused", locale))
    elif typing_on(view) and not bot.reads_messages:
        notices.append(t("typing.status.not_enabled", locale))
    if typing_on(view) and not permissions.manage_messages:
        notices.append(t("typing.status.no_manage_messages", locale))
    return notices

"""What ``/proxy`` shows: a character's tags, and who posts what the member types here."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.i18n import t
from bot.services.sheets.proxy_tags import TagList
from cogs.ui.render import COLOUR

if TYPE_CHECKING:
    from bot.services.table.typing import TagsHere

__all__ = ["tag_list"]


def _shown(tag_text: str) -> str:
    return f"`{tag_text.replace('`', 'ˋ')}`"


def tag_list(tags: TagList, locale: str, *, here: TagsHere | None = None) -> discord.Embed:
    placeholder = t("typing.placeholder", locale)
    lines = [t("typing.name_tag", locale, tag=_shown(tags.name_tag.shown(placeholder)))]
    lines += [
        t("typing.added_tag", locale, tag=_shown(tag.shown(placeholder))) for tag in tags.tags
    ]
    if here is not None:
        if not here.typing_on:
            lines.append(t("typing.off_here", locale))
        elif here.in_scene:
            key = "typing.sticky" if here.sticky else "typing.no_sticky"
            lines.append(t(key, locale, name=here.sticky or ""))
    return discord.Embed(
        title=t("typing.tags_title", locale, name=tags.name)[:256],
        description="\n".join(lines),
        colour=COLOUR[None],
    )

"""What ``/proxy`` and ``/macro`` show: a character's tags, who posts what the member types
here, and the macros a character can use."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.services.sheets.macros import MacroBook, MacroView
from bot.services.sheets.proxy_tags import TagList
from cogs.ui.render import COLOUR, fit_lines

if TYPE_CHECKING:
    from bot.services.table.typing import TagsHere

__all__ = ["macro_book", "macro_saved", "tag_list"]


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


def _macro_line(macro: MacroView) -> str:
    body = macro.body.replace("`", "ˋ")
    return f"**{macro.name}** → `{body}`"


def macro_saved(macro: MacroView, replaced: bool, locale: str) -> dict[str, Any]:
    key = "macro.changed" if replaced else "macro.added"
    owner = macro.character or t("macro.campaign_owner", locale)
    return {
        "content": "\n".join([t(key, locale, name=macro.name, owner=owner), _macro_line(macro)])
    }


def macro_book(book: MacroBook, locale: str) -> discord.Embed:
    """A character's macros, then the campaign's, in the order ``[[…]]`` looks them up."""
    owner = book.character or t("macro.nobody", locale)
    embed = discord.Embed(title=t("macro.title", locale, owner=owner)[:256], colour=COLOUR[None])
    for title, macros in (
        (t("macro.own", locale, owner=owner), book.own),
        (t("macro.shared", locale), book.shared),
    ):
        lines = [_macro_line(m) for m in macros] or [t("macro.none", locale)]
        embed.add_field(name=title[:256], value=fit_lines(lines, locale, 1024), inline=False)
    embed.set_footer(text=t("macro.order", locale))
    return embed

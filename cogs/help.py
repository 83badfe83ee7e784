"""``/help`` (``/ayuda``): what the bot does, first steps, and every command's help.

The pages are generated from the live command tree (:mod:`cogs.ui.help_pages`), read when
the user asks, so commands loaded by any cog — including ones added after this one was
written — appear with no edit here.  Topics are chosen in a select menu; a long topic turns
pages with ◀ ▶ buttons.  Menus and buttons are ``DynamicItem``s keyed by topic and page, so
they keep working after a restart and need no state.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from cogs.ui.context import reply_locale
from cogs.ui.custom_ids import CustomId
from cogs.ui.help_pages import (
    CommandDoc,
    docs_of,
    find_topic,
    menu_description,
    topic_label,
    topic_page,
    topics,
)
from cogs.ui.keyed_button import KeyedItem
from cogs.ui.options import HelpTopicTransformer

if TYPE_CHECKING:
    from bot.app import Arbitro

MENU_SIZE = 25  # Discord's limit of options per select menu
_TOPIC = r"[^:]{1,79}"  # a guide id or an English command path (custom ids: 100 chars)


def help_message(docs: list[CommandDoc], topic: str, locale: str, page: int) -> dict[str, Any]:
    """The embed of one page of a topic, with the topic menus and the page buttons."""
    text, pages = topic_page(docs, topic, locale, page)
    page = max(0, min(page, pages - 1))
    embed = discord.Embed(
        title=t("help.title", locale, topic=topic_label(docs, topic, locale)),
        description=text,
        colour=discord.Colour.blurple(),
    )
    if pages > 1:
        embed.set_footer(text=t("help.page", locale, page=page + 1, pages=pages))
    view = discord.ui.View(timeout=None)
    every = topics(docs)
    chunks = [every[i : i + MENU_SIZE] for i in range(0, len(every), MENU_SIZE)][:4]
    for number, chunk in enumerate(chunks):
        view.add_item(TopicMenu(number, chunk, docs, locale, topic))
    if pages > 1:
        view.add_item(PageButton(topic, page - 1, "◀", disabled=page == 0))
        view.add_item(PageButton(topic, page + 1, "▶", disabled=page >= pages - 1))
    return {"embed": embed, "view": view}


MENU_ID = CustomId.of("help:menu", number=r"\d")
PAGE_ID = CustomId.of("help:page", page=r"\d{1,3}", topic=_TOPIC)


class TopicMenu(KeyedItem[discord.ui.Select[discord.ui.View]], template=MENU_ID.template):
    def __init__(
        self,
        number: int,
        chunk: list[str] | None = None,
        docs: list[CommandDoc] | None = None,
        locale: str = "es",
        current: str = "",
    ) -> None:
        options = [
            discord.SelectOption(
                label=topic_label(docs or [], topic, locale)[:100],
                value=topic,
                description=menu_description(docs or [], topic, locale),
                default=topic == current,
            )
            for topic in chunk or []
        ] or [discord.SelectOption(label="-", value="about")]
        super().__init__(
            discord.ui.Select(
                custom_id=MENU_ID.build(number),
                placeholder=t("help.menu", locale),
                options=options,
            )
        )

    @classmethod
    def from_match(cls, item: discord.ui.Select[discord.ui.View], match: re.Match[str]) -> Self:
        return cls(int(match["number"]))

    async def callback(self, itx: discord.Interaction[Arbitro]) -> None:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        values = self.item.values or ["about"]
        await _show(itx, str(values[0]), 0, edit=True)


class PageButton(KeyedItem[discord.ui.Button[discord.ui.View]], template=PAGE_ID.template):
    def __init__(self, topic: str, page: int, label: str = "▶", *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=PAGE_ID.build(max(page, 0), topic),
                disabled=disabled,
            )
        )
        self.topic, self.page = topic, max(page, 0)

    @classmethod
    def from_match(cls, item: discord.ui.Button[discord.ui.View], match: re.Match[str]) -> Self:
        return cls(match["topic"], int(match["page"]), item.label or "▶")

    async def callback(self, itx: discord.Interaction[Arbitro]) -> None:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        await _show(itx, self.topic, self.page, edit=True)


async def _show(itx: discord.Interaction[Arbitro], typed: str, page: int, *, edit: bool) -> None:
    locale = await reply_locale(itx.client, itx)
    docs = await docs_of(itx.client)
    topic = find_topic(docs, typed)
    if topic is None:
        embed = discord.Embed(
            description=t("help.error.unknown_topic", locale, topic=typed[:100]),
            colour=discord.Colour.red(),
        )
        message: dict[str, Any] = {
            "embed": embed,
            "view": help_message(docs, "about", locale, 0)["view"],
        }
    else:
        message = help_message(docs, topic, locale, page)
    if edit:
        await itx.response.edit_message(**message)
    else:
        await itx.response.send_message(**message, ephemeral=True)


class HelpCog(commands.Cog):
    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What Árbitro does, first steps, every command")
    @app_commands.describe(topic="A guide or a command, e.g. attack or sheet create")
    async def help(
        self,
        itx: discord.Interaction[Arbitro],
        topic: app_commands.Transform[str, HelpTopicTransformer(max_length=100)] | None = None,
    ) -> None:
        await _show(itx, topic or "about", 0, edit=False)


async def setup(bot: Arbitro) -> None:
    bot.add_dynamic_items(TopicMenu, PageButton)
    await bot.add_cog(HelpCog(bot))

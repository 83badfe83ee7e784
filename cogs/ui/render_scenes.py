"""Scene messages: the pinned header, the closing summary and ``/scene list``."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.services.table.scenes import ClosedView, HeaderView, SceneView
from cogs.ui.render import COLOUR, fit_lines, moment, name_list, truncate

__all__ = ["header", "summary", "scene_list", "opened"]

_OPEN, _CLOSED = discord.Colour.green(), discord.Colour.dark_grey()


def _stamp(when: Any) -> str:
    """A Discord timestamp (each reader sees it in their own time zone)."""
    return moment(when, "R")


def header(view: HeaderView, locale: str) -> dict[str, Any]:
    """The pinned header: scene, players and their characters, the round of posts."""
    scene = view.scene
    status = t(f"scene.status.{scene.status}", locale)
    embed = discord.Embed(
        title=truncate(t("scene.header_title", locale, title=scene.title), 256),
        colour=_OPEN if scene.is_open else _CLOSED,
    )
    players = [
        t("scene.player_line", locale, user=f"<@{p.user_id}>", character=p.character)
        if p.character
        else t("scene.player_no_character", locale, user=f"<@{p.user_id}>")
        for p in view.players
    ]
    embed.add_field(
        name=t("scene.field.players", locale)
        + ("" if scene.players else " " + t("scene.whole_party", locale)),
        value=fit_lines(players, locale, 1000) or t("scene.no_players", locale),
        inline=False,
    )
    since = (
        t("scene.round_since", locale, when=_stamp(view.round_since))
        if view.round_since
        else t("scene.round_since_opening", locale)
    )
    posted = name_list(view.posted, locale, 400) if view.posted else t("common.none", locale)
    pending = name_list(view.pending, locale, 400) if view.pending else t("common.none", locale)
    embed.add_field(
        name=t("scene.field.round", locale),
        value=truncate(
            "\n".join(
                (
                    since,
                    t("scene.round_posted", locale, names=posted),
                    t("scene.round_pending", locale, names=pending),
                )
            ),
            1024,
        ),
        inline=False,
    )
    embed.add_field(name=t("scene.field.status", locale), value=status)
    if scene.private:
        embed.add_field(name=t("scene.field.private", locale), value=t("scene.private_yes", locale))
    embed.set_footer(text=t("scene.footer", locale, id=scene.id))
    return {"embed": embed}


def summary(view: ClosedView, locale: str) -> dict[str, Any]:
    """The closing summary posted in the scene before it is locked."""
    lines = [
        t(
            "scene.summary_line",
            locale,
            name=truncate(line.name, 100),
            posts=line.posts,
            rolls=line.rolls,
            xp=f"{line.xp:+d}",
        )
        for line in view.lines
    ]
    embed = discord.Embed(
        title=truncate(t("scene.summary_title", locale, title=view.scene.title), 256),
        description=fit_lines(lines, locale, 3500) or t("scene.summary_empty", locale),
        colour=COLOUR[None],
    )
    embed.add_field(
        name=t("scene.field.totals", locale),
        value=t("scene.totals", locale, posts=view.posts, rolls=view.rolls, xp=f"{view.xp:+d}"),
        inline=False,
    )
    return {"embed": embed}


def scene_list(scenes: tuple[SceneView, ...], total: int, locale: str) -> dict[str, Any]:
    """Open scenes first, then closed ones, each with a link; summarised past the limit."""
    lines = []
    for scene in scenes:
        key = "scene.list_open" if scene.is_open else "scene.list_closed"
        if scene.channel_id < 0:  # imported, its thread elsewhere (or never in Discord)
            key = "scene.list_archived"
        lines.append(
            t(key, locale, title=truncate(scene.title, 100), link=f"<#{scene.channel_id}>")
            + (" 🔒" if scene.private else "")
        )
    shown = fit_lines(lines, locale, 3800)
    if total > len(scenes):
        shown += "\n" + t("scene.list_older", locale, count=total - len(scenes))
    opened = sum(scene.is_open for scene in scenes)
    embed = discord.Embed(
        title=t("scene.list_title", locale, open=opened, total=total),
        description=shown or t("scene.list_empty", locale),
        colour=COLOUR[None],
    )
    return {"embed": embed}


def opened(scene: SceneView, locale: str, notes: list[str]) -> str:
    """The GM's private confirmation, with anything the bot could not do (a missing tag…)."""
    return "\n".join([t("scene.opened", locale, link=f"<#{scene.channel_id}>"), *notes])

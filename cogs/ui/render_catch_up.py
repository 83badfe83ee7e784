"""``/catch-up`` and what the GM's digest shares with it: who owes what, since when.

Names as the service gives them (characters, scenes), members as mentions that ping nobody
(``allowed_mentions`` none: Discord shows each reader the member's display name), moments as
Discord timestamps.  Everything here was already filtered for its reader by the service.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.services.table.catch_up import CatchUpView, PostLine, RollLine, SceneCatchUp
from bot.services.table.pacing import Owed
from cogs.ui.render import COLOUR, fit_lines, moment, truncate

__all__ = ["back_nonce", "catch_up", "owed_line"]

#: Scenes shown as fields (each up to :data:`_FIELD` characters): the embed stays within
#: Discord's 6,000 characters; the rest are counted in the description.
MAX_SCENE_FIELDS = 5
_FIELD = 600


def _link(guild_id: int, channel_id: int, message_id: int | None = None) -> str:
    tail = f"/{message_id}" if message_id else ""
    return f"https://discord.com/channels/{guild_id}/{channel_id}{tail}"


def owed_line(debt: Owed, guild_id: int, locale: str, *, member: bool = False) -> str:
    """One debt: what, with which character, where (a link) and since when; ``member``
    names who owes it (the GM's digest)."""
    text = t(
        f"pace.owed.{debt.kind}",
        locale,
        character=debt.character,
        where=debt.where,
        link=_link(guild_id, debt.channel_id),
        when=moment(debt.since, "R"),
        until=moment(debt.until, "R") if debt.until is not None else "—",
    )
    if debt.npcized:
        text += f" · {t('pace.npcized', locale)}"
    return f"<@{debt.user_id}> · {text}" if member else text


def _post(line: PostLine, guild_id: int, locale: str) -> str:
    return t(
        "pace.catch_up.post",
        locale,
        speaker=line.speaker,
        when=moment(line.created_at, "R"),
        excerpt=line.excerpt,
        link=_link(guild_id, line.channel_id, line.message_id),
    )


def _scene_field(scene: SceneCatchUp, guild_id: int, locale: str) -> tuple[str, str]:
    if not scene.scene_id:  # a private thread: posts addressed to the member (whispers)
        name = t("pace.catch_up.whisper", locale, count=scene.unanswered)
        opening = "pace.catch_up.open_thread"
    else:
        name = t("pace.catch_up.scene", locale, title=scene.title, count=scene.unanswered)
        opening = "pace.catch_up.open_scene"
    lines = [_post(line, guild_id, locale) for line in scene.posts]
    if scene.unanswered > len(scene.posts):
        earlier = scene.unanswered - len(scene.posts)
        lines.insert(0, t("pace.catch_up.earlier", locale, count=earlier))
    lines.append(t(opening, locale, link=_link(guild_id, scene.channel_id)))
    return truncate(name, 256), fit_lines(lines, locale, _FIELD)


def _roll(line: RollLine, locale: str) -> str:
    who = f"**{line.character}**"
    if line.character != line.about:
        who = t("pace.catch_up.on", locale, who=line.character, about=line.about)
    total = f"**{line.total}**" if line.total is not None else "**?**"
    parts = [who, total]
    if line.expression:  # blank where the audience rule seals the numbers
        parts.append(f"`{truncate(line.expression, 40)}`")
    if line.outcome:
        parts.append(t(f"roll.outcome.{line.outcome}", locale))  # any stored outcome
    if line.reason:
        parts.append(f"— {truncate(line.reason, 60)}")
    parts.append(moment(line.created_at, "R"))
    if line.url:
        parts.append(t("history.jump", locale, url=line.url))
    return " ".join(parts)


def catch_up(view: CatchUpView, locale: str, *, returning: bool = False) -> dict[str, Any]:
    """The member's catch-up (privately: an ephemeral reply, or a direct message on return)."""
    title = "pace.catch_up.title_back" if returning else "pace.catch_up.title"
    head = [t("pace.catch_up.since", locale, when=moment(view.since, "f"))]
    if view.owed:
        head.append(t("pace.catch_up.owed", locale))
        head.extend(f"- {owed_line(d, view.guild_id, locale)}" for d in view.owed)
    else:
        head.append(t("pace.catch_up.owe_nothing", locale))
    fields = (*view.scenes, *view.whispers)[:MAX_SCENE_FIELDS]  # the whispers after
    hidden = (*view.scenes, *view.whispers)[MAX_SCENE_FIELDS:]
    if hidden:
        head.append(t("pace.catch_up.more_scenes", locale, count=len(hidden)))
    if not view.scenes and not view.whispers:
        head.append(t("pace.catch_up.no_posts", locale))
    embed = discord.Embed(
        title=truncate(t(title, locale, campaign=view.campaign_name), 256),
        description=fit_lines(head, locale, 1500),
        colour=COLOUR[None],
    )
    for scene in fields:
        name, value = _scene_field(scene, view.guild_id, locale)
        embed.add_field(name=name, value=value, inline=False)
    if view.rolls:
        embed.add_field(
            name=t("pace.catch_up.rolls", locale),
            value=fit_lines([_roll(r, locale) for r in view.rolls], locale, 900),
            inline=False,
        )
    return {"embed": embed, "allowed_mentions": discord.AllowedMentions.none()}


def back_nonce(ref: str) -> str:
    """The return's DM nonce (one per absence: a repeated firing returns the first message)."""
    return f"b{ref}"[:25]

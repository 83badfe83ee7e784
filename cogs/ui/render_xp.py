"""Experience as Discord messages: awards, the campaign's award log, a purchase (rolweb)."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.services.shared.audience import Shown
from bot.services.sheets.xp import AwardEntry, GrantLine, GrantView
from cogs.ui.render import COLOUR, fit_lines, moment, truncate
from rules.names import display


def _level(line: GrantLine, track: str, before: int, after: int, locale: str) -> str:
    """«↳ Clérigo: nivel 1 → 2» (a track is a class id in S&W)."""
    name = display(line.system or None, "clase", track, locale)
    return t("xp.level", locale, track=name, before=before, after=after)


def grant(shown: Shown[GrantView], locale: str) -> dict[str, Any]:
    """The awards its reader may see (:func:`bot.services.sheets.xp.grant_for`)."""
    view = shown.value
    lines = []
    for line in view.lines:
        text = t(
            "xp.line", locale, name=line.character_name, before=line.xp_before, after=line.xp_after
        )
        if line.session_bonus:
            text += "\n" + t(
                "xp.session_bonus",
                locale,
                source=line.bonus_source or "",
                bonus=f"{line.session_bonus:+d}",
            )
        for track, before, after in line.levels:
            text += "\n" + _level(line, track, before, after, locale)
        for note in line.notes:
            text += "\n" + t("xp.note", locale, note=t(note, locale))
        lines.append(text)
    title = t("xp.granted" if view.amount > 0 else "xp.removed", locale, amount=abs(view.amount))
    if view.session:
        title = t("xp.session_title", locale, title=title)
    embed = discord.Embed(
        title=title, description=truncate("\n\n".join(lines), 4000), colour=COLOUR["success"]
    )
    if view.reason:
        embed.add_field(
            name=t("roll.reason", locale), value=truncate(view.reason, 1024), inline=False
        )
    return {"embed": embed}


def log(shown: tuple[Shown[AwardEntry], ...], locale: str) -> dict[str, Any]:
    entries = [entry.value for entry in shown]
    if not entries:
        return {"content": t("xp.log_empty", locale), "ephemeral": True}
    lines = [
        t(
            "xp.log_line",
            locale,
            name=entry.character_name,
            amount=f"{entry.amount:+d}",
            after=entry.xp_after,
            reason=f" — {truncate(entry.reason, 80)}" if entry.reason else "",
            when=moment(entry.created_at, "d"),
        )
        for entry in entries
    ]
    embed = discord.Embed(
        title=t("xp.log_title", locale),
        description=fit_lines(lines, locale),
        colour=COLOUR[None],
    )
    return {"embed": embed, "ephemeral": True}


def spend(shown: Shown[GrantLine], what: str, locale: str) -> dict[str, Any]:
    line = shown.value
    text = t(
        "xp.line", locale, name=line.character_name, before=line.xp_before, after=line.xp_after
    )
    for track, before, after in line.levels:
        text += "\n" + _level(line, track, before, after, locale)
    name = what.split(":", 1)[-1]  # the name, not its key («habilidad:Sigilo»)
    embed = discord.Embed(
        title=t("xp.spent", locale, what=name), description=text, colour=COLOUR["success"]
    )
    return {"embed": embed}

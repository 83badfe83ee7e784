"""Replies of ``/ability``: a use (roll, action, effect, heal and state) and the list."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.services.play.abilities import AbilityLine, AbilityUseView
from cogs.ui.render import COLOUR, truncate, turn_warnings
from rules.names import display, display_state

__all__ = ["listing", "used"]


def used(view: AbilityUseView, locale: str) -> dict[str, Any]:
    lines = [
        t(
            "ability.used",
            locale,
            user=view.user,
            ability=view.ability,
            level=display(view.system, "nivel", view.level, locale),  # «adept» in English
            target=view.target,
        ),
        t("ability.action", locale, action=t(f"ability.actions.{view.action}", locale)),
        truncate(view.effect, 1000),
    ]
    if view.roll:
        lines.append(f"`{view.roll}`")
    if view.healed is not None:
        unit = t(f"{view.system}.health_unit", locale)
        lines.append(t("ability.healed", locale, target=view.target, amount=view.healed, unit=unit))
        lines.append(
            t(
                "combat.state",
                locale,
                state=display_state(view.system, view.state or "?", locale, view.gender),
            )
        )
    lines += [t(note, locale) for note in view.notes]
    embed = discord.Embed(description="\n".join(lines), colour=COLOUR["success"])
    if view.turn_warnings:
        return {"embed": embed, "content": turn_warnings(view.turn_warnings, locale)}
    return {"embed": embed}


def listing(name: str, lines: tuple[AbilityLine, ...], locale: str) -> dict[str, Any]:
    if not lines:
        return {"content": t("ability.none", locale, name=name), "ephemeral": True}
    embed = discord.Embed(title=t("ability.list_title", locale, name=name), colour=COLOUR[None])
    for line in lines[:25]:
        embed.add_field(
            name=f"{line.name} — {display(line.system, 'nivel', line.level, locale)} "
            f"({t(f'ability.actions.{line.action}', locale)})",
            value=truncate(f"{line.description}\n↳ {line.effect}", 1024),
            inline=False,
        )
    return {"embed": embed, "ephemeral": True}

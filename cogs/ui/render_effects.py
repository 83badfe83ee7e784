"""Effect view-models → Discord messages (``/effect``, ``/init effect``)."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.services.play.effects import EffectView
from cogs.ui.render import COLOUR, truncate
from rules.combat.effects import KEYS, Effect

__all__ = ["effect_reply", "rounds_text", "modifiers_text"]


def rounds_text(rounds: int | None, locale: str) -> str:
    if rounds is None:
        return t("effects.until_removed", locale)
    return t("effects.rounds_left", locale, count=rounds)


def modifiers_text(effect: Effect, locale: str) -> str:
    """``Percepción −2, defensa +4, daño +1d6``: an attribute or a ``/check`` option by its
    name, a fixed key (``defence``, ``to_hit``…) by its word in the reader's language (was:
    the internal key, «defence +4» in Spanish)."""
    parts = []
    for mod in effect.modifiers:
        fixed = mod.key in KEYS
        what = t(f"effects.key.{mod.key}", locale) if fixed else mod.key.split(":")[-1]
        parts.append(f"{what} +{mod.dice}" if mod.dice else f"{what} {mod.value:+d}")
    return ", ".join(parts)


def effect_reply(view: EffectView, locale: str) -> dict[str, Any]:
    """What was added or removed, what the character has now, and the log reference."""
    effect = view.effect
    if view.removed:
        lines = [t("effects.removed", locale, name=view.character_name, effect=effect.name)]
    else:
        lines = [
            t(
                "effects.added",
                locale,
                name=view.character_name,
                effect=effect.name,
                rounds=rounds_text(effect.rounds, locale),
            )
        ]
        if effect.modifiers:
            lines.append(t("effects.modifiers", locale, modifiers=modifiers_text(effect, locale)))
    listed = ", ".join(f"{e.name} ({rounds_text(e.rounds, locale)})" for e in view.effects)
    lines.append(
        t(
            "effects.list",
            locale,
            name=view.character_name,
            effects=listed or t("effects.none", locale),
        )
    )
    embed = discord.Embed(description=truncate("\n".join(lines), 4000), colour=COLOUR[None])
    if view.log_id:
        embed.set_footer(text=t("roll.log_ref", locale, id=view.log_id))
    return {"embed": embed}

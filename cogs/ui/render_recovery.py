"""Replies of ``/rest days``, ``/rest breath`` and ``/heal`` (issue 23 §3): each character's
recovery in the system's unit, its state after, and what else a new day brought back."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.services.play.recovery import RecoveredLine, RecoveryView
from bot.services.shared.audience import Shown
from cogs.ui.render import COLOUR, truncate
from cogs.ui.render_combat import state_name

__all__ = ["recovered"]


def _line(view: RecoveryView, line: RecoveredLine, locale: str) -> str:
    unit = t(f"{view.system}.health_unit", locale)
    key = "rest.healed" if line.healed else "rest.not_healed"
    parts = [t(key, locale, name=line.name, amount=line.healed, unit=unit)]
    if line.roll:
        parts.append(f"`{line.roll}`")
    label = state_name(view.system, line.label or line.state, locale, line.gender)
    if line.hit_points is not None:
        left, maximum = line.hit_points
        parts.append(t("combat.state_left", locale, state=label, left=left, maximum=maximum))
    else:
        parts.append(t("combat.state", locale, state=label))
    parts += [t(key, locale) for key in line.restored]
    parts += [t(note, locale, genero=line.gender) for note in line.notes]
    return "\n".join(parts)


def recovered(shown: Shown[RecoveryView], locale: str) -> dict[str, Any]:
    """The reply (to its reader: a hidden NPC's recovery reaches the GM alone)."""
    view = shown.value
    if view.kind == "rest":
        title = t("rest.days_title", locale, days=view.days)
    else:
        title = t(f"rest.{view.kind}_title", locale)
    body = "\n\n".join(_line(view, line, locale) for line in view.lines)
    embed = discord.Embed(
        title=truncate(title, 256), description=truncate(body, 4000), colour=COLOUR["success"]
    )
    return {"embed": embed}

"""Combat view-models → Discord messages: the turn panel, its buttons, health reports.

The panel is what a play-by-post group reads hours later: whose turn (with a mention of the
player), the round, and the whole order.  Its buttons carry only the fight's id and version
(``arb:1:init-next:<id>:<version>``) and are added by :mod:`cogs.combat`.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.services.combat import CombatantLine, CombatView, HealthView, Reminder
from cogs.ui.render import COLOUR, truncate

__all__ = ["panel", "health", "line_text", "reminder", "turn_ping"]

SIDE_KEYS = {"jugadores": "combat.side_jugadores", "enemigos": "combat.side_enemigos"}


def line_text(line: CombatantLine, view: CombatView, locale: str) -> str:
    marker = "▶" if line.current else "•"
    name = f"**{line.name}**" if line.current else line.name
    if line.count > 1:
        name += f" ×{line.count}"
    parts = [f"{marker} {name}"]
    if line.initiative is None:
        parts.append(t("combat.no_initiative", locale))
    elif view.by_side:
        parts.append(t(SIDE_KEYS[line.side], locale))
    else:
        parts.append(f"({line.initiative})")
    if line.actions > 1:
        parts.append(t("combat.actions", locale, count=line.actions))
    if line.waited_after:
        parts.append(t("combat.waits_after", locale, name=line.waited_after))
    if line.skips_this_round:
        parts.append(t("combat.skips_round", locale))
    return " ".join(parts)


def _announcement(view: CombatView, locale: str) -> str:
    turn, current = view.turn, view.current
    if turn is None or current is None:
        return ""
    lines = []
    if turn.new_round:
        lines.append(t("combat.new_round", locale, round=turn.round))
        if turn.side_rolls:
            rolls = dict(turn.side_rolls)
            lines.append(
                t(
                    "combat.side_rolls",
                    locale,
                    jugadores=rolls.get("jugadores", "?"),
                    enemigos=rolls.get("enemigos", "?"),
                )
            )
    for skipped in turn.skipped:
        lines.append(t("combat.skipped", locale, name=skipped.name))
    who = f"<@{current.owner_id}> " if current.owner_id else ""
    key = "combat.turn_actions" if turn.actions > 1 else "combat.turn"
    lines.append(who + t(key, locale, name=current.name, count=turn.actions))
    return "\n".join(lines)


def panel(view: CombatView, locale: str, *, note: str = "") -> dict[str, Any]:
    """The order with the turn marker; mentions the player whose turn just began."""
    if view.round:
        title = t("combat.title_round", locale, round=view.round)
    else:
        title = t("combat.title_setup", locale)
    if not view.active:
        title = t("combat.title_ended", locale)
    body = [line_text(line, view, locale) for line in view.lines] or [t("combat.empty", locale)]
    if view.by_side and view.side_rolls:
        rolls = dict(view.side_rolls)
        body.append(
            "\n"
            + t(
                "combat.side_rolls",
                locale,
                jugadores=rolls.get("jugadores", "?"),
                enemigos=rolls.get("enemigos", "?"),
            )
        )
    for name, breakdown in view.rolled:
        body.append(t("combat.rolled", locale, name=name, breakdown=breakdown))
    embed = discord.Embed(
        title=title, description=truncate("\n".join(body), 4000), colour=COLOUR[None]
    )
    embed.set_footer(text=t("combat.footer", locale, version=view.version))
    content = "\n".join(part for part in (note, _announcement(view, locale)) if part)
    return {
        "content": truncate(content, 2000) or None,
        "embed": embed,
        "allowed_mentions": turn_ping(view),
    }


def turn_ping(view: CombatView) -> discord.AllowedMentions:
    """Only the player whose turn just began is pinged; any other ``<@…>`` in the message
    (a combatant's name, a note) is text.  Nobody when no player's turn began."""
    current = view.current if view.turn is not None else None
    if current is None or not current.owner_id:
        return discord.AllowedMentions.none()
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(id=current.owner_id)]
    )


def health(view: HealthView, locale: str) -> dict[str, Any]:
    key = "combat.healed" if view.healed else "combat.damaged"
    lines = [t(key, locale, name=view.name, amount=view.amount)]
    lines.append(t("combat.state", locale, state=view.state))
    lines += [t(note, locale) for note in view.notes]
    colour = COLOUR["success"] if view.healed else COLOUR["fumble"]
    return {"embed": discord.Embed(description="\n".join(lines), colour=colour)}


def reminder(due: Reminder, locale: str) -> dict[str, Any]:
    """The play-by-post nudge: pings the one member whose turn waits (the player, or the GM
    for an NPC), and nobody a combatant's name may mention."""
    content = t(
        "combat.reminder",
        locale,
        mention=f"<@{due.mention_id}>",
        name=due.name,
        round=due.round,
        hours=due.hours,
    )
    allowed = discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(id=due.mention_id)]
    )
    return {"content": truncate(content, 2000), "allowed_mentions": allowed}

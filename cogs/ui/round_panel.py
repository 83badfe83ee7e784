"""The buttons of a round of declarations' summary (issue 25 §1): for each action whose
target fell before it acted, **↪️ Redirigir** (the GM only) opens a menu of the combatants
still standing; the choice applies the action with the dice its player declared.

The button is restart-proof (a :class:`KeyedButton`: the fight and the declaration's number);
the menu it opens lives for a few minutes in this process, like any confirmation.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.services.play.round_views import RoundSummary
from bot.services.shared.audience import Reader, show
from cogs.ui import render_attack, render_rounds
from cogs.ui.context import ctx_of
from cogs.ui.errors import describe_error, send_error
from cogs.ui.keyed_button import KeyedButton
from cogs.ui.pain_panel import pain_prompt

if TYPE_CHECKING:
    from bot.app import Arbitro
    from bot.services.play.combat_views import CombatView

log = logging.getLogger(__name__)

__all__ = ["RedirectButton", "round_messages", "rounds_of"]

MAX_BUTTONS = 25  # Discord's limit of components in one message
MENU_SECONDS = 300.0
STRIP_ON = ("declare.error.redirect_gone",)


def round_messages(closed: RoundSummary | None, opened: Any, locale: str) -> list[dict[str, Any]]:
    """:func:`render_rounds.round_messages` with the summary's redirect buttons."""
    messages = render_rounds.round_messages(closed, opened, locale)
    if closed is None or not messages:
        return messages
    waiting = closed.waiting
    if waiting is not None:  # paused for a player's choice: its buttons, in the scene
        asked = show(waiting.secrecy, Reader.everyone(), lambda _s: waiting)
        if asked is not None:
            messages.append(pain_prompt(asked, locale))
    fallen = [line for line in closed.lines if line.kind == "target_fell" and line.ref]
    if fallen:
        components = discord.ui.View(timeout=None)
        for line in fallen[:MAX_BUTTONS]:
            label = t("declare.redirect_button", locale, name=line.name)[:80]
            components.add_item(RedirectButton(closed.fight_id, line.ref, label=label))
        messages[0]["view"] = components
    return messages


def rounds_of(view: CombatView, locale: str) -> list[dict[str, Any]]:
    """The round messages of a ``/init`` use case (see :func:`render_rounds.rounds_of`)."""
    if view.summary is not None:
        return round_messages(view.summary, view.summary.next, locale)
    return round_messages(None, view.header, locale)


class RedirectButton(KeyedButton, kind="redirect", style=discord.ButtonStyle.secondary):
    """The GM redirects a declared action whose target fell (module docstring)."""

    combat_id: int
    ref: int

    async def callback(self, itx: discord.Interaction[Arbitro]) -> None:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        ctx = await ctx_of(itx)
        rounds = ctx.services.rounds
        try:
            name, targets = await rounds.redirect_targets(
                ctx.place, ctx.actor, self.combat_id, self.ref
            )
        except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
            await self.refuse(itx, error, strip_on=STRIP_ON)
            return
        if not targets:
            await itx.response.send_message(
                t("declare.redirect_nobody", ctx.locale), ephemeral=True
            )
            return
        menu = _Menu(self.combat_id, self.ref, targets, ctx.locale)
        text = t("declare.redirect_question", ctx.locale, name=name)
        await itx.response.send_message(text, view=menu, ephemeral=True)


class _Menu(discord.ui.View):
    """The combatants still standing; the GM's choice applies the action."""

    def __init__(self, combat_id: int, ref: int, targets: tuple[str, ...], locale: str) -> None:
        super().__init__(timeout=MENU_SECONDS)
        self.combat_id, self.ref, self.locale = combat_id, ref, locale
        select: discord.ui.Select[_Menu] = discord.ui.Select(
            placeholder=t("declare.redirect_placeholder", locale),
            options=[discord.SelectOption(label=name[:100], value=name[:100]) for name in targets],
        )
        select.callback = self._chosen  # type: ignore[method-assign,assignment]  # discord.py: any Client
        self.add_item(select)
        self.select = select

    async def _chosen(self, itx: discord.Interaction[Arbitro]) -> None:
        ctx = await ctx_of(itx)
        target = self.select.values[0]
        try:
            view = await ctx.services.rounds.redirect(
                ctx.place, ctx.actor, self.combat_id, self.ref, target
            )
        except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
            text = describe_error(error, self.locale)
            if text is None:
                log.exception("redirect error", exc_info=error)
                text = t("errors.unexpected", self.locale, reference="redirect")
            await send_error(itx, text)
            return
        await itx.response.edit_message(view=None)
        message = render_attack.attack(view, self.locale)
        await itx.followup.send(**message)

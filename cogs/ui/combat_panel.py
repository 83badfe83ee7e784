"""The turn panel of ``/init``: its message and its buttons.

The buttons are ``DynamicItem``s keyed ``arb:1:init-<action>:<combat>:<version>``: they work
after a restart, every click reloads the fight, and a click on an older panel (or an ended
fight) is answered and its buttons removed instead of being applied.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, Self

import discord

from bot.i18n import t
from bot.services.checks import CheckOrder
from bot.services.combat import CombatView
from bot.services.errors import DomainError
from cogs.ui import render_combat, render_sheet
from cogs.ui.context import ctx_of
from cogs.ui.errors import describe_error, send_error

if TYPE_CHECKING:
    from bot.app import Arbitro

log = logging.getLogger(__name__)

__all__ = ["DeathTestButton", "InitButton", "turn_message", "STRIP_ON"]


# The buttons of a stale or finished panel are removed with this error: retrying is useless.
STRIP_ON = ("combat.error.stale", "combat.error.gone", "combat.error.none")


def turn_message(view: CombatView, locale: str, *, note: str = "") -> dict[str, Any]:
    """The panel with its live buttons (none once the fight ended)."""
    message = render_combat.panel(view, locale, note=note)
    if view.active:
        components = discord.ui.View(timeout=None)
        components.add_item(
            InitButton("next", view.id, view.version, t("combat.next_button", locale), True)
        )
        components.add_item(
            InitButton("show", view.id, view.version, t("combat.show_button", locale))
        )
        current = view.current
        if current is not None and current.turn_test and current.character_id is not None:
            label = t("combat.death_button", locale)
            components.add_item(DeathTestButton(view.id, current.character_id, label))
        message["view"] = components
    return message


class InitButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"arb:1:init-(?P<action>next|show):(?P<combat>\d+):(?P<version>\d+)",
):
    def __init__(
        self, action: str, combat_id: int, version: int, label: str = "", primary: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or action,
                style=discord.ButtonStyle.primary if primary else discord.ButtonStyle.secondary,
                custom_id=f"arb:1:init-{action}:{combat_id}:{version}",
            )
        )
        self.action, self.combat_id, self.version = action, combat_id, version

    @classmethod
    async def from_custom_id(
        cls,
        itx: discord.Interaction[Arbitro],  # type: ignore[override]  # discord.py: any Client
        item: discord.ui.Button[discord.ui.View],  # type: ignore[override]  # what we matched
        match: re.Match[str],
    ) -> Self:
        return cls(
            match["action"],
            int(match["combat"]),
            int(match["version"]),
            item.label or "",
            item.style == discord.ButtonStyle.primary,
        )

    async def callback(self, itx: discord.Interaction[Arbitro]) -> None:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        ctx = await ctx_of(itx)
        locale = ctx.locale
        service = ctx.services.combat
        try:
            if self.action == "show":
                view = await service.show(ctx.place, ctx.actor)
                message = render_combat.panel(view, locale)
                await itx.response.send_message(**message, ephemeral=True)
                return
            view = await service.next(ctx.place, ctx.actor, seen=(self.combat_id, self.version))
        except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
            await self._refuse(itx, error, locale)
            return
        # the old panel keeps its text but loses its buttons; the new turn is a new message,
        # so the mention notifies the player and the channel keeps the fight's history
        await itx.response.edit_message(view=None)
        await itx.followup.send(**turn_message(view, locale))

    async def _refuse(
        self, itx: discord.Interaction[Arbitro], error: Exception, locale: str
    ) -> None:
        text = describe_error(error, locale)
        if text is None:
            log.exception("combat button error", exc_info=error)
            text = t("errors.unexpected", locale, reference="init")
        if isinstance(error, DomainError) and error.key in STRIP_ON:
            await itx.response.edit_message(view=None)
            await itx.followup.send(text, ephemeral=True)
            return
        await send_error(itx, text)


class DeathTestButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"arb:1:init-death:(?P<combat>\d+):(?P<character>\d+)",
):
    """The turn of a dying character (rolweb's moribundo) is its death test: this button rolls
    it for that character — its player or the GM only — through ``/check``'s use case, so
    the result (stabilised, still dying, dead) is applied to the sheet in the same versioned
    write as its audit row.  Persistent: it works after a restart, and a second press is
    refused once the character is no longer dying."""

    def __init__(self, combat_id: int, character_id: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or "muerte",
                style=discord.ButtonStyle.danger,
                custom_id=f"arb:1:init-death:{combat_id}:{character_id}",
            )
        )
        self.combat_id, self.character_id = combat_id, character_id

    @classmethod
    async def from_custom_id(
        cls,
        itx: discord.Interaction[Arbitro],  # type: ignore[override]  # discord.py: any Client
        item: discord.ui.Button[discord.ui.View],  # type: ignore[override]  # what we matched
        match: re.Match[str],
    ) -> Self:
        return cls(int(match["combat"]), int(match["character"]), item.label or "")

    async def callback(self, itx: discord.Interaction[Arbitro]) -> None:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        ctx = await ctx_of(itx)
        services = ctx.services
        try:
            name, option = await services.combat.death_test_target(
                ctx.place, ctx.actor, self.character_id
            )
            view = await services.checks.check(ctx.place, ctx.actor, CheckOrder(option, name))
        except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
            text = describe_error(error, ctx.locale)
            if text is None:
                log.exception("death test button error", exc_info=error)
                text = t("errors.unexpected", ctx.locale, reference="init-death")
            await send_error(itx, text)
            return
        await itx.response.send_message(**render_sheet.check(view, ctx.locale))

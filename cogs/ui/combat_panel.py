"""The turn panel of ``/init``: its message and its buttons.

The buttons are ``DynamicItem``s keyed ``arb:1:init-<action>:<combat>:<version>``: they work
after a restart, every click reloads the fight, and a click on an older panel (or an ended
fight) is answered and its buttons removed instead of being applied.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.services.play.checks import CheckOrder
from bot.services.play.combat_views import CombatView, combat_for
from bot.services.shared.audience import Reader
from cogs.ui import render_combat, render_sheet, round_panel
from cogs.ui.audience import answer, reader_of, send
from cogs.ui.context import ctx_of
from cogs.ui.keyed_button import KeyedButton
from cogs.ui.pain_panel import StandButton

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = ["DeathTestButton", "InitButton", "turn_message", "STRIP_ON"]


# The buttons of a stale or finished panel are removed with this error: retrying is useless.
STRIP_ON = ("combat.error.stale", "combat.error.gone", "combat.error.none")


def turn_message(view: CombatView, locale: str, *, note: str = "") -> dict[str, Any]:
    """The panel with its live buttons (none once the fight ended), for the channel: a
    hidden NPC's numbers are never in it."""
    message = render_combat.panel(combat_for(view, Reader.everyone()), locale, note=note)
    if view.active:
        components = discord.ui.View(timeout=None)
        for action, key in (("next", "combat.next_button"), ("show", "combat.show_button")):
            label = t(key, locale)
            components.add_item(InitButton(view.id, view.version, action=action, label=label))
        current = view.current
        if current is not None and current.turn_test and current.character_id is not None:
            label = t("combat.death_button", locale)
            components.add_item(DeathTestButton(view.id, current.character_id, label=label))
        elif (
            current is not None
            and current.prone
            and current.character_id is not None
            and view.mode != "declarations"  # by declarations nobody has the turn
        ):
            label = t("pain.stand_button", locale)  # «en el suelo»: getting up, one click
            components.add_item(StandButton(view.id, current.character_id, label=label))
        message["view"] = components
    return message


class InitButton(
    KeyedButton,
    kind="init-",
    style={"next": discord.ButtonStyle.primary, "show": discord.ButtonStyle.secondary},
    reference="init",
):
    combat_id: int
    version: int

    async def callback(self, itx: discord.Interaction[Arbitro]) -> None:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        ctx = await ctx_of(itx)
        locale = ctx.locale
        service = ctx.services.combat
        try:
            if self.action == "show":
                view = await service.show(ctx.place, ctx.actor)
                message = render_combat.panel(combat_for(view, await reader_of(itx)), locale)
                await itx.response.send_message(**message, ephemeral=True)
                return
            view = await ctx.services.rounds.next(
                ctx.place, ctx.actor, seen=(self.combat_id, self.version)
            )
        except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
            await self.refuse(itx, error, strip_on=STRIP_ON)
            return
        # the old panel keeps its text but loses its buttons; the new turn is a new message,
        # so the mention notifies the player and the channel keeps the fight's history
        await itx.response.edit_message(view=None)
        await itx.followup.send(**turn_message(view, locale))
        for message in round_panel.rounds_of(view, locale):  # a round resolved or opened
            await itx.followup.send(**message)


class DeathTestButton(KeyedButton, kind="init-death", style=discord.ButtonStyle.danger):
    """The turn of a dying character (rolweb's moribundo) is its death test: this button rolls
    it for that character — its player or the GM only — through ``/check``'s use case, so
    the result (stabilised, still dying, dead) is applied to the sheet in the same versioned
    write as its audit row.  Persistent: it works after a restart, and a second press is
    refused once the character is no longer dying."""

    combat_id: int
    character_id: int

    async def callback(self, itx: discord.Interaction[Arbitro]) -> None:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        ctx = await ctx_of(itx)
        services = ctx.services
        try:
            name, option = await services.combat.death_test_target(
                ctx.place, ctx.actor, self.character_id
            )
            view = await services.checks.check(ctx.place, ctx.actor, CheckOrder(option, name))
        except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
            await self.refuse(itx, error)
            return
        told = await answer(itx, view.secrecy, lambda _seen: view, written_at=view.written_at)
        await send(
            itx,
            told,
            render_sheet.check,
            log_id=view.log_id,
            user_name=view.user_name,
            headline_key="check.gm_copy_hidden",
        )

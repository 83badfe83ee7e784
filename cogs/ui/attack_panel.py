"""The rolweb defence button of an ``/attack`` reply (seed 001, DEFENSA).

An NPC attacking a character makes that character's player roll ``[Defensa←Diestro]``: the
reply carries a ``DynamicItem`` keyed ``arb:1:defend:<log id>:<version>`` that works after a
restart.  Only the target's player (or the GM) may press it; a press on an answered or stale
request is answered and the button removed, never applied twice (the service claims the
pending row in the same transaction as the damage).

:func:`attack_components` builds the reply's view; other buttons (an undo) can be added to
the same view by the caller.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, Self

import discord

from bot.i18n import t
from bot.services.attacks import AttackView
from bot.services.errors import DomainError
from cogs.ui import render_attack
from cogs.ui.context import ctx_of
from cogs.ui.errors import describe_error, send_error

if TYPE_CHECKING:
    from bot.app import Arbitro

log = logging.getLogger(__name__)

__all__ = ["DefenceButton", "attack_components", "attack_message", "send_gm_notes"]

STRIP_ON = ("attack.error.defence_stale",)


def attack_components(view: AttackView, locale: str) -> discord.ui.View | None:
    """The reply's buttons: the defence request's, if any (None: no buttons)."""
    if view.defence_version is None:
        return None
    components = discord.ui.View(timeout=None)
    components.add_item(
        DefenceButton(view.log_id, view.defence_version, t("attack.defend_button", locale))
    )
    return components


def attack_message(view: AttackView, locale: str) -> dict[str, Any]:
    """The reply with its buttons (a ``view`` key only when there are some)."""
    message = render_attack.attack(view, locale)
    components = attack_components(view, locale)
    if components is not None:
        message["view"] = components
    return message


async def send_gm_notes(itx: discord.Interaction[Arbitro]) -> None:
    """After a fight command of the GM's: the secret numbers kept for the GM (a campaign
    without a GM channel), privately, once.  Call after the command's own reply."""
    ctx = await ctx_of(itx)
    if ctx.where is None:
        return
    notes = await ctx.services.attacks.take_notes(ctx.place, ctx.actor)
    if notes:
        await itx.followup.send(render_attack.gm_notes(notes, ctx.locale), ephemeral=True)


class DefenceButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"arb:1:defend:(?P<log>\d+):(?P<version>\d+)",
):
    def __init__(self, log_id: int, version: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or "defend",
                style=discord.ButtonStyle.primary,
                custom_id=f"arb:1:defend:{log_id}:{version}",
            )
        )
        self.log_id, self.version = log_id, version

    @classmethod
    async def from_custom_id(
        cls,
        itx: discord.Interaction[Arbitro],  # type: ignore[override]  # discord.py: any Client
        item: discord.ui.Button[discord.ui.View],  # type: ignore[override]  # what we matched
        match: re.Match[str],
    ) -> Self:
        return cls(int(match["log"]), int(match["version"]), item.label or "")

    async def callback(self, itx: discord.Interaction[Arbitro]) -> None:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        ctx = await ctx_of(itx)
        try:
            view = await ctx.services.attacks.defend(
                ctx.place, ctx.actor, self.log_id, self.version
            )
        except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
            await self._refuse(itx, error, ctx.locale)
            return
        await itx.response.edit_message(view=None)
        await itx.followup.send(**render_attack.attack(view, ctx.locale), ephemeral=view.private)

    async def _refuse(
        self, itx: discord.Interaction[Arbitro], error: Exception, locale: str
    ) -> None:
        text = describe_error(error, locale)
        if text is None:
            log.exception("defence button error", exc_info=error)
            text = t("errors.unexpected", locale, reference="defend")
        if isinstance(error, DomainError) and error.key in STRIP_ON:
            await itx.response.edit_message(view=None)
            await itx.followup.send(text, ephemeral=True)
            return
        await send_error(itx, text)

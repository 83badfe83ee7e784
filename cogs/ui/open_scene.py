"""``@in_play()``: the commands that post, roll or request refuse in a closed scene.

A closed scene is a record: ``/scene close`` locks and archives its thread, and Discord
refuses the bot's messages there (400, code 50083), so a roll would be stored and then lost
on the way, and a ``/post`` would answer «Discord rechazó el mensaje (error 400)».  The check
runs before the command: nothing is rolled, stored or sent, and the member reads that the
scene is closed and how the GM opens it again.  The answer comes from the per-process cache
of closed scenes (:meth:`bot.services.campaigns.service.CampaignService.closed_scene`): no
query on the hot path of ``/roll``.

Paths that are not slash commands check in their service (a ``/post`` form submitted after
the scene closed, a request's buttons, editing or deleting a post).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import discord
from discord import app_commands

from bot.services.shared.errors import DomainError
from cogs.ui.context import ctx_of

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = ["Refused", "in_play"]

T = TypeVar("T")


class Refused(app_commands.CheckFailure):
    """A check refused the command for a reason the member should read (``error``)."""

    def __init__(self, error: DomainError) -> None:
        super().__init__(str(error))
        self.error = error


async def _scene_is_open(itx: discord.Interaction[Arbitro]) -> bool:
    if itx.guild_id is None or itx.channel_id is None:
        return True  # outside a server there are no scenes (the command says what it needs)
    ctx = await ctx_of(itx)
    try:
        await ctx.services.campaigns.require_open_scene(ctx.place)
    except DomainError as error:
        raise Refused(error) from error
    return True


def in_play() -> Callable[[T], T]:
    """Refuse the command in a closed scene (see the module docstring)."""
    return app_commands.check(_scene_is_open)

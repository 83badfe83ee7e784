"""Replies through the audience rule (issue 22 §1): who reads a reply decides what it shows.

A use case returns its record with the record's :class:`~bot.services.shared.audience.Secrecy`;
the cog answers with :func:`answer` and :func:`send`:

* the reply is rendered for its reader — everyone in the channel, or the actor alone for a
  private roll — through :func:`bot.services.shared.audience.show`, so what the record seals
  (a hidden NPC's numbers, a hidden difficulty) is never in it;
* a record the channel may not see at all (an XP award to a hidden NPC) is answered to the
  actor alone (the GM), never in the channel;
* the GM reads what the reply kept from the channel: a copy in the GM channel (with the
  roll's log link), or, when the GM acted and the campaign has no GM channel, a private
  follow-up.

Render functions take the :class:`~bot.services.shared.audience.Shown` value and read the
sight's sealed parts; they cannot be called with a raw view.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import discord

from bot.services.campaigns.service import is_referee
from bot.services.shared.audience import Reader, Secrecy, Shown, Sight, show
from cogs.ui.context import ctx_of
from cogs.ui.gm_copy import send_gm_copy

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = ["Answer", "answer", "reader_of", "send"]

V = TypeVar("V")


async def reader_of(itx: discord.Interaction[Arbitro]) -> Reader:
    """The member using the command as a reader: the GM when he referees the campaign here."""
    ctx = await ctx_of(itx)
    campaign = await ctx.services.campaigns.find(ctx.place) if ctx.where is not None else None
    referee = ctx.actor.is_admin or (campaign is not None and is_referee(campaign, ctx.actor))
    return Reader.of(ctx.actor.user_id, referee)


@dataclass(frozen=True, slots=True)
class Answer(Generic[V]):
    """What to send: the reply (``ephemeral``: to the actor alone) and the GM's view when the
    GM must read more than the reply shows (``None``: nothing kept from him)."""

    reply: Shown[V]
    ephemeral: bool
    gm: Shown[V] | None
    actor_is_gm: bool


async def answer(
    itx: discord.Interaction[Arbitro],
    secrecy: Secrecy,
    project: Callable[[Sight], V],
    *,
    private: bool = False,
    written_at: datetime | None = None,
) -> Answer[V]:
    """The reply to a use case that wrote a record with ``secrecy`` (module docstring)."""
    actor = await reader_of(itx)
    here = actor if private else Reader.everyone()
    reply = show(secrecy, here, project, written_at=written_at)
    ephemeral = private
    if reply is None:  # the channel may not know it: the actor alone
        reply = show(secrecy, actor, project, written_at=written_at)
        ephemeral = True
    if reply is None:  # a record its own actor may not read: only a referee acts so
        reply = show(secrecy, Reader.gm(), project, written_at=written_at)
        ephemeral = True
    assert reply is not None  # the GM reads everything
    gm = None
    if private or reply.sight.sealed:
        gm = show(secrecy, Reader.gm(), project, written_at=written_at)
    return Answer(reply, ephemeral, gm, actor.is_gm)


async def send(
    itx: discord.Interaction[Arbitro],
    told: Answer[V],
    render: Callable[[Shown[V], str], dict[str, Any]],
    *,
    log_id: int,
    user_name: str,
    headline_key: str = "roll.gm_copy",
) -> None:
    """Send the reply (the interaction's response, or a follow-up after a deferral), then
    the GM's view: the GM-channel copy, else — when the GM acted — a private follow-up."""
    ctx = await ctx_of(itx)
    message = render(told.reply, ctx.locale)
    if itx.response.is_done():
        await itx.followup.send(**message, ephemeral=told.ephemeral)
    else:
        await itx.response.send_message(**message, ephemeral=told.ephemeral)
    gm = told.gm
    if gm is None:
        return
    copied = await send_gm_copy(
        itx,
        log_id=log_id,
        user_name=user_name,
        render=lambda gm_locale: render(gm, gm_locale),
        headline_key=headline_key,
    )
    if not copied and told.actor_is_gm and told.reply.sight.sealed:
        await itx.followup.send(**render(gm, ctx.locale), ephemeral=True)

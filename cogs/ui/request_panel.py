"""The message of a GM roll request (``/request check``) and its buttons.

The buttons are ``DynamicItem``s keyed ``arb:1:req-roll:<request>:<character>``,
``arb:1:req-close:<request>:0`` and ``arb:1:req-results:<request>:0``: they work after a
restart, every press reloads the request, and the service decides everything (whose button,
rolled already, closed).

A roll press is acknowledged at once (a deferred update: Discord's 3 s cannot fail a roll
that was stored), rolls through one service call, answers its member privately, and only
*touches* the message (issue 26): the message's edits are coalesced
(:mod:`cogs.ui.message_edits`, at most about one a second), each drawn from the stored
request when it starts, so a whole table pressing at once costs a few edits, not one per
press, and the message ends showing every roll.  The close button redraws it the same way.

What players see follows the request's ``hidden`` mode; the public message never shows a
hidden difficulty nor the numbers of a hidden roll.  The GM reads them in the GM-channel copy
of each roll and behind the results button (ephemeral, referees only).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.services.shared.audience import Part, Reader, Shown
from bot.services.shared.errors import DomainError
from bot.services.table.requests import Entry, Press, RequestView, request_for
from bot.words import problem_text
from cogs.ui import render_sheet
from cogs.ui.audience import answer
from cogs.ui.context import ctx_of
from cogs.ui.gm_copy import send_gm_copy
from cogs.ui.keyed_button import KeyedButton
from cogs.ui.message_edits import CoalescedEdits
from cogs.ui.render import COLOUR, truncate

if TYPE_CHECKING:
    from bot.app import Arbitro

log = logging.getLogger(__name__)

__all__ = [
    "RequestButton",
    "request_message",
    "results_message",
    "table_locale",
]

#: After these refusals the message is redrawn from the stored request (its buttons go).
REDRAW_ON = ("request.error.closed",)
#: The public message's reader: anyone in the channel.
EVERYONE = Reader.everyone()


def _edits(bot: Arbitro) -> CoalescedEdits:
    """The bot's coalesced edits of request messages, created on first use."""
    edits: CoalescedEdits | None = getattr(bot, "_request_edits", None)
    if edits is None:
        edits = CoalescedEdits()
        bot._request_edits = edits  # type: ignore[attr-defined]  # one per bot, set here
    return edits


def redraw(itx: discord.Interaction[Arbitro], request_id: int) -> None:
    """The request's message changed: redraw it from the stored request, coalesced with the
    other presses' redraws (see the module docstring).  Returns at once."""
    message = itx.message
    if message is None:
        return

    async def edit() -> None:
        ctx = await ctx_of(itx)
        view = await ctx.services.requests.public(ctx.place, request_id)
        await message.edit(**request_message(request_for(view, EVERYONE), await table_locale(itx)))

    _edits(itx.client).touch(message.id, edit)


def _outcome(entry: Entry, locale: str) -> str:
    return t(f"check.outcome.{entry.outcome}", locale) if entry.outcome else "—"


def _unable(entry: Entry, locale: str) -> str:
    """Why a character could not roll when asked, in the reader's words."""
    reasons = " ".join(problem_text(p.key, p.params, locale) for p in entry.unable)
    return t("request.line_unable", locale, name=truncate(entry.name, 80), reasons=reasons)


def _line(entry: Entry, locale: str) -> str:
    """One character's state, as the reader's view of its roll allows (the numbers, the
    outcome only, or only that it rolled)."""
    name = truncate(entry.name, 80)
    if entry.unable:
        return _unable(entry, locale)
    if not entry.rolled:
        return t("request.line_pending", locale, name=name, owner=entry.owner_id)
    if entry.total is None:
        if entry.outcome is None:
            return t("request.line_rolled", locale, name=name)
        return t("request.line_outcome", locale, name=name, outcome=_outcome(entry, locale))
    line = t("request.line_numbers", locale, name=name, total=entry.total)
    return line + (f" · {_outcome(entry, locale)}" if entry.outcome else "")


def request_message(shown: Shown[RequestView], locale: str) -> dict[str, Any]:
    """The public message: what was asked, each character's state, and the live buttons."""
    view = shown.value
    header = [t("request.title", locale, gm=f"<@{view.requested_by}>", label=view.label)]
    details = []
    if view.difficulty is not None:
        details.append(t("request.difficulty", locale, difficulty=view.difficulty))
    elif view.asked_difficulty:
        details.append(t("request.difficulty_hidden", locale))
    if view.modifier:
        details.append(t("request.modifier", locale, modifier=f"{view.modifier:+d}"))
    if view.circumstances:
        circumstances = truncate(view.circumstances, 200)
        details.append(t("request.circumstances", locale, circumstances=circumstances))
    if details:
        header.append(" · ".join(details))
    if view.hidden != "visible":
        header.append(t(f"request.hidden_{view.hidden}", locale))
    lines = [_line(entry, locale) for entry in view.entries]
    if not view.open:
        footer = t("request.footer_closed", locale, id=view.id)
    elif view.complete:
        footer = t("request.footer_complete", locale, id=view.id)
    else:
        footer = t("request.footer_open", locale, id=view.id)
    embed = discord.Embed(description=truncate("\n".join(lines), 4000), colour=COLOUR[None])
    embed.set_footer(text=footer)
    components = discord.ui.View(timeout=None)
    if view.open:
        for entry in view.entries:
            if not entry.done:
                label = truncate(entry.name, 80)
                button = RequestButton(view.id, entry.character_id, action="roll", label=label)
                components.add_item(button)
    label = t("request.button_results", locale)
    components.add_item(RequestButton(view.id, 0, action="results", label=label))
    if view.open:
        label = t("request.button_close", locale)
        components.add_item(RequestButton(view.id, 0, action="close", label=label))
    return {"content": "\n".join(header), "embed": embed, "view": components}


def results_message(shown: Shown[RequestView], locale: str) -> dict[str, Any]:
    """The GM's view: every number, the difficulty (ephemeral, or in the GM channel)."""
    view = shown.value
    lines = []
    for entry in view.entries:
        name = truncate(entry.name, 80)
        if entry.unable:
            lines.append(_unable(entry, locale))
        elif entry.rolled:
            lines.append(
                t(
                    "request.results_line",
                    locale,
                    name=name,
                    total=entry.total,
                    outcome=_outcome(entry, locale),
                )
            )
        else:
            lines.append(t("request.results_pending", locale, name=name))
    if view.difficulty is not None:
        lines.append(t("request.results_target", locale, difficulty=view.difficulty))
    embed = discord.Embed(
        title=truncate(t("request.results_title", locale, id=view.id, label=view.label), 256),
        description=truncate("\n".join(lines), 4000),
        colour=COLOUR[None],
    )
    return {"embed": embed}


async def table_locale(itx: discord.Interaction[Arbitro]) -> str:
    """The language of the public request message: the campaign's (or the bot's default),
    so presses by members with other Discord languages never flip it."""
    ctx = await ctx_of(itx)
    campaign = await ctx.services.campaigns.find(ctx.place)
    return (campaign.locale if campaign else None) or ctx.bot.config.default_locale


class RequestButton(
    KeyedButton,
    kind="req-",
    style={
        "roll": discord.ButtonStyle.primary,
        "close": discord.ButtonStyle.danger,
        "results": discord.ButtonStyle.secondary,
    },
    emoji={"roll": "🎲"},
    reference="request",
):
    request_id: int
    character_id: int  # 0 on the close and results buttons

    async def callback(self, itx: discord.Interaction[Arbitro]) -> None:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        ctx = await ctx_of(itx)
        service = ctx.services.requests
        try:
            if self.action == "results":
                view = await service.show(ctx.place, ctx.actor, self.request_id)
                await itx.response.send_message(
                    **results_message(request_for(view, Reader.gm()), ctx.locale), ephemeral=True
                )
                return
            if self.action == "close":
                view = await service.close(ctx.place, ctx.actor, self.request_id)
                await itx.response.defer()
                redraw(itx, view.id)
                await itx.followup.send(
                    ctx.t(
                        "request.closed",
                        id=view.id,
                        rolled=sum(e.rolled for e in view.entries),
                        count=len(view.entries),
                    )
                )
                return
            # acknowledged at once: the roll's answer is a follow-up (issue 26)
            await itx.response.defer()
            press = await service.roll(ctx.place, ctx.actor, self.request_id, self.character_id)
        except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
            await self._refuse(itx, error)
            return
        redraw(itx, self.request_id)
        await answered(itx, press)

    async def _refuse(self, itx: discord.Interaction[Arbitro], error: Exception) -> None:
        if isinstance(error, DomainError) and error.key in REDRAW_ON:
            redraw(itx, self.request_id)
        await self.refuse(itx, error)


async def answered(itx: discord.Interaction[Arbitro], press: Press) -> None:
    """After a roll: the roller's private answer (what the request lets players see), the
    GM's copy of a hidden roll, the log linked, and the GM told once everyone has rolled.
    The request message is redrawn apart (:func:`redraw`)."""
    ctx = await ctx_of(itx)
    request, check = press.request, press.check
    name = check.character_name
    # the roller's answer and the GM's copy: the roll's own secrecy decides (a hidden
    # request's numbers, a hidden NPC's), as for every output
    told = await answer(itx, check.secrecy, lambda _seen: check, private=True)
    seen = told.reply.sight
    if seen.shows(Part.TOTAL):
        await itx.followup.send(**render_sheet.check(told.reply, ctx.locale), ephemeral=True)
    elif seen.shows(Part.OUTCOME):
        outcome = check.result.outcome
        verdict = t(f"check.outcome.{outcome}", ctx.locale) if outcome else "—"
        text = ctx.t("request.your_outcome", name=name, outcome=verdict)
        await itx.followup.send(text, ephemeral=True)
    else:
        await itx.followup.send(ctx.t("request.your_nothing", name=name), ephemeral=True)
    copied = False
    gm = told.gm
    if request.hidden != "visible" and gm is not None:
        copied = await send_gm_copy(
            itx,
            log_id=check.log_id,
            user_name=check.user_name,
            render=lambda gm_locale: render_sheet.check(gm, gm_locale),
            headline_key="request.gm_copy",
        )
    if not copied and itx.message is not None:
        # the log entry links to the request message (the GM copy's link otherwise)
        await ctx.services.rolls.attach_message(
            check.log_id, itx.guild_id or 0, itx.message.id, itx.message.jump_url
        )
    if press.completed:
        await _tell_gm(itx, request, await table_locale(itx))


async def _tell_gm(itx: discord.Interaction[Arbitro], request: RequestView, locale: str) -> None:
    """Everyone rolled: the GM channel gets the results (numbers included); without one, a
    line in the channel that pings nobody and shows no hidden number."""
    ctx = await ctx_of(itx)
    if request.gm_channel_id:
        channel = ctx.bot.get_channel(request.gm_channel_id)
        try:
            if channel is None:
                channel = await ctx.bot.fetch_channel(request.gm_channel_id)
            if isinstance(channel, discord.abc.Messageable):
                message = results_message(request_for(request, Reader.gm()), locale)
                message["content"] = t(
                    "request.complete_gm",
                    locale,
                    id=request.id,
                    label=request.label,
                    channel=f"<#{request.channel_id}>",
                )
                await channel.send(**message)
                return
        except discord.HTTPException:
            log.warning("could not tell the GM channel about request %s", request.id)
    await itx.followup.send(t("request.complete_line", locale, id=request.id))

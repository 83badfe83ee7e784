"""The pain threshold's choice (rolweb, seed 001 UMBRAL DE DOLOR) and getting up: the prompt
an attack's reply leaves, its buttons, and the «Levantarse» button of the turn panel.

The choice's buttons are keyed ``arb:1:pain-<option>:<character>:<choice number>`` (the option
by its place in the choice's options, so no system word is in an id); the service checks
who presses and claims the choice on the sheet's version, so two presses choose once and a
press on a choice already made is answered and the buttons removed.

The prompt follows the audience rule (:mod:`cogs.ui.audience`): a hidden NPC's choice is the
GM's alone — in the GM channel, or privately to the GM who attacked — never in the channel.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.services.play.pain import PainAsk
from bot.services.shared.audience import Reader, Shown, show
from cogs.ui.audience import reader_of
from cogs.ui.context import ctx_of
from cogs.ui.gm_copy import send_gm_copy
from cogs.ui.keyed_button import KeyedButton
from cogs.ui.render import truncate
from cogs.ui.render_pain import chosen_text, stand_text

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = [
    "PainButton",
    "StandButton",
    "ask_pain",
    "pain_prompt",
]

#: a choice already made (or gone): its buttons are removed
STRIP_ON = ("pain.problem.not_owed", "pain.error.gone")
_STYLES = {"0": discord.ButtonStyle.danger, "1": discord.ButtonStyle.primary}


def _option_label(option: str, ask: PainAsk, locale: str) -> str:
    attacker = ask.attacker or t("pain.the_attacker", locale)
    return truncate(t(f"pain.option.{option}", locale, attacker=attacker, name=ask.name), 80)


def pain_prompt(shown: Shown[PainAsk], locale: str) -> dict[str, Any]:
    """The question with one button per option, mentioning the player who chooses (only
    that player: a name typed by a user never pings anyone)."""
    ask = shown.value
    who = f"<@{ask.chooser_id}>" if ask.chooser_id else t("pain.chooser_gm", locale)
    key = "pain.prompt" if ask.attacker else "pain.prompt_no_attacker"
    text = t(key, locale, name=ask.name, attacker=ask.attacker or "", who=who)
    components = discord.ui.View(timeout=None)
    for index, option in enumerate(ask.options[: len(_STYLES)]):
        label = _option_label(option, ask, locale)
        components.add_item(PainButton(ask.character_id, ask.ref, action=str(index), label=label))
    users = [discord.Object(id=ask.chooser_id)] if ask.chooser_id else []
    mentions = discord.AllowedMentions(everyone=False, roles=False, users=users)
    return {"content": text, "view": components, "allowed_mentions": mentions}


async def ask_pain(
    itx: discord.Interaction[Arbitro],
    ask: PainAsk | None,
    *,
    private: bool,
    log_id: int,
    user_name: str,
) -> None:
    """After an attack's reply: ask for the choice its wound left owed, where its audience
    may read it (module docstring).  Nobody to ask (a hidden NPC, no GM channel, a player
    attacking): the default applies when its turn begins."""
    if ask is None:
        return
    ctx = await ctx_of(itx)
    here = show(ask.secrecy, Reader.everyone(), lambda _seen: ask)
    if here is not None and not private:
        await itx.followup.send(**pain_prompt(here, ctx.locale))
        return
    reader = await reader_of(itx)
    mine = show(ask.secrecy, reader, lambda _seen: ask)
    if mine is not None and (reader.is_gm or ask.chooser_id == reader.user_id):
        await itx.followup.send(**pain_prompt(mine, ctx.locale), ephemeral=True)
        return
    gm = show(ask.secrecy, Reader.gm(), lambda _seen: ask)
    if gm is not None:
        await send_gm_copy(
            itx,
            log_id=log_id,
            user_name=user_name,
            render=lambda locale: pain_prompt(gm, locale),
            headline_key="pain.gm_headline",
        )


class PainButton(KeyedButton, kind="pain-", style=_STYLES, reference="pain"):
    """One option of a pain threshold's choice: its player or the GM presses it, once."""

    character_id: int
    ref: int

    async def callback(self, itx: discord.Interaction[Arbitro]) -> None:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        ctx = await ctx_of(itx)
        try:
            view = await ctx.services.pain.choose(
                ctx.place, ctx.actor, self.character_id, self.ref, int(self.action)
            )
        except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
            await self.refuse(itx, error, strip_on=STRIP_ON)
            return
        await itx.response.edit_message(view=None)
        ephemeral = itx.message is not None and bool(itx.message.flags.ephemeral)
        await itx.followup.send(
            chosen_text(view, ctx.locale),
            ephemeral=ephemeral,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if view.summary is not None:  # the round of declarations it paused goes on
            from cogs.ui.round_panel import round_messages  # it shows this module's buttons

            for message in round_messages(view.summary, view.summary.next, ctx.locale):
                await itx.followup.send(**message)


class StandButton(KeyedButton, kind="init-stand", style=discord.ButtonStyle.secondary):
    """The turn panel's «Levantarse» for the combatant on the ground whose turn it is."""

    combat_id: int
    character_id: int

    async def callback(self, itx: discord.Interaction[Arbitro]) -> None:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        ctx = await ctx_of(itx)
        try:
            view = await ctx.services.pain.stand(
                ctx.place, ctx.actor, None, character_id=self.character_id
            )
        except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
            await self.refuse(itx, error)
            return
        await itx.response.send_message(
            stand_text(view, ctx.locale),
            ephemeral=view.declared_round is not None,  # declared for the round: sealed
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if view.summary is not None:  # getting up was the round's last declaration
            from cogs.ui.round_panel import round_messages  # it shows this module's buttons

            for message in round_messages(view.summary, view.summary.next, ctx.locale):
                await itx.followup.send(**message)

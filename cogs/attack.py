"""``/attack`` (``/atacar``): one blow through the campaign's system, applied to the target.

Thin: parse, call :class:`bot.services.play.attacks.AttackService`, render.  The reply is linked to
its audit-log row; a private attack, or one on a hidden NPC whose numbers the players may not
see, sends the full numbers to the GM channel.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.services.play.attacks import AttackOrder, AttackView
from bot.services.shared.context import Sent
from cogs.ui import render_attack, render_rounds, round_panel
from cogs.ui.attack_panel import (
    DeclaredDefenceButton,
    DefenceButton,
    attack_message,
    defence_asked,
    send_gm_notes,
)
from cogs.ui.context import ctx_of
from cogs.ui.cooldowns import fight
from cogs.ui.open_scene import in_play
from cogs.ui.options import AttackTarget, Circumstances, Weapon
from cogs.ui.pain_panel import PainButton, ask_pain

if TYPE_CHECKING:
    from bot.app import Arbitro

log = logging.getLogger(__name__)


def jump_url(guild_id: int | None, channel_id: int | None, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


class AttackCog(commands.Cog):
    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot

    @app_commands.command(name="attack", description="Attack a combatant or character")
    @app_commands.describe(
        target="Whom (the fight's combatants first)",
        weapon="A weapon from the attacker's sheet (default: its main one)",
        modifier="Modifier set by the GM or the situation",
        circumstances="Comma-separated keywords: mágico:+1 (S&W), dos_armas (Núcleo)… suggested in Rol por web",
        private="Only you (and the GM channel) see it",
        character="Who attacks (default: your active character; the GM: anyone)",
        bonus="A sheetless attacker's attack bonus (Rol por web: its Diestro, rolled under) (GM)",
        damage="Damage dice of a combatant without a sheet (GM), e.g. 1d6+1",
        range="Núcleo: range band of a ranged attack",
        cover="Núcleo: the target's cover",
        defence_now="Rol por web, an NPC attacking a character: roll its defence now, not ask the player (GM)",
    )
    @app_commands.guild_only()
    @fight()
    @in_play()
    async def attack(
        self,
        itx: discord.Interaction[Arbitro],
        target: AttackTarget,
        weapon: Weapon | None = None,
        modifier: app_commands.Range[int, -50, 50] = 0,
        circumstances: Circumstances | None = None,
        private: bool = False,
        character: AttackTarget | None = None,
        bonus: app_commands.Range[int, -50, 50] | None = None,
        damage: app_commands.Range[str, 1, 40] | None = None,
        range: Literal["bocajarro", "corta", "media", "larga"] | None = None,  # noqa: A002
        cover: Literal["ligera", "media", "grande"] | None = None,
        defence_now: bool = False,
    ) -> None:
        ctx = await ctx_of(itx)
        order = AttackOrder(
            target,
            weapon=weapon,
            modifier=modifier,
            circumstances=circumstances,
            private=private,
            character=character,
            bonus=bonus,
            damage=damage,
            range_band=range,
            cover=cover,
            defence_now=defence_now,
        )

        async def reply(view: AttackView) -> Sent | None:
            # a declaration of a round of declarations is sealed: its player (and the GM)
            sealed = private or view.declared is not None
            message = attack_message(view, ctx.locale)
            if view.declared is not None:
                message["content"] = render_rounds.declared_note(view, ctx.locale)
            response = await itx.response.send_message(**message, ephemeral=sealed)
            message_id = getattr(response, "message_id", None)
            if not message_id or sealed:
                return None
            return Sent(message_id, jump_url(itx.guild_id, itx.channel_id, message_id))

        view = await self.bot.services.attacks.attack(ctx.place, ctx.actor, order, reply)
        sealed = private or view.declared is not None
        asked = defence_asked(view, ctx.locale)
        if asked is not None:  # rolweb: the declared NPC attack asks for the defence now
            await itx.followup.send(**asked)
        if (sealed or view.secret) and view.gm_channel_id:
            await self._gm_copy(itx, view, view.gm_channel_id, ctx.locale)
        # rolweb: a hit over the pain threshold asks whoever chooses, with buttons
        await ask_pain(itx, view.pain, private=sealed, log_id=view.log_id, user_name=view.user_name)
        if view.summary is not None:  # this declaration completed its round: resolved
            summary = view.summary
            for message in round_panel.round_messages(summary, summary.next, ctx.locale):
                await itx.followup.send(**message)
        await send_gm_notes(itx)

    async def _gm_copy(
        self, itx: discord.Interaction[Arbitro], view: AttackView, gm_channel_id: int, locale: str
    ) -> None:
        channel: discord.abc.GuildChannel | discord.abc.PrivateChannel | discord.Thread | None
        channel = itx.guild.get_channel(gm_channel_id) if itx.guild else None
        try:
            if channel is None:
                channel = await self.bot.fetch_channel(gm_channel_id)
            if not isinstance(channel, discord.abc.Messageable):  # a category or a forum
                raise AttributeError(f"channel {gm_channel_id} takes no messages")
            await channel.send(**render_attack.attack_gm_copy(view, locale, f"<#{itx.channel_id}>"))
        except (discord.HTTPException, AttributeError):
            log.warning("could not post the GM copy of attack %s", view.log_id, exc_info=True)
            await itx.followup.send(t("roll.gm_copy_failed", locale), ephemeral=True)


async def setup(bot: Arbitro) -> None:
    bot.add_dynamic_items(DefenceButton, DeclaredDefenceButton, PainButton)
    await bot.add_cog(AttackCog(bot))

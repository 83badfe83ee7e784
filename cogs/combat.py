"""``/init``: initiative and turns in the channel or forum post where the fight happens.

Thin: parse, call :class:`bot.services.play.combat.CombatService`, render.  The turn panel and its
restart-proof buttons are in :mod:`cogs.ui.combat_panel`.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import discord
from discord import app_commands
from discord.ext import commands

from bot.services.play.combat import MAX_COUNT, MAX_TURN_HOURS, TURN_TIMER, CombatService
from bot.services.play.combat_views import CombatView, Reminder, combat_for
from bot.services.play.effects import MAX_ROUNDS
from bot.services.play.rounds import ROUND_TIMER
from bot.services.play.surprise import SurpriseOrder
from bot.services.shared.timers import Due
from cogs.ui import render_combat, render_effects, render_pain, render_surprise, round_panel
from cogs.ui.attack_panel import send_gm_notes
from cogs.ui.audience import answer, reader_of
from cogs.ui.combat_panel import DeathTestButton, InitButton, turn_message
from cogs.ui.context import ctx_of
from cogs.ui.cooldowns import fight
from cogs.ui.open_scene import in_play
from cogs.ui.options import AnyCharacter, Combatant, EffectName, NewCombatant
from cogs.ui.pain_panel import StandButton, ask_pain
from cogs.ui.undo import with_undo
from cogs.ui.views import Asking

if TYPE_CHECKING:
    from bot.app import Arbitro

log = logging.getLogger(__name__)

__all__ = ["CombatCog"]

#: the sides of ``/init surprise ambushers``: English names here, Spanish ones in commands.toml
SIDE_CHOICES = [
    app_commands.Choice(name="players", value="jugadores"),
    app_commands.Choice(name="enemies", value="enemigos"),
]
#: how a fight is played (issue 25 §1): English names here, Spanish ones in commands.toml
MODE_CHOICES = [
    app_commands.Choice(name="by turns", value="turns"),
    app_commands.Choice(name="by declarations", value="declarations"),
]


@runtime_checkable
class _Postable(Protocol):
    """What a reminder needs of a channel: text channels and threads, not categories or forums."""

    async def send(self, content: str, *, nonce: str | int | None = None) -> object: ...


@app_commands.guild_only()
class CombatCog(
    commands.GroupCog, group_name="init", group_description="Combat: initiative and turns"
):
    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot
        super().__init__()

    @property
    def combat(self) -> CombatService:
        return self.bot.services.combat

    # -- play-by-post turn reminders: durable timers (bot.services.shared.timers) -----------------

    async def cog_load(self) -> None:
        self.bot.services.timers.register(TURN_TIMER, self._fire)
        self.bot.services.timers.register(ROUND_TIMER, self._round_due)

    async def _round_due(self, due: Due) -> None:
        """A round of declarations reached its deadline: resolve it and post its summary
        with the next round's header (one message, with the timer's nonce)."""
        summary = await self.bot.services.rounds.on_deadline(due)
        if summary is None:
            return
        locale = summary.locale or self.bot.config.default_locale
        channel = await self._postable(summary.channel_id)
        if channel is None:
            return
        messages = round_panel.round_messages(summary, summary.next, locale)
        for index, message in enumerate(messages):  # each its own nonce: posted once
            nonce = f"{summary.nonce[:23]}.{index}" if summary.nonce else None
            await channel.send(**message, nonce=nonce)

    async def _fire(self, due: Due) -> None:
        """A turn timer came due on this process's shard: post the reminder, if still apt.

        The timer is claimed in the database before and deleted after; a repeat after a
        crash in between carries the same nonce, so Discord returns the first message.
        """
        reminder = await self.combat.reminder(due)
        if reminder is not None:
            await self._remind(reminder)

    async def _postable(self, channel_id: int) -> _Postable | None:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except (discord.NotFound, discord.Forbidden):
                log.warning("reminder: channel %s is gone", channel_id)
                return None
        if not isinstance(channel, _Postable):  # a category or a forum
            log.warning("reminder: channel %s takes no messages", channel_id)
            return None
        return channel

    async def _remind(self, reminder: Reminder) -> None:
        channel = await self._postable(reminder.channel_id)
        if channel is None:
            return
        locale = reminder.locale or self.bot.config.default_locale
        await channel.send(**render_combat.reminder(reminder, locale), nonce=reminder.nonce or None)

    async def _panel(
        self,
        itx: discord.Interaction[Arbitro],
        view: CombatView,
        *,
        note_key: str = "",
        extra_key: str = "",
        **params: Any,
    ) -> None:
        ctx = await ctx_of(itx)
        note = ctx.t(note_key, **params) if note_key else ""
        if extra_key:
            note = f"{note}\n{ctx.t(extra_key)}"
        await itx.response.send_message(**turn_message(view, ctx.locale, note=note))
        for message in round_panel.rounds_of(view, ctx.locale):  # a round resolved or opened
            await itx.followup.send(**message)
        await send_gm_notes(itx)  # secret attack numbers kept for a GM without a GM channel

    @app_commands.command(name="start", description="Start a fight in this channel (GM)")
    @app_commands.describe(
        mode="By turns (live play) or by rounds of declarations (play by post); default: the campaign's setting"
    )
    @app_commands.choices(mode=MODE_CHOICES)
    @fight()
    async def start(
        self, itx: discord.Interaction[Arbitro], mode: app_commands.Choice[str] | None = None
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.combat.start(ctx.place, ctx.actor, mode.value if mode else None)
        # a system with an ambush (rolweb, seed 001's surprise) rolls it as the fight starts
        offer = "rolweb_fight.surprise.offer" if view.ambush else ""
        started = "declare.started" if view.mode == "declarations" else "combat.started"
        await self._panel(itx, view, note_key=started, extra_key=offer)

    @app_commands.command(name="join", description="Bring your character into the fight")
    @app_commands.describe(character="Which character (by default, your active one)")
    @fight()
    @in_play()
    async def join(
        self, itx: discord.Interaction[Arbitro], character: AnyCharacter | None = None
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.combat.join(ctx.place, ctx.actor, character)
        await self._panel(itx, view, note_key="combat.joined", name=view.joined or "?")

    @app_commands.command(name="add", description="Add an NPC or a group of enemies (GM)")
    @app_commands.describe(
        name="An NPC from /npc, or the name of a group without a sheet (e.g. Goblins)",
        initiative="Initiative (required for a name that is not an NPC)",
        count="How many (a group)",
        defence="A group without a sheet: its AC (campaign's notation) or Defensa, for /attack",
        armour="A group without a sheet: its armour (Rol por web: dice such as 1d4; Núcleo: absorption)",
        hit_points="Group without a sheet: each one's hit points (PG in S&W, Resistencia in Rol por web, PV in Núcleo)",
    )
    @fight()
    @in_play()
    async def add(
        self,
        itx: discord.Interaction[Arbitro],
        name: NewCombatant,
        initiative: app_commands.Range[int, -100, 1000] | None = None,
        count: app_commands.Range[int, 1, MAX_COUNT] = 1,
        defence: app_commands.Range[int, -20, 100] | None = None,
        armour: app_commands.Range[str, 1, 20] | None = None,
        hit_points: app_commands.Range[int, 1, 10_000] | None = None,
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.combat.add(
            ctx.place,
            ctx.actor,
            name,
            initiative,
            count,
            defence=defence,
            armour=armour,
            hit_points=hit_points,
        )
        await self._panel(itx, view, note_key="combat.added", name=name)

    @app_commands.command(name="roll", description="Roll initiative for whoever has none")
    @fight()
    @in_play()
    async def roll(self, itx: discord.Interaction[Arbitro]) -> None:
        ctx = await ctx_of(itx)
        view = await self.combat.roll(ctx.place, ctx.actor)
        await self._panel(itx, view)
        secret = render_combat.secret_rolls(combat_for(view, await reader_of(itx)), ctx.locale)
        if secret:  # a hidden NPC's initiative dice: to the GM alone, never in the channel
            await itx.followup.send(secret, ephemeral=True)

    @app_commands.command(name="next", description="Pass the turn (yours; the GM, anyone's)")
    @app_commands.describe(skip_test="GM: pass a dying character's turn without its death test")
    @fight()
    async def next(self, itx: discord.Interaction[Arbitro], skip_test: bool = False) -> None:
        ctx = await ctx_of(itx)
        view = await self.bot.services.rounds.next(ctx.place, ctx.actor, skip_test=skip_test)
        await self._panel(itx, view)

    @app_commands.command(name="prev", description="Back one turn (GM)")
    @fight()
    async def prev(self, itx: discord.Interaction[Arbitro]) -> None:
        ctx = await ctx_of(itx)
        view = await self.combat.previous(ctx.place, ctx.actor)
        await self._panel(itx, view, note_key="combat.went_back")

    @app_commands.command(name="show", description="Show the order and whose turn it is")
    async def show(self, itx: discord.Interaction[Arbitro]) -> None:
        ctx = await ctx_of(itx)
        view = await self.combat.show(ctx.place, ctx.actor)
        await self._panel(itx, view)
        secret = render_combat.secret_numbers(combat_for(view, await reader_of(itx)), ctx.locale)
        if secret:  # the hidden NPCs' numbers: to the GM alone, never in the channel
            await itx.followup.send(secret, ephemeral=True)

    @app_commands.command(name="move", description="Give a combatant another initiative (GM)")
    @app_commands.describe(combatant="Who", initiative="The new initiative")
    @fight()
    async def move(
        self,
        itx: discord.Interaction[Arbitro],
        combatant: Combatant,
        initiative: app_commands.Range[int, -100, 1000],
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.combat.move(ctx.place, ctx.actor, combatant, initiative)
        await self._panel(itx, view, note_key="combat.moved", name=combatant)

    @app_commands.command(name="wait", description="Wait and act right after someone (Rol por web)")
    @app_commands.describe(after="Act right after this combatant", combatant="Who waits (GM)")
    @fight()
    async def wait(
        self,
        itx: discord.Interaction[Arbitro],
        after: Combatant,
        combatant: Combatant | None = None,
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.combat.wait(ctx.place, ctx.actor, after, combatant)
        await self._panel(itx, view, note_key="combat.waited", after=after)

    @app_commands.command(
        name="surprise",
        description="Rol por web: roll the surprise of an ambush at the start of the fight (GM)",
    )
    @app_commands.describe(
        ambushers="The side that tries to surprise the other",
        modifier="The GM's modifier to the test (terrain, noise…)",
        discreto="Discreto of the ambushers without a sheet (groups added by name)",
        atento="Atento of the watchers without a sheet (groups added by name)",
    )
    @app_commands.choices(ambushers=SIDE_CHOICES)
    @fight()
    @in_play()
    async def surprise(
        self,
        itx: discord.Interaction[Arbitro],
        ambushers: app_commands.Choice[str],
        modifier: app_commands.Range[int, -20, 20] = 0,
        discreto: app_commands.Range[int, 1, 30] | None = None,
        atento: app_commands.Range[int, 1, 30] | None = None,
    ) -> None:
        ctx = await ctx_of(itx)
        order = SurpriseOrder(ambushers.value, modifier, discreto, atento)
        view = await self.bot.services.surprise.surprise(ctx.place, ctx.actor, order)
        told = await answer(itx, view.secrecy, lambda _seen: view)
        await itx.response.send_message(
            **render_surprise.surprise(told.reply, ctx.locale), ephemeral=told.ephemeral
        )
        if told.gm is not None:  # the sealed values: to the GM (who rolled it) alone
            await itx.followup.send(render_surprise.gm_details(told.gm, ctx.locale), ephemeral=True)

    @app_commands.command(
        name="stand", description="Rol por web: get up from the ground (an Ágil test in a fight)"
    )
    @app_commands.describe(character="Who gets up (default: your active character; the GM: anyone)")
    @fight()
    @in_play()
    async def stand(
        self, itx: discord.Interaction[Arbitro], character: AnyCharacter | None = None
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.bot.services.pain.stand(ctx.place, ctx.actor, character)
        told = await answer(itx, view.secrecy, lambda _seen: view)
        await itx.response.send_message(
            render_pain.stand_text(told.reply.value, ctx.locale),
            ephemeral=told.ephemeral or view.declared_round is not None,  # declared: sealed
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if view.summary is not None:  # getting up was the round's last declaration
            summary = view.summary
            for message in round_panel.round_messages(summary, summary.next, ctx.locale):
                await itx.followup.send(**message)

    @app_commands.command(name="remove", description="Take a combatant out of the fight (GM)")
    @app_commands.describe(combatant="Who")
    @fight()
    async def remove(self, itx: discord.Interaction[Arbitro], combatant: Combatant) -> None:
        ctx = await ctx_of(itx)
        view = await self.combat.remove(ctx.place, ctx.actor, combatant)
        await self._panel(itx, view, note_key="combat.removed", name=combatant)

    @app_commands.command(name="damage", description="Damage a combatant (goes to the sheet)")
    @app_commands.describe(combatant="Who", amount="Points of damage, armour already taken off")
    @fight()
    async def damage(
        self,
        itx: discord.Interaction[Arbitro],
        combatant: Combatant,
        amount: app_commands.Range[int, 1, 10_000],
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.combat.damage(ctx.place, ctx.actor, combatant, amount)
        message = with_undo(render_combat.health(view, ctx.locale), view.undo, ctx.locale)
        await itx.response.send_message(**message)
        secret = render_combat.health_secret(view, ctx.locale)
        if secret:  # a hidden NPC's hit points: to whoever changed them (the GM) alone
            await itx.followup.send(secret, ephemeral=True)
        # rolweb: damage over the pain threshold asks whoever chooses, with buttons
        await ask_pain(
            itx, view.pain, private=False, log_id=view.log_id or 0, user_name=ctx.actor.name
        )

    @app_commands.command(name="heal", description="Heal a combatant (goes to the sheet)")
    @app_commands.describe(
        combatant="Who",
        amount="Points healed",
        force="GM only: heal even the dead (a resurrection)",
    )
    @fight()
    async def heal(
        self,
        itx: discord.Interaction[Arbitro],
        combatant: Combatant,
        amount: app_commands.Range[int, 1, 10_000],
        force: bool = False,
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.combat.heal(ctx.place, ctx.actor, combatant, amount, force=force)
        message = with_undo(render_combat.health(view, ctx.locale), view.undo, ctx.locale)
        await itx.response.send_message(**message)
        secret = render_combat.health_secret(view, ctx.locale)
        if secret:  # a hidden NPC's hit points: to whoever changed them (the GM) alone
            await itx.followup.send(secret, ephemeral=True)
        if view.fight is not None:  # a healed combatant is back in the order: the panel
            await itx.followup.send(**turn_message(view.fight, ctx.locale))

    effect = app_commands.Group(name="effect", description="Effects on a combatant")

    @effect.command(name="add", description="Put an effect on a combatant (same as /effect add)")
    @app_commands.describe(
        combatant="Who",
        name="The effect (e.g. Niebla, Aturdido)",
        rounds="How many rounds it lasts (empty: until removed)",
        modifier="What it modifies, comma-separated: PER-2, Defence+4, attack+1, damage+1d6",
    )
    @fight()
    async def effect_add(
        self,
        itx: discord.Interaction[Arbitro],
        combatant: Combatant,
        name: EffectName,
        rounds: app_commands.Range[int, 1, MAX_ROUNDS] | None = None,
        modifier: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.combat.effect(
            ctx.place, ctx.actor, combatant, name, rounds=rounds, modifier=modifier
        )
        message = with_undo(render_effects.effect_reply(view, ctx.locale), view.undo, ctx.locale)
        await itx.response.send_message(**message)

    @effect.command(name="remove", description="Take an effect off a combatant")
    @app_commands.describe(combatant="Who", name="Which effect")
    @fight()
    async def effect_remove(
        self, itx: discord.Interaction[Arbitro], combatant: Combatant, name: EffectName
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.combat.effect(ctx.place, ctx.actor, combatant, name, remove=True)
        message = with_undo(render_effects.effect_reply(view, ctx.locale), view.undo, ctx.locale)
        await itx.response.send_message(**message)

    @app_commands.command(
        name="deadline", description="How long a turn may wait before a reminder (GM)"
    )
    @app_commands.describe(hours="Hours a turn may wait before a reminder (0: never)")
    @fight()
    async def deadline(
        self, itx: discord.Interaction[Arbitro], hours: app_commands.Range[int, 0, MAX_TURN_HOURS]
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.combat.set_deadline(ctx.place, ctx.actor, hours)
        if hours:
            await self._panel(itx, view, note_key="combat.deadline_set", hours=hours)
        else:
            await self._panel(itx, view, note_key="combat.deadline_off")

    @app_commands.command(name="end", description="End the fight; it is archived (GM)")
    @app_commands.describe(keep_effects="Keep the effects measured in rounds (they end with it)")
    @fight()
    async def end(self, itx: discord.Interaction[Arbitro], keep_effects: bool = False) -> None:
        ctx = await ctx_of(itx)
        asking = Asking(
            itx, ctx.locale, question_key="combat.end_confirm", confirm_key="combat.end_button"
        )
        view = await self.combat.end(ctx.place, ctx.actor, asking, keep_effects=keep_effects)
        if view is None or asking.click is None:
            return
        await asking.click.followup.send(
            **turn_message(view, ctx.locale, note=ctx.t("combat.ended"))
        )


async def setup(bot: Arbitro) -> None:
    bot.add_dynamic_items(InitButton, DeathTestButton, StandButton, round_panel.RedirectButton)
    await bot.add_cog(CombatCog(bot))

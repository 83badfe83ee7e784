"""``/campaign create|show|settings|end``: tie channels to a rule system and a GM.

``/campaign export|import`` (the chronicle) live in :mod:`bot.services.chronicle.service`; here they
only parse options, bound the download and send the file.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import LOCALES, t
from bot.services.campaigns.service import SettingsChange
from bot.services.campaigns.settings import MAX_FILE_TEXT
from bot.services.chronicle.archive import MAX_ARCHIVE_BYTES, ArchiveProblems
from bot.services.chronicle.publication import PUBLISH_TIMER
from bot.services.shared.errors import DomainError, InvalidSetting
from cogs.ui import render, render_campaigns, render_chronicle, render_stats
from cogs.ui.context import bind_target_of, ctx_of
from cogs.ui.cooldowns import fight, heavy
from cogs.ui.handover import HandoverButton, offer_message
from cogs.ui.options import Setting, SettingValue
from cogs.ui.posting_status import posting_notices
from cogs.ui.publishing import Publisher, StopPublicationButton
from cogs.ui.slow import acknowledge, reply
from cogs.ui.views import Asking
from rules import systems

if TYPE_CHECKING:
    from bot.app import Arbitro


def system_choices() -> list[app_commands.Choice[str]]:
    """One choice per registered system (:func:`rules.systems.ids`), named by the system's own
    catalogue file (``<id>.system.choice``): a new system adds no line here."""
    return [
        app_commands.Choice(name=app_commands.locale_str(t(key, "en"), key=key), value=system_id)
        for system_id in systems.ids()
        for key in (f"{system_id}.system.choice",)
    ]


def language_choices() -> list[app_commands.Choice[str]]:
    """One choice per catalogue language (:data:`bot.i18n.LOCALES`), in its own name."""
    return [
        app_commands.Choice(name=t(f"common.language.{lang}", lang), value=lang) for lang in LOCALES
    ]


SYSTEM_CHOICES = system_choices()
#: ``/campaign import publish``: English names here, Spanish ones in commands.toml
PUBLISH_CHOICES = [
    app_commands.Choice(name="Threads with a link to the chronicle", value="links"),
    app_commands.Choice(name="Every post, paced", value="posts"),
    app_commands.Choice(name="Nothing: the chronicle only", value="none"),
]


def thread_parent_of(itx: discord.Interaction[Arbitro]) -> int | None:
    """Where an imported game's scene threads go: this forum or text channel (or the one
    this thread is in), as ``/scene open`` does; None elsewhere."""
    channel = itx.channel
    if isinstance(channel, discord.Thread):
        channel = channel.parent
    if isinstance(channel, discord.ForumChannel | discord.TextChannel):
        return channel.id
    return None


#: what ``/campaign settings clear`` removes: English names here, Spanish ones in commands.toml
CLEAR_CHOICES = [
    app_commands.Choice(name="GM role", value="gm_role"),
    app_commands.Choice(name="GM channel", value="gm_channel"),
    app_commands.Choice(name="Off-topic channel", value="off_topic"),
]
# Discord's smallest upload limit for a bot's message (a server without boosts).
DEFAULT_UPLOAD_LIMIT = 10 * 1024 * 1024


def chain_of(channel: discord.TextChannel | discord.Thread) -> tuple[int, ...]:
    """The ids a campaign may be bound to for ``channel`` (as :func:`place_of` builds them)."""
    ids: tuple[int | None, ...]
    if isinstance(channel, discord.Thread):
        ids = (channel.id, channel.parent_id, getattr(channel.parent, "category_id", None))
    else:
        ids = (channel.id, channel.category_id)
    return tuple(dict.fromkeys(i for i in ids if i is not None))


async def read_setting_file(file: discord.Attachment) -> str:
    """An uploaded setting value: UTF-8 text of at most 64 KiB."""
    if file.size > MAX_FILE_TEXT:
        raise InvalidSetting("campaign.error.file_too_big", limit=MAX_FILE_TEXT // 1024)
    try:
        return (await file.read()).decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidSetting("campaign.error.file_not_text") from None


@app_commands.guild_only()
class CampaignCog(
    commands.GroupCog,
    group_name="campaign",
    group_description="Campaigns: create, show, settings, list, end, reopen, export, import, stats",
):
    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot
        self.service = bot.services.campaigns
        self.publisher = Publisher(bot)
        super().__init__()

    async def cog_load(self) -> None:
        # an imported Umbría game posted into Discord, one paced step per firing
        self.bot.services.timers.register(PUBLISH_TIMER, self.publisher.fire)

    @app_commands.command(
        name="create", description="Bind this channel, forum or category to a new campaign"
    )
    @app_commands.describe(
        name="The campaign's name",
        system="The rule system",
        category="Bind the whole category this channel is in (default: only this channel or forum)",
    )
    @app_commands.choices(system=SYSTEM_CHOICES)
    @app_commands.default_permissions(manage_channels=True)
    async def create(
        self,
        itx: discord.Interaction[Arbitro],
        name: app_commands.Range[str, 1, 100],
        system: app_commands.Choice[str],
        category: bool = False,
    ) -> None:
        ctx = await ctx_of(itx)
        target_id, kind = bind_target_of(itx, category)
        view = await self.service.create(
            ctx.place,
            ctx.actor,
            name=name,
            system=system.value,
            target_id=target_id,
            kind=kind,
        )
        message = render.campaign(
            view,
            ctx.locale,
            headline_key="campaign.created",
            description=ctx.t("campaign.created_help"),
        )
        await itx.response.send_message(**message)

    @app_commands.command(name="show", description="Show the campaign of this channel")
    @app_commands.describe(setting="One rule, explained (its value, default and choices)")
    async def show(self, itx: discord.Interaction[Arbitro], setting: Setting | None = None) -> None:
        ctx = await ctx_of(itx)
        view = await self.service.show(ctx.place)
        if setting is not None:  # one rule with its explanation (the list may be too long)
            await reply(itx, ctx.locale, **render.campaign_rule(view, setting, ctx.locale))
            return
        message = render.campaign(view, ctx.locale)
        notices = posting_notices(self.bot, view, itx.app_permissions, ctx.locale)
        if notices:  # what the GM must grant or enable for /post and typed posts
            message["content"] = "\n".join(notices)
        await itx.response.send_message(**message)

    @app_commands.command(name="settings", description="Change the campaign's settings (GM)")
    @app_commands.describe(
        gm_role="Members with this role act as GM",
        gm_channel="Channel that receives a copy of private rolls",
        language="Language for members whose Discord language is neither Spanish nor English",
        setting="A rule or setting of the campaign (suggested with its current value)",
        value="The new value for that setting",
        clear="Remove the GM role, the GM channel or the off-topic channel",
        file="A text or JSON file as the setting's value (e.g. the campaign's own weapon list)",
        off_topic="Channel or forum post for out-of-character talk (no posts as characters)",
    )
    @app_commands.choices(language=language_choices(), clear=CLEAR_CHOICES)
    async def settings(
        self,
        itx: discord.Interaction[Arbitro],
        gm_role: discord.Role | None = None,
        gm_channel: discord.TextChannel | None = None,
        language: app_commands.Choice[str] | None = None,
        setting: Setting | None = None,
        value: SettingValue | None = None,
        clear: app_commands.Choice[str] | None = None,
        file: discord.Attachment | None = None,
        off_topic: discord.TextChannel | discord.Thread | None = None,
    ) -> None:
        ctx = await ctx_of(itx)
        cleared = clear.value if clear else None
        if file is not None:
            if value is not None:
                raise InvalidSetting("campaign.error.value_or_file")
            await acknowledge(itx)  # the download may take a while
            value = await read_setting_file(file)
        if (setting is None) != (value is None):
            raise InvalidSetting("campaign.error.setting_needs_value")
        view = await self.service.update_settings(
            ctx.place,
            ctx.actor,
            SettingsChange(
                gm_role_id=gm_role.id if gm_role else None,
                gm_channel_id=gm_channel.id if gm_channel else None,
                locale=language.value if language else None,
                system_setting=(setting, value)
                if setting is not None and value is not None
                else None,
                from_file=file is not None,
                clear_gm_role=cleared == "gm_role",
                clear_gm_channel=cleared == "gm_channel",
                off_topic_channel_id=off_topic.id if off_topic else None,
                off_topic_chain=chain_of(off_topic) if off_topic else (),
                clear_off_topic=cleared == "off_topic",
            ),
        )
        await reply(
            itx, ctx.locale, **render.campaign(view, ctx.locale, headline_key="campaign.updated")
        )

    @app_commands.command(name="end", description="Archive the campaign; nothing is deleted (GM)")
    async def end(self, itx: discord.Interaction[Arbitro]) -> None:
        ctx = await ctx_of(itx)
        asking = Asking(
            itx,
            ctx.locale,
            question_key="campaign.end_confirm",
            confirm_key="campaign.end_confirm_button",
        )
        view = await self.service.end(ctx.place, ctx.actor, asking)
        click = asking.click
        if view is None or click is None:
            return
        await click.edit_original_response(content=ctx.t("common.done"))
        await click.followup.send(
            **render.campaign(view, ctx.locale, headline_key="campaign.ended")
        )

    @app_commands.command(
        name="export",
        description="Download the campaign's chronicle: scenes, characters, XP, rolls (GM)",
    )
    @app_commands.checks.cooldown(1, 60, key=lambda itx: (itx.guild_id, itx.user.id))
    async def export(self, itx: discord.Interaction[Arbitro]) -> None:
        ctx = await ctx_of(itx)
        limit = itx.guild.filesize_limit if itx.guild else DEFAULT_UPLOAD_LIMIT

        async def started() -> None:  # reading and zipping a long campaign takes a while
            await acknowledge(itx)

        chronicle = await self.bot.services.chronicle.export(
            ctx.place, ctx.actor, ctx.locale, limit, started
        )
        # one message per part, each within the upload limit (the GM channel has the same);
        # the first says what the export holds, even when the first part could not be sent
        count = len(chronicle.parts)
        head = render_chronicle.exported(chronicle, chronicle.campaign_name, ctx.locale)
        for number, (filename, payload) in enumerate(chronicle.parts, start=1):
            text = head if number == 1 else render_chronicle.part_sent(number, count, ctx.locale)
            if len(payload) > chronicle.limit:
                text += "\n" + render_chronicle.too_big(
                    chronicle, filename, len(payload), ctx.locale
                )
                await itx.followup.send(text, ephemeral=True)
                continue
            await itx.followup.send(
                text, file=discord.File(io.BytesIO(payload), filename=filename), ephemeral=True
            )

    @app_commands.command(
        name="import", description="Restore an exported chronicle here as a new campaign you run"
    )
    @app_commands.describe(
        file="The zip made by /campaign export, or a Comunidad Umbría game's saved pages",
        name="Another name for the campaign (default: the chronicle's or the game's)",
        category="Bind the whole category this channel is in (default: only this channel or forum)",
        system="The rule system of an Umbría game (Umbría does not say it)",
        publish="Umbría scenes in Discord: threads linking the chronicle (default), every post, or none",
    )
    @app_commands.choices(system=SYSTEM_CHOICES, publish=PUBLISH_CHOICES)
    @app_commands.default_permissions(manage_channels=True)
    # two a minute: a refused file (the problems listed) can be fixed and sent again at once
    @app_commands.checks.cooldown(2, 60, key=lambda itx: (itx.guild_id, itx.user.id))
    async def import_(
        self,
        itx: discord.Interaction[Arbitro],
        file: discord.Attachment,
        name: app_commands.Range[str, 1, 100] | None = None,
        category: bool = False,
        system: app_commands.Choice[str] | None = None,
        publish: app_commands.Choice[str] | None = None,
    ) -> None:
        ctx = await ctx_of(itx)
        chronicle = self.bot.services.chronicle
        chronicle.may_import(ctx.actor)
        if file.size > MAX_ARCHIVE_BYTES:
            raise DomainError("chronicle.error.file_too_big", limit=MAX_ARCHIVE_BYTES // 2**20)
        target_id, kind = bind_target_of(itx, category)
        await acknowledge(itx)  # the download, the checks and the writes take a while
        payload = await file.read()
        try:
            summary = await chronicle.import_archive(
                ctx.place,
                ctx.actor,
                payload,
                target_id=target_id,
                kind=kind,
                name=name,
                system=system.value if system else None,
                publish=publish.value if publish else "links",
                parent_id=thread_parent_of(itx),
            )
        except ArchiveProblems as error:
            await itx.followup.send(render_chronicle.problems(error, ctx.locale), ephemeral=True)
            return
        await reply(itx, ctx.locale, **render_chronicle.imported_message(summary, ctx.locale))

    @app_commands.command(
        name="list", description="This server's campaigns, archived ones too, with their dates"
    )
    @app_commands.describe(archived="Include archived campaigns (default: yes)")
    async def list_(self, itx: discord.Interaction[Arbitro], archived: bool = True) -> None:
        ctx = await ctx_of(itx)
        rows = await self.bot.services.campaign_archive.list(ctx.place, archived=archived)
        await itx.response.send_message(
            **render_campaigns.campaign_list(rows, ctx.locale), ephemeral=True
        )

    @app_commands.command(
        name="transfer", description="Hand the campaign to another member, who accepts it (GM)"
    )
    @app_commands.describe(member="Who will be the campaign's GM (they accept with a button)")
    @fight()
    async def transfer(self, itx: discord.Interaction[Arbitro], member: discord.Member) -> None:
        ctx = await ctx_of(itx)
        offer = await self.bot.services.handover.offer(
            ctx.place, ctx.actor, member.id, member_is_bot=member.bot
        )
        await itx.response.send_message(**offer_message(offer, ctx.locale))

    @app_commands.command(
        name="stats", description="The table at a glance: posts, answers, scenes waiting, luck"
    )
    @app_commands.describe(
        public="Post the players' version in the channel (GM; only what everyone may see)"
    )
    @heavy()
    async def stats(self, itx: discord.Interaction[Arbitro], public: bool = False) -> None:
        ctx = await ctx_of(itx)
        members = itx.guild.members if itx.guild else ()
        view = await self.bot.services.stats.campaign_stats(
            ctx.place,
            ctx.actor,
            locale=ctx.locale,
            public=public,
            names={m.id: m.display_name for m in members if not m.bot},
            started=lambda: acknowledge(itx),
        )
        await reply(itx, ctx.locale, ephemeral=not public, **render_stats.stats(view, ctx.locale))

    @app_commands.command(name="reopen", description="Reopen an archived campaign (its GM)")
    @app_commands.describe(name="The archived campaign's name")
    @fight()
    async def reopen(
        self, itx: discord.Interaction[Arbitro], name: app_commands.Range[str, 1, 100]
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.bot.services.campaign_archive.reopen(ctx.place, ctx.actor, name)
        await itx.response.send_message(
            **render.campaign(view, ctx.locale, headline_key="flows.reopened")
        )


async def setup(bot: Arbitro) -> None:
    # Fail at load time, not at the first command, if a system is missing.
    for system_id in systems.ids():
        systems.get(system_id)
    bot.add_dynamic_items(HandoverButton)
    await bot.add_cog(CampaignCog(bot))
    bot.add_dynamic_items(StopPublicationButton)

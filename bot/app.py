"""The Discord client: owns the database engine and the services, loads the cogs, syncs.

Slash commands only, so the gateway intents are the minimum (guilds, for the channel and
thread cache that campaign lookups walk); no privileged intent is needed.
"""

from __future__ import annotations

import logging
import random

import discord
from discord.ext import commands
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.compute import ComputePool
from bot.config import DEFAULT_RETENTION_DAYS, Config
from bot.db.engine import session_factory
from bot.services.campaign_context import CampaignContextService
from bot.services.campaigns import CampaignService
from bot.services.characters import CharacterService
from bot.services.checks import CheckService
from bot.services.combat import CombatService
from bot.services.creation import CreationService
from bot.services.privacy import PrivacyService
from bot.services.retention import RetentionService
from bot.services.rolls import RollService
from bot.services.sheet_writes import SheetWriter
from bot.services.spells import SpellService
from bot.services.xp import XpService
from bot.translator import CatalogueTranslator

__all__ = ["Arbitro", "EXTENSIONS"]

log = logging.getLogger(__name__)

EXTENSIONS = (
    "cogs.errors",
    "cogs.campaign",
    "cogs.dice",
    "cogs.sheets",
    "cogs.npc",
    "cogs.checks",
    "cogs.xp",
    "cogs.combat",
    "cogs.spells",
    "cogs.privacy",
)


class Services:
    """Every use-case object, built once per process around one session factory."""

    def __init__(
        self,
        engine: AsyncEngine,
        rng: random.Random | None = None,
        *,
        retention_days: int = DEFAULT_RETENTION_DAYS,
        compute: ComputePool | None = None,
    ) -> None:
        self.sessions = session_factory(engine)
        self.compute = compute or ComputePool()
        self.campaigns = CampaignService(self.sessions)
        self.contexts = CampaignContextService(self.campaigns)
        self.writer = SheetWriter(self.sessions, self.contexts)
        self.characters = CharacterService(
            self.sessions, self.campaigns, self.contexts, self.writer
        )
        self.rolls = RollService(
            self.sessions,
            self.campaigns,
            rng,
            self.compute,
            active_name=self.characters.active_name,
        )
        self.creation = CreationService(self.sessions, self.characters, rng)
        self.checks = CheckService(self.sessions, self.characters, rng)
        self.xp = XpService(self.sessions, self.characters)
        self.combat = CombatService(self.sessions, self.characters, rng)
        self.spells = SpellService(self.sessions, self.characters, rng)
        self.privacy = PrivacyService(self.sessions)
        self.retention = RetentionService(self.sessions, retention_days)


class Arbitro(commands.Bot):
    def __init__(self, config: Config, engine: AsyncEngine) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.config = config
        self.engine = engine
        self.services = Services(engine, retention_days=config.retention_days)
        self.failed_extensions: list[str] = []

    async def setup_hook(self) -> None:
        await self.services.compute.start()
        await self.tree.set_translator(CatalogueTranslator())
        for extension in EXTENSIONS:
            try:
                await self.load_extension(extension)
            except Exception:
                # One broken cog must not take the others down; the log says which.
                log.exception("could not load extension %s", extension)
                self.failed_extensions.append(extension)
        await self.sync_commands()

    async def close(self) -> None:
        """Stops the gateway first, then the worker process (no job outlives the bot)."""
        try:
            await super().close()
        finally:
            await self.services.compute.close()

    async def sync_commands(self) -> None:
        if self.config.dev_guild_id:
            guild = discord.Object(id=self.config.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), self.config.dev_guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands", len(synced))

    async def on_ready(self) -> None:
        log.info(
            "ready as %s (%s) in %d guilds",
            self.user,
            getattr(self.user, "id", "?"),
            len(self.guilds),
        )

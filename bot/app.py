"""The Discord client: owns the database engine and the services, loads the cogs, syncs.

Slash commands need only the guilds intent (the channel and thread cache that campaign
lookups walk).  With ``ARBITRO_MESSAGE_CONTENT`` the bot also asks for guild messages and
the privileged Message Content intent, so campaigns may post by typing (issue 24); if the
Developer Portal has not enabled it, Discord closes the gateway with 4014 and ``python -m bot``
starts again without it (:attr:`Arbitro.message_content_refused`).

The client is always discord.py's ``AutoShardedBot``: with ``SHARD_COUNT``/``SHARD_IDS`` it
connects only its shards (Discord then sends it only their guilds' events); without them it
is one shard of one, which Discord treats as an unsharded bot serving every guild.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import random
from datetime import timedelta

import discord
from discord.ext import commands
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.compute import ComputePool
from bot.config import DEFAULT_RETENTION_DAYS, Config, Shards
from bot.db.engine import session_factory
from bot.services.campaigns.archive import CampaignArchive
from bot.services.campaigns.context import CampaignContextService
from bot.services.campaigns.handover import HandoverService
from bot.services.campaigns.service import CampaignService
from bot.services.chronicle.claims import ClaimService
from bot.services.chronicle.publication import PACE, START_DELAY, PublicationService
from bot.services.chronicle.service import ChronicleService
from bot.services.play.abilities import AbilityService
from bot.services.play.attacks import AttackService
from bot.services.play.checks import CheckService
from bot.services.play.combat import CombatService
from bot.services.play.effects import EffectService
from bot.services.play.inline import InlineRollService
from bot.services.play.pain import PainService
from bot.services.play.recovery import RecoveryService
from bot.services.play.rolls import RollService
from bot.services.play.rounds import RoundService
from bot.services.play.spells import SpellService
from bot.services.play.surprise import SurpriseService
from bot.services.privacy.privacy import PrivacyService
from bot.services.privacy.retention import RetentionService
from bot.services.shared.timers import DEFAULT_LEASE, TimerService
from bot.services.sheets.approvals import ApprovalService
from bot.services.sheets.characters import CharacterService
from bot.services.sheets.creation import CreationService
from bot.services.sheets.exchange import SheetExchangeService
from bot.services.sheets.levelup import LevelUpService
from bot.services.sheets.macros import MacroService
from bot.services.sheets.npcs import NpcService
from bot.services.sheets.options import SheetOptionService
from bot.services.sheets.profiles import ProfileService
from bot.services.sheets.proxy_tags import ProxyTagService
from bot.services.sheets.undo import UndoService
from bot.services.sheets.writes import SheetWriter
from bot.services.sheets.xp import XpService
from bot.services.table.pace import PaceService
from bot.services.table.posting import PostingService
from bot.services.table.requests import RequestService
from bot.services.table.scenes import SceneService
from bot.services.table.stats import StatsService
from bot.services.table.typing import TypedPostService
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
    "cogs.attack",
    "cogs.spells",
    "cogs.effects",
    "cogs.privacy",
    "cogs.undo",
    "cogs.abilities",
    "cogs.recovery",
    "cogs.requests",
    "cogs.pace",
    "cogs.scenes",
    "cogs.post",
    "cogs.typing",
    "cogs.proxy",
    "cogs.macro",
    "cogs.help",
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
        shards: Shards | None = None,
        timer_lease: timedelta = DEFAULT_LEASE,
        timer_poll: float = 300.0,
        publish_pace: timedelta = PACE,
        publish_delay: timedelta = START_DELAY,
    ) -> None:
        # One generator for every service: the test's seeded one, or the operating system's
        # (players' rolls must not be predictable from earlier ones).
        rng = rng or random.SystemRandom()
        self.sessions = session_factory(engine)
        # the one scheduler: durable timers of this process's shards (turn reminders, pace
        # watches and digests, NPC returns, guild purges)
        self.timers = TimerService(self.sessions, shards, lease=timer_lease, poll=timer_poll)
        self.compute = compute or ComputePool()
        self.campaigns = CampaignService(self.sessions)
        self.campaign_archive = CampaignArchive(self.campaigns)
        self.handover = HandoverService(self.campaigns)
        self.contexts = CampaignContextService(self.campaigns)
        self.writer = SheetWriter(self.sessions, self.contexts)
        self.characters = CharacterService(
            self.sessions, self.campaigns, self.contexts, self.writer
        )
        self.npcs = NpcService(self.characters, rng)
        self.sheet_exchange = SheetExchangeService(self.characters)
        self.sheet_options = SheetOptionService(self.contexts)
        self.rolls = RollService(
            self.sessions,
            self.campaigns,
            rng,
            self.compute,
            active_name=self.characters.active_name,
        )
        self._play(rng)
        self.privacy = PrivacyService(self.sessions)
        self.undo = UndoService(self.sessions, self.contexts, self.writer)
        self.levelup = LevelUpService(self.sessions, self.contexts, self.writer, rng)
        self.retention = RetentionService(self.sessions, retention_days, self.timers)
        self._table(publish_pace, publish_delay)

    def _play(self, rng: random.Random) -> None:
        """Play at the table: creation, checks, XP, effects, fights, attacks, spells."""
        self.creation = CreationService(self.sessions, self.characters, rng)
        self.checks = CheckService(
            self.sessions, self.characters, rng, log_writes=self.rolls.log_writes
        )
        self.xp = XpService(self.sessions, self.characters)
        self.effects = EffectService(self.characters)
        self.combat = CombatService(
            self.sessions, self.characters, rng, self.timers, effects=self.effects
        )
        self.attacks = AttackService(self.sessions, self.characters, rng, self.rolls)
        self.surprise = SurpriseService(self.sessions, self.characters, rng)
        # the pain threshold's choice and getting up (rolweb, issue 23 §1)
        self.pain = PainService(self.characters, rng)
        self.spells = SpellService(self.sessions, self.characters, rng, attacks=self.attacks)
        self.abilities = AbilityService(self.sessions, self.characters, rng)
        # healing between fights (issue 23 §3): rest, catching breath, the GM's heal
        self.recovery = RecoveryService(self.sessions, self.characters, self.combat, rng)
        self.abilities.panel = self.spells.panel = self.recovery.panel
        # rounds of declarations (issue 25 §1): builds on the tracker and the acts declared
        self.rounds = RoundService(
            self.sessions, self.combat, self.attacks, self.timers, self.checks, self.spells,
            self.abilities,
        )  # fmt: skip
        self.pain.resume_round = self.rounds.after_choice  # a round paused for a choice
        self.pain.close_round = self.rounds.close  # getting up may be its last declaration
        self.rounds.pain = self.pain

    def _table(self, publish_pace: timedelta, publish_delay: timedelta) -> None:
        """The play-by-post table and the chronicle: requests, approvals, pace, scenes,
        publication, posts and profiles."""
        self.requests = RequestService(self.sessions, self.characters, self.checks)
        self.approvals = ApprovalService(self.sessions, self.campaigns)
        self.pace = PaceService(self.sessions, self.campaigns, self.timers)
        self.stats = StatsService(self.sessions, self.campaigns, self.compute)
        self.campaigns.follow_settings(self.pace.follow)  # the pace timers follow the settings
        self.scenes = SceneService(self.sessions, self.campaigns)
        self.publication = PublicationService(
            self.sessions, self.timers, pace=publish_pace, delay=publish_delay
        )
        self.chronicle = ChronicleService(
            self.sessions, self.campaigns, self.compute, self.publication
        )
        self.claims = ClaimService(self.sessions, self.campaigns)
        self.profiles = ProfileService(self.sessions, self.campaigns, self.characters)
        self.macros = MacroService(self.sessions, self.characters)
        self.inline = InlineRollService(self.rolls, self.checks, self.macros)
        self.posting = PostingService(
            self.sessions, self.campaigns, self.rolls, self.checks, self.scenes, self.inline
        )
        self.proxy_tags = ProxyTagService(self.sessions, self.campaigns)
        self.typing = TypedPostService(
            self.sessions, self.campaigns, self.scenes, self.posting, self.proxy_tags
        )


def freeze_startup_objects() -> None:
    """Leave everything alive at start-up (modules, models, the catalogue, the guild caches)
    out of the garbage collector's full collections from now on.

    A full (oldest-generation) collection walks every tracked object: in the bot that took
    about 100 ms, during which no interaction is answered, so one landing in a burst of rolls
    added 100 ms to that burst's slowest answers (issue 14 §1, measured with ``gc.callbacks``
    under ``benchmarks/roll_load_bench.py``: 108 ms before, 11 ms after).  The objects of
    start-up live as long as the process anyway.  Garbage is collected first, so none of it is
    kept forever; that one collection is the last long pause.
    """
    gc.collect()
    gc.freeze()


def gateway_intents(reads_messages: bool) -> discord.Intents:
    """Guilds always; members' messages and their content only for typing mode."""
    intents = discord.Intents.none()
    intents.guilds = True
    if reads_messages:
        intents.guild_messages = True
        intents.message_content = True
    return intents


class Arbitro(commands.AutoShardedBot):
    def __init__(
        self, config: Config, engine: AsyncEngine, *, message_content_refused: bool = False
    ) -> None:
        #: The deployment asked for members' messages (``ARBITRO_MESSAGE_CONTENT``) and
        #: Discord gave them: typing mode can work.
        self.reads_messages = config.message_content and not message_content_refused
        #: Discord refused the Message Content intent (4014): ``/campaign show`` says so.
        self.message_content_refused = message_content_refused
        intents = gateway_intents(self.reads_messages)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            # Text users typed (names, reasons, notes) never pings anyone: every message,
            # follow-up and webhook post mentions nobody unless it allows one user on purpose
            # (the turn and reminder pings of cogs/combat.py).
            allowed_mentions=discord.AllowedMentions.none(),
            shard_count=config.shards.count,
            shard_ids=list(config.shards.ids),
        )
        self.config = config
        self.engine = engine
        self.services = Services(
            engine,
            retention_days=config.retention_days,
            shards=config.shards,
            timer_lease=timedelta(seconds=config.timer_lease_seconds),
            timer_poll=config.timer_poll_seconds,
            publish_pace=timedelta(milliseconds=config.publish_pace_ms),
            publish_delay=timedelta(seconds=config.publish_delay_seconds),
        )
        self.failed_extensions: list[str] = []
        self._timers: asyncio.Task[None] | None = None
        self._frozen = False  # freeze_startup_objects() ran (at the first on_ready)

    async def _run_timers(self) -> None:
        """Fire this process's durable timers once connected (handlers come from the cogs)."""
        await self.wait_until_ready()
        await self.services.timers.run()

    async def setup_hook(self) -> None:
        # The worker process spawns while the extensions load and the commands sync (a spawn
        # takes a few tenths of a second of its own): connecting waits for the slower of the two,
        # not for both one after the other.
        warm_up = asyncio.create_task(self.services.compute.start(), name="compute-warm-up")
        await self.tree.set_translator(CatalogueTranslator())
        for extension in EXTENSIONS:
            try:
                await self.load_extension(extension)
            except Exception:
                # One broken cog must not take the others down; the log says which.
                log.exception("could not load extension %s", extension)
                self.failed_extensions.append(extension)
        self._timers = asyncio.create_task(self._run_timers(), name="durable-timers")
        await self.sync_commands()
        await warm_up

    async def close(self) -> None:
        """Stops the gateway first, then the worker process (no job outlives the bot)."""
        if self._timers is not None:
            self._timers.cancel()
        try:
            await super().close()
        finally:
            try:
                await self.services.rolls.drain()  # the rolls and links already accepted
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
        if not self._frozen:
            self._frozen = True
            freeze_startup_objects()

"""Campaign use cases: create, find, show, change settings, end (archive).

A campaign is found from where a command is used (:class:`Place`): the most specific bound
id wins (thread, then channel or forum, then category).  Every query filters by guild.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import Table, text, update
from sqlalchemy import select as core_select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import Campaign, CampaignBinding, Scene, saved_id, utcnow
from bot.formatting import DEFAULT_TIME_ZONE, valid_time_zone
from bot.i18n import LOCALES
from bot.services.campaigns.cache import cache_for, campaign_of
from bot.services.campaigns.settings import (
    MAX_FILE_TEXT,
    MAX_TEXT,
    check_settings,
    parse_setting,
    resolved_settings,
)
from bot.services.shared.context import Actor, Confirm, Place
from bot.services.shared.errors import (
    AlreadyBound,
    DomainError,
    InvalidSetting,
    NoCampaign,
    NotAllowed,
    NotReferee,
)
from bot.services.shared.labels import Named, resolve
from bot.services.shared.retry import retrying
from bot.services.shared.versioned import StaleWrite, update_versioned
from rules import systems
from rules.names import display
from rules.systems.base import FieldKind, SettingSpec
from rules.text import fold_words, name_problem, plain_spaces

__all__ = [
    "TIME_ZONE",
    "setting_key",
    "SettingsChange",
    "CampaignService",
    "CampaignView",
    "SettingView",
    "is_referee",
]

T = TypeVar("T")

BIND_KINDS = ("channel", "forum", "category")
_CAMPAIGN: Table = Campaign.__table__  # type: ignore[attr-defined]  # set by table=True, undeclared
_BINDING: Table = CampaignBinding.__table__  # type: ignore[attr-defined]  # set by table=True, undeclared
#: ``active`` written as the partial index ``uq_active_binding`` states it: SQLAlchemy renders
#: a bare boolean column as ``active = 1`` on SQLite, which SQLite does not match to the
#: index's ``WHERE active`` (tests/bot/test_query_plans.py).
ACTIVE_BINDING = text("campaign_binding.active")


@dataclass(frozen=True, slots=True)
class SettingView:
    key: str
    value: Any
    default: Any
    kind: str
    choices: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CampaignView:
    id: int
    name: str
    system: str
    system_name: str
    gm_user_id: int
    gm_role_id: int | None
    gm_channel_id: int | None
    off_topic_channel_id: int | None
    locale: str | None
    status: str
    created_at: datetime
    ended_at: datetime | None
    bindings: tuple[tuple[int, str], ...]
    settings: tuple[SettingView, ...]
    version: int


def is_referee(campaign: Campaign, actor: Actor) -> bool:
    """The campaign's GM, anyone with its GM role, or a server administrator."""
    return (
        actor.user_id == campaign.gm_user_id
        or (campaign.gm_role_id is not None and campaign.gm_role_id in actor.role_ids)
        or actor.is_admin
    )


#: Settings every campaign has, whatever its system (``/campaign settings``).
CHARACTER_CAP = "personajes_por_jugador"
SHOW_NUMBERS = "mostrar_numeros"
#: New player characters wait for the GM's approval before they play (issue 12 §2b).
APPROVE_CHARACTERS = "aprobar_personajes"
# Play-by-post pace (bot.services.table.pace): hours a character may keep a scene waiting before
# its player is reminded (0: no reminders), and the GM's digest: first hour (UTC) and interval.
PACE_DEADLINE = "plazo_publicacion"
DIGEST_HOUR = "resumen_hora"
DIGEST_EVERY = "resumen_cada"
#: The campaign's IANA time zone: dates are shown and typed in it (bot/formatting.py).
TIME_ZONE = "zona_horaria"
#: Whether players rest (/spell rest) and change their own money (/sheet money) themselves,
#: or only the GM does (issue 13 §3); on by default, as before.
FREE_REST = "descanso_libre"
FREE_MONEY = "dinero_libre"
#: Messages typed in a scene post as the character (issue 24): off by default, so nothing
#: changes for a campaign until its GM turns it on (and the deployment reads messages).
TYPED_POSTS = "escribir_como_personaje"
#: A ``[[1d20]]`` in an ordinary message of the campaign (outside a scene) is rolled and
#: answered as ``/roll`` would (issue 24 §3); off by default.
INLINE_ROLLS = "tiradas_en_mensajes"
#: How the tracker referees acts out of turn or beyond the turn's actions (issue 23 §1):
#: ``rechazar`` refuses them (the GM's ``forzar`` lets one through), ``advertir`` lets them
#: happen with a warning in the reply, ``libre`` does not count.
TURN_ACTIONS = "acciones_por_turno"
TURN_ACTION_MODES = ("rechazar", "advertir", "libre")
#: Players may read the table's stats (``/campaign stats``, issue 25 §3): the players'
#: version, made of what every member may see; off by default (the GM's alone).
PLAYER_STATS = "estadisticas_jugadores"
#: How a fight is played by default (issue 25 §1; ``/init start mode`` chooses per fight):
#: ``automatico`` by rounds of declarations where the campaign is bound to a forum (the
#: play-by-post table), turn by turn elsewhere (live play); or always one of them.
FIGHT_MODE = "modo_combate"
FIGHT_MODES = ("automatico", "turnos", "declaraciones")
#: How long a round of declarations lasts, in hours, when the fight has no ``/init deadline``.
ROUND_HOURS = "plazo_asalto"
#: What a combatant who declared nothing does when its round resolves: ``esperar`` (hold) or
#: ``repetir`` (its standing order: what it did the round before, with new dice).
DEFAULT_ACTION = "accion_por_defecto"
DEFAULT_ACTIONS = ("esperar", "repetir")
#: Players change their characters' health and resources (current hit points, wounds, spent
#: mana or slots, the day's powers: the system's ``Recovery.guarded_paths``) only through the
#: commands that apply the rules — damage, healing, rest, spells — never by ``/sheet set`` or
#: ``/sheet import replace:true`` (issue 23 §3); on by default.  The GM always may.
HEALTH_BY_COMMANDS = "salud_por_comandos"
COMMON_SETTINGS: tuple[SettingSpec, ...] = (
    SettingSpec(CHARACTER_CAP, FieldKind.INTEGER, 10, minimum=1, maximum=100),
    # /attack on a hidden NPC: players see its AC/Defensa, target number and hit points.
    SettingSpec(SHOW_NUMBERS, FieldKind.BOOLEAN, False),
    SettingSpec(APPROVE_CHARACTERS, FieldKind.BOOLEAN, False),
    SettingSpec(PACE_DEADLINE, FieldKind.INTEGER, 0, minimum=0, maximum=720),
    SettingSpec(DIGEST_HOUR, FieldKind.INTEGER, 9, minimum=0, maximum=23),
    SettingSpec(DIGEST_EVERY, FieldKind.INTEGER, 24, minimum=0, maximum=168),
    SettingSpec(TIME_ZONE, FieldKind.TEXT, DEFAULT_TIME_ZONE),
    SettingSpec(FREE_REST, FieldKind.BOOLEAN, True),
    SettingSpec(FREE_MONEY, FieldKind.BOOLEAN, True),
    SettingSpec(TYPED_POSTS, FieldKind.BOOLEAN, False),
    SettingSpec(INLINE_ROLLS, FieldKind.BOOLEAN, False),
    SettingSpec(TURN_ACTIONS, FieldKind.CHOICE, "rechazar", TURN_ACTION_MODES),
    SettingSpec(PLAYER_STATS, FieldKind.BOOLEAN, False),
    SettingSpec(FIGHT_MODE, FieldKind.CHOICE, "automatico", FIGHT_MODES),
    SettingSpec(ROUND_HOURS, FieldKind.INTEGER, 48, minimum=1, maximum=336),
    SettingSpec(DEFAULT_ACTION, FieldKind.CHOICE, "esperar", DEFAULT_ACTIONS),
    SettingSpec(HEALTH_BY_COMMANDS, FieldKind.BOOLEAN, True),
)


def _chain_from(chain: tuple[int, ...], target_id: int) -> tuple[int, ...]:
    """The ids ``target_id`` inherits a campaign from: itself and what contains it."""
    if target_id in chain:
        return chain[chain.index(target_id) :]
    return (target_id,)


def setting_specs(system_id: str) -> tuple[SettingSpec, ...]:
    return (*systems.get(system_id).settings(), *COMMON_SETTINGS)


def campaign_time_zone(campaign: Campaign | None) -> str:
    """The IANA zone the campaign's dates are shown and typed in (bot/formatting.py)."""
    stored = (campaign.settings or {}).get(TIME_ZONE) if campaign is not None else None
    return str(stored) if stored else DEFAULT_TIME_ZONE


def setting_key(system_id: str, typed: str) -> str:
    """The setting a GM means: its key (``monjes_permitidos``), its display name in either
    language («Monjes permitidos», «monks allowed») or a unique beginning of either, compared
    folded (:func:`bot.services.shared.labels.resolve`; several settings for one beginning are
    refused with their names).  Text naming none comes back as typed."""
    named = tuple(
        Named(spec.key, {loc: display(system_id, "setting", spec.key, loc) for loc in LOCALES})
        for spec in setting_specs(system_id)
    )
    # a key typed with spaces («monjes permitidos» for monjes_permitidos) is the key
    keyed = fold_words(typed).replace(" ", "_")
    return resolve(keyed, named) or resolve(typed, named) or typed


@dataclass(frozen=True, slots=True)
class SettingsChange:
    """What one ``/campaign settings`` asks to change; ``None`` (or ``False``) leaves it.

    ``system_setting`` is one rule of the system as ``(key, typed text)``; ``from_file`` says
    the text came from an uploaded file (a longer limit); ``clear_*`` remove the GM role,
    the GM channel or the off-topic channel (``off_topic_channel_id``: out-of-character talk,
    no posts as characters, no reminders).
    """

    gm_role_id: int | None = None
    gm_channel_id: int | None = None
    locale: str | None = None
    system_setting: tuple[str, str] | None = None
    from_file: bool = False
    clear_gm_role: bool = False
    clear_gm_channel: bool = False
    off_topic_channel_id: int | None = None
    off_topic_chain: tuple[int, ...] = ()  # the channel and what contains it (its campaign)
    clear_off_topic: bool = False


class CampaignService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions
        self.cache = cache_for(sessions.kw["bind"].sync_engine)
        self._settings_followers: list[Callable[[Campaign], Awaitable[None]]] = []

    def follow_settings(self, follower: Callable[[Campaign], Awaitable[None]]) -> None:
        """Call ``follower(campaign)`` after every change of a campaign's settings, with the
        campaign as written (read from the database, not the cache: the cache is filled by
        lookups only); the pace's timers follow the deadline and the digest's hour (wired in
        ``bot.app.Services``)."""
        self._settings_followers.append(follower)

    # -- lookups -------------------------------------------------------------------------

    async def find(
        self, place: Place, session: AsyncSession | None = None, *, fresh: bool = False
    ) -> Campaign | None:
        """The active campaign bound to the most specific id of ``place.chain``, if any.

        Answered from the per-process cache (:mod:`bot.services.campaigns.cache`); ``fresh``
        reads the database in ``session`` instead (a write deciding on what it reads).  The
        campaign returned from the cache is shared: never modify it.
        """
        bound = None if fresh else self.cache.get(place.guild_id)
        if bound is None:
            if session is None:
                async with self.sessions() as own:
                    return await self.find(place, own, fresh=fresh)
            generation = self.cache.generation
            query = (
                core_select(*_CAMPAIGN.columns, _BINDING.c.target_id)
                .join_from(_BINDING, _CAMPAIGN, _CAMPAIGN.c.id == _BINDING.c.campaign_id)
                .where(
                    _BINDING.c.guild_id == place.guild_id,
                    ACTIVE_BINDING,
                    _CAMPAIGN.c.guild_id == place.guild_id,
                    _CAMPAIGN.c.status == "active",
                )
            )
            # A Core query of table columns: the session runs it on its connection anyway
            # (no autoflush), and the connection's result types its rows as Rows (named and
            # mapping access), where session.exec's stubs say plain tuples.
            connection = await session.connection()
            rows = (await connection.execute(query)).all()
            bound = {row.target_id: campaign_of(row._mapping) for row in rows}
            if not fresh:
                self.cache.store(place.guild_id, generation, bound)
        for target in place.chain:
            campaign = bound.get(target)
            if campaign is not None:
                return campaign
        return None

    async def closed_scene(self, guild_id: int, channel_id: int) -> str | None:
        """The title of the closed scene held by thread ``channel_id``, or None (an open
        scene, or no scene).  From the per-process cache: every command that posts, rolls or
        requests in a thread asks, and ``/roll`` must not pay a query for it."""
        closed = self.cache.closed.get(guild_id)
        if closed is None:
            generation = self.cache.generation
            closed = await _closed_scenes(self.sessions, guild_id)
            self.cache.store_closed(guild_id, generation, closed)
        return closed.get(channel_id)

    async def require_open_scene(self, place: Place) -> None:
        """Refuses to post, roll or request in a closed scene (its thread is locked: Discord
        would refuse the messages), saying how the GM opens it again."""
        title = await self.closed_scene(place.guild_id, place.channel_id)
        if title is not None:
            raise DomainError("scene.error.closed", title=title)

    def forget(self, guild_id: int) -> None:
        """Read ``guild_id``'s campaigns again next time (a versioned write found them changed)."""
        self.cache.forget(guild_id)

    async def require(self, place: Place, session: AsyncSession | None = None) -> Campaign:
        campaign = await self.find(place, session)
        if campaign is None:
            raise NoCampaign()
        return campaign

    async def require_referee(self, place: Place, actor: Actor) -> Campaign:
        campaign = await self.require(place)
        if not is_referee(campaign, actor):
            raise NotReferee()
        return campaign

    # -- use cases -----------------------------------------------------------------------

    async def create(
        self,
        place: Place,
        actor: Actor,
        *,
        name: str,
        system: str,
        target_id: int,
        kind: str,
    ) -> CampaignView:
        """Bind ``target_id`` (this channel, forum or category) to a new campaign.

        The creator becomes its GM.  Creating needs Manage Channels (binding channels is a
        server-organisation act), and a target already bound to an active campaign is refused
        rather than silently rebound.  A channel or forum inside a category that another live
        campaign is bound to belongs to that campaign: binding it here would take it over
        (the most specific binding wins), so only that campaign's referee may do it.
        """
        async with self.sessions() as session, session.begin():
            campaign = await self.insert(
                session, place, actor, name=name, system=system, target_id=target_id, kind=kind
            )
        return await self.view(saved_id(campaign), place.guild_id)

    async def insert(
        self,
        session: AsyncSession,
        place: Place,
        actor: Actor,
        *,
        name: str,
        system: str,
        target_id: int,
        kind: str,
        settings: Mapping[str, Any] | None = None,
        locale: str | None = None,
        status: str = "active",
        bind: bool = True,
    ) -> Campaign:
        """:meth:`create`'s checks and rows inside the caller's transaction.

        ``/campaign import`` inserts its campaign with another ``status`` and no binding
        (``bind=False``): nobody sees it while its record is written in batches, then
        :meth:`bind` makes it the campaign of ``target_id``, checking again."""
        if not (actor.can_manage_channels or actor.is_admin):
            raise NotAllowed("campaign.error.create_needs_permission")
        name = plain_spaces(name)
        if not name or len(name) > 100:
            raise InvalidSetting("campaign.error.bad_name", limit=100)
        if (problem := name_problem(name)) is not None:
            raise InvalidSetting(f"sheet.error.name_{problem}")
        if system not in systems.ids():
            raise InvalidSetting(
                "campaign.error.unknown_system",
                system=system,
                choices=", ".join(systems.labelled(i) for i in systems.ids()),
            )
        if kind not in BIND_KINDS:
            raise InvalidSetting("campaign.error.bad_kind", kind=kind)
        await self._free_for(session, place, actor, target_id)
        campaign = Campaign(
            guild_id=place.guild_id,
            name=name,
            system=system,
            gm_user_id=actor.user_id,
            settings=dict(settings or {}),
            locale=locale,
            status=status,
        )
        session.add(campaign)
        await session.flush()
        if bind:
            await self._bind(session, campaign, target_id, kind)
        return campaign

    async def _free_for(
        self, session: AsyncSession, place: Place, actor: Actor, target_id: int
    ) -> None:
        """Refuses a ``target_id`` already bound, or inside a campaign ``actor`` does not run."""
        existing = await self.find(
            Place(place.guild_id, place.channel_id, (target_id,)), session, fresh=True
        )
        if existing is not None:
            raise AlreadyBound(name=existing.name)
        owner = await self.find(
            Place(place.guild_id, place.channel_id, _chain_from(place.chain, target_id)),
            session,
        )
        if owner is not None and not is_referee(owner, actor):
            raise NotAllowed("campaign.error.belongs_to_other", name=owner.name)

    async def _bind(
        self, session: AsyncSession, campaign: Campaign, target_id: int, kind: str
    ) -> None:
        session.add(
            CampaignBinding(
                campaign_id=saved_id(campaign),
                guild_id=campaign.guild_id,
                target_id=target_id,
                kind=kind,
            )
        )
        await session.flush()

    async def bind(
        self,
        place: Place,
        actor: Actor,
        campaign_id: int,
        *,
        status: str,
        target_id: int,
        kind: str,
        also: Callable[[AsyncSession, Campaign], Awaitable[T]] | None = None,
    ) -> T | None:
        """Makes the campaign :meth:`insert` left unbound in ``status`` the active campaign of
        ``target_id``, checking again that nothing took the place meanwhile (:class:`AlreadyBound`,
        also when another binding wins the race: the unique index decides); ``also``: what
        appears with it, in the same transaction (an Umbría import's posting job)."""
        try:
            async with self.sessions() as session, session.begin():
                await self._free_for(session, place, actor, target_id)
                campaign = await session.get(Campaign, campaign_id)
                if campaign is None or campaign.status != status:
                    raise DomainError("chronicle.error.import_lost")
                campaign.status = "active"
                session.add(campaign)
                await self._bind(session, campaign, target_id, kind)
                return await also(session, campaign) if also is not None else None
        except IntegrityError:
            # another import or /campaign create bound this place meanwhile
            found = await self.find(Place(place.guild_id, place.channel_id, (target_id,)))
            raise AlreadyBound(name=found.name if found else "?") from None

    async def show(self, place: Place) -> CampaignView:
        campaign = await self.require(place)
        return await self.view(saved_id(campaign), place.guild_id)

    async def update_settings(
        self, place: Place, actor: Actor, change: SettingsChange
    ) -> CampaignView:
        """Change one or more settings in one versioned write (GM only; retried on a clash:
        the GM asked for these values, whatever changed meanwhile); what follows the
        settings (:meth:`follow_settings`) is brought in line after it."""
        view = await self._write_settings(place, actor, change)
        if self._settings_followers:
            async with self.sessions() as session:
                written = await session.get(Campaign, view.id)
            for follower in self._settings_followers:
                if written is not None:
                    await follower(written)
        return view

    async def _write_settings(
        self, place: Place, actor: Actor, change: SettingsChange
    ) -> CampaignView:
        async def attempt() -> CampaignView:
            campaign = await self.require_referee(place, actor)
            changes = await self._setting_changes(campaign, change)
            if not changes:
                return await self.view(saved_id(campaign), place.guild_id)
            try:
                async with self.sessions() as session, session.begin():
                    await update_versioned(
                        session,
                        Campaign,
                        col(Campaign.id) == campaign.id,
                        campaign.version,
                        **changes,
                    )
            except StaleWrite:
                self.forget(place.guild_id)  # changed elsewhere (by hand?): read it again
                raise
            # Show this write, not a later one another command may have committed since
            # (on a copy: the campaign found is the cache's, shared with other commands).
            written = campaign_of(
                {**campaign.model_dump(), **changes, "version": campaign.version + 1}
            )
            return await self.view(saved_id(campaign), place.guild_id, written=written)

        return await retrying(attempt)

    async def _setting_changes(self, campaign: Campaign, change: SettingsChange) -> dict[str, Any]:
        """The columns ``change`` sets on ``campaign`` (checked: a bad value is refused)."""
        changes: dict[str, Any] = {}
        if change.gm_role_id is not None or change.clear_gm_role:
            changes["gm_role_id"] = None if change.clear_gm_role else change.gm_role_id
        if change.gm_channel_id is not None or change.clear_gm_channel:
            changes["gm_channel_id"] = None if change.clear_gm_channel else change.gm_channel_id
        if change.off_topic_channel_id is not None or change.clear_off_topic:
            changes["off_topic_channel_id"] = (
                None if change.clear_off_topic else await self._off_topic(change, campaign)
            )
        if change.locale is not None:
            if change.locale not in LOCALES:
                raise InvalidSetting("campaign.error.bad_locale", value=change.locale)
            changes["locale"] = change.locale
        if change.system_setting is not None:
            changes["settings"] = self._system_setting(campaign, change)
        return changes

    @staticmethod
    def _system_setting(campaign: Campaign, change: SettingsChange) -> dict[str, Any]:
        """The campaign's rule settings with ``change``'s one setting parsed and checked."""
        assert change.system_setting is not None
        key, raw = change.system_setting
        specs = {spec.key: spec for spec in setting_specs(campaign.system)}
        if setting_key(campaign.system, key) not in specs:
            raise InvalidSetting("campaign.error.unknown_setting", key=key[:100])
        key = setting_key(campaign.system, key)
        settings = dict(campaign.settings or {})
        settings[key] = parse_setting(
            specs[key],
            raw,
            limit=MAX_FILE_TEXT if change.from_file else MAX_TEXT,
            system=campaign.system,
        )
        if key == TIME_ZONE:
            zone = valid_time_zone(str(settings[key]))
            if zone is None:
                raise InvalidSetting("settings.error.bad_time_zone", value=raw[:64])
            settings[key] = zone
        check_settings(systems.get(campaign.system), resolved_settings(specs.values(), settings))
        return settings

    async def end(
        self, place: Place, actor: Actor, confirm: Confirm | None = None
    ) -> CampaignView | None:
        """Archive the campaign: it stops answering in its channels; nothing is deleted.
        ``confirm`` asks the referee first (with the campaign's ``name``); None: declined."""
        campaign = await self.require_referee(place, actor)
        if confirm is not None:
            if not await confirm(name=campaign.name):
                return None
            campaign = await self.require_referee(place, actor)  # as it is after the question
        try:
            async with self.sessions() as session, session.begin():
                await update_versioned(
                    session,
                    Campaign,
                    col(Campaign.id) == campaign.id,
                    campaign.version,
                    col(Campaign.status) == "active",
                    status="archived",
                    ended_at=utcnow(),
                )
                await self._unbind(session, campaign)
        except StaleWrite:  # reported: the GM ends the campaign they saw, or nothing
            self.forget(place.guild_id)
            raise
        return await self.view(saved_id(campaign), place.guild_id)

    @staticmethod
    async def _unbind(session: AsyncSession, campaign: Campaign) -> None:
        """An archived campaign answers in none of its channels (its bindings are kept)."""
        await session.exec(
            update(CampaignBinding)
            .where(col(CampaignBinding.campaign_id) == campaign.id)
            .values(active=False)
        )

    # -- helpers -------------------------------------------------------------------------

    async def _off_topic(self, change: SettingsChange, campaign: Campaign) -> int:
        """The off-topic channel: a channel, thread or forum post of this campaign, refused
        when it is a channel the campaign is bound to (the whole table would be off-topic)
        or lies outside the campaign (it would change nothing)."""
        channel_id = change.off_topic_channel_id
        assert channel_id is not None
        chain = change.off_topic_chain or (channel_id,)
        owner = await self.find(Place(campaign.guild_id, channel_id, chain))
        if owner is None or owner.id != campaign.id:
            raise InvalidSetting("scene.error.off_topic_outside")
        async with self.sessions() as session:
            bound = (
                await session.exec(
                    select(CampaignBinding.campaign_id).where(
                        CampaignBinding.guild_id == campaign.guild_id,
                        CampaignBinding.target_id == channel_id,
                        ACTIVE_BINDING,
                    )
                )
            ).first()
        if bound is not None:
            raise InvalidSetting("scene.error.off_topic_is_table")
        return channel_id

    async def view(
        self, campaign_id: int, guild_id: int, *, written: Campaign | None = None
    ) -> CampaignView:
        """The campaign as stored, or as ``written`` by the caller's own versioned update."""
        async with self.sessions() as session:
            campaign = written or await session.get(Campaign, campaign_id)
            if campaign is None or campaign.guild_id != guild_id:
                raise NoCampaign()
            bindings = (
                await session.exec(
                    select(CampaignBinding).where(
                        CampaignBinding.campaign_id == campaign_id,
                        CampaignBinding.guild_id == guild_id,
                    )
                )
            ).all()
        return _view_of(campaign, bindings)


def _view_of(campaign: Campaign, bindings: Sequence[CampaignBinding]) -> CampaignView:
    """What the commands show of a stored campaign and its places."""
    system = systems.get(campaign.system)
    specs = setting_specs(campaign.system)
    values = resolved_settings(specs, campaign.settings)
    return CampaignView(
        id=saved_id(campaign),
        name=campaign.name,
        system=campaign.system,
        system_name=system.name,
        gm_user_id=campaign.gm_user_id,
        gm_role_id=campaign.gm_role_id,
        gm_channel_id=campaign.gm_channel_id,
        off_topic_channel_id=campaign.off_topic_channel_id,
        locale=campaign.locale,
        status=campaign.status,
        created_at=campaign.created_at,
        ended_at=campaign.ended_at,
        bindings=tuple((b.target_id, b.kind) for b in bindings),
        settings=tuple(
            SettingView(s.key, values[s.key], s.default, str(s.kind), tuple(s.choices))
            for s in specs
        ),
        version=campaign.version,
    )


async def _closed_scenes(
    sessions: async_sessionmaker[AsyncSession], guild_id: int
) -> dict[int, str]:
    """``{thread id: title}`` of the guild's closed scenes (one query, no ORM objects)."""
    scene = Scene.__table__  # type: ignore[attr-defined]  # set by table=True
    async with sessions() as session:
        connection = await session.connection()
        rows = (
            await connection.execute(
                core_select(scene.c.channel_id, scene.c.title).where(
                    scene.c.guild_id == guild_id, scene.c.status == "closed"
                )
            )
        ).all()
    return {int(row.channel_id): str(row.title) for row in rows}

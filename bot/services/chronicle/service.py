"""``/campaign export`` and ``/campaign import``: the whole campaign as one zip, and back.

Export (the GM): the campaign's rows are read in one read snapshot, in batches (each batch
awaits the database, so a long campaign never holds the event loop for more than one), then
the zip is built in the bot's worker process (:class:`bot.compute.ComputePool`,
:func:`bot.services.chronicle.build.build_archive`): rendering thousands of posts is
pure-Python work, which in a thread would still hold the GIL against the event loop.
The work is bounded before it starts (an estimate from counts and text lengths) and while it
runs (the archive writer stops at the import's limits), and at most :data:`MAX_JOBS`
chronicle jobs run at once in a process; more are refused with a "busy" reply.

Import: the archive is read and checked in the worker process — its layout and limits
(:mod:`bot.services.chronicle.archive`), then every record against the rule system (the
sheets as strictly as ``/sheet import``) — and every problem is listed before anything is
written.  Then one transaction writes a **new** campaign bound here, run by the importer,
with the whole record: characters (owners keep their Discord ids; the old GM's characters
pass to the importer), scenes, posts, the XP ledger and the roll log, every id remapped.
Imported scenes are closed records (their threads stay in the old server); play goes on in
new scenes.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import timedelta
from types import SimpleNamespace
from typing import Any, TypeVar

from sqlalchemy import Insert, Table, delete, func, insert, update
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import SQLModel, col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.compute import BULK, ComputePool
from bot.db.bulk import delete_in_batches, driver_insert, pause_after
from bot.db.models import (
    ActiveCharacter,
    Campaign,
    Character,
    CharacterNote,
    CharacterProfile,
    ImportedPlayer,
    Post,
    PostImage,
    RollLog,
    Scene,
    XpAward,
    saved_id,
    utcnow,
)
from bot.i18n import t
from bot.services.campaigns.service import CampaignService, CampaignView
from bot.services.chronicle.archive import (
    GM_CHARACTERS,
    GM_POSTS,
    GM_ROLLS,
    GM_SCENES,
    GM_XP,
    MAX_CHARACTERS,
    MAX_RECORD_ROWS,
    MAX_ROWS,
    MAX_SCENES,
    MAX_UNCOMPRESSED,
    ArchiveProblems,
    ArchiveTooBig,
    iso,
    slug,
)
from bot.services.chronicle.build import Snapshot
from bot.services.chronicle.check import ImportPlan
from bot.services.chronicle.publication import PublicationService
from bot.services.chronicle.transfer import (
    SNAPSHOT_ROWS,
    build_packed,
    pack,
    read_and_check_packed,
    unpack,
    with_rows,
)
from bot.services.chronicle.umbria.reader import source_of
from bot.services.chronicle.umbria_import import (
    Inserter,
    UmbriaSummary,
    read_umbria_packed,
    unpack_game,
    write_game,
)
from bot.services.shared.audience import Secrecy
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError, NotAllowed
from bot.services.shared.reveals import reveals_of
from bot.services.sheets.schema import upgraded_sheet
from rules import systems

__all__ = [
    "BATCH",
    "MAX_JOBS",
    "ChronicleFile",
    "ChronicleService",
    "ArchiveProblems",
    "ImportSummary",
    "scene_channel",
]

W = TypeVar("W")

BATCH = 100  # rows per read and per insert: short slices of the event loop
#: Rows per insert on SQLite, where every server's commands share one connection: a batch
#: holds it a quarter as long, so another server's /roll waits behind less (issue 22 §2;
#: benchmarks/fairness_bench.py, docs/performance.md)
SQLITE_BATCH = 25
PROFILE_BATCH = 8  # profiles per insert (each may carry a 256 KiB avatar)
#: An import's campaign while its rows are written: nobody sees it (every lookup asks for
#: ``active``) until the last batch is in and it is bound; one left behind by a crash is
#: swept by the next import into the same server (older than :data:`ABANDONED`).
IMPORTING = "importing"
ABANDONED = timedelta(hours=1)
MAX_JOBS = 2  # chronicle exports/imports running at once in one process
#: Bytes the export writes per byte of post text (JSONL record, two Markdown and two HTML
#: pages), and per row of anything else: the estimate that refuses a campaign too big to
#: export before reading it.
TEXT_FACTOR = 5
ROW_BYTES = 1200
#: Imported scenes and their posts and rolls get channel ids that no Discord channel has
#: (negative): ``-(campaign id × SCENE_SLOTS + scene number)``, 0 for outside any scene.
SCENE_SLOTS = MAX_SCENES + 1


def scene_channel(campaign_id: int, scene_ref: int | None) -> int:
    """The stand-in channel id of an imported scene (``None``: outside any scene)."""
    return -(campaign_id * SCENE_SLOTS + (scene_ref or 0))


@dataclass(frozen=True, slots=True)
class ChronicleFile:
    """The export: one zip, or the parts of one that did not fit the upload limit (each an
    independent zip; the first holds the record the import reads).  A part still over
    ``limit`` (a record larger than the upload on its own) cannot be sent: the cog says so."""

    parts: tuple[tuple[str, bytes], ...]
    counts: dict[str, int]
    limit: int
    campaign_name: str = ""

    @property
    def filename(self) -> str:
        return self.parts[0][0]

    @property
    def payload(self) -> bytes:
        return self.parts[0][1]


@dataclass(frozen=True, slots=True)
class ImportSummary:
    campaign: CampaignView
    counts: dict[str, int]


class _Jobs:
    """How many chronicle jobs run now (one process, one event loop: a plain counter)."""

    running = 0


class ChronicleService:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        campaigns: CampaignService,
        compute: ComputePool,
        publication: PublicationService | None = None,
    ) -> None:
        self.sessions = sessions
        self.campaigns = campaigns
        self.compute = compute
        self.publication = publication

    # -- export --------------------------------------------------------------------------

    async def export(
        self,
        place: Place,
        actor: Actor,
        locale: str,
        limit: int,
        started: Callable[[], Awaitable[None]] | None = None,
    ) -> ChronicleFile:
        """The campaign's zip (GM only), in independent parts of at most ``limit`` bytes (the
        server's upload limit) when it is bigger: never nothing; ``started`` tells the cog the
        slow part begins (after the referee check)."""
        campaign = await self.campaigns.require_referee(place, actor)
        if started is not None:
            await started()
        async with _job():
            await _check_size(self.sessions, saved_id(campaign))
            snapshot = await self._snapshot(saved_id(campaign))
            try:
                packed = await pack(snapshot, SNAPSHOT_ROWS)
                bare = with_rows(snapshot, {name: [] for name in SNAPSHOT_ROWS})
                # the pages are the campaign's: in its language, whoever exports them
                pages_locale = campaign.locale or locale
                payloads = await self.compute.submit(
                    build_packed, bare, packed, pages_locale, limit, lane=BULK, owner=place.guild_id
                )
            except ArchiveTooBig:
                raise DomainError(
                    "chronicle.error.too_big_to_export", limit=MAX_UNCOMPRESSED // 2**20
                ) from None
        stem = f"arbitro-{slug(campaign.name) or 'campaign'}"
        if len(payloads) == 1:
            names = [f"{stem}.zip"]
        else:
            names = [
                f"{stem}-{t('chronicle.part_file', pages_locale, number=n, count=len(payloads))}.zip"
                for n in range(1, len(payloads) + 1)
            ]
        return ChronicleFile(
            tuple(zip(names, payloads, strict=True)), snapshot.counts(), limit, campaign.name
        )

    async def _snapshot(self, campaign_id: int) -> Snapshot:
        """Every row of the campaign, read in one snapshot (REPEATABLE READ on PostgreSQL,
        one read transaction on SQLite) so the files agree with each other."""
        async with self.sessions() as session:
            if session.get_bind().dialect.name == "postgresql":
                await session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            else:
                connection = await session.connection()
                await connection.exec_driver_sql("BEGIN")
            try:
                return await self._collect(session, campaign_id)
            finally:
                await session.rollback()

    async def _collect(self, session: AsyncSession, campaign_id: int) -> Snapshot:
        """The snapshot, each batch turned into plain records as soon as it is read (so no
        step runs over the whole campaign at once on the event loop)."""
        campaign = await session.get(Campaign, campaign_id)
        assert campaign is not None  # found by require_referee, never deleted
        system = systems.get(campaign.system)
        active: dict[int, list[int]] = {}
        for row in (
            await session.exec(
                select(ActiveCharacter).where(ActiveCharacter.campaign_id == campaign_id)
            )
        ).all():
            active.setdefault(row.character_id, []).append(row.user_id)
        players = await _umbria_players(session, campaign_id)
        character_ref: dict[int, int] = {}
        scene_ref: dict[int, int] = {}
        channel_scene: dict[int, int] = {}
        roll_ref: dict[int, int] = {}
        reveals = await reveals_of(session, campaign_id)

        def secrecy(row: SimpleNamespace) -> dict[str, Any]:
            """The record's audience as the archive carries it: an NPC by its export number,
            what its reveals lifted already lifted (the import starts with no reveals)."""
            kept = Secrecy.of_row(row)
            if reveals.lifts(kept, row.created_at):
                kept = Secrecy(kept.audience, kept.player_id, kept.sealed)
            elif kept.npc_id is not None:
                ref = character_ref.get(kept.npc_id)
                kept = (
                    Secrecy(kept.audience, kept.player_id, kept.sealed, ref, kept.npc_sealed)
                    if ref is not None
                    else kept.sealing(*kept.npc_sealed)  # an NPC gone: sealed for good
                )
            return kept.columns()

        def character(c: SimpleNamespace) -> dict[str, Any]:
            ref = character_ref[c.id] = len(character_ref) + 1
            return {
                "ref": ref,
                "name": c.name,
                "owner_user_id": c.owner_user_id,
                "npc": c.is_npc,
                "hidden": c.hidden,
                "approval": c.approval,  # approved | pending | rejected (the GM's approval)
                "template": c.template_id,  # an id until every character is numbered
                "created_at": iso(c.created_at),
                "updated_at": iso(c.updated_at),
                "deleted_at": iso(c.deleted_at),
                "deleted_by": c.deleted_by,
                "active_for": sorted(active.get(c.id, [])),
                "system": c.system,
                "sheet": upgraded_sheet(Character(**vars(c))),
                **_umbria_of(players, c.imported_player_id),
            }

        def scene(s: SimpleNamespace) -> dict[str, Any]:
            ref = scene_ref[s.id] = len(scene_ref) + 1
            channel_scene[s.channel_id] = ref
            return {
                "ref": ref,
                "title": s.title,
                "status": s.status,
                "private": s.private,
                "players": list(s.players or []),
                "opened_by": s.opened_by,
                "created_at": iso(s.created_at),
                "closed_at": iso(s.closed_at),
                "round_started_at": iso(s.round_started_at),
                **({"opening_text": s.opening_text} if s.opening_text else {}),
            }

        def roll(r: SimpleNamespace) -> dict[str, Any]:
            ref = roll_ref[r.id] = len(roll_ref) + 1
            return {
                "ref": ref,
                "scene": channel_scene.get(r.channel_id),
                "created_at": iso(r.created_at),
                "user_id": r.user_id,
                "user_name": r.user_name,
                "character_name": r.character_name,
                "kind": r.kind,
                "expression": r.expression,
                "reason": r.reason,
                "breakdown": r.breakdown,
                "total": r.total,
                "difficulty": r.difficulty,
                "outcome": r.outcome,
                "fumble": r.fumble,
                "private": r.private,
                # the undo record names this server's rows: it does not travel
                "detail": {k: v for k, v in (r.detail or {}).items() if k != "undo"},
                **secrecy(r),
            }

        post_entry: dict[int, dict[str, Any]] = {}

        def post(p: SimpleNamespace) -> dict[str, Any]:
            entry = post_entry[p.id] = {
                "ref": 0,  # numbered below
                "scene": scene_ref.get(p.scene_id or 0),
                "author_user_id": p.author_user_id,
                "character": character_ref.get(p.character_id or 0),
                "speaker_name": p.speaker_name,
                "webhook_name": p.webhook_name,
                "gm_post": p.gm_post,
                "gm_only": p.gm_only,
                "text": p.text,
                "notes": p.notes,
                "notes_private": p.notes_private,
                "roll": roll_ref.get(p.roll_log_id or 0),
                "rolls": [
                    roll_ref[i] for i in (p.roll_log_ids or [p.roll_log_id]) if i in roll_ref
                ],
                "created_at": iso(p.created_at),
                "edited_at": iso(p.edited_at),
                "deleted_at": iso(p.deleted_at),
                **({"source_ref": p.source_ref} if p.source_ref else {}),
                **_umbria_of(players, p.imported_player_id),
                **secrecy(p),
            }
            return entry

        def image(i: SimpleNamespace) -> dict[str, Any]:
            """A picture shown inside a post (an Umbría post's), on its post's record: the
            bytes, stored once in the zip as a file the pages and the record name."""
            found = {"name": i.name, "type": i.media_type, "bytes": bytes(i.data)}
            entry = post_entry.get(i.post_id)
            if entry is not None:
                entry.setdefault("images", []).append((i.position, i.id, found))
            return found

        def award(x: SimpleNamespace) -> dict[str, Any]:
            return {
                "ref": 0,  # numbered below
                "created_at": iso(x.created_at),
                "character": character_ref.get(x.character_id),
                "character_name": x.character_name,
                "granted_by": x.granted_by,
                "amount": x.amount,
                "xp_before": x.xp_before,
                "xp_after": x.xp_after,
                "reason": x.reason,
                **secrecy(x),
            }

        characters = await _records(session, Character, campaign_id, character)
        for entry in characters:
            entry["template"] = character_ref.get(entry["template"] or 0)
        await _add_profiles(session, campaign_id, character_ref, characters)
        scenes = await _records(session, Scene, campaign_id, scene)
        rolls = await _records(session, RollLog, campaign_id, roll)
        posts = await _records(session, Post, campaign_id, post)
        await _records(session, PostImage, campaign_id, image)
        for entry in posts:
            if "images" in entry:
                entry["images"] = [found for *_order, found in sorted(entry["images"])]
        awards = await _records(session, XpAward, campaign_id, award)
        for number, entry in enumerate(posts, start=1):
            entry["ref"] = number
        for number, entry in enumerate(awards, start=1):
            entry["ref"] = number
        return Snapshot(
            campaign={
                "name": campaign.name,
                "system": campaign.system,
                "system_name": system.name,
                "locale": campaign.locale,
                "settings": dict(campaign.settings or {}),
                "status": campaign.status,
                "created_at": iso(campaign.created_at),
                "gm_user_id": campaign.gm_user_id,
            },
            characters=characters,
            scenes=scenes,
            posts=posts,
            rolls=rolls,
            xp=awards,
            exported_at=iso(utcnow()) or "",
        )

    # -- import --------------------------------------------------------------------------

    @staticmethod
    def may_import(actor: Actor) -> None:
        """Importing creates a campaign: the same permission as ``/campaign create``
        (checked before the file is even downloaded)."""
        if not (actor.can_manage_channels or actor.is_admin):
            raise NotAllowed("campaign.error.create_needs_permission")

    async def import_archive(
        self,
        place: Place,
        actor: Actor,
        payload: bytes,
        *,
        target_id: int,
        kind: str,
        name: str | None = None,
        system: str | None = None,
        publish: str = "links",
        parent_id: int | None = None,
    ) -> ImportSummary | UmbriaSummary:
        """A new campaign bound to ``target_id`` with the archive's whole record, or
        :class:`ArchiveProblems` listing everything wrong with it (nothing written).

        The zip is Árbitro's own chronicle or the saved pages of a Comunidad Umbría game
        (recognised by what it holds); an Umbría game names no rule system, so ``system``
        says which one the new campaign plays, and ``publish`` whether its scenes go into
        Discord too, in threads of ``parent_id`` (:mod:`bot.services.chronicle.publication`)."""
        self.may_import(actor)
        async with _job():
            if await self.compute.submit(source_of, payload) == "umbria":
                return await self._import_umbria(
                    place,
                    actor,
                    payload,
                    target_id=target_id,
                    kind=kind,
                    name=name,
                    system=system,
                    publish=publish if parent_id is not None else "none",
                    parent_id=parent_id,
                )
            bare, packed = await self.compute.submit(
                read_and_check_packed, payload, actor.user_id, name, lane=BULK, owner=place.guild_id
            )
            plan = with_rows(bare, await unpack(packed))
            await self._sweep(place.guild_id)
            new = _NewCampaign(
                plan.name, plan.system, target_id, kind, settings=plan.settings, locale=plan.locale
            )
            campaign, _none, _job_none = await _restore(
                self.sessions,
                self.campaigns,
                place,
                actor,
                new,
                lambda campaign: _write(self.sessions, campaign, plan),
            )
        view = await self.campaigns.view(saved_id(campaign), place.guild_id)
        return ImportSummary(view, plan.counts())

    async def _import_umbria(
        self,
        place: Place,
        actor: Actor,
        payload: bytes,
        *,
        target_id: int,
        kind: str,
        name: str | None,
        system: str | None,
        publish: str,
        parent_id: int | None,
    ) -> UmbriaSummary:
        """An Umbría game (:mod:`bot.services.chronicle.umbria_import`), written as the
        chronicle's own record is (:func:`_restore`: batches under an invisible campaign)."""
        if system is None or system not in systems.ids():
            raise DomainError(
                "umbria.error.system_needed",
                choices=", ".join(systems.labelled(i) for i in systems.ids()),
            )
        bare, packed = await self.compute.submit(
            read_umbria_packed, payload, lane=BULK, owner=place.guild_id
        )
        game = await unpack_game(bare, packed)
        title = (name or game.title or "").strip()
        if not title:
            raise DomainError("umbria.error.no_title")
        await self._sweep(place.guild_id)
        publication = self.publication if publish in ("links", "posts") and parent_id else None

        async def post_scenes(session: AsyncSession, campaign: Campaign) -> Any:
            """The paced posting into Discord, made with the campaign's binding."""
            if publication is None or parent_id is None:
                return None
            return await publication.start(
                session, campaign, parent_id=parent_id, mode=publish, created_by=actor.user_id
            )

        _campaign, summary, job = await _restore(
            self.sessions,
            self.campaigns,
            place,
            actor,
            _NewCampaign(title, system, target_id, kind),
            lambda campaign: write_game(
                _inserter(self.sessions, campaign), campaign, game, actor.user_id
            ),
            also=post_scenes,
        )
        summary = replace(summary, publication=job)
        if summary.publication is not None and self.publication is not None:
            self.publication.timers.poke()
        return summary

    async def _sweep(self, guild_id: int) -> None:
        """Imports into this server left half-written by a crash (invisible: still
        :data:`IMPORTING` after :data:`ABANDONED`) are deleted before a new one starts."""
        async with self.sessions() as session:
            stale = (
                await session.exec(
                    select(Campaign.id).where(
                        Campaign.guild_id == guild_id,
                        Campaign.status == IMPORTING,
                        col(Campaign.created_at) < utcnow() - ABANDONED,
                    )
                )
            ).all()
        for campaign_id in stale:
            if campaign_id is not None:
                await discard(self.sessions, campaign_id)


def campaign_tables() -> list[Table]:
    """The tables holding a campaign's rows, children before parents (foreign keys)."""
    return [
        table
        for table in reversed(SQLModel.metadata.sorted_tables)
        if "campaign_id" in table.columns
    ]


async def _check_size(sessions: Sessions, campaign_id: int) -> None:
    """Refuse before reading when the estimate alone passes the import's limit."""
    async with sessions() as session:
        posts, text = (
            await session.exec(
                select(
                    func.count(),
                    func.coalesce(
                        func.sum(
                            func.length(Post.text) + func.coalesce(func.length(Post.notes), 0)
                        ),
                        0,
                    ),
                ).where(Post.campaign_id == campaign_id)
            )
        ).one()
        rolls = (
            await session.exec(select(func.count()).where(RollLog.campaign_id == campaign_id))
        ).one()
        pictures = (
            await session.exec(
                select(func.coalesce(func.sum(func.length(PostImage.data)), 0)).where(
                    PostImage.campaign_id == campaign_id
                )
            )
        ).one()
        counted = {
            GM_SCENES: Scene,
            GM_XP: XpAward,
            GM_CHARACTERS: Character,
        }
        more = {
            path: int(
                (
                    await session.exec(
                        select(func.count()).where(model.campaign_id == campaign_id)  # type: ignore[attr-defined]
                    )
                ).one()
            )
            for path, model in counted.items()
        }
    # a post's pictures are stored once each, as they are (already compressed images)
    estimate = int(text) * TEXT_FACTOR + (int(posts) + int(rolls)) * ROW_BYTES + int(pictures)
    if estimate > MAX_UNCOMPRESSED:
        raise DomainError("chronicle.error.too_big_to_export", limit=MAX_UNCOMPRESSED // 2**20)
    _check_rows({GM_POSTS: int(posts), GM_ROLLS: int(rolls), **more})


def _check_rows(rows: Mapping[str, int]) -> None:
    """What the import reads back must fit its budgets (archive.MAX_ROWS…): every export
    is importable, so a campaign past them is refused before anything is read."""
    limits = {**MAX_ROWS, GM_CHARACTERS: MAX_CHARACTERS}
    for path, count in rows.items():
        if count > limits[path]:
            raise DomainError(
                "chronicle.error.too_many_rows_to_export",
                path=path,
                count=count,
                limit=limits[path],
            )
    total = sum(count for path, count in rows.items() if path in MAX_ROWS)
    if total > MAX_RECORD_ROWS:
        raise DomainError(
            "chronicle.error.too_many_record_rows_to_export", count=total, limit=MAX_RECORD_ROWS
        )


async def discard(sessions: Sessions, campaign_id: int) -> None:
    """Deletes an unbound campaign and every row under it, in batches
    (:func:`bot.db.bulk.delete_in_batches`: the same short turns on the database as the
    import that wrote them)."""
    characters = _table(Character)
    await _batch(
        sessions,
        update(characters).where(characters.c.campaign_id == campaign_id).values(template_id=None),
    )
    for table in campaign_tables():
        await delete_in_batches(sessions, table, table.c.campaign_id == campaign_id)
    campaigns = _table(Campaign)
    await _batch(sessions, delete(campaigns).where(campaigns.c.id == campaign_id))


class _job:
    """At most :data:`MAX_JOBS` chronicle jobs at once; more are refused, not queued."""

    async def __aenter__(self) -> None:
        if _Jobs.running >= MAX_JOBS:
            raise DomainError("chronicle.error.busy")
        _Jobs.running += 1

    async def __aexit__(self, *_exc: object) -> None:
        _Jobs.running -= 1


async def _umbria_players(session: AsyncSession, campaign_id: int) -> dict[int, dict[str, Any]]:
    """The campaign's Umbría players by row id, as records name them: their Umbría number
    and name, and the member who claimed them (``/sheet claim``), if any."""
    rows = (
        await session.exec(select(ImportedPlayer).where(ImportedPlayer.campaign_id == campaign_id))
    ).all()
    return {
        saved_id(p): {"id": p.external_id, "name": p.name, "claimed_by": p.claimed_by} for p in rows
    }


def _umbria_of(players: Mapping[int, dict[str, Any]], player_id: int | None) -> dict[str, Any]:
    """``{"umbria_player": …}`` for a row an Umbría player wrote or played, else nothing."""
    found = players.get(player_id or 0)
    return {"umbria_player": found} if found is not None else {}


async def _add_profiles(
    session: AsyncSession,
    campaign_id: int,
    character_ref: Mapping[int, int],
    characters: list[dict[str, Any]],
) -> None:
    """Each character's public profile (``/sheet profile``) on its record: concept,
    description and the stored avatar's bytes (written once into the zip's ``media/``)."""
    by_ref = {entry["ref"]: entry for entry in characters}
    rows = (
        await session.exec(
            select(CharacterProfile).where(CharacterProfile.campaign_id == campaign_id)
        )
    ).all()
    for profile in rows:
        entry = by_ref.get(character_ref.get(profile.character_id, 0))
        if entry is None:
            continue
        if profile.concept:
            entry["concept"] = profile.concept
        if profile.description:
            entry["description"] = profile.description
        if profile.history:
            entry["history"] = profile.history
        if profile.avatar and profile.avatar_type:
            # the bytes: the export stores each image once, as a file the pages name
            entry["avatar"] = {"type": f"image/{profile.avatar_type}", "bytes": profile.avatar}
    notes = (
        await session.exec(select(CharacterNote).where(CharacterNote.campaign_id == campaign_id))
    ).all()
    for note in notes:  # the referees' notes: gm/characters.json only (build.py)
        entry = by_ref.get(character_ref.get(note.character_id, 0))
        if entry is not None:
            entry["gm_note"] = note.text


async def _records(
    session: AsyncSession,
    model: type[SQLModel],
    campaign_id: int,
    convert: Callable[[SimpleNamespace], dict[str, Any]],
) -> list[dict[str, Any]]:
    """The campaign's rows of ``model`` in id order as ``convert`` makes them, read
    :data:`BATCH` at a time as Core rows (not ORM objects: no identity map of thousands of
    rows is built, then expired on rollback, on the event loop); the loop runs other work
    between batches."""
    table = _table(model)
    connection = await session.connection()  # the read transaction begun by the caller
    records: list[dict[str, Any]] = []
    last = 0
    while True:
        query = (
            table.select()
            .where(table.c.campaign_id == campaign_id, table.c.id > last)
            .order_by(table.c.id)
            .limit(BATCH)
        )
        rows = (await connection.execute(query)).mappings().all()
        records.extend(convert(SimpleNamespace(**row)) for row in rows)
        if len(rows) < BATCH:
            return records
        last = rows[-1]["id"]
        await asyncio.sleep(0)


Sessions = async_sessionmaker[AsyncSession]


@dataclass(frozen=True, slots=True)
class _NewCampaign:
    """The campaign an import makes (:meth:`CampaignService.insert`'s values) and where it
    is bound once its record is in."""

    name: str
    system: str
    target_id: int
    kind: str
    settings: Mapping[str, Any] | None = None
    locale: str | None = None


async def _restore(
    sessions: Sessions,
    campaigns: CampaignService,
    place: Place,
    actor: Actor,
    new: _NewCampaign,
    write: Callable[[Campaign], Awaitable[W]],
    also: Callable[[AsyncSession, Campaign], Awaitable[Any]] | None = None,
) -> tuple[Campaign, W, Any]:
    """An import's record written by ``write`` under a campaign nobody sees (status
    importing, unbound), a batch per transaction, then bound to ``new.target_id`` with what
    ``also`` writes in the same last transaction: all or nothing (a failure, a cancellation,
    deletes what was written; one cut by a crash is swept by the next import into the same
    server).  Returns the campaign, what ``write`` and ``also`` returned."""
    async with sessions() as session, session.begin():
        campaign = await campaigns.insert(
            session, place, actor, name=new.name, system=new.system, target_id=new.target_id,
            kind=new.kind, settings=new.settings, locale=new.locale, status=IMPORTING,
            bind=False,
        )  # fmt: skip
    try:
        written = await write(campaign)
        extra = await campaigns.bind(
            place, actor, saved_id(campaign), status=IMPORTING, target_id=new.target_id,
            kind=new.kind, also=also,
        )  # fmt: skip
    except BaseException:
        # all or nothing: what was written goes (a cancelled import too; one cut by
        # a crash is swept by the next import here)
        await asyncio.shield(discard(sessions, saved_id(campaign)))
        raise
    return campaign, written, extra


def _inserter(sessions: Sessions, campaign: Campaign) -> Inserter:
    """:func:`_insert` for an Umbría game's rows under the import's invisible campaign
    (their ids read back by it: only these rows are the campaign's)."""
    campaign_id = saved_id(campaign)

    async def insert_rows(
        table: Table,
        rows: Iterable[dict[str, Any]],
        *,
        ids: bool = True,
        batch: int | None = None,
    ) -> list[int]:
        mine = table.c.campaign_id == campaign_id if ids else None
        return await _insert(sessions, table, rows, ids_of=mine, batch=batch)

    return insert_rows


async def _batch(
    sessions: Sessions,
    statement: Any,
    rows: list[dict[str, Any]] | None = None,
    *,
    ids_of: ColumnElement[bool] | None = None,
) -> Any:
    """One short transaction of the restore: the connection goes back to the pool when it
    commits, and the loop turns once before the next batch, so every other server's
    commands get the database in between (on SQLite there is one connection: a 10,000-post
    restore in one transaction held it 19 s and made 82 % of another server's /roll miss
    Discord's 3-second deadline).

    ``ids_of``: the rows' new ids are wanted, in the rows' order; ``statement`` is then a
    plain ``INSERT`` of a table whose rows match ``ids_of`` only when written here (the
    import's invisible campaign).  PostgreSQL returns them (``RETURNING``, ordered by the
    parameters); for SQLite that ordering makes SQLAlchemy send one statement per row — a
    hand-off to the driver's thread each, 100 of them holding the one connection 35 ms a
    batch —, so the rows go in one ``executemany`` and their ids are read back: a single
    writer gives a statement's rows ascending ids in the order written."""
    engine = sessions.kw["bind"]  # the engine every session is made on
    values: Any = None
    started = time.perf_counter()
    if engine.dialect.name == "sqlite" and rows and isinstance(statement, Insert):
        values = await _sqlite_batch(engine, statement, rows, ids_of)
        await pause_after(started)
        return values
    async with sessions() as session, session.begin():
        connection = await session.connection()
        if ids_of is not None:
            table = statement.table
            returning = statement.returning(table.c.id, sort_by_parameter_order=True)
            values = (await connection.execute(returning, rows)).scalars().all()
        else:
            result = (
                await connection.execute(statement, rows)
                if rows
                else await connection.execute(statement)
            )
            values = result.scalars().all() if result.returns_rows else None
    await pause_after(started)
    return values


async def _sqlite_batch(
    engine: AsyncEngine,
    statement: Insert,
    rows: list[dict[str, Any]],
    ids_of: ColumnElement[bool] | None,
) -> list[int] | None:
    """A restore batch on SQLite in three hand-offs to aiosqlite's thread — the rows (one
    ``executemany`` of values bound beforehand: :func:`bot.db.bulk.driver_insert`), their ids
    read back, the commit — where SQLAlchemy's session took six or more, each a turn of a
    busy event loop with the one connection held (docs/performance.md).  Python's sqlite3
    opens the transaction before the ``INSERT`` and the commit ends it; a failure rolls it
    back before the connection goes back to the pool."""
    dialect = engine.dialect
    text, params = driver_insert(dialect, statement.table, rows)
    written = None
    if ids_of is not None:
        table = statement.table
        query = select(table.c.id).where(ids_of).order_by(table.c.id.desc()).limit(len(rows))
        compiled = query.compile(dialect=dialect)
        written = (str(compiled), tuple(compiled.params[k] for k in compiled.positiontup or ()))
    async with engine.connect() as connection:
        raw = (await connection.get_raw_connection()).driver_connection
        assert raw is not None  # a live connection of the pool
        try:
            await raw.executemany(text, params)
            ids = list(reversed(await raw.execute_fetchall(*written))) if written else None
            await raw.commit()
        except BaseException:
            await raw.rollback()
            raise
    return [row[0] for row in ids] if ids is not None else None


async def _insert(
    sessions: Sessions,
    table: Table,
    rows: Iterable[dict[str, Any]],
    *,
    ids_of: ColumnElement[bool] | None = None,
    batch: int | None = None,
) -> list[int]:
    """Insert ``rows`` ``batch`` at a time, each batch its own transaction (:func:`_batch`),
    built lazily so no step runs over the whole record at once on the loop; with
    ``ids_of`` (what only these rows match: the campaign's), return the new ids in the same
    order (other rows point at them)."""
    new_ids: list[int] = []
    source = iter(rows)
    size = batch or BATCH
    if sessions.kw["bind"].dialect.name == "sqlite":
        size = min(size, SQLITE_BATCH)
    while chunk := list(itertools.islice(source, size)):
        written = await _batch(sessions, insert(table), chunk, ids_of=ids_of)
        if ids_of is not None:
            new_ids.extend(written)
    return new_ids


def _table(model: type[SQLModel]) -> Table:
    return model.__table__  # type: ignore[attr-defined, no-any-return]  # set by table=True


_POST_REFS = ("ref", "scene", "character", "roll", "rolls", "umbria_player", "images")


async def _write_umbria_players(
    sessions: Sessions, campaign: Campaign, plan: ImportPlan
) -> dict[str, int]:
    """The Umbría players the records name (issue 27), once each: their new ids by Umbría
    number (a player claimed before the move stays claimed by the same member)."""
    found: dict[str, dict[str, Any]] = {}
    for record in [
        *(c.umbria_player for c in plan.characters),
        *(p["umbria_player"] for p in plan.posts),
    ]:
        if record is not None:
            found.setdefault(record["id"], record)
    if not found:
        return {}
    rows = [
        {
            "guild_id": campaign.guild_id,
            "campaign_id": saved_id(campaign),
            "source": "umbria",
            "external_id": number,
            "name": record["name"],
            "claimed_by": record["claimed_by"],
            "claimed_at": utcnow() if record["claimed_by"] is not None else None,
            "version": 1,
        }
        for number, record in found.items()
    ]
    players = _table(ImportedPlayer)
    ids = await _insert(sessions, players, rows, ids_of=players.c.campaign_id == saved_id(campaign))
    return dict(zip(found, ids, strict=True))


async def _write(sessions: Sessions, campaign: Campaign, plan: ImportPlan) -> None:
    """Every row of the plan, ids remapped, in batches of their own (:func:`_batch`) under
    ``campaign``, which nobody sees until :meth:`ChronicleService.import_archive` binds it."""
    campaign_id, guild_id = saved_id(campaign), campaign.guild_id
    now = utcnow()
    umbria = await _write_umbria_players(sessions, campaign, plan)
    character_ids = await _insert(
        sessions,
        _table(Character),
        ids_of=_table(Character).c.campaign_id == campaign_id,
        rows=[
            {
                "guild_id": guild_id,
                "campaign_id": campaign_id,
                "owner_user_id": c.owner_user_id,
                "name": c.name,
                "name_key": c.name_key,
                "system": plan.system,
                "sheet": c.sheet,
                "is_npc": c.npc,
                "hidden": c.hidden,
                "approval": c.approval,
                "template_id": None,
                "created_at": c.created_at,
                "updated_at": c.updated_at,
                "deleted_at": c.deleted_at,
                "deleted_by": c.deleted_by,
                "version": 1,
                "sheet_version": plan.sheet_version,
                "imported_player_id": umbria.get((c.umbria_player or {}).get("id", "")),
            }
            for c in plan.characters
        ],
    )
    character_id = {c.ref: new for c, new in zip(plan.characters, character_ids, strict=True)}
    profiles = [
        {
            "character_id": character_id[c.ref],
            "guild_id": guild_id,
            "campaign_id": campaign_id,
            "concept": c.concept,
            "description": c.description,
            "avatar": c.avatar.data if c.avatar else None,
            "avatar_type": c.avatar.kind if c.avatar else None,
            "avatar_hash": c.avatar.sha256 if c.avatar else None,
            "history": c.history,
            "updated_at": now,
            "version": 1,
        }
        for c in plan.characters
        if c.concept or c.description or c.avatar or c.history
    ]
    # an avatar is up to 256 KiB: a few per statement
    await _insert(sessions, _table(CharacterProfile), profiles, batch=PROFILE_BATCH)
    notes = [
        {
            "character_id": character_id[c.ref],
            "guild_id": guild_id,
            "campaign_id": campaign_id,
            "audience": "gm",
            "text": c.gm_note,
            "updated_at": now,
            "version": 1,
        }
        for c in plan.characters
        if c.gm_note
    ]
    await _insert(sessions, _table(CharacterNote), notes)
    characters = _table(Character)
    for c in plan.characters:
        if c.template is not None:
            await _batch(
                sessions,
                update(characters)
                .where(characters.c.id == character_id[c.ref])
                .values(template_id=character_id[c.template]),
            )
    active = [
        {
            "campaign_id": campaign_id,
            "user_id": user_id,
            "guild_id": guild_id,
            "character_id": character_id[c.ref],
        }
        for c in plan.characters
        for user_id in c.active_for
    ]
    await _insert(sessions, _table(ActiveCharacter), active)
    scene_ids = await _insert(
        sessions,
        _table(Scene),
        ids_of=_table(Scene).c.campaign_id == campaign_id,
        rows=(
            {
                "guild_id": guild_id,
                "campaign_id": campaign_id,
                "channel_id": scene_channel(campaign_id, s.ref),
                "parent_id": None,
                "title": s.title,
                # the thread is in the old server: the scene is the record, closed
                "status": "closed",
                "private": s.private,
                "players": s.players,
                "header_message_id": None,
                "opened_by": s.opened_by,
                "created_at": s.created_at,
                "closed_at": s.closed_at or now,
                "round_started_at": s.round_started_at,
                "version": 1,
                "opening_text": s.opening_text,
            }
            for s in plan.scenes
        ),
    )
    scene_id = {s.ref: new for s, new in zip(plan.scenes, scene_ids, strict=True)}

    def npc_id(row: Mapping[str, Any]) -> dict[str, Any]:
        """The record's secrets with its NPC's new id (the archive names it by number)."""
        secrets = dict(row.get("secrets") or {})
        if "npc" in secrets:
            secrets["npc"] = character_id[secrets["npc"]]
        return {"secrets": secrets}

    roll_ids = await _insert(
        sessions,
        _table(RollLog),
        ids_of=_table(RollLog).c.campaign_id == campaign_id,
        rows=(
            {
                "guild_id": guild_id,
                "channel_id": scene_channel(campaign_id, r["scene"]),
                "campaign_id": campaign_id,
                "message_id": None,
                "message_url": None,
                **{k: v for k, v in r.items() if k not in ("ref", "scene")},
                **npc_id(r),
            }
            for r in plan.rolls
        ),
    )
    roll_id = {r["ref"]: new for r, new in zip(plan.rolls, roll_ids, strict=True)}
    post_ids = await _insert(
        sessions,
        _table(Post),
        (
            {
                "guild_id": guild_id,
                "campaign_id": campaign_id,
                "channel_id": scene_channel(campaign_id, p["scene"]),
                "scene_id": scene_id.get(p["scene"]) if p["scene"] else None,
                "message_ids": [],
                "character_id": character_id.get(p["character"]) if p["character"] else None,
                "roll_log_id": roll_id.get(p["roll"]) if p["roll"] else None,
                "roll_log_ids": [roll_id[r] for r in p.get("rolls") or [] if r in roll_id],
                "version": 1,
                "imported_player_id": umbria.get((p["umbria_player"] or {}).get("id", "")),
                **{k: v for k, v in p.items() if k not in _POST_REFS},
                **npc_id(p),
            }
            for p in plan.posts
        ),
        ids_of=_table(Post).c.campaign_id == campaign_id,
    )
    await _insert(  # the pictures shown inside posts (an Umbría game's, issue 27)
        sessions,
        _table(PostImage),
        (
            {
                "guild_id": guild_id,
                "campaign_id": campaign_id,
                "post_id": post_id,
                "position": position,
                **image,
            }
            for p, post_id in zip(plan.posts, post_ids, strict=True)
            for position, image in enumerate(p.get("images") or ())
        ),
        batch=PROFILE_BATCH,  # an Umbría picture is up to 2 MiB: a few per statement
    )
    await _insert(
        sessions,
        _table(XpAward),
        (
            {
                "guild_id": guild_id,
                "campaign_id": campaign_id,
                "character_id": character_id[x["character"]],
                **{k: v for k, v in x.items() if k not in ("ref", "character")},
                **npc_id(x),
            }
            for x in plan.xp
        ),
    )

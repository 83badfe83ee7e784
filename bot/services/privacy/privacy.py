"""A member's data is theirs: ``/privacy export`` and ``/privacy delete`` in one guild.

Export reads everything stored about one member in one guild in a single read snapshot
(REPEATABLE READ on PostgreSQL, one read transaction on SQLite) and returns it as JSON.

Delete runs in one transaction and either applies completely or not at all:

* the member's player characters are deleted (with their XP ledger) or handed to the
  campaign's GM, as the member chooses; NPCs they created stay with the campaign;
* their rolls stay in the campaign's record, but the user id and name are replaced by an
  anonymous marker (:data:`ANONYMOUS`, rendered as "anónimo"/"anonymous");
* drafts and active-character rows are deleted; "granted by", "deleted by", "started the
  fight", "asked for / closed / rolled in a GM roll request", "handed over / approved" (the
  log's records of those) and "GM of the campaign" stop naming them (the campaign keeps running: its GM role
  and the server administrators remain referees);
* their posts (``/post``): with "delete my characters" the text and notes of every post they
  wrote are erased (the row stays, soft-deleted and anonymous, so the scene's record keeps its
  shape) and the summary lists the Discord messages for the cog to delete; with "hand them to
  the GM" the posts stay in the campaign's story, their author anonymous.  Public profiles of
  deleted characters and the member's GM ↔ player private-thread records are deleted.

Character and combat changes are compare-and-set writes (``WHERE owner = member`` with a
version bump, ``WHERE version = seen`` for fights), so a concurrent edit is either applied
before the deletion or refused after it, never half of each.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gzip
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal, overload

from sqlalchemy import Row, and_, delete, func, or_, update
from sqlalchemy import select as sa_select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import SQLModel, col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.bulk import pause_after
from bot.db.models import (
    Absence,
    ActiveCharacter,
    Campaign,
    CampaignBinding,
    Character,
    CharacterNote,
    CharacterProfile,
    CombatRecord,
    CreationDraft,
    ImportedPlayer,
    Macro,
    Npcization,
    PaceMember,
    PaceReminder,
    Post,
    PostImage,
    PostMessage,
    PrivateThread,
    ProxyTag,
    Reveal,
    RollLog,
    RollRequest,
    Scene,
    SceneSpeaker,
    XpAward,
    saved_id,
    utcnow,
)
from bot.db.types import as_utc
from bot.services.shared.audience import (
    NO_REVEALS,
    PUBLIC,
    Audience,
    Part,
    Reader,
    Reveals,
    Secrecy,
    Sight,
    request_seals,
    sight,
)
from bot.services.shared.audit import UNDOABLE, roll_record_seen, undo_record
from bot.services.shared.context import Confirm
from bot.services.shared.errors import DomainError
from bot.services.shared.retry import retrying
from bot.services.shared.versioned import StaleWrite, update_versioned

__all__ = [
    "ANONYMOUS",
    "EXPORT_FORMAT",
    "encode_document",
    "DeletionPreview",
    "DeletionSummary",
    "PrivacyService",
    "CharacterChoice",
]

#: A deletion is rare and must finish even while the member's sheets are busy (each write to
#: them that lands first sends the whole deletion round again): the sheet writer's budget.
DELETION_ATTEMPTS = 20

BATCH = 250  # rows per read (and per encoded slice) while exporting: short loop slices
WRITE_BATCH = 1000  # rolls made anonymous per transaction (one indexed UPDATE)
POST_BATCH = 200  # posts erased or made anonymous per transaction (their texts rewritten)
LOG_BATCH = 500  # log rows looked at per transaction for records naming the member
#: Ids of a table looked at per transaction when untying the member from records' audiences:
#: a range of the primary key (no index finds a record by its audience's player)
AUDIENCE_BATCH = 2000
ANONYMOUS = 0  # no Discord id is 0: the marker of a row no longer tied to anyone
EXPORT_FORMAT = "arbitro-member-data"
CharacterChoice = Literal["delete", "to_gm"]


@dataclass(frozen=True, slots=True)
class DeletionPreview:
    """What ``/privacy delete`` would touch, shown before the member confirms."""

    characters: tuple[str, ...]
    rolls: int
    drafts: int
    campaigns_as_gm: tuple[str, ...]
    #: (id, name, GM role id) of the live campaigns the member runs: the cog finds who may
    #: take each over (a member with its GM role) before asking
    gm_campaigns: tuple[tuple[int, str, int | None], ...] = ()
    #: per campaign of ``gm_campaigns``, the other members who played in it (latest first,
    #: at most :data:`MAX_PARTICIPANTS`): where the cog looks for its co-GMs
    participants: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    #: the member's posts (``/post``) not yet deleted, and the bot's copies of them in GM
    #: channels (private notes, the GM copy of a private roll): with "delete my
    #: characters" both leave Discord; handed to the GM, both stay with the story
    posts: int = 0
    gm_copies: int = 0

    @property
    def empty(self) -> bool:
        return not (
            self.characters or self.rolls or self.drafts or self.campaigns_as_gm or self.posts
        )


@dataclass(frozen=True, slots=True)
class DeletionSummary:
    deleted_characters: tuple[str, ...]
    handed_characters: tuple[str, ...]
    rolls_anonymised: int
    drafts_deleted: int
    awards_deleted: int
    #: the departing GM's campaigns handed to a co-GM (name, new GM), and those archived
    #: because nobody else holds their GM role (issue 23 §5: they were left to nobody)
    campaigns_handed: tuple[tuple[str, int], ...] = ()
    campaigns_archived: tuple[str, ...] = ()
    posts_erased: int = 0
    posts_anonymised: int = 0
    #: (channel id, message id) of the erased posts' Discord messages, for the cog to delete
    erased_messages: tuple[tuple[int, int], ...] = ()


def _value(value: Any) -> Any:
    """Dates in the export are ISO 8601 for programs, times with their UTC offset
    (``2026-12-01T17:05:00+00:00``): stored times are naive UTC, and a time without an offset
    would read as the reader's local time.  Replies to people use the campaign's zone instead
    (bot/formatting.py); a machine-readable file keeps one unambiguous zone."""
    if isinstance(value, datetime):
        return as_utc(value).isoformat()
    if isinstance(value, date):
        return value.isoformat()
    return value


async def encode_document(document: dict[str, Any], limit: int) -> tuple[str, bytes]:
    """The file to send: JSON (one row per line), gzipped when over ``limit`` bytes.

    Long lists are encoded a slice at a time, yielding to the event loop in between, and
    compression runs in a thread (zlib releases the GIL), so a long roll history does not
    hold up other servers' commands.
    """
    name = f"arbitro-{document['guild_id']}-{document['user_id']}.json"
    parts = []
    for key, value in document.items():
        if isinstance(value, list):
            lines: list[str] = []
            for start in range(0, len(value), BATCH):
                lines.extend(
                    json.dumps(item, ensure_ascii=False) for item in value[start : start + BATCH]
                )
                await asyncio.sleep(0)
            body = "[\n" + ",\n".join(lines) + "\n]" if lines else "[]"
        else:
            body = json.dumps(value, ensure_ascii=False)
        parts.append(f"{json.dumps(key)}: {body}")
    payload = ("{\n" + ",\n".join(parts) + "\n}\n").encode()
    if len(payload) <= limit:
        return name, payload
    packed = await asyncio.to_thread(gzip.compress, payload, 6)
    if len(packed) > limit:
        raise DomainError("privacy.error.too_big", size=len(packed) // (1024 * 1024) + 1)
    return name + ".gz", packed


@dataclass(frozen=True, slots=True)
class _Marks:
    """How far the batches went through the log: the final transaction looks only past it."""

    doomed: frozenset[int] = frozenset()  # the characters whose undo records were dropped
    changes: int = 0  # the last log id looked at for them
    details: int = 0  # the last log id looked at for records naming the member
    #: per table, the last id whose audience the batches untied from the member
    audiences: Mapping[str, int] = dataclasses.field(default_factory=dict)


class PrivacyService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions

    # -- export ------------------------------------------------------------------------

    async def export(self, guild_id: int, user_id: int) -> dict[str, Any]:
        """Everything stored about ``user_id`` in ``guild_id``, as one JSON-ready document."""
        async with self.sessions() as session:
            if session.get_bind().dialect.name == "postgresql":
                await session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            else:
                # The sqlite3 driver opens a transaction only before a write; without one
                # each SELECT would read its own snapshot.
                connection = await session.connection()
                await connection.exec_driver_sql("BEGIN")
            try:
                return await self._collect(session, guild_id, user_id)
            finally:
                await session.rollback()  # read only: nothing to keep

    async def _collect(self, session: AsyncSession, guild_id: int, user_id: int) -> dict[str, Any]:
        async def rows(model: type[SQLModel], *where: Any) -> list[dict[str, Any]]:
            """Plain rows (no ORM objects), read in batches so a long history never holds
            the event loop for more than one batch (every batch awaits the database)."""
            table = model.__table__  # type: ignore[attr-defined]  # set by table=True, undeclared
            key = next(iter(table.primary_key.columns))
            found: list[dict[str, Any]] = []
            last = None
            connection = await session.connection()  # the read transaction begun above
            while True:
                query = sa_select(table).where(*where).order_by(key).limit(BATCH)
                if last is not None:
                    query = query.where(key > last)
                batch = (await connection.execute(query)).mappings().all()
                found.extend({k: _value(v) for k, v in row.items()} for row in batch)
                if len(batch) < BATCH or len(table.primary_key.columns) > 1:
                    return found
                last = batch[-1][key.name]

        # What the member reads of each record is decided by the audience rule, as in every
        # output: the GM's view in the campaigns he runs, a player's elsewhere.
        runs = {
            c["id"]
            for c in await rows(Campaign, Campaign.guild_id == guild_id)
            if c["gm_user_id"] == user_id
        }
        reveals = await _guild_reveals(session, guild_id)

        def reader_of(record: Mapping[str, Any]) -> Reader:
            """The member as a reader of ``record``: the GM of the campaigns he runs."""
            if record.get("campaign_id") in runs:
                return Reader.gm(user_id)
            return Reader.member(user_id)

        def seen(
            records: list[dict[str, Any]],
            project: Callable[[dict[str, Any], Sight], dict[str, Any]] = lambda r, _s: r,
        ) -> list[dict[str, Any]]:
            kept = []
            for record in records:
                campaign_id = record.get("campaign_id")
                reader = reader_of(record)
                view = sight(
                    Secrecy.of_row(record),
                    reader,
                    written_at=_moment(record.get("created_at")),
                    reveals=reveals.get(campaign_id or 0, NO_REVEALS),
                )
                kept.append(project(record, view) if view is not None else _withheld(record))
            return kept

        characters = await rows(
            Character, Character.guild_id == guild_id, Character.owner_user_id == user_id
        )
        own_ids = [c["id"] for c in characters]
        combats = []
        for record in await rows(CombatRecord, CombatRecord.guild_id == guild_id):
            mine = [
                c for c in record["state"].get("combatants", []) if c.get("owner_id") == user_id
            ]
            if mine or record["created_by"] == user_id:
                combats.append(
                    {
                        "id": record["id"],
                        "campaign_id": record["campaign_id"],
                        "channel_id": record["channel_id"],
                        "status": record["status"],
                        "started_by_you": record["created_by"] == user_id,
                        "created_at": record["created_at"],
                        "your_combatants": mine,
                    }
                )
        return {
            "format": EXPORT_FORMAT,
            "version": 1,
            "generated_at": utcnow().isoformat(),
            "guild_id": guild_id,
            "user_id": user_id,
            "campaigns_you_run": await rows(
                Campaign, Campaign.guild_id == guild_id, Campaign.gm_user_id == user_id
            ),
            "characters": characters,
            "active_characters": await rows(
                ActiveCharacter,
                ActiveCharacter.guild_id == guild_id,
                ActiveCharacter.user_id == user_id,
            ),
            "drafts": await rows(
                CreationDraft, CreationDraft.guild_id == guild_id, CreationDraft.user_id == user_id
            ),
            "rolls": seen(
                await rows(RollLog, RollLog.guild_id == guild_id, RollLog.user_id == user_id),
                roll_record_seen,
            ),
            "xp_awards_to_your_characters": seen(
                await rows(
                    XpAward,
                    XpAward.guild_id == guild_id,
                    col(XpAward.character_id).in_(own_ids),
                )
            )
            if own_ids
            else [],
            "xp_awards_you_granted": seen(
                await rows(XpAward, XpAward.guild_id == guild_id, XpAward.granted_by == user_id)
            ),
            "characters_you_deleted": await rows(
                Character,
                Character.guild_id == guild_id,
                Character.deleted_by == user_id,
                Character.owner_user_id != user_id,
            ),
            "combats": combats,
            "roll_requests": [
                _request_seen(request, reader_of(request), reveals)
                for request in await rows(RollRequest, RollRequest.guild_id == guild_id)
                if _mentions(request, user_id)
            ],
            "absences": await rows(
                Absence, Absence.guild_id == guild_id, Absence.user_id == user_id
            ),
            "pace_preferences": await rows(
                PaceMember, PaceMember.guild_id == guild_id, PaceMember.user_id == user_id
            ),
            "npcized_characters": await rows(
                Npcization,
                Npcization.guild_id == guild_id,
                Npcization.player_user_id == user_id,
            ),
            "reminders_sent_to_you": await rows(
                PaceReminder, PaceReminder.guild_id == guild_id, PaceReminder.user_id == user_id
            ),
            "scenes": [
                {
                    key: scene[key]
                    for key in ("id", "campaign_id", "channel_id", "title", "status", "created_at")
                }
                | {"opened_by_you": scene["opened_by"] == user_id}
                for scene in await rows(Scene, Scene.guild_id == guild_id)
                if user_id in scene["players"] or scene["opened_by"] == user_id
            ],
            "posts": seen(
                await rows(Post, Post.guild_id == guild_id, Post.author_user_id == user_id),
                _post_seen,
            ),
            # whispers and private-thread posts others addressed to the member (issue 24):
            # each one he was addressed to, as the audience rule lets him read it
            "posts_addressed_to_you": _addressed_seen(
                await rows(Post, Post.guild_id == guild_id, *_addressed(Post, user_id)),
                _post_seen,
                user_id,
                reveals,
            ),
            "rolls_addressed_to_you": _addressed_seen(
                await rows(RollLog, RollLog.guild_id == guild_id, *_addressed(RollLog, user_id)),
                roll_record_seen,
                user_id,
                reveals,
            ),
            "private_threads": _threads_of(
                await rows(PrivateThread, PrivateThread.guild_id == guild_id), user_id
            ),
            # the NPCs the member revealed to the players (/npc reveal), as a GM
            "npc_reveals_you_made": await rows(
                Reveal, Reveal.guild_id == guild_id, Reveal.by_user_id == user_id
            ),
        }

    encode = staticmethod(encode_document)  # the file to send

    # -- delete ------------------------------------------------------------------------

    async def preview(self, guild_id: int, user_id: int) -> DeletionPreview:
        """What ``/privacy delete`` would touch (:func:`_preview`)."""
        async with self.sessions() as session:
            return await _preview(session, guild_id, user_id)

    async def export_file(self, guild_id: int, user_id: int, limit: int) -> tuple[str, bytes]:
        """``/privacy export``: the member's document as the file to send (:meth:`encode`)."""
        return await self.encode(await self.export(guild_id, user_id), limit)

    @overload
    async def delete(
        self,
        guild_id: int,
        user_id: int,
        *,
        characters: CharacterChoice,
        confirm: None = None,
        successors: Mapping[int, int] | None = None,
    ) -> DeletionSummary: ...

    @overload
    async def delete(
        self,
        guild_id: int,
        user_id: int,
        *,
        characters: CharacterChoice,
        confirm: Confirm,
        successors: Mapping[int, int] | None = None,
    ) -> DeletionSummary | None: ...

    async def delete(
        self,
        guild_id: int,
        user_id: int,
        *,
        characters: CharacterChoice,
        confirm: Confirm | None = None,
        successors: Mapping[int, int] | None = None,
    ) -> DeletionSummary | None:
        """Remove or untie everything stored about the member: her rolls, her posts and the
        log's records naming her in short batches first (:func:`_in_batches`), the rest in
        one transaction.  ``confirm`` is shown what would go (``preview``, :meth:`preview`)
        first; None: it declined (or there was nothing to delete).

        A campaign the member runs goes to its ``successors`` entry (a co-GM: a member with
        its GM role, found by the caller — read once ``confirm`` has answered, so the cog
        may find them while it asks), or is archived when there is none: a campaign is
        never left to an anonymous GM (issue 23 §5).  Its characters handed «to the GM» go
        to that successor."""
        if characters not in ("delete", "to_gm"):
            raise DomainError("privacy.error.bad_choice")
        if confirm is not None and not await confirm(preview=await self.preview(guild_id, user_id)):
            return None
        successors = {k: v for k, v in (successors or {}).items() if v != user_id}
        rolls, erased, anonymised, messages, marks = await _in_batches(
            self.sessions, guild_id, user_id, erase=characters == "delete"
        )

        async def attempt() -> DeletionSummary:  # retried whole: the member asked for all
            try:
                async with self.sessions() as session, session.begin():
                    return await self._delete(
                        session, guild_id, user_id, characters, successors, marks
                    )
            except IntegrityError:
                raise StaleWrite() from None

        done = await retrying(attempt, limit=DELETION_ATTEMPTS)
        return dataclasses.replace(
            done,
            rolls_anonymised=done.rolls_anonymised + rolls,
            posts_erased=done.posts_erased + erased,
            posts_anonymised=done.posts_anonymised + anonymised,
            erased_messages=messages + done.erased_messages,
        )

    async def _delete(
        self,
        session: AsyncSession,
        guild_id: int,
        user_id: int,
        choice: CharacterChoice,
        successors: Mapping[int, int],
        marks: _Marks | None = None,
    ) -> DeletionSummary:
        marks = marks or _Marks()
        # Writing first takes SQLite's write lock at once, so every read below is current
        # (the rolls made since the batches, if any).
        rolls = await _anonymise_rolls(session, guild_id, user_id)
        campaigns = {
            c.id: c
            for c in (
                await session.exec(select(Campaign).where(Campaign.guild_id == guild_id))
            ).all()
        }
        owned = (
            await session.exec(
                select(Character).where(
                    Character.guild_id == guild_id, Character.owner_user_id == user_id
                )
            )
        ).all()

        def heir(campaign_id: int) -> int:
            gm = campaigns[campaign_id].gm_user_id
            return successors.get(campaign_id, ANONYMOUS) if gm == user_id else gm

        doomed = [c for c in owned if not c.is_npc and choice == "delete"]
        handed = [c for c in owned if c not in doomed]
        doomed_ids = [saved_id(c) for c in doomed]
        awards = 0
        await _forget_pace(session, guild_id, user_id, doomed_ids)
        await _forget_typing(session, guild_id, user_id, doomed_ids)
        if doomed_ids:
            await session.exec(
                delete(ActiveCharacter).where(col(ActiveCharacter.character_id).in_(doomed_ids))
            )
            awards = (
                await session.exec(delete(XpAward).where(col(XpAward.character_id).in_(doomed_ids)))
            ).rowcount
            await session.exec(
                delete(CharacterProfile).where(col(CharacterProfile.character_id).in_(doomed_ids))
            )
            await session.exec(
                delete(CharacterNote).where(col(CharacterNote.character_id).in_(doomed_ids))
            )
            await session.exec(  # their posts stay (erased below), no longer tied to them
                update(Post)
                .where(col(Post.guild_id) == guild_id, col(Post.character_id).in_(doomed_ids))
                .values(character_id=None, version=Post.version + 1)
            )
            await session.exec(delete(Character).where(col(Character.id).in_(doomed_ids)))
            # the log was gone through in batches up to marks.changes for the characters
            # known then: only what came since, and any character since, is left here
            doomed_set = set(doomed_ids)
            await _forget_changes(session, guild_id, doomed_set - marks.doomed)
            await _forget_changes(session, guild_id, doomed_set & marks.doomed, after=marks.changes)
        for character in handed:
            await session.exec(
                update(Character)
                .where(col(Character.id) == character.id, col(Character.owner_user_id) == user_id)
                .values(
                    owner_user_id=heir(character.campaign_id),
                    version=Character.version + 1,
                    updated_at=utcnow(),
                )
            )
        await session.exec(
            update(Character)
            .where(col(Character.guild_id) == guild_id, col(Character.deleted_by) == user_id)
            .values(deleted_by=None)
        )
        await session.exec(
            delete(ActiveCharacter).where(
                col(ActiveCharacter.guild_id) == guild_id, col(ActiveCharacter.user_id) == user_id
            )
        )
        drafts = (
            await session.exec(
                delete(CreationDraft).where(
                    col(CreationDraft.guild_id) == guild_id, col(CreationDraft.user_id) == user_id
                )
            )
        ).rowcount
        await session.exec(
            update(XpAward)
            .where(col(XpAward.guild_id) == guild_id, col(XpAward.granted_by) == user_id)
            .values(granted_by=ANONYMOUS)
        )
        await _forget_umbria_player(session, guild_id, user_id)
        await _forget_private_threads(session, guild_id, user_id)
        await _untie_audiences(session, guild_id, user_id, after=marks.audiences)
        erased, anonymised, messages = await _untie_posts(  # those posted since the batches
            session,
            guild_id,
            user_id,
            erase=choice == "delete",
            gm_channels={i: c.gm_channel_id for i, c in campaigns.items() if i is not None},
        )
        new_owner: dict[int | None, int] = {c.id: heir(c.campaign_id) for c in handed}
        await _untie_combats(session, guild_id, user_id, new_owner)
        await _untie_requests(session, guild_id, user_id)
        await _untie_log_details(session, guild_id, user_id, after=marks.details)
        await _untie_scenes(session, guild_id, user_id)
        handed_over, archived = await _hand_over_campaigns(
            session, [c for c in campaigns.values() if c.gm_user_id == user_id], successors
        )
        return DeletionSummary(
            deleted_characters=tuple(sorted(c.name for c in doomed)),
            handed_characters=tuple(sorted(c.name for c in handed if not c.is_npc)),
            rolls_anonymised=rolls,
            drafts_deleted=drafts,
            awards_deleted=awards,
            campaigns_handed=handed_over,
            campaigns_archived=archived,
            posts_erased=erased,
            posts_anonymised=anonymised,
            erased_messages=messages,
        )


async def _count(session: AsyncSession, model: type[SQLModel], *where: Any) -> int:
    """How many rows of ``model`` match ``where`` (the preview's counts)."""
    return int((await session.exec(select(func.count()).select_from(model).where(*where))).one())


async def _preview(session: AsyncSession, guild_id: int, user_id: int) -> DeletionPreview:
    """What ``/privacy delete`` would touch, shown before the member confirms."""
    characters = (
        await session.exec(
            select(Character.name).where(
                Character.guild_id == guild_id,
                Character.owner_user_id == user_id,
                col(Character.is_npc).is_(False),
            )
        )
    ).all()
    rolls = await _count(session, RollLog, RollLog.guild_id == guild_id, RollLog.user_id == user_id)
    drafts = await _count(
        session, CreationDraft, CreationDraft.guild_id == guild_id, CreationDraft.user_id == user_id
    )
    campaigns = (
        await session.exec(
            select(Campaign).where(Campaign.guild_id == guild_id, Campaign.gm_user_id == user_id)
        )
    ).all()
    posts = (
        await session.exec(
            select(Post.gm_message_ids).where(
                Post.guild_id == guild_id,
                Post.author_user_id == user_id,
                col(Post.deleted_at).is_(None),
            )
        )
    ).all()
    live = [c for c in campaigns if c.status == "active"]
    participants = {saved_id(c): await _participants(session, saved_id(c), user_id) for c in live}
    return DeletionPreview(
        tuple(sorted(characters)),
        rolls,
        drafts,
        tuple(c.name for c in campaigns),
        tuple((saved_id(c), c.name, c.gm_role_id) for c in live),
        participants,
        posts=len(posts),
        gm_copies=sum(len(copies or ()) for copies in posts),
    )


async def _in_batches(
    sessions: async_sessionmaker[AsyncSession], guild_id: int, user_id: int, *, erase: bool
) -> tuple[int, int, int, tuple[tuple[int, int], ...], _Marks]:
    """The bulk of a deletion before its final transaction, a short transaction per batch
    with a pause between two (:func:`bot.db.bulk.pause_after`): a member with 50,000 rolls
    and 10,000 posts held the database 6 s in one transaction (every other server's
    command waited).  A batch done stays done — rolls anonymous, posts erased or anonymous,
    log records untied —, as the member asked; the transaction that follows does the rest
    (and whatever was posted or rolled in between).  Returns (rolls anonymised, posts
    erased, posts anonymised, the erased posts' messages, how far the log was read)."""
    rolls, erased, anonymised, messages = await _rolls_and_posts_in_batches(
        sessions, guild_id, user_id, erase=erase
    )
    marks = await _log_in_batches(sessions, guild_id, user_id, erase=erase)
    audiences = await _audiences_in_batches(sessions, guild_id, user_id)
    return rolls, erased, anonymised, messages, dataclasses.replace(marks, audiences=audiences)


async def _audiences_in_batches(
    sessions: async_sessionmaker[AsyncSession], guild_id: int, user_id: int
) -> dict[str, int]:
    """Records whose audience names the member (:func:`_untie_audiences`), untied a range of
    :data:`AUDIENCE_BATCH` ids per transaction with a pause between two: no index finds a
    record by its audience's player, so one UPDATE over a guild's 100,000 rolls held SQLite's
    one connection for every other server.  Returns, per table, the last id done: the final
    transaction looks only past it."""
    reached: dict[str, int] = {}
    for model in _AUDIENCE_MODELS:
        async with sessions() as session:
            low, high = (
                await session.exec(
                    select(func.min(model.id), func.max(model.id)).where(
                        col(model.guild_id) == guild_id
                    )
                )
            ).one()
        if low is None or high is None:
            continue
        for start in range(low, high + 1, AUDIENCE_BATCH):
            started = time.perf_counter()
            async with sessions() as session, session.begin():
                await _untie_audience_range(
                    session, model, guild_id, user_id, start - 1, start + AUDIENCE_BATCH - 1
                )
            await pause_after(started)
        reached[model.__tablename__] = high
    return reached


async def _rolls_and_posts_in_batches(
    sessions: async_sessionmaker[AsyncSession], guild_id: int, user_id: int, *, erase: bool
) -> tuple[int, int, int, tuple[tuple[int, int], ...]]:
    """The member's rolls (:data:`WRITE_BATCH` per transaction), then her posts
    (:data:`POST_BATCH`)."""
    async with sessions() as session:
        found = (
            await session.exec(
                select(Campaign.id, Campaign.gm_channel_id).where(Campaign.guild_id == guild_id)
            )
        ).all()
    gm_channels = {k: v for k, v in found if k is not None}
    rolls = erased = anonymised = 0
    messages: tuple[tuple[int, int], ...] = ()
    while True:
        started = time.perf_counter()
        async with sessions() as session, session.begin():
            done = await _anonymise_rolls(session, guild_id, user_id, WRITE_BATCH)
        rolls += done
        await pause_after(started)
        if done < WRITE_BATCH:
            break
    while True:
        started = time.perf_counter()
        async with sessions() as session, session.begin():
            gone, kept, sent = await _untie_posts(
                session, guild_id, user_id, erase=erase, gm_channels=gm_channels, limit=POST_BATCH
            )
        erased, anonymised, messages = erased + gone, anonymised + kept, messages + sent
        await pause_after(started)
        if gone + kept < POST_BATCH:
            break
    return rolls, erased, anonymised, messages


async def _log_in_batches(
    sessions: async_sessionmaker[AsyncSession], guild_id: int, user_id: int, *, erase: bool
) -> _Marks:
    """The log's records that name the member or the characters to be deleted,
    :data:`LOG_BATCH` rows looked at per transaction."""
    async with sessions() as session:
        doomed = (
            await session.exec(
                select(Character.id).where(
                    Character.guild_id == guild_id,
                    Character.owner_user_id == user_id,
                    col(Character.is_npc).is_(False),
                )
            )
        ).all()
    marks = _Marks(doomed=frozenset(i for i in doomed if i is not None and erase))
    while (changes := marks.changes) is not None:
        started = time.perf_counter()
        async with sessions() as session, session.begin():
            last = await _forget_changes(
                session, guild_id, set(marks.doomed), after=changes, limit=LOG_BATCH
            )
        marks = dataclasses.replace(marks, changes=last if last is not None else changes)
        await pause_after(started)
        if last is None:
            break
    while True:
        started = time.perf_counter()
        async with sessions() as session, session.begin():
            last = await _untie_log_details(
                session, guild_id, user_id, after=marks.details, limit=LOG_BATCH
            )
        await pause_after(started)
        if last is None:
            return marks
        marks = dataclasses.replace(marks, details=last)


async def _untie_combats(
    session: AsyncSession, guild_id: int, user_id: int, new_owner: Mapping[int | None, int]
) -> None:
    """Fights name a combatant's player; hand those to the new owner (or to the referees)."""
    records = (
        await session.exec(select(CombatRecord).where(CombatRecord.guild_id == guild_id))
    ).all()
    for record in records:
        combatants: Sequence[dict[str, Any]] = record.state.get("combatants", [])
        touched = [c for c in combatants if c.get("owner_id") == user_id]
        if not touched and record.created_by != user_id:
            continue
        state = dict(record.state)
        state["combatants"] = [
            {**c, "owner_id": new_owner.get(c.get("character_id")) or None}
            if c.get("owner_id") == user_id
            else c
            for c in combatants
        ]
        await update_versioned(
            session,
            CombatRecord,
            col(CombatRecord.id) == record.id,
            record.version,
            state=state,
            created_by=ANONYMOUS if record.created_by == user_id else record.created_by,
        )


def _threads_of(threads: list[dict[str, Any]], user_id: int) -> list[dict[str, Any]]:
    """The private threads a member is in: the GM ↔ player ones and the players' whispers
    (``/post to:``, issue 24) that name them among their members."""
    return [
        thread
        for thread in threads
        if user_id in (thread["player_user_id"], thread["gm_user_id"])
        or user_id in (thread["members"] or [])
    ]


async def _forget_typing(
    session: AsyncSession, guild_id: int, user_id: int, doomed_ids: list[int]
) -> None:
    """Typing mode (issue 24): which character stuck to them in each scene goes; the proxy
    tags and macros of their deleted characters go; tags and macros they added to
    characters (or the campaign) that stay keep working, no longer naming who added them."""
    await session.exec(
        delete(SceneSpeaker).where(
            col(SceneSpeaker.guild_id) == guild_id,
            (col(SceneSpeaker.user_id) == user_id) | col(SceneSpeaker.character_id).in_(doomed_ids),
        )
    )
    if doomed_ids:
        await session.exec(delete(ProxyTag).where(col(ProxyTag.character_id).in_(doomed_ids)))
        await session.exec(delete(Macro).where(col(Macro.character_id).in_(doomed_ids)))
    for model in (ProxyTag, Macro):
        await session.exec(
            update(model)
            .where(col(model.guild_id) == guild_id, col(model.created_by) == user_id)
            .values(created_by=ANONYMOUS)
        )


async def _forget_pace(
    session: AsyncSession, guild_id: int, user_id: int, doomed_ids: list[int]
) -> None:
    """Absences, reminder preferences and reminders sent are the member's own: deleted.
    Their characters stop being NPCized (deleted or the GM's now); "handed over by" them
    becomes anonymous."""
    for model, column in (
        (Absence, Absence.user_id),
        (PaceMember, PaceMember.user_id),
        (PaceReminder, PaceReminder.user_id),
        (Npcization, Npcization.player_user_id),
    ):
        await session.exec(
            delete(model).where(col(model.guild_id) == guild_id, col(column) == user_id)
        )
    if doomed_ids:
        await session.exec(
            delete(PaceReminder).where(col(PaceReminder.character_id).in_(doomed_ids))
        )
        await session.exec(delete(Npcization).where(col(Npcization.character_id).in_(doomed_ids)))
    await session.exec(
        update(Npcization)
        .where(col(Npcization.guild_id) == guild_id, col(Npcization.by_user_id) == user_id)
        .values(by_user_id=ANONYMOUS)
    )


async def _untie_scenes(session: AsyncSession, guild_id: int, user_id: int) -> None:
    """Scenes name their players and who opened them: the member leaves both (versioned)."""
    scenes = (await session.exec(select(Scene).where(Scene.guild_id == guild_id))).all()
    for scene in scenes:
        if user_id not in scene.players and scene.opened_by != user_id:
            continue
        await update_versioned(
            session,
            Scene,
            col(Scene.id) == scene.id,
            scene.version,
            players=[p for p in scene.players if p != user_id],
            opened_by=ANONYMOUS if scene.opened_by == user_id else scene.opened_by,
        )


async def _forget_umbria_player(session: AsyncSession, guild_id: int, user_id: int) -> None:
    """The Umbría players the member claimed (``/sheet claim``): their Umbría name is the
    member's too, so the rows go, and nothing points at them any more (a later claim cannot
    hand the member's posts to someone else)."""
    players = (
        await session.exec(
            select(ImportedPlayer.id).where(
                ImportedPlayer.guild_id == guild_id, ImportedPlayer.claimed_by == user_id
            )
        )
    ).all()
    if not players:
        return
    for model in (Post, Character):
        await session.exec(
            update(model)
            .where(col(model.imported_player_id).in_(players))
            .values(imported_player_id=None)
        )
    await session.exec(delete(ImportedPlayer).where(col(ImportedPlayer.id).in_(players)))


async def _forget_private_threads(session: AsyncSession, guild_id: int, user_id: int) -> None:
    """The private threads the member is in are forgotten: the next private post among
    those members opens a new one."""
    threads = (
        await session.exec(select(PrivateThread).where(PrivateThread.guild_id == guild_id))
    ).all()
    theirs = [
        saved_id(thread)
        for thread in threads
        if user_id in (thread.player_user_id, thread.gm_user_id, *thread.members)
    ]
    if theirs:
        await session.exec(delete(PrivateThread).where(col(PrivateThread.id).in_(theirs)))


async def _member_posts(
    session: AsyncSession, guild_id: int, user_id: int, limit: int | None
) -> Sequence[Row[Any, Any, Any, Any, Any, Any]]:  # the six columns below
    """The member's posts (the first ``limit``), the columns :func:`_untie_posts` needs."""
    # the columns needed, as plain rows: ORM objects of a member's 10,000 posts, kept in the
    # session, made each bulk UPDATE of _untie_posts match them one by one in Python (6 s)
    connection = await session.connection()
    query = (
        sa_select(
            Post.__table__.c.id,  # type: ignore[attr-defined]
            Post.__table__.c.campaign_id,  # type: ignore[attr-defined]
            Post.__table__.c.channel_id,  # type: ignore[attr-defined]
            Post.__table__.c.deleted_at,  # type: ignore[attr-defined]
            Post.__table__.c.message_ids,  # type: ignore[attr-defined]
            Post.__table__.c.gm_message_ids,  # type: ignore[attr-defined]
        )
        .where(Post.__table__.c.guild_id == guild_id, Post.__table__.c.author_user_id == user_id)  # type: ignore[attr-defined]
        .order_by(Post.__table__.c.id)  # type: ignore[attr-defined]
    )
    return (await connection.execute(query.limit(limit) if limit else query)).all()


async def _untie_posts(
    session: AsyncSession,
    guild_id: int,
    user_id: int,
    *,
    erase: bool,
    gm_channels: Mapping[int, int | None],
    limit: int | None = None,
) -> tuple[int, int, tuple[tuple[int, int], ...]]:
    """The member's posts (at most ``limit`` of them): erased (text and notes, with the
    characters) or kept anonymous; returns (erased, anonymised, the erased posts' Discord
    messages: each post's own, and the bot's copies of it in its campaign's GM channel —
    the private notes, the GM copy of a private roll — which the cog deletes too).  A post
    done is no longer the member's, so calling again takes the next ones."""
    posts = await _member_posts(session, guild_id, user_id, limit)
    if not posts:
        return 0, 0, ()
    ids = [post.id for post in posts]
    if not erase:
        await session.exec(
            update(Post)
            .where(col(Post.id).in_(ids))
            .values(author_user_id=ANONYMOUS, version=Post.version + 1)
            .execution_options(synchronize_session=False)
        )
        return 0, len(ids), ()
    messages = tuple(
        (post.channel_id, message_id)
        for post in posts
        if post.deleted_at is None
        for message_id in post.message_ids
    ) + tuple(
        (gm_channel, message_id)
        for post in posts
        if post.deleted_at is None and (gm_channel := gm_channels.get(post.campaign_id))
        for message_id in post.gm_message_ids
    )
    await session.exec(delete(PostMessage).where(col(PostMessage.post_id).in_(ids)))
    await session.exec(delete(PostImage).where(col(PostImage.post_id).in_(ids)))
    await session.exec(
        update(Post)
        .where(col(Post.id).in_(ids))
        .values(
            author_user_id=ANONYMOUS,
            text="",
            notes=None,
            message_ids=[],
            gm_message_ids=[],
            deleted_at=func.coalesce(Post.deleted_at, utcnow()),
            version=Post.version + 1,
        )
        .execution_options(synchronize_session=False)
    )
    return len(ids), 0, messages


async def _anonymise_rolls(
    session: AsyncSession, guild_id: int, user_id: int, limit: int | None = None
) -> int:
    """The member's rolls (at most ``limit``) stay in the record without their id or name."""
    mine = (col(RollLog.guild_id) == guild_id) & (col(RollLog.user_id) == user_id)
    where: ColumnElement[bool] = mine
    if limit is not None:
        chosen = sa_select(RollLog.__table__.c.id).where(mine).limit(limit)  # type: ignore[attr-defined]
        where = col(RollLog.id).in_(chosen.scalar_subquery())
    result = await session.exec(
        update(RollLog)
        .where(where)
        .values(user_id=ANONYMOUS, user_name="")
        .execution_options(synchronize_session=False)
    )
    return int(result.rowcount)


async def _forget_changes(
    session: AsyncSession,
    guild_id: int,
    character_ids: set[int],
    *,
    after: int = 0,
    limit: int | None = None,
) -> int | None:
    """Other people's audited changes to a deleted character (the GM's damage, XP grants)
    recorded its sheet values for undo: drop those and its name; the rows stay as record.

    Looks at the log rows after id ``after`` (at most ``limit``) and returns the last id it
    looked at (None when there was none): the batches go through the log a slice at a time,
    the final transaction only through what was written since."""
    if not character_ids:
        return None
    query = (
        select(RollLog)
        .where(
            RollLog.guild_id == guild_id,
            col(RollLog.id) > after,
            col(RollLog.kind).in_(sorted(UNDOABLE)),
        )
        .order_by(col(RollLog.id))
    )
    rows = (await session.exec(query.limit(limit) if limit else query)).all()
    for row in rows:
        record = undo_record(row)
        if record is not None and record.character_id in character_ids:
            row.detail = {k: v for k, v in row.detail.items() if k != "undo"}
            row.character_name = None
            session.add(row)
    return rows[-1].id if rows else None


#: The tables whose records carry an audience naming a member.
_AUDIENCE_MODELS: tuple[Any, ...] = (RollLog, XpAward, Post)


async def _untie_audiences(
    session: AsyncSession, guild_id: int, user_id: int, *, after: Mapping[str, int]
) -> None:
    """Records for "their player and the GM" stop naming the member: they stay the GM's
    (no one else is that player), and the NPCs the member revealed stay revealed.  ``after``:
    per table, the ids the batches already did (:func:`_audiences_in_batches`)."""
    for model in _AUDIENCE_MODELS:
        await _untie_audience_range(
            session, model, guild_id, user_id, after.get(model.__tablename__, 0), None
        )
    await session.exec(
        update(Reveal)
        .where(col(Reveal.guild_id) == guild_id, col(Reveal.by_user_id) == user_id)
        .values(by_user_id=ANONYMOUS)
    )


async def _untie_audience_range(
    session: AsyncSession,
    model: Any,
    guild_id: int,
    user_id: int,
    after: int,
    until: int | None,
) -> None:
    """:func:`_untie_audiences` for the ids of ``model`` past ``after`` up to ``until``
    (None: all): the audience's player, and the member in a whisper's list."""
    where = [col(model.guild_id) == guild_id, col(model.id) > after]
    if until is not None:
        where.append(col(model.id) <= until)
    values: dict[str, Any] = {"audience_user_id": ANONYMOUS}
    if model is Post:
        values["version"] = Post.version + 1  # an edit in flight must read it again
    await session.exec(
        update(model).where(*where, col(model.audience_user_id) == user_id).values(**values)
    )
    if model is not XpAward:
        await _untie_whispers(session, model, where, user_id)


async def _untie_whispers(
    session: AsyncSession, model: Any, where: list[Any], user_id: int
) -> None:
    """A whisper's members (``secrets.members``) stop naming the member: the others still
    read it; he is the anonymous marker there.  Read a batch at a time by id (whispers are
    few, but a table is not)."""
    after = None
    while True:
        query = select(model.id, model.secrets).where(
            *where, col(model.audience) == Audience.MEMBERS.value
        )
        if after is not None:
            query = query.where(col(model.id) > after)
        rows = (await session.exec(query.order_by(col(model.id)).limit(BATCH))).all()
        for row_id, secrets in rows:
            members = secrets.get("members") if isinstance(secrets, dict) else None
            if isinstance(members, list) and user_id in members:
                kept = sorted({ANONYMOUS if m == user_id else m for m in members})
                values: dict[str, Any] = {"secrets": {**secrets, "members": kept}}
                if model is Post:
                    values["version"] = Post.version + 1
                await session.exec(update(model).where(col(model.id) == row_id).values(**values))
        if len(rows) < BATCH:
            return
        after = rows[-1][0]


def _moment(value: Any) -> datetime | None:
    """A row's time back from the export's ISO 8601 text."""
    return datetime.fromisoformat(value) if isinstance(value, str) else None


def _addressed(model: Any, user_id: int) -> tuple[Any, ...]:
    """Where a table's records addressed to the member by someone else are: a whisper's (he
    among its members: the rule decides, from ``secrets``) or a private thread's (his)."""
    return (
        model.author_user_id != user_id if model is Post else model.user_id != user_id,
        or_(
            col(model.audience) == Audience.MEMBERS.value,
            and_(
                col(model.audience) == Audience.PLAYER.value,
                col(model.audience_user_id) == user_id,
            ),
        ),
    )


def _addressed_seen(
    records: list[dict[str, Any]],
    project: Callable[[dict[str, Any], Sight], dict[str, Any]],
    user_id: int,
    reveals: Mapping[int, Reveals],
) -> list[dict[str, Any]]:
    """Records others addressed to some members: those the member was one of, read as one
    of them (even in the campaigns he runs), through the audience rule."""
    kept = []
    for record in records:
        view = sight(
            Secrecy.of_row(record),
            Reader.member(user_id),
            written_at=_moment(record.get("created_at")),
            reveals=reveals.get(record.get("campaign_id") or 0, NO_REVEALS),
        )
        if view is not None:
            kept.append(project(record, view))
    return kept


def _withheld(record: Mapping[str, Any]) -> dict[str, Any]:
    """A record about the member that only the GM may read (the member's own act on a hidden
    NPC): that it exists, when, and nothing of what it says."""
    return {
        "id": record.get("id"),
        "campaign_id": record.get("campaign_id"),
        "created_at": record.get("created_at"),
        "withheld": "gm",
    }


def _request_seen(
    request: dict[str, Any], reader: Reader, reveals: Mapping[int, Reveals]
) -> dict[str, Any]:
    """A GM roll request naming the member, as he may read it: the audience rule on the
    request (a hidden difficulty) and on each roll (its mode's seals, a hidden NPC's numbers;
    a roll he may not know of reads as not rolled)."""
    seals = request_seals(str(request.get("hidden")))
    own = sight(PUBLIC.sealing(*seals), reader)
    assert own is not None  # a request is everyone's to know of
    found = reveals.get(request.get("campaign_id") or 0, NO_REVEALS)
    entries = []
    for entry in request.get("entries") or []:
        stored = entry.get("secrecy")
        secrecy = (Secrecy.of_row(stored) if isinstance(stored, dict) else PUBLIC).sealing(*seals)
        view = sight(secrecy, reader, written_at=_moment(entry.get("rolled_at")), reveals=found)
        kept = {k: v for k, v in entry.items() if k != "secrecy"}
        if view is None:
            kept.update(log_id=None, total=None, outcome=None, rolled_at=None)
        else:
            kept.update(
                total=view.value(Part.TOTAL, entry.get("total")),
                outcome=view.value(Part.OUTCOME, entry.get("outcome")),
            )
        entries.append(kept)
    return {
        **request,
        "difficulty": own.value(Part.DIFFICULTY, request.get("difficulty")),
        "entries": entries,
    }


def _post_seen(post: dict[str, Any], seen: Sight) -> dict[str, Any]:
    """A post the member wrote, its notes blanked where they are sealed from him."""
    if seen.shows(Part.NOTES):
        return post
    return {**post, "notes": None}


async def _guild_reveals(session: AsyncSession, guild_id: int) -> dict[int, Reveals]:
    """Every campaign's reveal events in the guild (for the audience rule)."""
    found: dict[int, dict[int, datetime]] = {}
    rows = (
        await session.exec(
            select(Reveal.campaign_id, Reveal.character_id, Reveal.created_at).where(
                Reveal.guild_id == guild_id
            )
        )
    ).all()
    for campaign_id, character_id, at in rows:
        npcs = found.setdefault(campaign_id, {})
        if character_id not in npcs or at > npcs[character_id]:
            npcs[character_id] = at
    return {campaign_id: Reveals(npcs) for campaign_id, npcs in found.items()}


def _mentions(request: Mapping[str, Any], user_id: int) -> bool:
    """Whether a GM roll request names the member (asked, closed, asked of or rolled by)."""
    if user_id in (request.get("requested_by"), request.get("closed_by")):
        return True
    return any(
        user_id in (entry.get("owner_id"), entry.get("by")) for entry in request.get("entries", [])
    )


async def _untie_requests(session: AsyncSession, guild_id: int, user_id: int) -> None:
    """GM roll requests name who asked, who closed, whose character was asked and who
    pressed: each becomes the anonymous marker (versioned writes: a press racing the
    deletion makes the deletion start again)."""
    rows = (await session.exec(select(RollRequest).where(RollRequest.guild_id == guild_id))).all()
    for row in rows:
        data = {
            "requested_by": row.requested_by,
            "closed_by": row.closed_by,
            "entries": row.entries,
        }
        if not _mentions(data, user_id):
            continue
        entries = [
            {
                **entry,
                "owner_id": ANONYMOUS
                if entry.get("owner_id") == user_id
                else entry.get("owner_id"),
                "by": ANONYMOUS if entry.get("by") == user_id else entry.get("by"),
            }
            for entry in row.entries
        ]
        await update_versioned(
            session,
            RollRequest,
            col(RollRequest.id) == row.id,
            row.version,
            requested_by=ANONYMOUS if row.requested_by == user_id else row.requested_by,
            closed_by=ANONYMOUS if row.closed_by == user_id else row.closed_by,
            entries=entries,
        )


#: Members of a campaign the cog looks at for a co-GM (one member lookup each).
MAX_PARTICIPANTS = 25


async def _participants(session: AsyncSession, campaign_id: int, leaving: int) -> tuple[int, ...]:
    """The members who rolled in the campaign lately, newest first, but the one leaving."""
    rows = (
        await session.exec(
            select(RollLog.user_id)
            .where(
                col(RollLog.campaign_id) == campaign_id,
                col(RollLog.user_id) != leaving,
                col(RollLog.user_id) != ANONYMOUS,
            )
            .order_by(col(RollLog.id).desc())
            .limit(500)
        )
    ).all()
    return tuple(dict.fromkeys(rows))[:MAX_PARTICIPANTS]


async def _hand_over_campaigns(
    session: AsyncSession, runs: Sequence[Campaign], successors: Mapping[int, int]
) -> tuple[tuple[tuple[str, int], ...], tuple[str, ...]]:
    """The departing GM's campaigns: to their successor, or archived (their bindings off, as
    ``/campaign end`` does; an administrator can reopen one).  Either way the stored GM is no
    longer the member."""
    handed: list[tuple[str, int]] = []
    archived: list[str] = []
    for campaign in sorted(runs, key=lambda c: c.name):
        successor = successors.get(saved_id(campaign))
        if successor is not None:
            values: dict[str, Any] = {"gm_user_id": successor}
            handed.append((campaign.name, successor))
        else:
            values = {"gm_user_id": ANONYMOUS}
            if campaign.status == "active":
                values |= {"status": "archived", "ended_at": utcnow()}
                await session.exec(
                    update(CampaignBinding)
                    .where(col(CampaignBinding.campaign_id) == campaign.id)
                    .values(active=False)
                )
                archived.append(campaign.name)
        await session.exec(
            update(Campaign)
            .where(col(Campaign.id) == campaign.id)
            .values(**values, version=Campaign.version + 1)
        )
    return tuple(handed), tuple(archived)


#: Audit kinds whose ``detail`` names members (``/sheet transfer``, the GM's approval, a
#: campaign's handover).
_MEMBER_DETAIL_KINDS = ("transfer", "approval", "campaign_transfer")
_MEMBER_DETAIL_KEYS = ("from", "to", "owner_id")


async def _untie_log_details(
    session: AsyncSession,
    guild_id: int,
    user_id: int,
    *,
    after: int = 0,
    limit: int | None = None,
) -> int | None:
    """The log's records of a handed-over or approved character name its players in
    ``detail``: the member's id becomes the anonymous marker (the row stays, as rolls do).
    Rows after id ``after``, at most ``limit``; returns the last id looked at."""
    query = (
        select(RollLog)
        .where(
            col(RollLog.guild_id) == guild_id,
            col(RollLog.id) > after,
            col(RollLog.kind).in_(_MEMBER_DETAIL_KINDS),
        )
        .order_by(col(RollLog.id))
    )
    rows = (await session.exec(query.limit(limit) if limit else query)).all()
    for row in rows:
        detail = dict(row.detail or {})
        if not any(detail.get(key) == user_id for key in _MEMBER_DETAIL_KEYS):
            continue
        for key in _MEMBER_DETAIL_KEYS:
            if detail.get(key) == user_id:
                detail[key] = ANONYMOUS
        row.detail = detail
        row.breakdown = ""
        session.add(row)
    return rows[-1].id if rows else None

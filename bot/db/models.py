"""Tables.  Every row carries ``guild_id`` so no query can cross guilds by accident.

Rows that several commands may change at once (campaigns, later characters and combats)
carry a ``version`` that every write checks and bumps (optimistic concurrency): see
:mod:`bot.services.base`.  Nothing is ever deleted by a user command: campaigns are
archived, rolls are kept.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any, Protocol

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    false,
    text,
)
from sqlmodel import Field, SQLModel

from bot.db.types import UtcDateTime

__all__ = [
    "Absence",
    "ActiveCharacter",
    "Campaign",
    "CampaignBinding",
    "Character",
    "CharacterNote",
    "CharacterProfile",
    "CombatRecord",
    "CreationDraft",
    "GuildDeparture",
    "ImportPublication",
    "ImportedPlayer",
    "Npcization",
    "PaceMember",
    "PaceReminder",
    "Post",
    "PostImage",
    "PostMessage",
    "PrivateThread",
    "Reveal",
    "RollLog",
    "RollRequest",
    "RollRequestEntry",
    "Scene",
    "Timer",
    "XpAward",
    "saved_id",
    "utcnow",
]


def utcnow() -> datetime:
    return datetime.now(UTC)


class _Row(Protocol):
    id: int | None


def saved_id(row: _Row) -> int:
    """The primary key of a row read from or flushed to the database.

    Table models declare ``id: int | None`` because the key is unknown until the INSERT;
    every row a service hands on has one, and this says so to the type checker (a row
    without one is a bug: it fails here instead of writing a NULL reference).
    """
    if row.id is None:
        raise ValueError(f"{type(row).__name__} has no primary key yet (not flushed)")
    return row.id


def _snowflake(**kwargs: Any) -> Any:
    return Field(sa_type=BigInteger, **kwargs)


class Campaign(SQLModel, table=True):
    """A game: one rule system, one GM, bound to channels/categories of one guild."""

    __tablename__ = "campaign"

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake(index=True)
    name: str = Field(max_length=100)
    system: str = Field(max_length=20)
    gm_user_id: int = _snowflake()
    gm_role_id: int | None = _snowflake(default=None, nullable=True)
    gm_channel_id: int | None = _snowflake(default=None, nullable=True)
    locale: str | None = Field(default=None, max_length=5)
    settings: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    status: str = Field(default="active", max_length=10)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)
    ended_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    version: int = Field(default=1)
    # The last audit row (an attack's secret numbers) shown to the GM as a pending note.
    gm_notes_seen: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    #: ``/campaign settings off_topic``: the channel where the table talks out of character
    #: (no posts as characters, no pace reminders); its threads are off-topic too.
    off_topic_channel_id: int | None = _snowflake(default=None, nullable=True)
    #: ``/campaign transfer``: the member the GM offered the campaign to, until they accept
    #: (or another offer replaces it)
    offered_to: int | None = _snowflake(default=None, nullable=True)


class CampaignBinding(SQLModel, table=True):
    """A channel, forum or category tied to a campaign (threads inherit from their parent)."""

    __tablename__ = "campaign_binding"
    __table_args__ = (
        Index(
            "uq_active_binding",
            "guild_id",
            "target_id",
            unique=True,
            sqlite_where=text("active"),
            postgresql_where=text("active"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaign.id", index=True)
    guild_id: int = _snowflake()
    target_id: int = _snowflake()
    kind: str = Field(max_length=10)  # "channel" | "forum" | "category"
    active: bool = Field(default=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)


class RollLog(SQLModel, table=True):
    """The audit log: every roll, public or private, with what was rolled and where."""

    __tablename__ = "roll_log"
    __table_args__ = (
        Index("ix_roll_log_channel_time", "guild_id", "channel_id", "id"),
        # /history outside a campaign: one member's rolls in this channel, newest first.
        Index("ix_roll_log_channel_user", "guild_id", "channel_id", "user_id", "id"),
        # /history is scoped to the campaign (all of it, or one member's rolls), newest first.
        Index("ix_roll_log_campaign", "guild_id", "campaign_id", "id"),
        Index("ix_roll_log_campaign_user", "guild_id", "campaign_id", "user_id", "id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake()
    channel_id: int = _snowflake()
    campaign_id: int | None = Field(default=None, foreign_key="campaign.id", nullable=True)
    user_id: int = _snowflake()
    user_name: str = Field(max_length=100)
    character_name: str | None = Field(default=None, max_length=100)
    kind: str = Field(default="roll", max_length=20)  # roll | check | save | initiative ...
    expression: str = Field(max_length=250)
    reason: str | None = Field(default=None, max_length=200)
    breakdown: str
    detail: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    total: int
    difficulty: int | None = None
    outcome: str | None = Field(default=None, max_length=20)
    fumble: bool = False
    private: bool = False
    message_id: int | None = _snowflake(default=None, nullable=True)
    message_url: str | None = Field(default=None, max_length=200)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)
    # Who may see it (bot.services.shared.audience, migration 0020): decided when written.
    audience: str = Field(
        default="everyone", max_length=10, sa_column_kwargs={"server_default": "everyone"}
    )
    audience_user_id: int | None = _snowflake(default=None, nullable=True)
    secrets: dict[str, Any] = Field(
        default_factory=dict, sa_column=Column(JSON, nullable=False, server_default="{}")
    )


class Character(SQLModel, table=True):
    """A player character or an NPC/monster: a system sheet (JSON) plus who may touch it.

    ``deleted_at`` marks a soft delete: the GM can restore it, so one click never loses a
    character.  NPCs (``is_npc``) belong to the campaign's referees; ``hidden`` NPCs are not
    shown to players.  ``template_id`` links copies made from one stat block ("5 goblins").
    """

    __tablename__ = "character"
    __table_args__ = (
        Index(
            "uq_character_name",
            "campaign_id",
            "name_key",
            unique=True,
            sqlite_where=text("deleted_at IS NULL"),
            postgresql_where=text("deleted_at IS NULL"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake(index=True)
    campaign_id: int = Field(foreign_key="campaign.id", index=True)
    owner_user_id: int = _snowflake()
    name: str = Field(max_length=100)
    name_key: str = Field(max_length=100)
    system: str = Field(max_length=20)
    sheet: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    is_npc: bool = False
    hidden: bool = False
    template_id: int | None = Field(default=None, nullable=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)
    deleted_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    deleted_by: int | None = _snowflake(default=None, nullable=True)
    version: int = Field(default=1)
    # The sheet's schema version (bot.services.sheets.schema); rows older than migration 0008 are 1.
    sheet_version: int = Field(default=2, sa_column_kwargs={"server_default": text("1")})
    # approved | pending | rejected: where the campaign asks for it (setting
    # ``aprobar_personajes``) a new character waits for the GM before it plays (migration 0015;
    # rows from before it are approved).
    approval: str = Field(
        default="approved", max_length=10, sa_column_kwargs={"server_default": "approved"}
    )
    #: An Umbría character (issue 27): the Umbría player who played it, claimed by a member
    #: with ``/sheet claim``; until its sheet is built with the wizard its approval is
    #: ``no_sheet`` (it does not play).
    imported_player_id: int | None = Field(
        default=None, foreign_key="imported_player.id", nullable=True
    )


class ActiveCharacter(SQLModel, table=True):
    """Which character a member plays in a campaign (one per member per campaign)."""

    __tablename__ = "active_character"

    campaign_id: int = Field(foreign_key="campaign.id", primary_key=True)
    user_id: int = _snowflake(primary_key=True)
    guild_id: int = _snowflake()
    character_id: int = Field(foreign_key="character.id")


class CreationDraft(SQLModel, table=True):
    """A character being built step by step; survives restarts so a PbP player can take days."""

    __tablename__ = "creation_draft"
    __table_args__ = (Index("ix_creation_draft_member", "campaign_id", "user_id", "status"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake(index=True)
    campaign_id: int = Field(foreign_key="campaign.id")
    user_id: int = _snowflake()
    is_npc: bool = False
    sheet: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    status: str = Field(default="open", max_length=10)  # open | done | abandoned
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)
    version: int = Field(default=1)


class XpAward(SQLModel, table=True):
    """Experience the referee granted (or took back): who, to whom, how much, why."""

    __tablename__ = "xp_award"

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake(index=True)
    campaign_id: int = Field(foreign_key="campaign.id", index=True)
    character_id: int = Field(foreign_key="character.id")
    character_name: str = Field(max_length=100)
    granted_by: int = _snowflake()
    amount: int
    xp_before: int
    xp_after: int
    reason: str | None = Field(default=None, max_length=200)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)
    # Who may see it (bot.services.shared.audience, migration 0020): decided when written.
    audience: str = Field(
        default="everyone", max_length=10, sa_column_kwargs={"server_default": "everyone"}
    )
    audience_user_id: int | None = _snowflake(default=None, nullable=True)
    secrets: dict[str, Any] = Field(
        default_factory=dict, sa_column=Column(JSON, nullable=False, server_default="{}")
    )


class CombatRecord(SQLModel, table=True):
    """A fight in one channel or forum post (``/init``); the state is :class:`rules.combat.Combat`.

    At most one active fight per channel (a partial unique index).  The turn reminder
    (``turn_hours`` after the last change) is the ``combat.turn`` :class:`Timer` of the fight,
    the one place its moment is kept.  Ending archives it
    (``status = "ended"``); it is never deleted.  Every change checks and bumps ``version``.
    """

    __tablename__ = "combat"
    __table_args__ = (
        Index(
            "uq_combat_active_channel",
            "guild_id",
            "channel_id",
            unique=True,
            sqlite_where=text("status = 'active'"),
            postgresql_where=text("status = 'active'"),
        ),
        Index("ix_combat_channel_status", "guild_id", "channel_id", "status"),
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake(index=True)
    campaign_id: int = Field(foreign_key="campaign.id", index=True)
    channel_id: int = _snowflake()
    state: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    status: str = Field(default="active", max_length=10)  # active | ended
    version: int = Field(default=1)
    created_by: int = _snowflake()
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)
    ended_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    turn_hours: int | None = None  # play-by-post: remind after this many hours on one turn


class GuildDeparture(SQLModel, table=True):
    """The bot was removed from a guild: its data is purged unless it returns.

    When is the ``guild.purge`` timer's ``due_at`` (:class:`Timer`, written in the same
    transaction: the one place a deadline is kept).  The only record of the guild kept after
    the purge is none at all: the purge deletes this row and its timer too.
    """

    __tablename__ = "guild_departure"

    guild_id: int = Field(
        sa_column=Column(BigInteger, primary_key=True, autoincrement=False, nullable=False)
    )
    left_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)
    #: The purge has begun (its retention ran out): a return no longer cancels it, and a
    #: purge cut half-way resumes when its timer fires again.
    purge_begun: bool = Field(
        default=False, sa_column=Column(Boolean, nullable=False, server_default=false())
    )


class Timer(SQLModel, table=True):
    """A durable timer (:mod:`bot.services.shared.timers`): something to do for a guild at ``due_at``.

    One row per ``(kind, ref)``; scheduling again moves it and bumps ``generation`` (which
    also names the Discord message ``nonce`` of that firing).  A process claims a due row by
    setting a lease (``lease_owner`` until ``lease_until``), acts, then deletes the row only if
    it is still the generation it claimed; a process that dies holding a lease loses it when
    ``lease_until`` passes and another process (the guild's shard) fires it.
    """

    __tablename__ = "timer"
    __table_args__ = (Index("uq_timer_kind_ref", "kind", "ref", unique=True),)

    id: int | None = Field(default=None, primary_key=True)
    kind: str = Field(max_length=40)
    ref: str = Field(max_length=80)
    guild_id: int = _snowflake(index=True)
    due_at: datetime = Field(index=True, sa_type=UtcDateTime)
    generation: int = Field(default=1)
    lease_owner: str | None = Field(default=None, max_length=80)
    lease_until: datetime | None = Field(default=None, sa_type=UtcDateTime)
    attempts: int = Field(default=0)


class Scene(SQLModel, table=True):
    """A scene of the play-by-post table: one forum post or thread (``channel_id``) of a campaign.

    The Umbría model: a game is a sub-forum, each scene a thread.  ``players`` lists the members
    the scene is for (empty: the whole party).  ``round_started_at`` is when the GM last posted
    in it: the current *round of posts* is everything after it.  Closing archives the thread and
    keeps the row; scenes are never deleted.
    """

    __tablename__ = "scene"
    __table_args__ = (Index("uq_scene_channel", "guild_id", "channel_id", unique=True),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake()
    campaign_id: int = Field(foreign_key="campaign.id", index=True)
    channel_id: int = _snowflake()  # the forum post / thread that holds the scene
    parent_id: int | None = _snowflake(default=None, nullable=True)  # forum or text channel
    title: str = Field(max_length=100)
    status: str = Field(default="open", max_length=10)  # open | closed
    private: bool = False  # a private thread only its players and the GM see
    players: list[int] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    header_message_id: int | None = _snowflake(default=None, nullable=True)
    opened_by: int = _snowflake()
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)
    closed_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    round_started_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    version: int = Field(default=1)
    #: The scene's opening text (an Umbría scene's description, issue 27; migration 0019).
    opening_text: str | None = None


class Post(SQLModel, table=True):
    """A post made through the bot as a character, an NPC or the narrator (``/post``).

    Records who really wrote it (``author_user_id``) beside the name it was shown under
    (``speaker_name``, and ``webhook_name`` when Discord's webhook rules forced a change).
    ``gm_post`` marks the referee's posts (they open a new round of posts); ``gm_only`` posts
    went to the GM channel instead of the scene.  Edits bump ``version`` and set ``edited_at``;
    deleting sets ``deleted_at`` (the record stays for the chronicle's GM section).
    """

    __tablename__ = "post"
    __table_args__ = (
        Index("ix_post_channel_time", "guild_id", "channel_id", "created_at"),
        Index("ix_post_campaign", "campaign_id", "id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake()
    campaign_id: int = Field(foreign_key="campaign.id")
    channel_id: int = _snowflake()  # where it was posted (scene thread, channel, GM channel)
    scene_id: int | None = Field(default=None, foreign_key="scene.id", nullable=True)
    message_ids: list[int] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    author_user_id: int = _snowflake()
    character_id: int | None = Field(default=None, foreign_key="character.id", nullable=True)
    speaker_name: str = Field(max_length=100)  # the character, NPC or "Narrador"
    webhook_name: str | None = Field(default=None, max_length=80)
    gm_post: bool = False
    gm_only: bool = False
    text: str
    notes: str | None = None
    roll_log_id: int | None = Field(default=None, foreign_key="roll_log.id", nullable=True)
    #: every roll the post carries, in order (a typed post's ``[[…]]``, a macro's several
    #: rolls); ``roll_log_id`` is the first of them
    roll_log_ids: list[int] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    # The notes went to the GM channel only (``/post private_notes``), with the messages there:
    # the notes' copy and the GM copy of a private roll (deleted with the post).
    notes_private: bool = False
    # where /post was used: a GM-only post (in the GM channel) links back to it
    origin_channel_id: int | None = _snowflake(default=None, nullable=True)
    gm_message_ids: list[int] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)
    edited_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    deleted_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    version: int = Field(default=1)
    #: Brought from another site (Comunidad Umbría, issue 27): who wrote it there, until a
    #: member claims them (``author_user_id`` is 0 until then), and the post's own number
    #: there (``umbria:<number>``), which its rolls name too.
    imported_player_id: int | None = Field(
        default=None, foreign_key="imported_player.id", nullable=True
    )
    source_ref: str | None = Field(default=None, max_length=60)
    # Who may see it (bot.services.shared.audience, migration 0020): decided when written.
    audience: str = Field(
        default="everyone", max_length=10, sa_column_kwargs={"server_default": "everyone"}
    )
    audience_user_id: int | None = _snowflake(default=None, nullable=True)
    secrets: dict[str, Any] = Field(
        default_factory=dict, sa_column=Column(JSON, nullable=False, server_default="{}")
    )


class RollRequest(SQLModel, table=True):
    """A GM's request for a check from some characters (``/request check``): one message with
    one button per character.

    ``entries`` is one dict per requested character, written once when asked (``character_id``,
    ``name``, ``owner_id``; ``unable``: the problems that kept it from rolling when asked, it
    gets no button).  Each character who can roll has a :class:`RollRequestEntry` row, and a
    press writes the roll there, not here (issue 26: presses for different characters never
    conflict).  Requests stored before this table existed also carry ``log_id``, ``total``,
    ``outcome`` and ``by`` of their rolls in ``entries``.  ``version`` is bumped by the
    request's own changes (closing, completing).  ``hidden``: ``visible`` (everyone sees the numbers),
    ``outcome`` (players see success or failure) or ``nothing`` (players see that it was
    rolled); the GM always sees the numbers.  Closing keeps the row.
    """

    __tablename__ = "roll_request"
    __table_args__ = (Index("ix_roll_request_campaign", "campaign_id", "status"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake(index=True)
    campaign_id: int = Field(foreign_key="campaign.id")
    channel_id: int = _snowflake()
    message_id: int | None = _snowflake(default=None, nullable=True)
    requested_by: int = _snowflake()
    option: str = Field(max_length=100)
    label: str = Field(max_length=100)
    difficulty: int | None = None
    modifier: int = 0
    #: as ``/check`` reads them (``amenaza:veneno`` in an S&W save), or None
    circumstances: str | None = Field(default=None, max_length=200)
    hidden: str = Field(default="visible", max_length=10)  # visible | outcome | nothing
    status: str = Field(default="open", max_length=10)  # open | closed
    entries: list[dict[str, Any]] = Field(
        default_factory=list, sa_column=Column(JSON, nullable=False)
    )
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)
    completed_at: datetime | None = Field(
        default=None, sa_type=UtcDateTime
    )  # every character has rolled (the GM was told)
    closed_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    closed_by: int | None = _snowflake(default=None, nullable=True)
    version: int = Field(default=1)


class RollRequestEntry(SQLModel, table=True):
    """One character asked by a roll request, and its roll once pressed (issue 26).

    A press stores the roll's audit row and sets ``log_id`` here with a compare-and-set on
    this row's ``version`` (``log_id`` still empty), in the roll's own transaction: two presses
    of one button give one roll, and presses for different characters touch different rows,
    so a table pressing at once never makes a press start again.  The numbers shown come from
    the audit row (``roll_log``: total, outcome, who pressed), which privacy erasure already
    unties; this row names no member.  Characters unable to roll when asked have no row.
    """

    __tablename__ = "roll_request_entry"

    request_id: int = Field(
        sa_column=Column(
            Integer,
            ForeignKey("roll_request.id", ondelete="CASCADE"),
            primary_key=True,
            autoincrement=False,
        )
    )
    character_id: int = Field(
        sa_column=Column(Integer, primary_key=True, autoincrement=False, nullable=False)
    )
    #: the request's guild: every row carries its guild (a guild's purge deletes them)
    guild_id: int = _snowflake()
    log_id: int | None = None
    version: int = Field(default=1)


# The round of posts (bot.services.table.pace) reads one scene's posts per character since the GM's
# last post; declared here, beside the table, so the post model itself stays as it was.
Index("ix_post_scene_round", Post.scene_id, Post.character_id, Post.created_at)  # type: ignore[arg-type]


class Absence(SQLModel, table=True):
    """A member said they will be away (``/absence``): pace reminders skip them meanwhile.

    Whole days, both ends included (``starts_on`` to ``ends_on``), in the time zone the pace
    timers use (UTC: docs/play-by-post.md).  Cancelling sets ``cancelled_at``; the member's own
    data, erased with the rest of it by ``/privacy delete``.
    """

    __tablename__ = "absence"
    __table_args__ = (Index("ix_absence_member", "campaign_id", "user_id"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake(index=True)
    campaign_id: int = Field(foreign_key="campaign.id")
    user_id: int = _snowflake()
    starts_on: date
    ends_on: date
    note: str | None = Field(default=None, max_length=200)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)
    cancelled_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    version: int = Field(default=1)
    # the member chose a catch-up by private message on return (/catch-up, issue 25 §2)
    catch_up: bool = Field(default=False, sa_column_kwargs={"server_default": text("false")})


class PaceMember(SQLModel, table=True):
    """A member's pace preference in one campaign: where posting reminders reach them."""

    __tablename__ = "pace_member"

    campaign_id: int = Field(foreign_key="campaign.id", primary_key=True)
    user_id: int = _snowflake(primary_key=True)
    guild_id: int = _snowflake(index=True)
    remind_by: str = Field(default="scene", max_length=10)  # scene | dm
    version: int = Field(default=1)


class Npcization(SQLModel, table=True):
    """A character handed to the GM for a while ("PNJtizar", ``/sheet npcize``).

    While the row exists the GM answers for the character's posts: reminders go to the GM.
    ``until`` (optional) is when the player gets it back, fired by a durable timer
    (kind ``pace.npc``); ``/sheet unnpcize`` gives it back earlier.
    """

    __tablename__ = "npcization"

    character_id: int = Field(foreign_key="character.id", primary_key=True)
    guild_id: int = _snowflake(index=True)
    campaign_id: int = Field(foreign_key="campaign.id")
    player_user_id: int = _snowflake()  # who had it (and gets it back)
    by_user_id: int = _snowflake()  # the referee who handed it over
    since: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)
    until: datetime | None = Field(default=None, sa_type=UtcDateTime)
    version: int = Field(default=1)


class PaceReminder(SQLModel, table=True):
    """A posting reminder that went out: one per character, scene and round of posts.

    ``round_key`` names the round (its start in epoch milliseconds); the unique index makes
    recording it idempotent, and the record is what stops a second reminder for that round.
    """

    __tablename__ = "pace_reminder"
    __table_args__ = (
        Index("uq_pace_reminder", "scene_id", "character_id", "round_key", unique=True),
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake(index=True)
    scene_id: int = Field(foreign_key="scene.id")
    character_id: int = Field(foreign_key="character.id")
    round_key: int = _snowflake()
    user_id: int = _snowflake()  # who was reminded (the player, or the GM for an NPCized one)
    sent_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)


class CharacterProfile(SQLModel, table=True):
    """A character's public face (``/sheet profile``): avatar, concept and public description.

    What everyone sees on each post and on ``/sheet show`` of someone else's character; the
    full sheet stays for its owner and the GM.  The avatar is kept as bytes (bounded, a PNG,
    JPEG, GIF or WebP checked by its magic bytes) because Discord attachment links expire and
    Discord refuses its own CDN links as a webhook ``avatar_url``: the bot sets the bytes as
    its channel webhook's own avatar before a post (see docs/play-by-post.md).
    """

    __tablename__ = "character_profile"

    character_id: int = Field(
        sa_column=Column(Integer, ForeignKey("character.id"), primary_key=True, autoincrement=False)
    )
    guild_id: int = _snowflake(index=True)
    campaign_id: int = Field(foreign_key="campaign.id")
    concept: str | None = Field(default=None, max_length=100)
    description: str | None = Field(default=None, max_length=1000)
    avatar: bytes | None = Field(default=None, sa_column=Column(LargeBinary, nullable=True))
    avatar_type: str | None = Field(default=None, max_length=10)  # png | jpeg | gif | webp
    avatar_hash: str | None = Field(default=None, max_length=64)  # sha256 of the bytes
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)
    version: int = Field(default=1)
    #: The character's public story, longer than a description (an Umbría character's
    #: «Historia», issue 27; migration 0019).
    history: str | None = None


class PrivateThread(SQLModel, table=True):
    """A private thread where some members of a campaign exchange private posts and rolls:
    one player and one GM (``/post to:`` by the GM), or a player's whisper to other players,
    always with the campaign's GM in it (``/post to:`` by a player, issue 24).

    One per (campaign, set of members), created on first use in the text channel chosen and
    reused afterwards (a unique index on the sorted members settles two first uses at once).
    ``player_user_id`` is the player addressed by the GM, or the player who opened it;
    ``gm_user_id`` the GM in it; ``members`` every member, the GM included.
    """

    __tablename__ = "private_thread"
    __table_args__ = (Index("uq_private_thread_members", "campaign_id", "member_key", unique=True),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake(index=True)
    campaign_id: int = Field(foreign_key="campaign.id")
    player_user_id: int = _snowflake()
    gm_user_id: int = _snowflake()
    parent_id: int = _snowflake()  # the text channel that holds the thread
    thread_id: int = _snowflake()
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)
    members: list[int] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    member_key: str = Field(max_length=200)  # the members' ids, sorted, comma-separated


class PostMessage(SQLModel, table=True):
    """Which post a Discord message belongs to: the edit and delete context menus start from
    a message; a post split in parts has one row per part (and per GM-channel copy)."""

    __tablename__ = "post_message"

    message_id: int = Field(
        sa_column=Column(BigInteger, primary_key=True, autoincrement=False, nullable=False)
    )
    guild_id: int = _snowflake()
    post_id: int = Field(foreign_key="post.id", index=True)


class ImportedPlayer(SQLModel, table=True):
    """A player of a game brought from another site (Comunidad Umbría, issue 27), until a
    member claims them (``/sheet claim``): their posts, rolls and characters then become the
    member's.  ``external_id`` is their number on that site; ``name`` their name there."""

    __tablename__ = "imported_player"
    __table_args__ = (
        Index("uq_imported_player", "campaign_id", "source", "external_id", unique=True),
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake(index=True)
    campaign_id: int = Field(foreign_key="campaign.id")
    source: str = Field(default="umbria", max_length=10)
    external_id: str = Field(max_length=40)
    name: str = Field(max_length=100)
    claimed_by: int | None = _snowflake(default=None, nullable=True)
    claimed_at: datetime | None = None
    version: int = Field(default=1)


class CharacterNote(SQLModel, table=True):
    """A note on a character for its audience (``gm``: the referees only) — an Umbría
    character's «Ficha» and «Equipo», free text there, for the GM to turn into a sheet."""

    __tablename__ = "character_note"

    character_id: int = Field(
        sa_column=Column(Integer, ForeignKey("character.id"), primary_key=True, autoincrement=False)
    )
    guild_id: int = _snowflake(index=True)
    campaign_id: int = Field(foreign_key="campaign.id")
    audience: str = Field(default="gm", max_length=10)
    text: str
    updated_at: datetime = Field(default_factory=utcnow)
    version: int = Field(default=1)


class PostImage(SQLModel, table=True):
    """An image shown inside an imported post (read from the zip, never fetched), kept so
    the post can carry it when it is posted into Discord and in the chronicle."""

    __tablename__ = "post_image"

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake(index=True)
    campaign_id: int = Field(foreign_key="campaign.id")
    post_id: int = Field(foreign_key="post.id", index=True)
    position: int = 0
    name: str = Field(max_length=200)
    media_type: str = Field(max_length=20)
    data: bytes = Field(sa_column=Column(LargeBinary, nullable=False))


class ImportPublication(SQLModel, table=True):
    """Posting an imported game's scenes into Discord, paced (issue 27): where, in what
    order, how far it got, and whether it runs.  Its durable timer (kind ``umbria.publish``)
    resumes it after a restart; the cursor (``scene_index``, ``post_cursor``) moves by
    compare-and-set on ``version`` after each step."""

    __tablename__ = "import_publication"

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake(index=True)
    campaign_id: int = Field(foreign_key="campaign.id", index=True)
    parent_id: int = _snowflake()  # the forum or text channel the scene threads go in
    mode: str = Field(default="links", max_length=10)  # links | posts
    status: str = Field(default="running", max_length=10)  # running | stopped | done
    scene_ids: list[int] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    scene_index: int = 0  # scenes finished (their thread made, filled and closed)
    post_cursor: int = 0  # the last post sent (posts go in id order: the import's order)
    thread_id: int | None = _snowflake(default=None, nullable=True)  # the scene being filled
    posts_total: int = 0
    posts_done: int = 0
    created_by: int = _snowflake()
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    version: int = Field(default=1)


class Reveal(SQLModel, table=True):
    """A hidden NPC the GM revealed (``/npc reveal``): an event, never changed.

    It lifts what the NPC's secrecy sealed in the records written before it (its rolls'
    numbers, its XP awards): :mod:`bot.services.shared.audience` reads it when rendering.
    Hiding the NPC again seals what is written afterwards; what was revealed stays revealed.
    """

    __tablename__ = "reveal"
    __table_args__ = (Index("ix_reveal_campaign", "campaign_id", "character_id"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake(index=True)
    campaign_id: int = Field(foreign_key="campaign.id")
    character_id: int = Field(foreign_key="character.id")
    by_user_id: int = _snowflake()
    created_at: datetime = Field(default_factory=utcnow)


class ProxyTag(SQLModel, table=True):
    """A proxy tag a member set for a character (``/proxy add``): a message typed in a scene
    that starts with ``prefix`` (and ends with ``suffix``) posts as that character.

    Every character also answers to its name and a colon (``Ardelia:``) without a row here.
    ``tag_key`` is the folded prefix and suffix: unique within a campaign, so two characters
    never share a tag (the unique index settles two members choosing the same one at once).
    """

    __tablename__ = "proxy_tag"
    __table_args__ = (Index("uq_proxy_tag_campaign", "campaign_id", "tag_key", unique=True),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake(index=True)
    campaign_id: int = Field(foreign_key="campaign.id")
    character_id: int = Field(foreign_key="character.id", index=True)
    prefix: str = Field(max_length=40)
    suffix: str = Field(default="", max_length=40)
    tag_key: str = Field(max_length=90)
    created_by: int = _snowflake()
    created_at: datetime = Field(default_factory=utcnow)


class SceneSpeaker(SQLModel, table=True):
    """The character that sticks to a member in a scene (typing mode, issue 24): the last one
    the member posted as there with a tag; a message without a tag speaks as it.  Without a row,
    the member's active character in the campaign speaks.  Versioned: each tagged post moves
    it with a compare-and-set."""

    __tablename__ = "scene_speaker"

    scene_id: int = Field(
        sa_column=Column(Integer, ForeignKey("scene.id"), primary_key=True, autoincrement=False)
    )
    user_id: int = Field(
        sa_column=Column(BigInteger, primary_key=True, autoincrement=False, nullable=False)
    )
    guild_id: int = _snowflake(index=True)
    character_id: int = Field(foreign_key="character.id", index=True)
    updated_at: datetime = Field(default_factory=utcnow)
    version: int = Field(default=1)


class Macro(SQLModel, table=True):
    """A named roll (``/macro add``, issue 24 §4): a character's (``character_id``) or the
    campaign's (the GM's, for NPCs; ``character_id`` None), used as ``[[name]]`` in typed
    text, in ``/roll`` and in ``/post``'s roll field.

    ``body`` is what it rolls: dice or a sheet option (``1d20+5``, ``Pilotar +2``), or text with
    several ``[[…]]`` (``[[1d20+5]] daño [[1d8+2]]``).  ``owner_key`` is ``c<character id>`` or
    ``campaign``: a name is unique per owner (folded: case and accents ignored), which the
    unique index settles when two members add the same one at once; a change of body is a
    compare-and-set on ``version``.
    """

    __tablename__ = "macro"
    __table_args__ = (
        Index("uq_macro_owner_name", "campaign_id", "owner_key", "name_key", unique=True),
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake(index=True)
    campaign_id: int = Field(foreign_key="campaign.id")
    character_id: int | None = Field(
        default=None, foreign_key="character.id", nullable=True, index=True
    )
    owner_key: str = Field(max_length=24)
    name: str = Field(max_length=32)
    name_key: str = Field(max_length=32)
    body: str = Field(max_length=200)
    created_by: int = _snowflake()
    created_at: datetime = Field(default_factory=utcnow)
    version: int = Field(default=1)

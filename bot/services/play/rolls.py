"""Rolling dice, keeping the audit log, reading it back, and computing exact odds.

Every roll, public or private, is stored before it is shown, so a reply that fails to send
never loses a roll; the message link is attached afterwards.  Exact odds are bounded before
they start and computed in the bot's worker process (:mod:`bot.compute`).
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any, TypeVar

from sqlalchemy import and_, or_
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession
from sqlmodel.sql.expression import SelectOfScalar

from bot.compute import INTERACTIVE, ComputePool
from bot.db.models import Campaign, RollLog, saved_id
from bot.db.roll_log_writes import MessageLink, RollLogWriter
from bot.services.campaigns.context import CampaignContextService
from bot.services.campaigns.service import CampaignService, is_referee
from bot.services.shared.audience import (
    PUBLIC,
    Audience,
    Part,
    Reader,
    Secrecy,
    Shown,
    Sight,
    show_all,
)
from bot.services.shared.audit import AuditEntry, roll_log_values, undo_record
from bot.services.shared.context import Actor, Place, Reply
from bot.services.shared.errors import DomainError, InvalidSetting
from bot.services.shared.reveals import reveals_of
from bot.services.shared.write_batch import WriteBatch
from rules import dice, systems
from rules.dice import ast as dice_ast
from rules.dice import odds
from rules.systems.base import capabilities

__all__ = [
    "RollService",
    "RollView",
    "HistoryView",
    "HistoryEntry",
    "OddsView",
    "history_query",
]

MAX_REASON = 200
MAX_HISTORY = 25
#: Pages of rows ``/history`` reads at most to fill its list past rows the reader may not see.
HISTORY_PAGES = 4
#: Odds queries estimated at or below this many cost units (a few milliseconds) run inline:
#: the round trip to the worker would cost more than the work.
INLINE_COST = 20_000

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class RollView:
    log_id: int
    user_id: int
    user_name: str
    character_name: str | None
    expression: str
    breakdown: str
    breakdown_markdown: str
    total: int
    label: str | None
    comment: str | None
    reason: str | None
    private: bool
    difficulty: int | None
    outcome: str | None  # success | failure | critical | None
    fumble: bool
    explosions: int
    campaign_name: str | None
    gm_channel_id: int | None
    campaign_locale: str | None
    #: the difficulty was read as a target the result must not exceed (a roll-under system)
    roll_under: bool = False
    #: who may see it (a private roll: its roller and the GM), as its log row has it
    secrecy: Secrecy = PUBLIC
    written_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    log_id: int
    user_id: int
    user_name: str
    character_name: str | None
    expression: str
    total: int | None  # None: kept from this viewer (a check against a hidden NPC)
    reason: str | None
    outcome: str | None
    fumble: bool
    private: bool
    created_at: datetime
    message_url: str | None
    difficulty: int | None = None  # the target or difficulty, shown to referees only
    #: a change the GM may undo (``/undo log_id``), and whether it already was
    undoable: bool = False
    undone: bool = False
    #: brought from another site as it was shown there (issue 27: Umbría), not rolled here
    imported: bool = False


@dataclass(frozen=True, slots=True)
class HistoryView:
    """The rolls one member may read, each through the audience rule."""

    shown: tuple[Shown[HistoryEntry], ...]
    filtered_user_id: int | None
    sees_private: bool

    @property
    def entries(self) -> tuple[HistoryEntry, ...]:
        return tuple(entry.value for entry in self.shown)


def history_entry(row: RollLog, seen: Sight) -> HistoryEntry:
    """A log row as the reader may see it: sealed numbers are blanked (``None``)."""
    return HistoryEntry(
        log_id=saved_id(row),
        user_id=row.user_id,
        user_name=row.user_name,
        character_name=row.character_name,
        # the expression names the stat that made the total: sealed with it
        expression=row.expression if seen.shows(Part.TOTAL) else "",
        total=seen.value(Part.TOTAL, row.total),
        # targets are for referees in /history whatever the record says
        difficulty=row.difficulty if seen.reader.is_gm else None,
        reason=row.reason,
        outcome=seen.value(Part.OUTCOME, row.outcome),
        fumble=row.fumble and seen.shows(Part.OUTCOME),
        private=row.private,
        created_at=row.created_at,
        message_url=row.message_url,
        undoable=undo_record(row) is not None,
        undone=bool((record := undo_record(row)) and record.undone_by),
        imported=row.kind == "imported",
    )


@dataclass(frozen=True, slots=True)
class OddsView:
    expression: str
    #: None for a test expression (``1d20<=13``): its own number is the target.
    target: int | None
    probability: Fraction
    critical_target: int | None
    critical_probability: Fraction | None
    #: ``at_least`` | ``at_most`` (the total against ``target``) | ``test`` (the chance of
    #: success of a pass/fail test, whatever target was typed).
    kind: str = "at_least"
    #: A target typed for a test, which says nothing about it (shown as a note).
    ignored_target: int | None = None
    #: The chance the roll throws more dice than the limit and ends in an error, not a total
    #: (open rerolls only): ``probability`` counts only rolls that end.
    abort: Fraction = Fraction(0)


def _rolls_under(campaign: Campaign) -> bool:
    return capabilities(systems.get(campaign.system)).roll_under is not None


def judge_under(result: dice.RollResult, difficulty: int | None, campaign: Campaign) -> str | None:
    """A roll-under campaign's verdict (``RollUnder``): the difficulty is a target the result
    must not exceed, as ``/check`` reads it; a lone d20 (``1d20``) is its natural face."""
    context = CampaignContextService.of(campaign)
    rule = capabilities(context.system).roll_under
    if rule is None or difficulty is None:
        return judge(result, difficulty)
    root = result.ast.root
    lone_d20 = (
        isinstance(root, dice_ast.Dice) and root.plain and (root.count, root.sides) == (1, 20)
    )
    natural = result.total if lone_d20 else None
    return rule.judge_under(result.total, natural, difficulty, context.settings)


def judge(result: dice.RollResult, difficulty: int | None) -> str | None:
    """The outcome key of a roll: against a difficulty, or a roll-under test's own verdict."""
    if difficulty is not None:
        if result.is_critical(difficulty):
            return "critical"
        return "success" if result.total >= difficulty else "failure"
    if result.success is not None:
        return "success" if result.success else "failure"
    return None


def history_query(
    place: Place,
    campaign_id: int | None,
    *,
    viewer_id: int | None,
    user_id: int | None = None,
    limit: int = 10,
) -> SelectOfScalar[RollLog]:
    """The ``/history`` query: one campaign's log (or, outside any, this channel's), newest
    first; ``viewer_id`` set means the viewer sees only public rolls and his own private ones.
    """
    query = select(RollLog).where(RollLog.guild_id == place.guild_id)
    if campaign_id is not None:
        query = query.where(RollLog.campaign_id == campaign_id)
    else:
        query = query.where(
            RollLog.channel_id == place.channel_id,
            col(RollLog.campaign_id).is_(None),
        )
    if user_id is not None:
        query = query.where(RollLog.user_id == user_id)
    if viewer_id is not None:
        # the audience rule's first cut, in SQL: rows for everyone, the viewer's own and
        # whispers (bot.services.shared.audience decides the rest when rendering: a whisper
        # is read by the members it was addressed to)
        query = query.where(
            or_(
                col(RollLog.audience).in_([Audience.EVERYONE.value, Audience.MEMBERS.value]),
                and_(
                    col(RollLog.audience) == Audience.PLAYER.value,
                    col(RollLog.audience_user_id) == viewer_id,
                ),
            )
        )
    return query.order_by(col(RollLog.id).desc()).limit(limit)


def _roll_audit(
    result: dice.RollResult,
    reason: str | None,
    difficulty: int | None,
    outcome: str | None,
    private: bool,
    secrecy: Secrecy = PUBLIC,
) -> AuditEntry:
    """A ``/roll``'s audit row: the expression, the dice engine's breakdown, the verdict."""
    return AuditEntry(
        kind="roll",
        expression=result.expression,
        reason=reason,
        breakdown=str(result),
        total=result.total,
        difficulty=difficulty,
        outcome=outcome,
        fumble=result.fumble,
        private=private,
        secrecy=secrecy,
    )


V = TypeVar("V")


def checked_reason(reason: str | None) -> str | None:
    """What a roll is for, as typed: stripped (None when blank), at most :data:`MAX_REASON`."""
    if reason is None:
        return None
    reason = reason.strip() or None
    if reason and len(reason) > MAX_REASON:
        raise InvalidSetting("roll.error.reason_too_long", limit=MAX_REASON)
    return reason


class RollService:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        campaigns: CampaignService,
        rng: random.Random | None = None,
        compute: ComputePool | None = None,
        active_name: Callable[[Place, Actor], Awaitable[str | None]] | None = None,
    ) -> None:
        self.sessions = sessions
        self.engine: AsyncEngine = sessions.kw["bind"]
        self.campaigns = campaigns
        self.rng = rng or random.SystemRandom()
        self.compute = compute or ComputePool()
        # The actor's active character signs the roll (``CharacterService.active_name``).
        self.active_name = active_name
        # Group commit (:mod:`bot.services.shared.write_batch`): a burst of rolls shares one
        # statement, and so do the message links of the replies already sent
        # (:mod:`bot.db.roll_log_writes`).
        self.writer = RollLogWriter(self.engine)
        self.log_writes: WriteBatch[dict[str, Any], int] = WriteBatch(
            self.writer.insert, hold=self.writer.burst
        )
        self.link_writes: WriteBatch[MessageLink, None] = WriteBatch(self._attach_after_rolls)

    async def _attach_after_rolls(self, links: Sequence[MessageLink]) -> list[None]:
        """Message links wait for the rolls being written: on SQLite both share the one
        connection, and a roll waits to be shown while a link is only bookkeeping (links
        that arrive during a burst go in one statement when it pauses)."""
        if self.writer.dialect.name == "sqlite":
            await self.log_writes.drain()
        return await self.writer.attach(links)

    async def drain(self) -> None:
        """Wait for the rolls and links submitted so far to be written (at shutdown)."""
        await self.log_writes.drain()
        await self.link_writes.drain()

    async def roll(
        self,
        place: Place,
        actor: Actor,
        expression: str,
        *,
        reason: str | None = None,
        private: bool = False,
        difficulty: int | None = None,
        character_name: str | None = None,
        reply: Reply[RollView] | None = None,
        secrecy: Secrecy | None = None,
    ) -> RollView:
        """Roll ``expression`` and store it in the audit log before anything is shown;
        ``reply`` shows it, and the log row links to the message it sent.  ``secrecy``: who
        it is for when not everyone (a post's audience, a hidden NPC's sealed numbers)."""
        reason = checked_reason(reason)
        result = dice.roll(expression, rng=self.rng)
        campaign = await self.campaigns.find(place)  # the per-process cache: no query
        under = difficulty is not None and campaign is not None and _rolls_under(campaign)
        if under and campaign is not None:
            outcome = judge_under(result, difficulty, campaign)
        else:
            outcome = judge(result, difficulty)
        if character_name is None and self.active_name is not None and campaign:
            character_name = await self.active_name(place, actor)  # cached too
        audit = _roll_audit(result, reason, difficulty, outcome, private, secrecy or PUBLIC)
        breakdown = audit.breakdown
        values = roll_log_values(
            place, actor, campaign.id if campaign else None, character_name, audit
        )
        log_id = await self.log_writes.submit(values)
        view = RollView(
            log_id=log_id,
            user_id=actor.user_id,
            user_name=actor.name,
            character_name=character_name,
            expression=result.expression,
            breakdown=breakdown,
            breakdown_markdown=result.markdown(),
            total=result.total,
            label=result.label,
            comment=result.comment,
            reason=reason,
            private=private,
            difficulty=difficulty,
            outcome=outcome,
            fumble=result.fumble,
            explosions=result.explosions,
            roll_under=under,
            campaign_name=campaign.name if campaign else None,
            gm_channel_id=campaign.gm_channel_id if campaign else None,
            campaign_locale=campaign.locale if campaign else None,
            secrecy=Secrecy.of_row(values),
            written_at=values["created_at"],
        )
        await self.reply_linked(place, view.log_id, view, reply)
        return view

    async def reply_linked(
        self, place: Place, log_id: int, view: V, reply: Reply[V] | None
    ) -> None:
        """Show ``view`` with the cog's ``reply`` and link the audit row ``log_id`` to the
        message it sent (none: a private reply, nothing to link)."""
        if reply is None:
            return
        sent = await reply(view)
        if sent is not None:
            await self.attach_message(log_id, place.guild_id, sent.message_id, sent.url)

    async def attach_message(self, log_id: int, guild_id: int, message_id: int, url: str) -> None:
        await self.link_writes.submit(MessageLink(log_id, guild_id, message_id, url))

    async def history(
        self, place: Place, actor: Actor, *, user_id: int | None = None, limit: int = 10
    ) -> HistoryView:
        """The campaign's recent rolls: a referee sees every private roll, a player only his own.

        Scoped to the campaign found here, not to the channel: a channel outlives campaigns
        (a new one bound after the old ended, or a channel taken over from a category's
        campaign), and the referee of the new one must not read the old one's private rolls.
        Where no campaign plays, only this channel's rolls made outside any campaign show.
        Served by the ``ix_roll_log_campaign*`` indexes (migration 0010).
        """
        limit = max(1, min(limit, MAX_HISTORY))
        campaign = await self.campaigns.find(place)
        sees_private = bool(campaign and is_referee(campaign, actor)) or actor.is_admin
        reader = Reader.of(actor.user_id, sees_private)
        shown: list[Shown[HistoryEntry]] = []
        before: int | None = None
        async with self.sessions() as session:
            reveals = await reveals_of(session, campaign.id if campaign else None)
            # a row the rule hides (a hidden NPC's) takes no place: read on, a few pages
            for _page in range(HISTORY_PAGES):
                query = history_query(
                    place,
                    campaign.id if campaign else None,
                    viewer_id=None if sees_private else actor.user_id,
                    user_id=user_id,
                    limit=limit,
                )
                if before is not None:
                    query = query.where(col(RollLog.id) < before)
                rows = (await session.exec(query)).all()
                shown += show_all(
                    rows,
                    reader,
                    Secrecy.of_row,
                    history_entry,
                    written_at=lambda row: row.created_at,
                    reveals=reveals,
                )
                if len(shown) >= limit or len(rows) < limit:
                    break
                before = saved_id(rows[-1])
        return HistoryView(
            shown=tuple(shown[:limit]),
            filtered_user_id=user_id,
            sees_private=sees_private,
        )

    def start_odds(
        self,
        expression: str,
        target: int | None,
        *,
        at_most: bool = False,
        owner: int | None = None,
    ) -> Awaitable[OddsView]:
        """Checks an ``/odds`` query and starts it; await the result after deferring.

        Everything that can refuse does so here, synchronously and cheaply: the expression,
        its cost estimate (``odds_too_complex``) and the worker's queue (``ComputeBusy``).
        Cheap queries (the 1o3d10 closed form, small sums) are answered inline; the rest run
        in the worker's interactive lane (never behind an export or import) so the event loop
        keeps serving every other server; ``owner`` (the server) keeps one server from
        filling that lane's queue.

        A pass/fail test (``1d20<=13``) totals its die, so "at least 1" would always be
        100 %: its odds are the chance of success, and a typed target is only noted.
        """
        normalized = str(dice.parse(expression))
        if odds.test_of(expression) is not None:
            view = OddsView(
                expression=normalized,
                target=None,
                probability=odds.probability_of_success(expression),  # one die: instant
                critical_target=None,
                critical_probability=None,
                kind="test",
                ignored_target=target,
                abort=odds.abort_chance(expression),
            )
            return _done(view)
        if target is None:
            raise DomainError("flows.odds_target_needed")
        cost = odds.check_cost(expression)
        critical = "1o3d10" in normalized.lower() and not at_most
        targets = (target, target + 10) if critical else (target,)
        if cost <= INLINE_COST:
            job: Awaitable[odds.Odds] = _done(odds.odds_of(expression, targets, at_most))
        else:
            job = self.compute.submit(
                odds.odds_of, expression, targets, at_most, lane=INTERACTIVE, owner=owner
            )
        return _odds_view(job, normalized, target, targets, "at_most" if at_most else "at_least")

    async def odds(
        self,
        expression: str,
        target: int | None,
        *,
        at_most: bool = False,
        owner: int | None = None,
    ) -> OddsView:
        """Exact chance that ``expression`` totals at least (or at most) ``target``, of a
        1o3d10 critical, or of a test's success."""
        return await self.start_odds(expression, target, at_most=at_most, owner=owner)


async def _done(value: T) -> T:
    return value


async def _odds_view(
    job: Awaitable[odds.Odds],
    expression: str,
    target: int,
    targets: tuple[int, ...],
    kind: str,
) -> OddsView:
    probabilities, abort = await job
    critical = len(targets) > 1
    return OddsView(
        expression=expression,
        target=target,
        probability=probabilities[0],
        critical_target=targets[1] if critical else None,
        critical_probability=probabilities[1] if critical else None,
        kind=kind,
        abort=abort,
    )

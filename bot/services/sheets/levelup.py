"""S&W level-up: the player (or the GM) rolls the hit die an XP grant's new level brought.

The grant's reply carries a button keyed by the grant's audit row; the roll is one more
versioned write that rebuilds the sheet *before* the grant from what the grant recorded (its
``detail.undo`` diff) and hands both to ``LevelHitDice.roll_hit_dice``.  It is refused when the
grant's fields changed since (another grant, an undo), and the grant's row is marked
(``detail.hit_die``) in the same transaction so the die is rolled once; undoing the grant then
asks for the hit die's undo first (:mod:`bot.services.sheets.undo`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import RollLog
from bot.services.campaigns.context import CampaignContext, CampaignContextService
from bot.services.shared.audit import AuditEntry, apply_diff, diff_conflicts, undo_record
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError
from bot.services.sheets.undo import Undoable
from bot.services.sheets.writes import Computed, SheetWriter
from rules.systems.base import capabilities

__all__ = ["HitDieView", "LevelUpService"]


@dataclass(frozen=True, slots=True)
class HitDieView:
    """The rolled hit dice and what the new level changed, for the public reply."""

    character_name: str
    gained: int
    breakdown: str
    hit_points: tuple[int, int]  # (current, max) after the roll
    levels: tuple[tuple[str, int, int], ...]
    changes: tuple[tuple[str, str, str], ...]  # (what, before, after): saves, to-hit, slots
    undo: Undoable | None = None


@dataclass(frozen=True, slots=True)
class _RollHitDie:
    grant_id: int
    grant_changes: tuple[tuple[Any, ...], ...]
    rng: random.Random
    validate: bool = False

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[HitDieView]:
        system = context.system
        hit_dice = capabilities(system).level_hit_dice
        if hit_dice is None:
            raise DomainError("xp.error.no_hit_die", system=system.name)
        diff = [list(change) for change in self.grant_changes]
        if diff_conflicts(sheet, diff):
            raise DomainError("xp.error.hit_die_stale", id=self.grant_id)
        before = apply_diff(sheet, diff)
        result = hit_dice.roll_hit_dice(before, sheet, context.settings, self.rng)
        pg = result.sheet.get("pg") or {}
        view = HitDieView(
            "",
            result.gained,
            result.breakdown,
            (int(pg.get("actual", 0)), int(pg.get("max", 0))),
            tuple((c, a, b) for c, (a, b) in result.levels.items() if a != b),
            tuple((c.what, c.before, c.after) for c in result.changes),
        )
        audit = AuditEntry(
            kind="hit_die",
            expression=" + ".join(r.expression for r in result.rolls)[:250],
            breakdown=result.breakdown,
            total=result.gained,
            # what a reader of /history or /catch-up sees: what the roll was, not a bare id
            reason=f"dado de golpe (registro n.º {self.grant_id})",
            detail={"grant": self.grant_id, "rolls": [r.breakdown for r in result.rolls]},
        )
        return Computed(result.sheet, view, audit=audit, hit_die_for=self.grant_id)


class LevelUpService:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        contexts: CampaignContextService,
        writer: SheetWriter,
        rng: random.Random | None = None,
    ) -> None:
        self.sessions = sessions
        self.contexts = contexts
        self.writer = writer
        self.rng = rng or random.Random()

    async def roll_hit_die(self, place: Place, actor: Actor, grant_id: int) -> HitDieView:
        """Roll the hit dice grant ``grant_id`` owes (its character's owner or the GM)."""
        context = await self.contexts.load(place)
        async with self.sessions() as session:
            row = await session.get(RollLog, grant_id)
        record = undo_record(row) if row is not None else None
        if (
            row is None
            or record is None
            or row.kind != "xp"
            or row.guild_id != place.guild_id
            or row.campaign_id != context.campaign.id
        ):
            raise DomainError("undo.error.not_found", id=grant_id)
        if record.undone_by:
            raise DomainError("xp.error.hit_die_stale", id=grant_id)
        change = _RollHitDie(grant_id, tuple(tuple(c) for c in record.changes), self.rng)
        applied = await self.writer.apply(place, actor, change, character_id=record.character_id)
        value = applied.value
        undo = Undoable(applied.log_id, applied.view.version) if applied.log_id else None
        return HitDieView(
            applied.view.name,
            value.gained,
            value.breakdown,
            value.hit_points,
            value.levels,
            value.changes,
            undo,
        )

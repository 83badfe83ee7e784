"""The audit log's rows (:class:`RollLog`), built in one place.

Rolls, checks, spells and creation rolls all land in the same table; the truncations to the
column sizes and the actor/place columns are decided here once, so no use case can store a
row the others would render differently.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.db.models import RollLog, utcnow
from bot.services.context import Actor, Place

__all__ = ["AuditEntry", "roll_log", "roll_log_values"]


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """What a use case rolled, without who and where (the write path adds those)."""

    kind: str
    expression: str
    breakdown: str
    total: int
    reason: str | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)
    difficulty: int | None = None
    outcome: str | None = None
    fumble: bool = False
    private: bool = False


def roll_log_values(
    place: Place,
    actor: Actor,
    campaign_id: int | None,
    character_name: str | None,
    entry: AuditEntry,
) -> dict[str, Any]:
    """The row's columns, for a Core ``INSERT`` (the ``/roll`` path skips the ORM's work)."""
    return {
        "guild_id": place.guild_id,
        "channel_id": place.channel_id,
        "campaign_id": campaign_id,
        "user_id": actor.user_id,
        "user_name": actor.name[:100],
        "character_name": character_name[:100] if character_name else None,
        "kind": entry.kind[:20],
        "expression": entry.expression[:250],
        "reason": entry.reason[:200] if entry.reason else None,
        "breakdown": entry.breakdown,
        "detail": dict(entry.detail),
        "total": entry.total,
        "difficulty": entry.difficulty,
        "outcome": entry.outcome[:20] if entry.outcome else None,
        "fumble": entry.fumble,
        "private": entry.private,
        "created_at": utcnow(),
    }


def roll_log(
    place: Place,
    actor: Actor,
    campaign_id: int | None,
    character_name: str | None,
    entry: AuditEntry,
) -> RollLog:
    return RollLog(**roll_log_values(place, actor, campaign_id, character_name, entry))

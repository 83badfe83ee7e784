"""``/undo``: the GM takes back an attack, a damage or heal, an effect or an XP grant.

Every audited sheet write records what it changed (``detail["undo"]`` on its audit-log row:
the character, the version it wrote and ``[path, before, after]`` per touched sheet path,
see :func:`bot.services.shared.audit.sheet_diff`).  An undo is one more versioned write through
:class:`SheetWriter`, computed on the *current* sheet:

- it is refused when a path the change touched no longer holds what the change wrote (a
  later write depends on it: the heal after the damage, a second effect added after the
  first) — the refusal names those fields; later writes to other paths do not block it;
- it puts the ``before`` values back, writes a correcting XP-ledger row for a grant, logs
  itself (kind ``undo``) and marks the original undone in the same transaction, so a second
  undo of it is refused even when two GMs click at once (both compare-and-set the same sheet).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import RollLog
from bot.services.campaigns.context import CampaignContext, CampaignContextService
from bot.services.campaigns.service import is_referee
from bot.services.shared.audit import AuditEntry, apply_diff, diff_conflicts, undo_record
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError, NotReferee
from bot.services.sheets.writes import Computed, SheetWriter, XpEntry

__all__ = ["UndoService", "UndoView", "Undoable"]


@dataclass(frozen=True, slots=True)
class UndoView:
    """What an undo did: whose sheet, which entry, which fields went back."""

    log_id: int
    undo_log_id: int | None
    kind: str
    character_name: str
    fields: tuple[str, ...]
    xp: int | None = None


@dataclass(frozen=True, slots=True)
class Undoable:
    """A reply's handle for its undo button: the audit row and the sheet version it wrote."""

    log_id: int
    version: int


@dataclass(frozen=True, slots=True)
class _Revert:
    log_id: int
    kind: str
    changes: tuple[tuple[Any, ...], ...]
    xp: tuple[int, int, int] | None
    undone_by: int
    validate: bool = False

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[UndoView]:
        diff = [list(change) for change in self.changes]
        conflicts = diff_conflicts(sheet, diff)
        if conflicts:
            raise DomainError(
                "undo.error.depends", id=self.log_id, fields=", ".join(sorted(conflicts)[:8])
            )
        restored = apply_diff(sheet, diff)
        fields = tuple(str(path) for path, _before, _after in diff)
        xp = None
        if self.xp:  # the ledger gets the correcting row (the grant's after → its before)
            amount, before, after = (_as_int(value) for value in self.xp)
            xp = XpEntry(-amount, after, before, self.undone_by, f"undo #{self.log_id}")
        audit = AuditEntry(
            kind="undo",
            expression=f"undo #{self.log_id}",
            breakdown=f"{self.kind} #{self.log_id}: {', '.join(fields)}"[:1000],
            total=0,
            detail={"undoes": self.log_id},
        )
        view = UndoView(self.log_id, None, self.kind, "", fields, xp.amount if xp else None)
        return Computed(restored, view, audit=audit, xp=xp, undoes=self.log_id)


def _as_int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


class UndoService:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        contexts: CampaignContextService,
        writer: SheetWriter,
    ) -> None:
        self.sessions = sessions
        self.contexts = contexts
        self.writer = writer

    async def undo(
        self, place: Place, actor: Actor, log_id: int, *, version: int | None = None
    ) -> UndoView:
        """Undo the audit-log entry ``log_id`` (``version``: the sheet version a button was
        made for — a button on a reply only undoes the write that reply showed)."""
        context = await self.contexts.load(place)
        if not is_referee(context.campaign, actor):
            raise NotReferee()
        async with self.sessions() as session:
            row = await session.get(RollLog, log_id)
        if row is None or row.guild_id != place.guild_id or row.campaign_id != context.campaign.id:
            raise DomainError("undo.error.not_found", id=log_id)
        if row.kind == "undo":
            raise DomainError("undo.error.undo_of_undo", id=log_id)
        record = undo_record(row)
        if record is None:
            raise DomainError("undo.error.not_undoable", id=log_id, kind=row.kind)
        if version is not None and record.version != version:
            raise DomainError("undo.error.not_found", id=log_id)
        if record.undone_by:
            raise DomainError("undo.error.already", id=log_id)
        change = _Revert(
            log_id,
            row.kind,
            tuple(tuple(change) for change in record.changes),
            record.xp,
            actor.user_id,
        )
        try:
            applied = await self.writer.apply(
                place, actor, change, character_id=record.character_id
            )
        except DomainError as error:
            # a concurrent undo of the same entry won: its restored sheet now "conflicts";
            # say what really happened
            if error.key == "undo.error.depends" and await self._undone(log_id):
                raise DomainError("undo.error.already", id=log_id) from None
            raise
        value = applied.value
        return UndoView(
            log_id, applied.log_id, value.kind, applied.view.name, value.fields, value.xp
        )

    async def _undone(self, log_id: int) -> bool:
        async with self.sessions() as session:
            row = await session.get(RollLog, log_id)
        return bool(row is not None and (record := undo_record(row)) and record.undone_by)

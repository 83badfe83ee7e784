"""The audit log's rows (:class:`RollLog`), built in one place.

Rolls, checks, spells and creation rolls all land in the same table; the truncations to the
column sizes and the actor/place columns are decided here once, so no use case can store a
row the others would render differently.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictBool, StrictInt, StrictStr, ValidationError
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import RollLog, saved_id, utcnow
from bot.services.shared.audience import PUBLIC, Audience, Part, Secrecy, Sight
from bot.services.shared.context import Actor, Place

__all__ = [
    "ABSENT",
    "AuditDetail",
    "UndoRecord",
    "audit_detail",
    "UNDOABLE",
    "AuditEntry",
    "apply_diff",
    "diff_conflicts",
    "entry_secrecy",
    "roll_log",
    "roll_log_values",
    "roll_record_seen",
    "sheet_diff",
    "undo_record",
    "write_audit",
]

#: The audit kinds the GM may undo (issue 11 §6): what a fight or a grant changed on a
#: sheet.  Checks and spells spend tokens and slots whose roll was seen by everyone; an undo
#: of an undo would be a redo — neither is offered.
UNDOABLE = frozenset({"attack", "damage", "heal", "effect", "xp", "ability", "hit_die", "rest"})

#: How a path that did not exist on one side of a change is stored (JSON has no "missing").
ABSENT: dict[str, bool] = {"$absent": True}


class UndoRecord(BaseModel):
    """What an audited sheet write changed (``detail["undo"]``), so the GM can undo it: the
    character and the version the write made, each touched path ``[path, before, after]``
    (:func:`sheet_diff`), an XP grant's ``[amount, before, after]``, and, once undone, the
    undo's own log id (``True`` for an undo written before ids were kept)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    character_id: StrictInt
    version: StrictInt
    changes: list[tuple[StrictStr, Any, Any]] = []
    xp: tuple[StrictInt, StrictInt, StrictInt] | None = None
    undone_by: StrictInt | StrictBool | None = None


class AuditDetail(BaseModel):
    """An audit row's ``detail``: free per kind (what an attack or a spell records), with the
    keys other code reads back typed, and checked on every write (:func:`roll_log_values`):
    the undo record, the row an undo undoes, a grant's hit-die roll, a roll request's
    hiding.  Numbers and text are strict (``"12"`` is no row id); a list stands for a tuple,
    as JSON stores it."""

    model_config = ConfigDict(extra="allow", frozen=True)

    undo: UndoRecord | None = None
    undoes: StrictInt | None = None
    hit_die: StrictInt | None = None
    hidden_request: StrictStr | None = None


def audit_detail(row: RollLog) -> AuditDetail:
    """The row's detail, typed (an unreadable one reads as empty: nothing to undo)."""
    try:
        return AuditDetail.model_validate(row.detail if isinstance(row.detail, dict) else {})
    except ValidationError:
        return AuditDetail()


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
    #: Whose roll it is when it is not the sheet written (an attack is the attacker's roll,
    #: written with the change to the target's sheet).
    character: str | None = None
    #: Who may see it (bot.services.shared.audience): a private roll is narrowed to its
    #: roller and the GM whatever this says.
    secrecy: Secrecy = PUBLIC


def entry_secrecy(actor: Actor, entry: AuditEntry) -> Secrecy:
    """The row's secrecy: the use case's, narrowed to the roller and the GM when private —
    unless the use case already named a narrower audience (a post's in a private thread or
    a whisper: the roll is theirs, ``private`` only marks it so)."""
    if entry.private and entry.secrecy.audience is Audience.EVERYONE:
        return entry.secrecy.narrowed(Audience.PLAYER, actor.user_id)
    return entry.secrecy


def roll_log_values(
    place: Place,
    actor: Actor,
    campaign_id: int | None,
    character_name: str | None,
    entry: AuditEntry,
) -> dict[str, Any]:
    """The row's columns, for a Core ``INSERT`` (the ``/roll`` path skips the ORM's work);
    the detail's typed keys are checked (:class:`AuditDetail`), and stored as given."""
    AuditDetail.model_validate(entry.detail)
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
        **entry_secrecy(actor, entry).columns(),
    }


#: Detail keys a roll keeps when its numbers are sealed from the reader: what was rolled
#: and why, never a die, a modifier or an extra the rules computed.
_PLAIN_DETAIL = ("option", "hidden_opponent", "hidden_request", "attacker", "target", "weapon")
#: Detail keys that are the GM's own (numbers kept for him, the undo record's sheet values).
_GM_DETAIL = ("secret", "gm_note", "undo")


def roll_record_seen(record: Mapping[str, Any], seen: Sight) -> dict[str, Any]:
    """A roll-log record as a file writes it (the chronicle's ``rolls.csv``, ``/privacy
    export``) with what ``seen`` seals blanked: the total with its dice and expression (they
    bound a stat), the target, the outcome, the GM's numbers in the detail."""
    out = dict(record)
    detail = out.get("detail")
    detail = dict(detail) if isinstance(detail, Mapping) else {}
    if not seen.shows(Part.DETAIL):
        for key in _GM_DETAIL:
            detail.pop(key, None)
    if not seen.shows(Part.TOTAL):
        out.update(total=None, breakdown="", expression="")
        detail = {k: v for k, v in detail.items() if k in _PLAIN_DETAIL}
    if not seen.shows(Part.DIFFICULTY):
        out["difficulty"] = None
    if not seen.shows(Part.OUTCOME):
        out.update(outcome=None, fumble=None)
    out["detail"] = detail
    return out


def roll_log(
    place: Place,
    actor: Actor,
    campaign_id: int | None,
    character_name: str | None,
    entry: AuditEntry,
) -> RollLog:
    return RollLog(**roll_log_values(place, actor, campaign_id, character_name, entry))


async def write_audit(
    session: AsyncSession,
    place: Place,
    actor: Actor,
    campaign_id: int | None,
    character_name: str | None,
    entry: AuditEntry,
) -> int:
    """The one way to write an audit-log row with the change it records: in the caller's
    transaction (both happen or neither does); its id.  A row that records no change (a
    plain ``/roll``) goes through the same :func:`roll_log_values` to the batch writer
    (``bot/services/play/rolls.py``, ``bot/db/roll_log_writes.py``)."""
    row = roll_log(place, actor, campaign_id, character_name, entry)
    session.add(row)
    await session.flush()
    return saved_id(row)


def _flatten(value: Any, prefix: str, out: dict[str, Any]) -> None:
    """Dicts are walked to their leaves; lists and scalars are leaves (an inventory list or
    an effect list is one value: its order and length are part of what changed)."""
    if isinstance(value, Mapping) and value:
        for key, item in value.items():
            _flatten(item, f"{prefix}.{key}" if prefix else str(key), out)
    else:
        out[prefix] = value


def sheet_diff(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[list[Any]]:
    """``[path, before, after]`` for every leaf a change touched (``ABSENT`` where missing).

    Recorded with every audited write so the change can be undone later without keeping the
    whole sheet: the undo puts ``before`` back on exactly these paths.
    """
    old: dict[str, Any] = {}
    new: dict[str, Any] = {}
    _flatten(before, "", old)
    _flatten(after, "", new)
    changes = [
        [path, old.get(path, ABSENT), new.get(path, ABSENT)]
        for path in sorted(old.keys() | new.keys())
        if old.get(path, ABSENT) != new.get(path, ABSENT)
    ]
    # an empty dict that gained leaves (``efectos: {}`` after an undone effect, then a new
    # one) is not a change of its own: its leaves say it all, and recording ``{} → absent``
    # would make the undo see the now non-empty dict as a later conflicting write
    paths = [path for path, _before, _after in changes]
    return [
        change
        for change in changes
        if not (_empty_or_absent(change[1], change[2]) and _has_children(change[0], paths))
    ]


def _empty_or_absent(before: Any, after: Any) -> bool:
    pair = (before, after)
    return any(isinstance(v, Mapping) and not v for v in pair) and ABSENT in pair


def _has_children(path: str, paths: list[str]) -> bool:
    return any(other.startswith(f"{path}.") for other in paths)


def _get(sheet: Mapping[str, Any], path: str) -> Any:
    node: Any = sheet
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return ABSENT
        node = node[part]
    # an empty dict flattens to itself, so it compares as a leaf
    return node


def diff_conflicts(sheet: Mapping[str, Any], diff: list[list[Any]]) -> list[str]:
    """The touched paths whose value is no longer what the change left there.

    The undo rule: a change can be undone only while every path it touched still holds the
    value it wrote; a later write that changed one of them depends on it (a heal after the
    damage, an effect added after another), and undoing would silently lose that write.
    Later writes to *other* paths do not block it.
    """
    return [path for path, _before, after in diff if _get(sheet, path) != after]


def apply_diff(sheet: Mapping[str, Any], diff: list[list[Any]]) -> dict[str, Any]:
    """``sheet`` with every touched path put back to its ``before`` value (removed if absent)."""
    result = copy.deepcopy(dict(sheet))
    for path, before, _after in diff:
        parts = path.split(".")
        node = result
        for part in parts[:-1]:
            child = node.get(part)
            if not isinstance(child, dict):
                if before == ABSENT:
                    break
                child = {}
                node[part] = child
            node = child
        else:
            if before == ABSENT:
                node.pop(parts[-1], None)
            else:
                node[parts[-1]] = copy.deepcopy(before)
    return result


def undo_record(row: RollLog) -> UndoRecord | None:
    """The row's undo record, or ``None`` when it changed no sheet or may not be undone."""
    return audit_detail(row).undo if row.kind in UNDOABLE else None

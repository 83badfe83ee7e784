"""The audit log's ``detail`` at its edges (bot/services/shared/audit.py): the keys other code
reads back are typed (pydantic) and checked on every write; free keys stay free."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.db.models import RollLog
from bot.services import Actor, Place
from bot.services.shared.audit import AuditEntry, UndoRecord, roll_log_values, undo_record

HERE, ANA = Place(1000, 11, (11,)), Actor(2, "Ana")
UNDO = {"character_id": 5, "version": 3, "changes": [["pg", 10, 7]], "xp": None}


def _entry(detail) -> AuditEntry:
    return AuditEntry(kind="damage", expression="1d6", breakdown="3", total=3, detail=detail)


def test_a_well_formed_detail_is_stored_as_given():
    detail = {"undo": UNDO, "attacker": "Ardelia", "secret": {"pg": 7}}
    assert roll_log_values(HERE, ANA, 1, "Ardelia", _entry(detail))["detail"] == detail


@pytest.mark.parametrize(
    "detail",
    [
        {"undo": {"character_id": 5}},  # no version: it could never be undone
        {"undo": {**UNDO, "changes": [["pg", 10]]}},  # a change is [path, before, after]
        {"undo": {**UNDO, "typo": 1}},
        {"hit_die": "12"},
        {"undoes": [41]},
    ],
)
def test_a_malformed_record_is_refused_before_it_is_written(detail):
    with pytest.raises(ValidationError):
        roll_log_values(HERE, ANA, 1, "Ardelia", _entry(detail))


def test_the_undo_record_reads_back_typed():
    row = RollLog(kind="damage", detail={"undo": {**UNDO, "undone_by": 44}})
    assert undo_record(row) == UndoRecord(
        character_id=5, version=3, changes=[("pg", 10, 7)], undone_by=44
    )
    assert undo_record(RollLog(kind="roll", detail={"undo": UNDO})) is None  # not undoable
    assert undo_record(RollLog(kind="damage", detail={"undo": "?"})) is None  # unreadable
    assert undo_record(RollLog(kind="damage", detail={"undo": {**UNDO, "undone_by": True}}))

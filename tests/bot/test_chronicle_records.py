"""The chronicle's records read strictly (bot/services/chronicle/records.py): every wrong field
is listed with its file, record and name; nothing is converted but a CSV cell's text."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.services.chronicle.archive import ArchiveProblems
from bot.services.chronicle.records import PostRecord, RollRecord, read_record

ROLL = {
    "line": 2,
    "ref": "7",
    "scene": "",
    "created_at": "2026-12-01T17:05:00+01:00",
    "user_id": "2",
    "user_name": "",
    "character_name": "Ardelia",
    "kind": "roll",
    "expression": "1d20",
    "reason": "",
    "breakdown": "[14]",
    "total": "14",
    "difficulty": "",
    "outcome": "",
    "fumble": "false",
    "private": "true",
    "detail": '{"hidden_request": "nothing"}',
}
POST = {
    "ref": 1,
    "author_user_id": 2,
    "speaker_name": "Ardelia",
    "gm_post": False,
    "gm_only": False,
    "text": "Entro.",
    "created_at": "2026-12-01T16:05:00+00:00",
}


def _wrong(problems: ArchiveProblems) -> list[str]:
    return [params["field"] for key, params in problems.problems if key.endswith("bad_value")]


def test_a_csv_row_is_converted_exactly():
    problems = ArchiveProblems()
    roll = read_record(RollRecord, ROLL, problems, "gm/rolls.csv", 2)
    assert not problems and roll is not None
    assert (roll.ref, roll.scene, roll.total, roll.difficulty, roll.private) == (
        7,
        None,
        14,
        None,
        True,
    )
    assert roll.created_at == datetime(2026, 12, 1, 16, 5, tzinfo=UTC)
    assert roll.detail == {"hidden_request": "nothing"}


def test_every_wrong_field_is_listed_in_order():
    problems = ArchiveProblems()
    bad = {**ROLL, "ref": "7.0", "total": str(2**31), "fumble": "yes", "detail": "[1]", "kind": ""}
    assert read_record(RollRecord, bad, problems, "gm/rolls.csv", 2) is None
    assert _wrong(problems) == ["ref", "kind", "total", "fumble", "detail"]
    assert {params["line"] for _key, params in problems.problems} == {"2"}


def test_a_json_row_is_never_converted():
    problems = ArchiveProblems()
    bad = {**POST, "author_user_id": "2", "gm_post": 0, "text": 12, "edited_at": "ayer"}
    assert read_record(PostRecord, bad, problems, "gm/posts.jsonl", 1) is None
    assert _wrong(problems) == ["author_user_id", "gm_post", "text", "edited_at"]
    assert read_record(PostRecord, POST, ArchiveProblems(), "gm/posts.jsonl", 1) is not None

"""The chronicle's records, typed with pydantic: what each row of ``gm/*.json``, ``gm/*.jsonl``
and ``gm/*.csv`` must hold before anything is written.

Strict, as the commands read typed values: a JSON row's ``"12"`` is no integer and ``1`` no
boolean.  A CSV cell is text, converted here exactly (``"12"`` is an integer, ``"12.0"`` is
not; ``true``/``false``; an empty cell is an absent value; ``detail`` is a JSON object).
Every wrong field of a record is listed (:func:`read_record`), as
``chronicle.problem.bad_value`` with the file, the record (its export number, or a CSV line)
and the field, in the order of the record's fields.  References to other records (a post's
scene, a roll's scene…) are checked by :mod:`bot.services.chronicle.check`, which knows the
archive's export numbers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import datetime
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from bot.db.types import as_utc
from bot.services.chronicle.archive import MAX_POST_IMAGES, MAX_SCENES, ArchiveProblems
from bot.services.sheets.access import MAX_NAME
from bot.services.sheets.profiles import MAX_CONCEPT, MAX_DESCRIPTION
from rules.values import MAX_STORED

__all__ = [
    "INT32",
    "MAX_BREAKDOWN",
    "MAX_HISTORY",
    "MAX_POST_TEXT",
    "CharacterRecord",
    "PictureRecord",
    "PostRecord",
    "RollRecord",
    "SceneRecord",
    "XpRecord",
    "read_record",
]

INT32 = MAX_STORED + 1  # the one range of a stored number (rules.values): |n| < INT32
INT64 = 2**63
MAX_POST_TEXT = 64 * 1024  # more than any Discord message; a post is split into several
MAX_BREAKDOWN = 10_000
MAX_HISTORY = 100_000  # a profile's history, a referee's note (an Umbría character's)


def _moment(value: Any) -> Any:
    """An ISO 8601 text as an aware UTC moment (anything else fails the field)."""
    if isinstance(value, str):
        try:
            return as_utc(datetime.fromisoformat(value))
        except ValueError:
            return value
    return value


def _cell(value: Any) -> Any:
    """An empty CSV cell is an absent value."""
    return None if value == "" else value


def _csv_int(value: Any) -> Any:
    if isinstance(value, str) and re.fullmatch(r"-?\d{1,19}", value):
        return int(value)
    return _cell(value)


def _csv_bool(value: Any) -> Any:
    return {"true": True, "false": False}.get(value, value) if isinstance(value, str) else value


def _csv_json(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value) if value else {}
        except (ValueError, RecursionError):
            return value
    return value


Moment = Annotated[datetime, BeforeValidator(_moment)]
Ref = Annotated[int, Field(ge=1, lt=INT64)]  # an export number
UserId = Annotated[int, Field(ge=0, lt=INT64)]
Count = Annotated[int, Field(ge=-MAX_STORED, le=MAX_STORED)]


Text10 = Annotated[str, Field(max_length=10)]
Text20 = Annotated[str, Field(max_length=20)]
Text80 = Annotated[str, Field(max_length=80)]
Text100 = Annotated[str, Field(max_length=100)]
Text200 = Annotated[str, Field(max_length=200)]
Text250 = Annotated[str, Field(max_length=250)]
Text60 = Annotated[str, Field(max_length=60)]
PostText = Annotated[str, Field(max_length=MAX_POST_TEXT)]
History = Annotated[str, Field(max_length=MAX_HISTORY)]
Breakdown = Annotated[str, Field(max_length=MAX_BREAKDOWN)]


class _Record(BaseModel):
    model_config = ConfigDict(strict=True, frozen=True, extra="ignore")


class UmbriaPlayer(_Record):
    """``umbria_player`` of a character or a post (issue 27): the Umbría number and name of
    who played or wrote it, and the member who claimed them."""

    id: Annotated[str, Field(min_length=1, max_length=40)]
    name: Annotated[str, Field(min_length=1, max_length=100)]
    claimed_by: int | None = None


class CharacterRecord(_Record):
    """A character of ``gm/characters.json`` (its sheet is the file it names)."""

    ref: Ref
    file: Text200
    name: Annotated[str, Field(max_length=MAX_NAME)]
    owner_user_id: UserId
    npc: bool
    hidden: bool
    approval: Text10 | None = None
    template: Ref | None = None
    created_at: Moment
    updated_at: Moment
    deleted_at: Moment | None = None
    deleted_by: UserId | None = None
    active_for: list[UserId] = []
    concept: Annotated[str, Field(max_length=MAX_CONCEPT)] | None = None
    description: Annotated[str, Field(max_length=MAX_DESCRIPTION)] | None = None
    history: History | None = None
    gm_note: History | None = None
    umbria_player: UmbriaPlayer | None = None


class SceneRecord(_Record):
    """A scene of ``gm/scenes.json``."""

    ref: Annotated[Ref, Field(le=MAX_SCENES)]
    title: Text100
    private: bool
    players: list[UserId] = []
    opened_by: UserId
    created_at: Moment
    closed_at: Moment | None = None
    round_started_at: Moment | None = None
    opening_text: PostText | None = None
    status: Literal["open", "closed"]


class Audience(_Record):
    """Who may see a record (issue 22 §1), as archive version 2 writes it; absent in version
    1 archives (the check works it out from the record's flags).  What the values mean is
    :class:`bot.services.shared.audience.Secrecy`'s, checked by the chronicle's check."""

    audience: Text10 | None = None
    audience_user_id: UserId | None = None
    secrets: dict[str, Any] = {}


class PictureRecord(_Record):
    """A picture an (Umbría) post shows: its name and the archive's image file (issue 27)."""

    name: Annotated[str, Field(min_length=1, max_length=200)]
    file: Text200


class PostRecord(Audience):
    """A post of ``gm/posts.jsonl``."""

    ref: Ref
    scene: Ref | None = None
    author_user_id: UserId
    character: Ref | None = None
    speaker_name: Text100
    webhook_name: Text80 | None = None
    gm_post: bool
    gm_only: bool
    text: PostText
    notes: PostText | None = None
    notes_private: bool = False
    roll: Ref | None = None
    # every roll of the post (typed [[…]], a macro's rolls); older archives: only ``roll``
    rolls: Annotated[list[Ref], Field(max_length=50)] = []
    created_at: Moment
    edited_at: Moment | None = None
    deleted_at: Moment | None = None
    source_ref: Text60 | None = None
    umbria_player: UmbriaPlayer | None = None
    images: Annotated[list[PictureRecord], Field(max_length=MAX_POST_IMAGES)] = []


# CSV cells: converted before the field's own (strict) check
Cell = BeforeValidator(_cell)
CsvInt = BeforeValidator(_csv_int)
CsvBool = Annotated[bool, BeforeValidator(_csv_bool)]


class CsvAudience(_Record):
    """:class:`Audience` as the CSV files write it (every cell text; ``secrets`` JSON)."""

    audience: Annotated[Text10 | None, Cell] = None
    audience_user_id: Annotated[UserId | None, CsvInt] = None
    secrets: Annotated[dict[str, Any], BeforeValidator(_csv_json)] = {}


class RollRecord(CsvAudience):
    """A row of ``gm/rolls.csv`` (every cell text)."""

    ref: Annotated[Ref, CsvInt]
    scene: Annotated[Ref | None, CsvInt] = None
    created_at: Annotated[Moment, Cell]
    user_id: Annotated[UserId, CsvInt]
    user_name: Annotated[Text100 | None, Cell] = None
    character_name: Annotated[Text100 | None, Cell] = None
    kind: Annotated[Text20, Cell]
    expression: Annotated[Text250, Cell]
    reason: Annotated[Text200 | None, Cell] = None
    breakdown: Annotated[Breakdown | None, Cell] = None
    total: Annotated[Count, CsvInt]
    difficulty: Annotated[Count | None, CsvInt] = None
    outcome: Annotated[Text20 | None, Cell] = None
    fumble: CsvBool
    private: CsvBool
    detail: Annotated[dict[str, Any], BeforeValidator(_csv_json)]


class XpRecord(CsvAudience):
    """A row of ``gm/xp.csv`` (every cell text)."""

    ref: Annotated[Ref, CsvInt]
    created_at: Annotated[Moment, Cell]
    character: Annotated[Ref, CsvInt]
    character_name: Annotated[Text100, Cell]
    granted_by: Annotated[UserId, CsvInt]
    amount: Annotated[Count, CsvInt]
    xp_before: Annotated[Count, CsvInt]
    xp_after: Annotated[Count, CsvInt]
    reason: Annotated[Text200 | None, Cell] = None


R = TypeVar("R", bound=_Record)


def read_record(
    model: type[R], row: Mapping[str, Any], problems: ArchiveProblems, path: str, line: Any
) -> R | None:
    """``row`` as a ``model``, or None with each wrong field listed in ``problems``."""
    try:
        return model.model_validate(dict(row))
    except ValidationError as invalid:
        wrong = {str(error["loc"][0]) for error in invalid.errors() if error["loc"]}
        for field in model.model_fields:
            if field in wrong:
                bad_value(problems, path, line, field)
        return None


def bad_value(problems: ArchiveProblems, path: str, line: Any, field: str) -> None:
    problems.add("chronicle.problem.bad_value", path=path, line=str(line)[:12], field=field)
